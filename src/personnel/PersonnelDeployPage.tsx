// Service › personnalDeploy (docs/service-personnel.md#packages): the personnel and ban list packages, newest
// first, each with its latest deployment (status, machines applied) and the ways on: deploy it (the
// new-deployment form with the package) or its deployments (the deployments list filtered to it). Read again
// every few seconds while a deployment moves.
import { useTranslate } from 'ra-core';
import { Link as RouterLink } from 'react-router-dom';
import { Box, Button, Link, Table, TableBody, TableCell, TableHead, TableRow, Typography } from '@mui/material';
import { deploymentPath, DEPLOYMENTS_ROUTE, newDeploymentPath } from '../deployments/paths';
import { DeploymentProgress, DeploymentStatusChip } from '../deployments/StatusParts';
import { LoadState } from '../kit/LoadState';
import { useApiQuery } from '../kit/useApiQuery';
import type { ScreenProps } from '../pages/screenProps';
import { ScreenHeading } from '../pages/ScreenHeading';
import type { PersonnelDeployRow } from './types';

const REFRESH_MS = 5_000;
const CREATE_PACKAGE_ROUTE = '/service/createServicePersonnelPackage';

const deploymentsOf = (packageId: number) => `${DEPLOYMENTS_ROUTE}?${new URLSearchParams({ filter: JSON.stringify({ packageId }) }).toString()}`;

const PersonnelDeployPage = ({ node }: ScreenProps) => {
  const translate = useTranslate();
  const loaded = useApiQuery(['personnelDeploy'], (http, signal) => http.get<PersonnelDeployRow[]>('/personnel-deploy', undefined, { signal, silent: true }), {
    refreshEveryMs: REFRESH_MS,
  });
  const rows = loaded.data ?? [];
  return (
    <Box data-testid="personnel-deploy">
      <ScreenHeading node={node} />
      <Box sx={{ display: 'flex', alignItems: 'flex-start', justifyContent: 'space-between', gap: 2, mb: 2 }}>
        <Typography color="text.secondary">{translate('personnel.deploy.intro')}</Typography>
        <Button component={RouterLink} to={CREATE_PACKAGE_ROUTE} variant="outlined" sx={{ flexShrink: 0 }}>
          {translate('personnel.deploy.newPersonnel')}
        </Button>
      </Box>
      <LoadState
        isPending={loaded.isPending}
        error={loaded.error}
        onRetry={loaded.reload}
        hasData={rows.length > 0}
        empty={
          <Typography color="text.secondary" sx={{ p: 2 }} data-testid="empty">
            {translate('personnel.deploy.empty')}
          </Typography>
        }
      >
        <Table size="small" aria-label={translate('personnel.deploy.title')}>
          <TableHead>
            <TableRow>
              <TableCell>{translate('personnel.deploy.kind')}</TableCell>
              <TableCell>{translate('resources.deploymentPackage.fields.resourceType')}</TableCell>
              <TableCell>{translate('resources.deploymentPackage.fields.adaptedModels')}</TableCell>
              <TableCell>{translate('resources.deploymentPackage.fields.createTime')}</TableCell>
              <TableCell>{translate('personnel.deploy.latest')}</TableCell>
              <TableCell />
            </TableRow>
          </TableHead>
          <TableBody>
            {rows.map((row) => (
              <TableRow key={row.id} data-testid="personnel-package-row" data-type={row.resourceType}>
                <TableCell>
                  {row.name}
                  <Typography variant="caption" color="text.secondary" component="div">
                    {translate('resources.deploymentPackage.fields.version')} {row.version}
                  </Typography>
                </TableCell>
                <TableCell>{translate(`resources.deploymentPackage.enums.resourceType.${row.resourceType}`, { _: row.resourceType })}</TableCell>
                <TableCell>{row.adaptedModels}</TableCell>
                <TableCell sx={{ whiteSpace: 'nowrap' }}>{row.createTime}</TableCell>
                <TableCell>
                  {row.latestDeployment ? (
                    <Box sx={{ display: 'flex', alignItems: 'center', gap: 1 }}>
                      <Link component={RouterLink} to={deploymentPath(row.latestDeployment.id)}>
                        #{row.latestDeployment.id}
                      </Link>
                      <DeploymentStatusChip status={row.latestDeployment.status} />
                      <DeploymentProgress applied={row.latestDeployment.applied} failed={0} total={row.latestDeployment.total} width={110} />
                    </Box>
                  ) : (
                    <Typography variant="body2" color="text.secondary">
                      {translate('personnel.deploy.none')}
                    </Typography>
                  )}
                </TableCell>
                <TableCell sx={{ whiteSpace: 'nowrap' }}>
                  <Button
                    size="small"
                    component={RouterLink}
                    to={newDeploymentPath({ packageId: row.id, models: row.adaptedModels.split(',').filter(Boolean) })}
                    data-testid="deploy-package"
                  >
                    {translate('personnel.deploy.deploy')}
                  </Button>
                  {row.latestDeployment ? (
                    <Button size="small" component={RouterLink} to={deploymentsOf(row.id)}>
                      {translate('personnel.deploy.deployments')}
                    </Button>
                  ) : null}
                </TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </LoadState>
    </Box>
  );
};

export default PersonnelDeployPage;
