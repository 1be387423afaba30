// What a new deployment would reach, asked again as the package and targets change (POST
// /deployment/preview): how many machines, some of them, and every machine left out with why, in words.
import { useEffect, useState } from 'react';
import { useTranslate } from 'ra-core';
import { Link as RouterLink } from 'react-router-dom';
import { Alert, Box, Button, Chip, CircularProgress, Link, Table, TableBody, TableCell, TableHead, TableRow, Typography } from '@mui/material';
import { machinePagePath } from '../pages/machinePaths';
import { ApiError } from '../providers/httpTypes';
import { hasTargets } from './deploymentForm';
import { useLiveQuery } from './useLiveQuery';
import { DEPLOYMENT_API, EXCLUSION_REASONS, type DeploymentTargets, type ExcludedMachine, type PreviewAnswer } from './types';

/** Machines named at first; the rest behind "show all". */
const SHOWN = 12;
const TYPING_PAUSE_MS = 400;

/** `value` once it has not changed for `delayMs` (no request per key stroke). */
const useSettled = <T,>(value: T, delayMs: number): T => {
  const [settled, setSettled] = useState(value);
  const key = JSON.stringify(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(JSON.parse(key) as T), delayMs);
    return () => clearTimeout(timer);
  }, [key, delayMs]);
  return settled;
};

const ExcludedTable = ({ machines }: { machines: readonly ExcludedMachine[] }) => {
  const translate = useTranslate();
  const [all, setAll] = useState(false);
  const shown = all ? machines : machines.slice(0, SHOWN);
  return (
    <>
      <Table size="small" aria-label={translate('deployments.preview.excludedTable')} sx={{ '& .MuiTableCell-sizeSmall': { px: 1 } }}>
        <TableHead>
          <TableRow>
            <TableCell sx={{ fontWeight: 600 }}>{translate('deployments.preview.machine')}</TableCell>
            <TableCell sx={{ fontWeight: 600 }}>{translate('deployments.preview.model')}</TableCell>
            <TableCell sx={{ fontWeight: 600 }}>{translate('deployments.preview.reason')}</TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {shown.map((machine) => (
            <TableRow key={machine.id} data-reason={machine.reason}>
              <TableCell>
                <Link component={RouterLink} to={machinePagePath(machine.id)}>
                  {machine.termNo}
                </Link>
              </TableCell>
              <TableCell>{machine.termType}</TableCell>
              <TableCell>{translate(`deployments.exclusions.${machine.reason}`, { _: machine.reason })}</TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
      {machines.length > SHOWN ? (
        <Button size="small" onClick={() => setAll(!all)}>
          {translate(all ? 'deployments.preview.showFewer' : 'deployments.preview.showAll', { count: machines.length })}
        </Button>
      ) : null}
    </>
  );
};

const PreviewResult = ({ answer }: { answer: PreviewAnswer }) => {
  const translate = useTranslate();
  const byReason = EXCLUSION_REASONS.map((reason) => ({ reason, count: answer.excludedCounts?.[reason] ?? 0 })).filter((entry) => entry.count > 0);
  const excludedTotal = byReason.reduce((sum, entry) => sum + entry.count, 0);
  const named = answer.machines.slice(0, SHOWN);
  return (
    <Box data-testid="preview-result" data-total={answer.targeted} data-excluded={excludedTotal}>
      <Typography variant="h6" component="p" sx={{ mb: 1 }}>
        {translate('deployments.preview.total', { smart_count: answer.targeted, selected: answer.selected })}
      </Typography>
      {answer.targeted === 0 ? (
        <Alert severity="warning" sx={{ mb: 1 }}>
          {translate('deployments.preview.none')}
        </Alert>
      ) : (
        <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 0.5, mb: 1 }}>
          {named.map((machine) => (
            <Chip key={machine.id} size="small" variant="outlined" label={machine.termNo} />
          ))}
          {answer.targeted > named.length ? (
            <Typography variant="body2" color="text.secondary" sx={{ alignSelf: 'center' }}>
              {translate('deployments.preview.andMore', { count: answer.targeted - named.length })}
            </Typography>
          ) : null}
        </Box>
      )}
      {answer.waves?.length ? (
        <Typography variant="body2" sx={{ mb: 1 }} data-testid="preview-waves">
          {translate('deployments.preview.waves', { smart_count: answer.waves.length, sizes: answer.waves.join(', ') })}
        </Typography>
      ) : null}
      {byReason.length ? (
        <>
          <Typography variant="subtitle2" component="h3" sx={{ mt: 2 }}>
            {translate('deployments.preview.excluded', { smart_count: excludedTotal })}
          </Typography>
          <Box component="ul" sx={{ mt: 0.5, mb: 1, pl: 3 }} data-testid="preview-reasons">
            {byReason.map(({ reason, count }) => (
              <Typography component="li" variant="body2" key={reason} data-reason={reason} data-count={count}>
                {translate(`deployments.preview.reasons.${reason}`, { smart_count: count })}
              </Typography>
            ))}
          </Box>
          <ExcludedTable machines={answer.excluded ?? []} />
        </>
      ) : null}
    </Box>
  );
};

export interface PreviewPanelProps {
  packageId: number | null;
  targets: DeploymentTargets;
  /** The waves as the form holds them, when they are valid (the answer then says the machines per wave). */
  plan: { waves: number[] } | { waveSizes: number[] } | Record<string, never>;
}

export const PreviewPanel = ({ packageId, targets, plan }: PreviewPanelProps) => {
  const translate = useTranslate();
  const request = useSettled({ packageId, targets, ...plan }, TYPING_PAUSE_MS);
  const ready = request.packageId !== null && hasTargets(request.targets);
  const preview = useLiveQuery(['preview', request], ready ? (http, signal) => http.post<PreviewAnswer>(`${DEPLOYMENT_API}/preview`, request, { signal, silent: true }) : null);

  let content;
  if (request.packageId === null) content = <Typography color="text.secondary">{translate('deployments.preview.choosePackage')}</Typography>;
  else if (!hasTargets(request.targets)) content = <Typography color="text.secondary">{translate('deployments.preview.chooseTargets')}</Typography>;
  else if (preview.error) {
    content = (
      <Alert severity="error" data-testid="preview-error">
        {preview.error instanceof ApiError ? preview.error.message : translate('errors.network')}
      </Alert>
    );
  } else if (!preview.data) content = <CircularProgress size={24} aria-label={translate('deployments.preview.loading')} />;
  else content = <PreviewResult answer={preview.data} />;

  return (
    <Box aria-live="polite" aria-busy={preview.isPending} data-testid="deployment-preview">
      {content}
    </Box>
  );
};
