// ServiceSessions tab: technician visits in a time range (POST /rvmpage/serviceSessions), with the
// count per cleaning outcome (docs/product-rules.md#statuses: completed, aborted, failed) and an outcome filter.
import { useState } from 'react';
import { useTranslate } from 'ra-core';
import { Box, Chip, Typography } from '@mui/material';
import { CLEANING_OUTCOMES } from '../../../resources/fleetCatalogue';
import { EnumSelect } from '../../kit/EnumSelect';
import { pagedTableState, PagedTable, type Column } from '../../kit/PagedTable';
import { StatusChip } from '../../kit/StatusChip';
import { TimeRangePicker } from '../../kit/TimeRangePicker';
import { usePagedRange } from '../../kit/usePagedRange';
import { useMachineData } from './MachineContext';
import type { Page, ServiceSessionRow } from './machineTypes';
import { useDurationText } from './TimelineChart';

const RANGE_DAYS = 30;

type ServiceSessionPage = Page<ServiceSessionRow> & { byOutcome: Record<string, number> };

export const ServiceSessionsTab = () => {
  const translate = useTranslate();
  const durationText = useDurationText();
  const paging = usePagedRange(RANGE_DAYS);
  const [outcome, setOutcome] = useState<string | null>(null);
  const loaded = useMachineData(
    (http, id, signal) => http.post<ServiceSessionPage>('/rvmpage/serviceSessions', { id, ...paging.body, cleaningOutcome: outcome }, { signal }),
    ['serviceSessions', paging.body, outcome],
  );
  const { data } = loaded;

  const columns: Column<ServiceSessionRow>[] = [
    {
      key: 'technician',
      label: 'fleet.serviceSession.technician',
      // a person of the personnel package: login name, then who it is (docs/service-personnel.md#service-sessions)
      render: (row) =>
        row.personnel ? (
          <Box>
            <Box sx={{ display: 'flex', alignItems: 'center', gap: 0.5 }}>
              {row.technician}
              <StatusChip value={row.personnel.accessLevel} labels="personnel.levels" tone={row.personnel.accessLevel === 'advanced' ? 'info' : 'offline'} />
            </Box>
            <Typography variant="caption" color="text.secondary">
              {[row.personnel.realName, row.personnel.company].filter(Boolean).join(' · ')}
            </Typography>
          </Box>
        ) : (
          row.technician
        ),
    },
    { key: 'startTime', label: 'fleet.serviceSession.startTime', render: (row) => row.startTime, nowrap: true },
    { key: 'endTime', label: 'fleet.serviceSession.endTime', render: (row) => row.endTime, nowrap: true },
    { key: 'duration', label: 'fleet.history.duration', render: (row) => durationText(row.durationSeconds), nowrap: true, align: 'right' },
    {
      key: 'cleaningOutcome',
      label: 'fleet.serviceSession.cleaningOutcome',
      render: (row) => <StatusChip value={row.cleaningOutcome} labels="fleet.cleaningOutcomes" />,
    },
    { key: 'binsEmptied', label: 'fleet.serviceSession.binsEmptied', render: (row) => row.binsEmptied, align: 'right' },
    { key: 'note', label: 'fleet.serviceSession.note', render: (row) => row.note },
  ];

  return (
    <>
      <TimeRangePicker value={paging.range} onChange={paging.setRange} initialPreset={RANGE_DAYS} />
      <Box sx={{ display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: 1, mb: 1 }}>
        <EnumSelect
          label="fleet.serviceSession.cleaningOutcome"
          value={outcome}
          options={CLEANING_OUTCOMES}
          labels="fleet.cleaningOutcomes"
          onChange={(next) => {
            setOutcome(next);
            paging.setPage(1);
          }}
        />
        {data
          ? CLEANING_OUTCOMES.map((name) => (
              <Chip key={name} variant="outlined" size="small" label={`${translate(`fleet.cleaningOutcomes.${name}`)}: ${data.byOutcome[name] ?? 0}`} />
            ))
          : null}
      </Box>
      <PagedTable
        columns={columns}
        {...pagedTableState(paging, loaded)}
        rowKey={(row) => row.id}
        empty="installation.common.emptyRange"
        caption={translate('menu.ServiceSessions')}
        testId="service-sessions"
      />
    </>
  );
};
