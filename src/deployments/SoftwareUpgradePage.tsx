// Service › Software upgrade, /service/softwareUpgrade (docs/deployments.md "Versions"): per machine
// model, how many machines run which software version (a bar and a table, each version linking to the
// machine list), the machines behind the newest uploaded software package of their model and those
// whose last upgrade failed (listed on demand, each linking to its machine page and deployment), and
// "Start upgrade": the new-deployment form with that package and model chosen.
import { useState } from 'react';
import { useCanAccess, useTranslate } from 'ra-core';
import { Link as RouterLink } from 'react-router-dom';
import { Box, Button, Chip, Link, Stack, Table, TableBody, TableCell, TableHead, TableRow, Typography } from '@mui/material';
import RocketLaunchIcon from '@mui/icons-material/RocketLaunch';
import { machineListUrl } from '../dashboard/machineList';
import { TitledCard } from '../layout/TitledCard';
import type { ScreenProps } from '../pages/screenProps';
import { identifierRequest } from '../permissions/canAccess';
import { newDeploymentPath } from './paths';
import { ModelCardsPage } from './ModelCardsPage';
import { VersionMachines } from './VersionMachines';
import { DEPLOYMENT_PERMISSIONS } from './types';
import { VERSIONS_API, type ModelVersions } from './versionTypes';

/** Other versions' colours in the bar (the newest is green). */
const BAR_COLORS = ['#1565c0', '#ef6c00', '#6a1b9a', '#00838f', '#ad1457', '#5d4037', '#546e7a'];
const NEWEST_COLOR = '#2e7d32';

const VersionBar = ({ model }: { model: ModelVersions }) => {
  const translate = useTranslate();
  const total = model.machines || 1;
  return (
    <Box
      sx={{ display: 'flex', height: 14, borderRadius: 1, overflow: 'hidden', bgcolor: 'grey.200', mb: 1 }}
      role="img"
      aria-label={translate('deployments.upgrade.barLabel', { model: model.model })}
    >
      {model.versions.map((entry, index) => (
        // one image for assistive technology (the table below says the same); a title for the pointer
        <Box
          key={entry.version ?? '–'}
          title={`${entry.version ?? translate('deployments.upgrade.unknownVersion')}: ${entry.machines}`}
          sx={{
            width: `${(entry.machines / total) * 100}%`,
            bgcolor: entry.version !== null && entry.version === model.newestPackage?.version ? NEWEST_COLOR : BAR_COLORS[index % BAR_COLORS.length],
          }}
        />
      ))}
    </Box>
  );
};

const VersionsTable = ({ model }: { model: ModelVersions }) => {
  const translate = useTranslate();
  return (
    <Table size="small" aria-label={translate('deployments.upgrade.versionsTable', { model: model.model })} sx={{ mb: 2, '& .MuiTableCell-sizeSmall': { px: 1.25 } }}>
      <TableHead>
        <TableRow>
          <TableCell sx={{ fontWeight: 600 }}>{translate('deployments.upgrade.version')}</TableCell>
          <TableCell sx={{ fontWeight: 600 }} align="right">
            {translate('deployments.upgrade.machines')}
          </TableCell>
          <TableCell sx={{ fontWeight: 600 }} align="right">
            {translate('deployments.upgrade.share')}
          </TableCell>
        </TableRow>
      </TableHead>
      <TableBody>
        {model.versions.map((entry) => (
          <TableRow key={entry.version ?? '–'} data-version={entry.version ?? ''} data-machines={entry.machines}>
            <TableCell>
              <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
                <span>{entry.version ?? translate('deployments.upgrade.unknownVersion')}</span>
                {entry.version !== null && entry.version === model.newestPackage?.version ? (
                  <Chip size="small" color="success" label={translate('deployments.upgrade.newestChip')} />
                ) : null}
              </Stack>
            </TableCell>
            <TableCell align="right">
              {entry.version === null ? (
                entry.machines
              ) : (
                <Link
                  component={RouterLink}
                  to={machineListUrl({ termType: model.model, softwareVersion: entry.version })}
                  aria-label={translate('deployments.upgrade.openList', { count: entry.machines, version: entry.version })}
                >
                  {entry.machines}
                </Link>
              )}
            </TableCell>
            <TableCell align="right">{model.machines ? `${Math.round((entry.machines / model.machines) * 100)} %` : '–'}</TableCell>
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
};

const ModelCard = ({ model }: { model: ModelVersions }) => {
  const translate = useTranslate();
  const mayAdd = useCanAccess(identifierRequest(DEPLOYMENT_PERMISSIONS.add)).canAccess === true;
  const [listed, setListed] = useState<'behind' | 'failed' | null>(null);
  const newest = model.newestPackage;
  return (
    <TitledCard title={translate('deployments.upgrade.modelTitle', { model: model.model, smart_count: model.machines })} testId={`model-${model.model}`}>
      <Box sx={{ display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: 1, mb: 1 }}>
        <Typography variant="body2">
          {newest ? translate('deployments.upgrade.newest', { name: newest.name, version: newest.version }) : translate('deployments.upgrade.noPackage')}
        </Typography>
        <Box sx={{ flex: 1 }} />
        {newest && mayAdd ? (
          <Button
            size="small"
            variant="contained"
            startIcon={<RocketLaunchIcon />}
            component={RouterLink}
            to={newDeploymentPath({ packageId: newest.id, models: [model.model] })}
            data-testid="start-upgrade"
          >
            {translate('deployments.upgrade.start')}
          </Button>
        ) : null}
      </Box>
      <VersionBar model={model} />
      <VersionsTable model={model} />
      <Stack direction="row" sx={{ flexWrap: 'wrap', gap: 1, mb: 1 }} role="group" aria-label={translate('deployments.upgrade.listMachines')}>
        {(
          [
            ['behind', model.behind],
            ['failed', model.lastUpgradeFailed],
          ] as const
        ).map(([kind, count]) => (
          <Button
            key={kind}
            size="small"
            variant={listed === kind ? 'contained' : 'outlined'}
            disabled={count === 0}
            aria-pressed={listed === kind}
            onClick={() => setListed(listed === kind ? null : kind)}
            sx={{ textTransform: 'none' }}
            data-testid={`${kind}-count`}
            data-count={count}
          >
            {translate(`deployments.upgrade.${kind}`, { smart_count: count })}
          </Button>
        ))}
      </Stack>
      {listed ? <VersionMachines key={listed} model={model.model} kind={listed} /> : null}
      <Box sx={{ mt: 1 }}>
        <Link component={RouterLink} to={machineListUrl({ termType: model.model })} variant="body2">
          {translate('deployments.upgrade.allOfModel', { model: model.model })}
        </Link>
      </Box>
    </TitledCard>
  );
};

const SoftwareUpgradePage = ({ node }: ScreenProps) => (
  <ModelCardsPage<ModelVersions>
    node={node}
    api={VERSIONS_API.software}
    empty="deployments.upgrade.empty"
    testId="software-upgrade"
    card={(model) => <ModelCard model={model} />}
  />
);

export default SoftwareUpgradePage;
