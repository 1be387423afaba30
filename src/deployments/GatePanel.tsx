// The business gate of a deployment (docs/deployments.md "The business gate"): its rules, then both
// sides at its last check (machines already updated against comparable ones not updated yet): items,
// reject rate and sessions per machine-hour, the difference against each rule's limit, or "not enough
// data" until each side has the items it needs.
import { useTranslate } from 'ra-core';
import { Alert, Box, Table, TableBody, TableCell, TableHead, TableRow, Typography } from '@mui/material';
import { DEPLOYMENT_LIMITS } from '../../resources/deployment';
import { figure } from './pauseReason';
import type { GateConfig, GateResult } from './types';

const HEAD_SX = { fontWeight: 600, whiteSpace: 'nowrap' } as const;

export interface GatePanelProps {
  gate: GateConfig | null;
  result: GateResult | null;
  checkedTime: string | null;
  /** The rule that paused the deployment, shown in red. */
  firedRule?: string | null;
}

export const GatePanel = ({ gate, result, checkedTime, firedRule }: GatePanelProps) => {
  const translate = useTranslate();
  if (!gate) return <Typography color="text.secondary">{translate('deployments.gate.off')}</Typography>;
  const red = (rule: string) => (firedRule === rule || result?.rule === rule ? { color: 'error.main' } : {});
  const known = (value: number | null | undefined): value is number => value !== null && value !== undefined;
  const rate = (value: number | null | undefined) => (known(value) ? `${figure(value)} %` : '–');
  const perHour = (value: number | null | undefined) => (known(value) ? figure(value) : '–');
  return (
    <Box data-testid="gate-panel" data-verdict={result?.verdict ?? 'none'}>
      <Typography variant="body2" sx={{ mb: 1 }}>
        {translate('deployments.gate.rules', { window: gate.windowMinutes, rejectRate: gate.maxRejectRateIncrease, sessions: gate.maxSessionsDrop })}
      </Typography>
      {!result ? (
        <Typography color="text.secondary">{translate('deployments.gate.notChecked')}</Typography>
      ) : (
        <>
          {result.verdict === 'notEnoughData' ? (
            <Alert severity="info" sx={{ mb: 1 }} data-testid="gate-not-enough">
              {translate('deployments.gate.notEnoughData', { items: DEPLOYMENT_LIMITS.gateMinItems })}
            </Alert>
          ) : null}
          <Table size="small" aria-label={translate('deployments.gate.title')} sx={{ '& .MuiTableCell-sizeSmall': { px: 1.25 } }}>
            <TableHead>
              <TableRow>
                <TableCell sx={HEAD_SX}>{translate('deployments.gate.side')}</TableCell>
                <TableCell sx={HEAD_SX} align="right">
                  {translate('deployments.gate.machines')}
                </TableCell>
                <TableCell sx={HEAD_SX} align="right">
                  {translate('deployments.gate.items')}
                </TableCell>
                <TableCell sx={{ ...HEAD_SX, ...red('rejectRate') }} align="right">
                  {translate('deployments.gate.rejectRate')}
                </TableCell>
                <TableCell sx={{ ...HEAD_SX, ...red('sessions') }} align="right">
                  {translate('deployments.gate.sessionsPerHour')}
                </TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {(['updated', 'others'] as const).map((side) => (
                <TableRow key={side} data-side={side}>
                  <TableCell component="th" scope="row">
                    {translate(`deployments.gate.${side}`)}
                  </TableCell>
                  <TableCell align="right">{result[side]?.machines ?? 0}</TableCell>
                  <TableCell align="right">{result[side]?.items ?? 0}</TableCell>
                  <TableCell align="right">{rate(result[side]?.rejectRate)}</TableCell>
                  <TableCell align="right">{perHour(result[side]?.sessionsPerMachineHour)}</TableCell>
                </TableRow>
              ))}
              <TableRow data-side="difference">
                <TableCell component="th" scope="row">
                  {translate('deployments.gate.difference')}
                </TableCell>
                <TableCell />
                <TableCell />
                <TableCell align="right" sx={red('rejectRate')}>
                  {known(result.rejectRateIncrease)
                    ? translate('deployments.gate.increaseOf', { value: figure(result.rejectRateIncrease), limit: gate.maxRejectRateIncrease })
                    : '–'}
                </TableCell>
                <TableCell align="right" sx={red('sessions')}>
                  {/* a negative drop is a gain: said as "more", never as "-229 % fewer" */}
                  {known(result.sessionsDrop)
                    ? translate(result.sessionsDrop < 0 ? 'deployments.gate.gainOf' : 'deployments.gate.dropOf', {
                        value: figure(Math.abs(result.sessionsDrop)),
                        limit: gate.maxSessionsDrop,
                      })
                    : '–'}
                </TableCell>
              </TableRow>
            </TableBody>
          </Table>
          <Typography variant="caption" color="text.secondary" component="p" sx={{ mt: 1 }}>
            {translate('deployments.gate.window', { from: result.windowFrom, to: result.windowTo, checked: checkedTime ?? '' })}
          </Typography>
        </>
      )}
    </Box>
  );
};
