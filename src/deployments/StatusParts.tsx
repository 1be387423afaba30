// Small parts every deployment screen shares: status chips (docs/product-rules.md#statuses names in the user's language, colours
// from types.ts) and a deployment's progress bar (applied and failed shares of its targets).
import { useTranslate } from 'ra-core';
import { Box, Chip, LinearProgress, Typography } from '@mui/material';
import { deploymentStatusColor, targetStatusColor } from './types';

export const TargetStatusChip = ({ status }: { status: string }) => {
  const translate = useTranslate();
  return <Chip size="small" label={translate(`deployments.targetStatuses.${status}`, { _: status })} color={targetStatusColor(status)} data-status={status} />;
};

export const DeploymentStatusChip = ({ status }: { status: string }) => {
  const translate = useTranslate();
  return <Chip size="small" label={translate(`resources.deployment.enums.status.${status}`, { _: status })} color={deploymentStatusColor(status)} data-status={status} />;
};

const percent = (part: number, whole: number) => (whole > 0 ? Math.round((part / whole) * 100) : 0);

/** Applied and failed targets as a bar (failed drawn after applied), with "applied n of total · failed m" in words. */
export const DeploymentProgress = ({ applied, failed, total, width = 180 }: { applied: number; failed: number; total: number; width?: number | string }) => {
  const translate = useTranslate();
  const text = translate('deployments.progress.summary', { applied, total, failed });
  return (
    <Box sx={{ width, minWidth: 120 }} data-testid="deployment-progress" data-applied={applied} data-failed={failed} data-total={total}>
      <LinearProgress
        variant="buffer"
        value={percent(applied, total)}
        valueBuffer={percent(applied + failed, total)}
        color="success"
        // the buffer variant's track is its dashed line: a plain grey track instead, the failed part red
        sx={{ height: 8, borderRadius: 1, bgcolor: 'grey.300', '& .MuiLinearProgress-dashed': { display: 'none' }, '& .MuiLinearProgress-bar2': { bgcolor: 'error.main' } }}
        aria-label={text}
      />
      <Typography variant="caption" color="text.secondary" sx={{ whiteSpace: 'nowrap' }}>
        {text}
      </Typography>
    </Box>
  );
};
