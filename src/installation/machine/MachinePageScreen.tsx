// The machine page, /installation/rvmpage/<id>/<Tab> (docs/product-rules.md#menu-tree): a header naming the machine, the tabs
// the user may open (in menu order, each `installation:rvmpage:<Tab>`), and the open tab; consumer
// session details at .../ConsumerSessions/<sessionId>. An unknown id (6001) shows a not-found state.
import { useCallback, useEffect, useState, type ComponentType } from 'react';
import { useCanAccess, useCanAccessResources, useTranslate } from 'ra-core';
import { Link as RouterLink, Navigate, Route, Routes, useParams } from 'react-router-dom';
import { Alert, AlertTitle, Box, Button, Paper, Tab, Tabs, Typography } from '@mui/material';
import ArrowBackIcon from '@mui/icons-material/ArrowBack';
import EditIcon from '@mui/icons-material/Edit';
import { machine } from '../../../resources/machine';
import { resourceNameOf } from '../../providers/registry';
import type { ScreenProps } from '../../pages/screenProps';
import { Loading } from '../../kit/LoadState';
import { StatusChip } from '../../kit/StatusChip';
import { useApiQuery } from '../../kit/useApiQuery';
import { LIVE_REFRESH_MS } from '../../kit/liveRefresh';
import { ConsumerSessionDetails } from './ConsumerSessionDetails';
import { ConsumerSessionsTab } from './ConsumerSessionsTab';
import { EventHistoryTab } from './EventHistoryTab';
import { OnlineOfflineHistoryTab, StatusHistoryTab } from './HistoryTab';
import { isMachineMissing, MachineProvider } from './MachineContext';
import { OverviewTab } from './OverviewTab';
import { ProfileSettingTab } from './ProfileSettingTab';
import { RemoteControlTab } from './RemoteControlTab';
import { ServiceSessionsTab } from './ServiceSessionsTab';
import { CONSUMER_SESSIONS_TAB, FLEET_MANAGEMENT_ROUTE, machinePagePath } from '../../pages/machinePaths';
import { parseMachineId, permittedTabs, resolveTab, TAB_RESOURCES } from './tabs';
import { MENU_ACTIONS } from '../../permissions/canAccess';

const TAB_VIEWS: Readonly<Record<string, ComponentType>> = {
  Overview: OverviewTab,
  ProfileSetting: ProfileSettingTab,
  RemoteControl: RemoteControlTab,
  StatusHistory: StatusHistoryTab,
  OnlineOfflineHistory: OnlineOfflineHistoryTab,
  ServiceSessions: ServiceSessionsTab,
  EventHistory: EventHistoryTab,
  ConsumerSessions: ConsumerSessionsTab,
};

interface MachineRecord {
  id: number;
  termNo: string;
  serialNumber: string;
  termType: string;
  currentSts: string;
  address: string | null;
}

const BackToFleet = () => {
  const translate = useTranslate();
  return (
    <Button component={RouterLink} to={FLEET_MANAGEMENT_ROUTE} startIcon={<ArrowBackIcon />} size="small">
      {translate('installation.machinePage.back')}
    </Button>
  );
};

const MachineNotFound = () => {
  const translate = useTranslate();
  return (
    <Paper sx={{ p: 3 }} data-testid="machine-not-found">
      <Alert severity="warning" sx={{ mb: 2 }}>
        <AlertTitle>{translate('errors.6001')}</AlertTitle>
        {translate('installation.machinePage.notFoundDetail')}
      </Alert>
      <BackToFleet />
    </Paper>
  );
};

const MachineHeader = ({ machineId, onMissing }: { machineId: number; onMissing: () => void }) => {
  const translate = useTranslate();
  const { canAccess: canRead } = useCanAccess({ resource: resourceNameOf(machine), action: 'show' });
  const { canAccess: canEdit } = useCanAccess({ resource: resourceNameOf(machine), action: 'edit' });
  // The record names the machine; without machine:page the tabs still work and the id is shown.
  const { data, error } = useApiQuery(
    ['machinePage', machineId],
    canRead ? (http, signal) => http.get<MachineRecord>(`${machine.apiPath}/${machineId}`, undefined, { signal, silent: true }) : null,
    { refreshEveryMs: LIVE_REFRESH_MS.machineHeader },
  );
  const missing = isMachineMissing(error);
  useEffect(() => {
    if (missing) onMissing();
  }, [missing, onMissing]);
  return (
    <Box sx={{ display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: 1.5, mb: 1 }}>
      <Typography component="h1" variant="h5" data-testid="machine-title">
        {data?.termNo ?? translate('installation.machinePage.title', { termNo: `#${machineId}` })}
      </Typography>
      {data ? (
        <Box component="span" data-testid="machine-status" data-status={data.currentSts}>
          <StatusChip value={data.currentSts} />
        </Box>
      ) : null}
      {data ? (
        <Typography color="text.secondary" variant="body2">
          {data.serialNumber} · {data.termType}
          {data.address ? ` · ${data.address}` : ''}
        </Typography>
      ) : null}
      <Box sx={{ flex: 1 }} />
      {canEdit ? (
        <Button component={RouterLink} to={`/${resourceNameOf(machine)}/${machineId}`} startIcon={<EditIcon />} size="small">
          {translate('installation.machinePage.editRecord')}
        </Button>
      ) : null}
      <BackToFleet />
    </Box>
  );
};

const MachinePage = () => {
  const translate = useTranslate();
  const params = useParams();
  const { canAccess: tabAnswers, isPending } = useCanAccessResources({ action: MENU_ACTIONS.open, resources: [...TAB_RESOURCES] });
  const [notFound, setNotFound] = useState(false);
  const markNotFound = useCallback(() => setNotFound(true), []);
  const machineId = parseMachineId(params.machineId);
  const [tabSegment, sessionId] = (params['*'] ?? '').split('/');

  if (isPending) return <Loading />;
  if (machineId === null || notFound) return <MachineNotFound />;
  const tabs = permittedTabs((request) => tabAnswers?.[request.resource] === true);
  const tab = resolveTab(tabSegment, tabs);
  if (tab === null) return <Navigate to="/401" replace />;
  if (tab !== tabSegment) return <Navigate to={machinePagePath(machineId, tab)} replace />;
  const View = TAB_VIEWS[tab];

  return (
    <MachineProvider machineId={machineId} markNotFound={markNotFound}>
      <Paper sx={{ p: 2 }} data-testid="machine-page" data-tab={tab}>
        <MachineHeader machineId={machineId} onMissing={markNotFound} />
        <Tabs value={tab} variant="scrollable" scrollButtons="auto" aria-label={translate('installation.machinePage.tabs')} sx={{ borderBottom: 1, borderColor: 'divider', mb: 2 }}>
          {tabs.map((key) => (
            <Tab
              key={key}
              value={key}
              sx={{ textTransform: 'none' }}
              label={translate(`menu.${key}`)}
              component={RouterLink}
              to={machinePagePath(machineId, key)}
              data-testid={`tab-${key}`}
            />
          ))}
        </Tabs>
        <Box role="tabpanel" aria-label={translate(`menu.${tab}`)}>
          {tab === CONSUMER_SESSIONS_TAB && sessionId ? <ConsumerSessionDetails machineId={machineId} sessionId={sessionId} /> : <View key={tab} />}
        </Box>
      </Paper>
    </MachineProvider>
  );
};

/** Registered for /installation/rvmpage (src/app/screens.ts); the bare route goes to fleet management. */
const MachinePageScreen = (_props: ScreenProps) => (
  <Routes>
    <Route index element={<Navigate to={FLEET_MANAGEMENT_ROUTE} replace />} />
    <Route path=":machineId/*" element={<MachinePage />} />
  </Routes>
);

export default MachinePageScreen;
