// A deployment's deliveries counted per status (every status of docs/deployments.md, docs/product-rules.md#statuses names; a
// tile filters the machine list below) and per wave (its size, whether it started, applied against
// the success threshold, failed).
import { useTranslate } from 'ra-core';
import { Box, ButtonBase, LinearProgress, Table, TableBody, TableCell, TableHead, TableRow, Typography } from '@mui/material';
import { alpha } from '@mui/material/styles';
import { StatusChip } from '../kit/StatusChip';
import { countOf, TARGET_STATUSES, targetStatusColor, type StatusCounts, type TargetStatus, type WaveProgress } from './types';

export const StatusTiles = ({ counts, selected, onSelect }: { counts: StatusCounts; selected: string | null; onSelect: (status: TargetStatus | null) => void }) => {
  const translate = useTranslate();
  return (
    <Box
      sx={{ display: 'grid', gridTemplateColumns: 'repeat(auto-fill, minmax(104px, 1fr))', gap: 1 }}
      data-testid="status-counts"
      role="group"
      aria-label={translate('deployments.detail.countsTitle')}
    >
      {TARGET_STATUSES.map((status) => {
        const color = targetStatusColor(status);
        const active = selected === status;
        const count = counts[status] ?? 0;
        return (
          <ButtonBase
            key={status}
            onClick={() => onSelect(active ? null : status)}
            aria-pressed={active}
            data-status={status}
            data-count={count}
            sx={(theme) => {
              const main = color === 'default' ? theme.palette.grey[600] : theme.palette[color].main;
              return {
                display: 'block',
                textAlign: 'left',
                p: 1,
                borderRadius: 1,
                border: 1,
                borderColor: active ? main : 'divider',
                borderLeft: `4px solid ${main}`,
                bgcolor: active ? alpha(main, 0.08) : 'background.paper',
                '&:focus-visible': { outline: '2px solid', outlineColor: 'primary.main' },
              };
            }}
          >
            <Typography variant="h6" component="span" sx={{ display: 'block', lineHeight: 1.2 }}>
              {count}
            </Typography>
            <Typography variant="caption" color="text.secondary" component="span" sx={{ display: 'block', lineHeight: 1.3 }}>
              {translate(`deployments.targetStatuses.${status}`)}
            </Typography>
          </ButtonBase>
        );
      })}
    </Box>
  );
};

const percent = (part: number, whole: number) => (whole > 0 ? Math.round((part / whole) * 100) : 0);

export const WavesTable = ({ waves, currentWave, successThreshold }: { waves: readonly WaveProgress[]; currentWave: number; successThreshold: number }) => {
  const translate = useTranslate();
  const header = ['wave', 'size', 'state', 'applied', 'failed', 'inFlight'];
  return (
    <Box sx={{ overflowX: 'auto' }}>
      <Table size="small" aria-label={translate('deployments.detail.wavesTitle')} data-testid="waves-table" sx={{ '& .MuiTableCell-sizeSmall': { px: 1 } }}>
        <TableHead>
          <TableRow>
            {header.map((key) => (
              <TableCell key={key} sx={{ fontWeight: 600, whiteSpace: 'nowrap' }} align={key === 'wave' || key === 'state' ? 'left' : 'right'}>
                {translate(`deployments.detail.waves.${key}`)}
              </TableCell>
            ))}
          </TableRow>
        </TableHead>
        <TableBody>
          {waves.map((wave) => {
            const { applied, failed } = wave;
            const inFlight = countOf(wave.counts, ['issued', 'inProcess']);
            const state = !wave.started ? 'waiting' : wave.wave === currentWave ? 'current' : 'started';
            const share = percent(applied, wave.size);
            return (
              <TableRow key={wave.wave} data-wave={wave.wave} data-started={wave.started}>
                <TableCell>{wave.wave}</TableCell>
                <TableCell align="right">{wave.size}</TableCell>
                <TableCell>
                  <StatusChip value={state} labels="deployments.detail.waveStates" tone={state === 'waiting' ? 'offline' : state === 'current' ? 'info' : 'success'} />
                </TableCell>
                <TableCell align="right" sx={{ whiteSpace: 'nowrap' }}>
                  <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, justifyContent: 'flex-end' }}>
                    <LinearProgress
                      variant="determinate"
                      value={share}
                      color={share >= successThreshold ? 'success' : 'primary'}
                      sx={{ width: 48, height: 6, borderRadius: 1 }}
                      aria-label={translate('deployments.detail.waves.appliedShare', { wave: wave.wave, percent: share, threshold: successThreshold })}
                    />
                    <span>{translate('deployments.detail.waves.appliedOf', { applied, percent: share })}</span>
                  </Box>
                </TableCell>
                <TableCell align="right">{failed}</TableCell>
                <TableCell align="right">{inFlight}</TableCell>
              </TableRow>
            );
          })}
        </TableBody>
      </Table>
    </Box>
  );
};
