// Overview tab: identity, current status, bin fill levels as bars, today's figures, open alarms and
// the last events, from one call (GET /rvmpage/overview); below them the version history.
import type { ReactNode } from 'react';
import { useTranslate } from 'ra-core';
import { Box, LinearProgress, List, ListItem, ListItemText, Typography } from '@mui/material';
import { useConsoleServices } from '../../layout/ConsoleServices';
import { TitledCard } from '../../layout/TitledCard';
import { formatMoney, formatRatio } from '../../kit/format';
import { LoadState } from '../../kit/LoadState';
import { StatusChip } from '../../kit/StatusChip';
import { useMachineData } from './MachineContext';
import type { MachineEvent, MachineOverview } from './machineTypes';
import { VersionHistory } from './VersionHistory';

const BIN_COLORS = { ok: 'success', almostFull: 'warning', full: 'error' } as const;

const startOfToday = () => {
  const now = new Date();
  return new Date(now.getFullYear(), now.getMonth(), now.getDate()).toISOString();
};

const Fact = ({ label, children }: { label: string; children: ReactNode }) => (
  <Box sx={{ display: 'grid', gridTemplateColumns: '40% 60%', gap: 1, py: 0.5 }}>
    <Typography component="dt" variant="body2" color="text.secondary">
      {label}
    </Typography>
    <Typography component="dd" variant="body2" sx={{ m: 0, overflowWrap: 'anywhere' }}>
      {children ?? '–'}
    </Typography>
  </Box>
);

const Figure = ({ label, value }: { label: string; value: ReactNode }) => (
  <Box sx={{ p: 1, textAlign: 'center', minWidth: 90 }}>
    <Typography variant="h6" component="p">
      {value}
    </Typography>
    <Typography variant="caption" color="text.secondary">
      {label}
    </Typography>
  </Box>
);

export const EventList = ({ events, empty }: { events: readonly MachineEvent[]; empty: string }) => {
  const translate = useTranslate();
  if (events.length === 0) return <Typography color="text.secondary">{translate(empty)}</Typography>;
  return (
    <List dense disablePadding>
      {events.map((event) => (
        <ListItem key={event.id} disableGutters sx={event.clearedTime ? undefined : { bgcolor: 'rgba(211, 47, 47, 0.06)', px: 1 }}>
          <ListItemText
            primary={translate(`fleet.alarms.${event.code}`, { _: event.code })}
            secondary={`${event.raisedTime ?? ''}${event.clearedTime ? ` – ${event.clearedTime}` : ` · ${translate('installation.events.active')}`}`}
          />
        </ListItem>
      ))}
    </List>
  );
};

export const OverviewTab = () => {
  const translate = useTranslate();
  const { locale, session } = useConsoleServices();
  const dayStart = startOfToday();
  const { data, error, isPending, reload } = useMachineData(
    (http, id, signal) => http.get<MachineOverview>('/rvmpage/overview', { id, dayStart }, { signal }),
    ['overview', dayStart],
  );
  const field = (name: string) => translate(`resources.machine.fields.${name}`);

  return (
    <LoadState isPending={isPending} error={error} onRetry={reload} hasData={Boolean(data)}>
      {data ? (
        <Box sx={{ display: 'grid', gridTemplateColumns: { xs: '1fr', lg: '1fr 1fr' }, gap: 2, alignItems: 'start' }} data-testid="overview">
          <TitledCard title={translate('fleet.overview.identity')} testId="overview-identity">
            <Box component="dl" sx={{ m: 0 }}>
              <Fact label={field('termNo')}>{data.machine.termNo}</Fact>
              <Fact label={field('serialNumber')}>{data.machine.serialNumber}</Fact>
              <Fact label={field('termType')}>{data.machine.termType}</Fact>
              <Fact label={field('fleetId')}>{data.machine.fleetPath.map((fleet) => fleet.name).join(' › ')}</Fact>
              <Fact label={field('address')}>{data.machine.address}</Fact>
              <Fact label={field('localAreaId')}>{data.machine.localAreaId}</Fact>
              <Fact label={field('softwareVersion')}>{data.machine.softwareVersion}</Fact>
              <Fact label={`${field('onTime')} / ${field('offTime')}`}>
                {data.machine.onTime && data.machine.offTime ? `${data.machine.onTime} – ${data.machine.offTime}` : null}
              </Fact>
              <Fact label={field('lastSessionTime')}>{data.machine.lastSessionTime}</Fact>
            </Box>
          </TitledCard>
          <TitledCard title={translate('fleet.overview.currentStatus')} testId="overview-status">
            <Box sx={{ display: 'flex', gap: 1, alignItems: 'center', flexWrap: 'wrap', mb: 1 }}>
              <StatusChip value={data.machine.currentSts} />
              <StatusChip value={data.machine.online} labels="fleet.online" tone={data.machine.online ? 'online' : 'offline'} />
              <Typography variant="body2" color="text.secondary">
                {translate('fleet.overview.statusSince')} {data.machine.statusSince}
              </Typography>
            </Box>
            <Typography component="h3" variant="subtitle2" sx={{ mt: 2 }}>
              {translate('fleet.overview.bins')}
            </Typography>
            {data.bins.length === 0 ? <Typography color="text.secondary">{translate('installation.overview.noBins')}</Typography> : null}
            {data.bins.map((bin) => {
              const label = `${translate('fleet.overview.bin', { bin: bin.binNo })} · ${translate(`fleet.itemTypes.${bin.itemType}`, { _: bin.itemType })}`;
              return (
                <Box key={bin.binNo} sx={{ mt: 1 }} data-testid="bin-level">
                  <Box sx={{ display: 'flex', justifyContent: 'space-between' }}>
                    <Typography variant="body2">{label}</Typography>
                    <Typography variant="body2" color={`${BIN_COLORS[bin.state]}.main`}>
                      {bin.fillPercent}% · {translate(`installation.overview.binStates.${bin.state}`)}
                    </Typography>
                  </Box>
                  <LinearProgress
                    variant="determinate"
                    value={Math.min(100, Math.max(0, bin.fillPercent))}
                    color={BIN_COLORS[bin.state]}
                    sx={{ height: 10, borderRadius: 1 }}
                    aria-label={`${label}: ${translate('fleet.overview.fillPercent')} ${bin.fillPercent}%`}
                  />
                  <Typography variant="caption" color="text.secondary">
                    {translate('fleet.overview.lastEmptied')}: {bin.lastEmptiedTime ?? '–'}
                  </Typography>
                </Box>
              );
            })}
          </TitledCard>
          <TitledCard title={translate('fleet.overview.today')} testId="overview-today">
            <Box sx={{ display: 'flex', flexWrap: 'wrap', justifyContent: 'space-around' }}>
              <Figure label={translate('fleet.overview.sessions')} value={data.today.sessions} />
              <Figure label={translate('fleet.overview.items')} value={data.today.items} />
              <Figure label={translate('fleet.overview.accepted')} value={data.today.accepted} />
              <Figure label={translate('fleet.overview.rejected')} value={data.today.rejected} />
              <Figure label={translate('fleet.overview.refund')} value={formatMoney(data.today.refund, locale, session.getCurrency())} />
              <Figure label={translate('fleet.overview.rejectRate')} value={formatRatio(data.today.rejectRate, locale)} />
            </Box>
          </TitledCard>
          <TitledCard title={translate('fleet.overview.openAlarms')} testId="overview-alarms">
            <EventList events={data.openAlarms} empty="installation.overview.noOpenAlarms" />
            <Typography component="h3" variant="subtitle2" sx={{ mt: 2 }}>
              {translate('fleet.overview.lastEvents')}
            </Typography>
            <EventList events={data.lastEvents} empty="installation.overview.noEvents" />
          </TitledCard>
          <Box sx={{ gridColumn: '1 / -1', minWidth: 0 }}>
            <VersionHistory />
          </Box>
        </Box>
      ) : null}
    </LoadState>
  );
};
