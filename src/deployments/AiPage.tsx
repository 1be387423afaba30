// Service › AI, /service/ai (docs/deployments.md "Versions"): per machine model, its AI model packages
// (newest first) with how many of its machines run each (the last AI package they applied) and how many
// run none yet; each count lists those machines (each linking to its machine page and to the deployment
// that installed its package), and "Deploy" opens the new-deployment form with that package and model.
import { useState } from 'react';
import { useCanAccess, useTranslate } from 'ra-core';
import { Link as RouterLink } from 'react-router-dom';
import { Box, Button, IconButton, LinearProgress, Link, Table, TableBody, TableCell, TableHead, TableRow, Tooltip, Typography } from '@mui/material';
import RocketLaunchIcon from '@mui/icons-material/RocketLaunch';
import { machineListUrl } from '../dashboard/machineList';
import { TitledCard } from '../layout/TitledCard';
import { visuallyHidden } from '../layout/visuallyHidden';
import type { ScreenProps } from '../pages/screenProps';
import { identifierRequest } from '../permissions/canAccess';
import { ModelCardsPage } from './ModelCardsPage';
import { newDeploymentPath } from './paths';
import { DEPLOYMENT_PERMISSIONS } from './types';
import { AiMachines } from './VersionMachines';
import { VERSIONS_API, type ModelAi } from './versionTypes';

const HEAD_SX = { fontWeight: 600, whiteSpace: 'nowrap' } as const;

/** Which machines the card lists: those running a package (its id), running none, or no list. */
type Listed = number | 'none' | null;

const ModelCard = ({ model }: { model: ModelAi }) => {
  const translate = useTranslate();
  const mayAdd = useCanAccess(identifierRequest(DEPLOYMENT_PERMISSIONS.add)).canAccess === true;
  const [listed, setListed] = useState<Listed>(null);
  const running = model.packages.reduce((sum, pkg) => sum + pkg.machines, 0);
  const none = Math.max(0, model.machines - running);
  const share = (machines: number) => (model.machines > 0 ? Math.round((machines / model.machines) * 100) : 0);
  const toggle = (next: Exclude<Listed, null>) => setListed(listed === next ? null : next);
  const listedPackage = typeof listed === 'number' ? model.packages.find((pkg) => pkg.id === listed) : undefined;
  return (
    <TitledCard title={translate('deployments.upgrade.modelTitle', { model: model.model, smart_count: model.machines })} testId={`ai-model-${model.model}`}>
      {model.packages.length === 0 ? (
        <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
          {translate('deployments.ai.noPackages')}
        </Typography>
      ) : (
        <Box sx={{ overflowX: 'auto', mb: 1 }}>
          <Table size="small" aria-label={translate('deployments.ai.packagesTable', { model: model.model })} sx={{ '& .MuiTableCell-sizeSmall': { px: 1.25 } }}>
            <TableHead>
              <TableRow>
                <TableCell sx={HEAD_SX}>{translate('deployments.ai.package')}</TableCell>
                <TableCell sx={HEAD_SX}>{translate('deployments.ai.version')}</TableCell>
                <TableCell sx={HEAD_SX}>{translate('deployments.ai.uploaded')}</TableCell>
                <TableCell sx={HEAD_SX} align="right">
                  {translate('deployments.ai.running')}
                </TableCell>
                <TableCell>
                  <Box component="span" sx={visuallyHidden}>
                    {translate('deployments.ai.deployColumn')}
                  </Box>
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
                      <Button
                        size="small"
                        variant={listed === pkg.id ? 'contained' : 'text'}
                        disabled={pkg.machines === 0}
                        aria-pressed={listed === pkg.id}
                        aria-label={translate('deployments.ai.listRunning', { name: pkg.name, smart_count: pkg.machines })}
                        onClick={() => toggle(pkg.id)}
                        sx={{ minWidth: 40 }}
                        data-testid="ai-running-count"
                      >
                        {pkg.machines}
                      </Button>
                    </Box>
                  </TableCell>
                  <TableCell align="right">
                    {mayAdd ? (
                      <Tooltip title={translate('deployments.ai.deploy', { name: pkg.name, model: model.model })}>
                        <IconButton
                          size="small"
                          component={RouterLink}
                          to={newDeploymentPath({ packageId: pkg.id, models: [model.model] })}
                          aria-label={translate('deployments.ai.deploy', { name: pkg.name, model: model.model })}
                        >
                          <RocketLaunchIcon fontSize="small" />
                        </IconButton>
                      </Tooltip>
                    ) : null}
                  </TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </Box>
      )}
      <Button
        size="small"
        variant={listed === 'none' ? 'contained' : 'outlined'}
        disabled={none === 0}
        aria-pressed={listed === 'none'}
        onClick={() => toggle('none')}
        sx={{ textTransform: 'none', mb: 1 }}
        data-testid="ai-none"
        data-count={none}
      >
        {translate('deployments.ai.none', { smart_count: none })}
      </Button>
      {listed !== null ? (
        <AiMachines
          key={String(listed)}
          model={model.model}
          packageId={listed === 'none' ? null : listed}
          caption={
            listedPackage
              ? translate('deployments.ai.runningTable', { model: model.model, name: listedPackage.name })
              : translate('deployments.ai.noneTable', { model: model.model })
          }
        />
      ) : null}
      <Box sx={{ mt: 1 }}>
        <Link component={RouterLink} to={machineListUrl({ termType: model.model })} variant="body2">
          {translate('deployments.upgrade.allOfModel', { model: model.model })}
        </Link>
      </Box>
    </TitledCard>
  );
};

const AiPage = ({ node }: ScreenProps) => (
  <ModelCardsPage<ModelAi> node={node} api={VERSIONS_API.ai} empty="deployments.ai.empty" testId="ai-page" card={(model) => <ModelCard model={model} />} />
);

export default AiPage;
