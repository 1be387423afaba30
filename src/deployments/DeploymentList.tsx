// Service › Setup › Deployments: the deployment declaration's list (filters, saved filters, export and
// paging as every list has them) with its own columns: coloured status, package, a progress bar of
// applied and failed targets, the wave reached, who created it and when. Read again every few seconds
// while a deployment on the page still moves (the declaration's refresh otherwise).
import { useCanAccess, useTranslate } from 'ra-core';
import { Link as RouterLink } from 'react-router-dom';
import { Box, Typography } from '@mui/material';
import AddIcon from '@mui/icons-material/Add';
import InboxIcon from '@mui/icons-material/Inbox';
import { Button, ColumnsButton, DataTable, FilterButton, List, Pagination, TopToolbar, useRecordContext } from 'react-admin';
import { LIST_PAGE_SIZES } from '../../resources/types';
import { useDeclaration } from '../generic/DeclarationContext';
import { ExportButton } from '../generic/ExportButton';
import { FieldDisplay } from '../generic/FieldDisplay';
import { buildFilterInputs } from '../generic/filterInputs';
import { KeyboardRowsBody, ROW_FOCUS_SX } from '../generic/KeyboardRows';
import { fieldLabel } from '../providers/registry';
import { SavedFiltersButton } from '../generic/SavedFiltersButton';
import { identifierRequest } from '../permissions/canAccess';
import { pauseReasonText } from './pauseReason';
import { deploymentPath, newDeploymentPath } from './paths';
import { SetupTabs } from './SetupTabs';
import { DeploymentProgress, DeploymentStatusChip } from './StatusParts';
import { DEPLOYMENT_PERMISSIONS, isDeploymentFinished, type PauseReason } from './types';

/** While a deployment on the page still moves, the list reads itself again this often. */
const MOVING_REFRESH_MS = 3_000;

interface ListedDeployment {
  id: number;
  status: string;
  pauseReason?: PauseReason | null;
  currentWave: number;
  waveCount: number;
  targetCount: number;
  appliedCount: number;
  failedCount: number;
}

const TABLE_SX = {
  '& .RaDataTable-headerCell': { whiteSpace: 'nowrap' },
  '& .MuiTableCell-sizeSmall:not(.MuiTableCell-paddingCheckbox)': { px: 1.25 },
  '& .RaDataTable-tableWrapper': { overflowX: 'auto' },
  ...ROW_FOCUS_SX,
} as const;

const NewDeploymentButton = ({ variant = 'text' }: { variant?: 'text' | 'contained' }) => {
  const mayAdd = useCanAccess(identifierRequest(DEPLOYMENT_PERMISSIONS.add)).canAccess === true;
  if (!mayAdd) return null;
  return (
    <Button component={RouterLink} label="deployments.list.new" to={newDeploymentPath()} variant={variant} data-testid="new-deployment">
      <AddIcon />
    </Button>
  );
};

const COLUMNS = ['id', 'packageId', 'status', 'progress', 'currentWave', 'createdByName', 'createdTime'] as const;

const Actions = () => (
  <TopToolbar>
    <FilterButton disableSaveQuery />
    <SavedFiltersButton />
    <ColumnsButton />
    <NewDeploymentButton />
    <ExportButton columnSources={COLUMNS.map((column) => (column === 'progress' ? null : column))} />
  </TopToolbar>
);

const Empty = () => {
  const translate = useTranslate();
  return (
    <Box sx={{ textAlign: 'center', py: 6, color: 'text.secondary', flex: 1 }} data-testid="deployments-empty">
      <InboxIcon sx={{ fontSize: 64, opacity: 0.5 }} />
      <Typography variant="h6" component="p" sx={{ mb: 2 }}>
        {translate('deployments.list.empty')}
      </Typography>
      <NewDeploymentButton variant="contained" />
    </Box>
  );
};

const StatusCell = () => {
  const translate = useTranslate();
  const record = useRecordContext<ListedDeployment>();
  if (!record) return null;
  const reason = record.status === 'paused' ? pauseReasonText(translate, record.pauseReason) : null;
  return (
    <Box sx={{ maxWidth: 260 }}>
      <DeploymentStatusChip status={record.status} />
      {reason ? (
        <Typography variant="caption" color="text.secondary" component="div" sx={{ mt: 0.5 }}>
          {reason}
        </Typography>
      ) : null}
    </Box>
  );
};

const ProgressCell = () => {
  const record = useRecordContext<ListedDeployment>();
  if (!record) return null;
  return <DeploymentProgress applied={record.appliedCount} failed={record.failedCount} total={record.targetCount} />;
};

const WaveCell = () => {
  const translate = useTranslate();
  const record = useRecordContext<ListedDeployment>();
  if (!record) return null;
  return <>{translate('deployments.list.waveOf', { wave: Math.max(record.currentWave, 0), count: record.waveCount })}</>;
};

/** Every few seconds while a deployment on the page moves, else the declaration's pace. */
const refreshMs = (rows: readonly ListedDeployment[] | undefined, refreshSeconds: number | undefined): number | false =>
  (rows ?? []).some((row) => !isDeploymentFinished(row.status)) ? MOVING_REFRESH_MS : refreshSeconds ? refreshSeconds * 1000 : false;

export const DeploymentList = () => {
  const { declaration, registry } = useDeclaration();
  const filters = buildFilterInputs(declaration, registry);
  const label = (field: string) => fieldLabel(declaration, field);
  return (
    <Box data-testid="deployment-list">
      <SetupTabs current="deployments" />
      <List
        title="menu.setup"
        sort={declaration.list.defaultSort}
        filters={filters}
        actions={<Actions />}
        empty={<Empty />}
        perPage={20}
        pagination={<Pagination rowsPerPageOptions={[...LIST_PAGE_SIZES]} />}
        queryOptions={{ refetchInterval: (query) => refreshMs(query.state.data?.data as ListedDeployment[] | undefined, declaration.list.refreshSeconds) }}
        sx={{ '& .RaList-main, & .RaList-content': { minWidth: 0 } }}
      >
        <DataTable rowClick={(id) => deploymentPath(id)} bulkActionButtons={false} body={KeyboardRowsBody} sx={TABLE_SX}>
          <DataTable.Col source="id" label={label('id')} render={(record: ListedDeployment) => `#${record.id}`} />
          <DataTable.Col source="packageId" label={label('packageId')}>
            <FieldDisplay source="packageId" />
          </DataTable.Col>
          <DataTable.Col source="status" label={label('status')}>
            <StatusCell />
          </DataTable.Col>
          <DataTable.Col label="deployments.list.progress" disableSort>
            <ProgressCell />
          </DataTable.Col>
          <DataTable.Col source="currentWave" label="deployments.list.wave" disableSort>
            <WaveCell />
          </DataTable.Col>
          <DataTable.Col source="createdByName" label={label('createdByName')} />
          <DataTable.Col source="createdTime" label={label('createdTime')} sx={{ whiteSpace: 'nowrap' }}>
            <FieldDisplay source="createdTime" />
          </DataTable.Col>
        </DataTable>
      </List>
    </Box>
  );
};
