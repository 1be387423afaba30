// Service › AI, /service/ai (docs/deployments.md "Versions"): per machine model, its AI model packages
// (newest first) with how many of its machines run each (the last AI package they applied), and how
// many run none yet; the machines of a model are one link away on the machine list.
import { useTranslate } from 'ra-core';
import { Link as RouterLink } from 'react-router-dom';
import { Box, LinearProgress, Link, Table, TableBody, TableCell, TableHead, TableRow, Typography } from '@mui/material';
import { machineListUrl } from '../dashboard/machineList';
import { LoadState } from '../installation/common/LoadState';
import { TitledCard } from '../layout/TitledCard';
import type { ScreenProps } from '../pages/screens';
import { ScreenHeading } from '../pages/ScreenHeading';
import { useLiveQuery } from './useLiveQuery';
import { VERSIONS_API, type ModelAi } from './versionTypes';

const HEAD_SX = { fontWeight: 600, whiteSpace: 'nowrap' } as const;

const ModelCard = ({ model }: { model: ModelAi }) => {
  const translate = useTranslate();
  const running = model.packages.reduce((sum, pkg) => sum + pkg.machines, 0);
  const share = (machines: number) => (model.machines > 0 ? Math.round((machines / model.machines) * 100) : 0);
  return (
    <TitledCard title={translate('deployments.upgrade.modelTitle', { model: model.model, smart_count: model.machines })} testId={`ai-model-${model.model}`}>
      {model.packages.length === 0 ? (
        <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
          {translate('deployments.ai.noPackages')}
        </Typography>
      ) : (
        <Table size="small" aria-label={translate('deployments.ai.packagesTable', { model: model.model })} sx={{ mb: 1, '& .MuiTableCell-sizeSmall': { px: 1.25 } }}>
          <TableHead>
            <TableRow>
              <TableCell sx={HEAD_SX}>{translate('deployments.ai.package')}</TableCell>
              <TableCell sx={HEAD_SX}>{translate('deployments.ai.version')}</TableCell>
              <TableCell sx={HEAD_SX}>{translate('deployments.ai.uploaded')}</TableCell>
              <TableCell sx={HEAD_SX} align="right">
                {translate('deployments.ai.running')}
              </TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {model.packages.map((pkg) => (
              <TableRow key={pkg.id} data-package={pkg.name} data-machines={pkg.machines}>
                <TableCell>{pkg.name}</TableCell>
                <TableCell>{pkg.version}</TableCell>
                <TableCell sx={{ whiteSpace: 'nowrap' }}>{pkg.createTime ?? ''}</TableCell>
                <TableCell align="right" sx={{ minWidth: 150 }}>
                  <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, justifyContent: 'flex-end' }}>
                    <LinearProgress
                      variant="determinate"
                      value={share(pkg.machines)}
                      sx={{ width: 64, height: 6, borderRadius: 1 }}
                      aria-label={translate('deployments.ai.runningShare', { name: pkg.name, count: pkg.machines, total: model.machines })}
                    />
                    <span>{pkg.machines}</span>
                  </Box>
                </TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      )}
      <Typography variant="body2" color="text.secondary" data-testid="ai-none" data-count={Math.max(0, model.machines - running)}>
        {translate('deployments.ai.none', { smart_count: Math.max(0, model.machines - running) })}
      </Typography>
      <Box sx={{ mt: 1 }}>
        <Link component={RouterLink} to={machineListUrl({ termType: model.model })} variant="body2">
          {translate('deployments.upgrade.allOfModel', { model: model.model })}
        </Link>
      </Box>
    </TitledCard>
  );
};

const AiPage = ({ node }: ScreenProps) => {
  const translate = useTranslate();
  const loaded = useLiveQuery(['aiModels'], (http, signal) => http.get<ModelAi[]>(VERSIONS_API.ai, undefined, { signal, silent: true }));
  const models = loaded.data ?? [];
  return (
    <Box data-testid="ai-page">
      <ScreenHeading node={node} />
      <LoadState
        isPending={loaded.isPending}
        error={loaded.error}
        onRetry={loaded.reload}
        hasData={models.length > 0}
        empty={
          <Typography color="text.secondary" sx={{ p: 2 }} data-testid="empty">
            {translate('deployments.ai.empty')}
          </Typography>
        }
      >
        <Box sx={{ display: 'grid', gridTemplateColumns: { xs: '1fr', lg: 'repeat(2, minmax(0, 1fr))' }, gap: 2, alignItems: 'start' }}>
          {models.map((model) => (
            <ModelCard key={model.model} model={model} />
          ))}
        </Box>
      </LoadState>
    </Box>
  );
};

export default AiPage;
