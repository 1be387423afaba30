// A deployment's page, /service/setup/deployments/<id>: status and why it paused, its package and
// settings, the controls, counts per status and per wave, the business gate's two sides and its
// machines. Read again every few seconds without a reload until it is finished.
import { useState, type ReactNode } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslate } from 'ra-core';
import { Title } from 'react-admin';
import { Link as RouterLink, useParams } from 'react-router-dom';
import { Alert, AlertTitle, Box, Button, Paper, Typography } from '@mui/material';
import ArrowBackIcon from '@mui/icons-material/ArrowBack';
import { TitledCard } from '../layout/TitledCard';
import { LoadError, Loading } from '../kit/LoadState';
import { ApiError } from '../providers/httpTypes';
import { DeploymentControls } from './DeploymentControls';
import { StatusTiles, WavesTable } from './DeploymentCounts';
import { DeploymentMachines } from './DeploymentMachines';
import { GatePanel } from './GatePanel';
import { pauseReasonText } from './pauseReason';
import { DEPLOYMENTS_ROUTE, parseDeploymentId } from './paths';
import { DeploymentProgress, DeploymentStatusChip } from './StatusParts';
import { useLiveQuery } from './useLiveQuery';
import { DEPLOYMENT_API, isDeploymentFinished, type DeploymentDetail } from './types';

/** How often a deployment that still moves is read again. */
export const LIVE_MS = 2_500;

const BackToList = () => {
  const translate = useTranslate();
  return (
    <Button component={RouterLink} to={DEPLOYMENTS_ROUTE} startIcon={<ArrowBackIcon />} size="small">
      {translate('deployments.backToList')}
    </Button>
  );
};

const Fact = ({ label, children }: { label: string; children: ReactNode }) => {
  const translate = useTranslate();
  return (
    <>
      <Typography component="dt" variant="body2" color="text.secondary">
        {translate(label)}
      </Typography>
      <Typography component="dd" variant="body2" sx={{ m: 0, overflowWrap: 'anywhere' }}>
        {children ?? '–'}
      </Typography>
    </>
  );
};

const Settings = ({ deployment }: { deployment: DeploymentDetail }) => {
  const translate = useTranslate();
  const { sizes, percentages } = deployment.wavePlan;
  const waves = sizes?.length
    ? translate('deployments.detail.waveSizesText', { sizes: sizes.join(', ') })
    : translate('deployments.detail.wavePercentagesText', { waves: (percentages ?? []).map((value) => `${value} %`).join(' → ') });
  const pkg = deployment.package;
  return (
    <Box component="dl" sx={{ display: 'grid', gridTemplateColumns: 'max-content 1fr', columnGap: 2, rowGap: 0.5, m: 0 }} data-testid="deployment-settings">
      <Fact label="deployments.detail.package">
        {pkg.name} · {pkg.version} · {translate(`resources.deploymentPackage.enums.resourceType.${pkg.resourceType}`, { _: pkg.resourceType })}
      </Fact>
      <Fact label="deployments.detail.waves.title">{waves}</Fact>
      <Fact label="deployments.detail.thresholds">
        {translate('deployments.detail.thresholdsText', { success: deployment.successThreshold, error: deployment.errorThreshold })}
      </Fact>
      <Fact label="deployments.detail.createdBy">{[deployment.createdByName, deployment.createdTime].filter(Boolean).join(' · ')}</Fact>
      {deployment.requiresApproval ? (
        <Fact label="deployments.detail.approval">
          {deployment.approvedByName
            ? translate('deployments.detail.approvedBy', { user: deployment.approvedByName, time: deployment.approvedTime ?? '' })
            : translate('deployments.detail.notApproved')}
        </Fact>
      ) : null}
      <Fact label="deployments.detail.expires">{deployment.expiresTime}</Fact>
    </Box>
  );
};

const DeploymentView = ({ deployment, reload }: { deployment: DeploymentDetail; reload: () => void }) => {
  const translate = useTranslate();
  const [status, setStatus] = useState<string | null>(null);
  const finished = isDeploymentFinished(deployment.status);
  const failed = deployment.failed;
  const reason = deployment.status === 'paused' ? pauseReasonText(translate, deployment.pauseReason) : null;
  const firedRule = deployment.status === 'paused' && deployment.pauseReason?.kind === 'gate' ? deployment.pauseReason.rule : null;

  return (
    <Box data-testid="deployment-page" data-status={deployment.status}>
      <Title title={translate('deployments.detail.title', { id: deployment.id, name: deployment.package.name })} />
      <Box sx={{ display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: 1.5, mb: 2 }}>
        <Box component="span" data-testid="deployment-status">
          <DeploymentStatusChip status={deployment.status} />
        </Box>
        <DeploymentProgress applied={deployment.applied} failed={failed} total={deployment.total} width={240} />
        <Typography variant="body2" color="text.secondary">
          {translate('deployments.list.waveOf', { wave: Math.max(deployment.currentWave, 0), count: deployment.waveCount })}
        </Typography>
        <Box sx={{ flex: 1 }} />
        <DeploymentControls deployment={deployment} failed={failed} onDone={reload} />
        <BackToList />
      </Box>
      {reason ? (
        <Alert severity="warning" sx={{ mb: 2 }} data-testid="pause-reason">
          <AlertTitle>{translate('deployments.detail.pausedTitle')}</AlertTitle>
          {reason}
        </Alert>
      ) : null}
      {deployment.status === 'running' && deployment.offlineWaiting > 0 ? (
        <Alert severity="info" sx={{ mb: 2 }} data-testid="offline-waiting">
          {translate('deployments.detail.offlineWaiting', { smart_count: deployment.offlineWaiting })}
        </Alert>
      ) : null}
      {deployment.status === 'awaitingApproval' ? (
        <Alert severity="info" sx={{ mb: 2 }}>
          {translate('deployments.detail.awaitingApproval')}
        </Alert>
      ) : null}
      {deployment.status === 'expired' ? (
        <Alert severity="warning" sx={{ mb: 2 }} data-testid="approval-expired">
          {translate('deployments.detail.approvalExpired', { time: deployment.expiresTime })}
        </Alert>
      ) : null}
      <Box sx={{ display: 'grid', gridTemplateColumns: { xs: '1fr', lg: 'minmax(0, 1fr) minmax(0, 1fr)' }, gap: 2, mb: 2, alignItems: 'start' }}>
        <TitledCard title={translate('deployments.detail.countsTitle')} testId="counts-card">
          <StatusTiles counts={deployment.counts} selected={status} onSelect={setStatus} />
        </TitledCard>
        <TitledCard title={translate('deployments.detail.settingsTitle')} testId="settings-card">
          <Settings deployment={deployment} />
        </TitledCard>
      </Box>
      {/* the two tables take the whole width: their columns would not fit half of a 1280 px window */}
      <Box sx={{ display: 'grid', gap: 2, mb: 2 }}>
        <TitledCard title={translate('deployments.detail.wavesTitle')} testId="waves-card">
          <WavesTable waves={deployment.waves} currentWave={deployment.currentWave} successThreshold={deployment.successThreshold} />
        </TitledCard>
        <TitledCard title={translate('deployments.gate.title')} testId="gate-card">
          <GatePanel gate={deployment.gate} result={deployment.gateResult} checkedTime={deployment.gateCheckedTime} firedRule={firedRule} />
        </TitledCard>
      </Box>
      <TitledCard title={translate('deployments.machines.title')}>
        <DeploymentMachines
          deploymentId={deployment.id}
          waveCount={deployment.waveCount}
          currentWave={deployment.currentWave}
          status={status}
          onStatus={setStatus}
          refreshMs={finished ? false : LIVE_MS}
        />
      </TitledCard>
    </Box>
  );
};

const NotFound = () => {
  const translate = useTranslate();
  return (
    <Paper sx={{ p: 3 }} data-testid="deployment-not-found">
      <Alert severity="warning" sx={{ mb: 2 }}>
        {translate('deployments.detail.notFound')}
      </Alert>
      <BackToList />
    </Paper>
  );
};

const DeploymentPage = () => {
  const id = parseDeploymentId(useParams().deploymentId);
  const queryClient = useQueryClient();
  // after a control every part of the page (the machines too) is read again at once
  const reloadAll = () => void queryClient.invalidateQueries({ queryKey: ['deployments'] });
  const loaded = useLiveQuery(
    ['detail', id],
    id === null ? null : (http, signal) => http.get<DeploymentDetail>(`${DEPLOYMENT_API}/${id}`, undefined, { signal, silent: true }),
    (data) => (data && isDeploymentFinished(data.status) ? false : LIVE_MS),
  );
  if (id === null || (loaded.error instanceof ApiError && ['2003', '4004'].includes(loaded.error.code))) return <NotFound />;
  if (loaded.error) return <LoadError onRetry={loaded.reload} />;
  if (!loaded.data) return <Loading />;
  return <DeploymentView deployment={loaded.data} reload={reloadAll} />;
};

export default DeploymentPage;
