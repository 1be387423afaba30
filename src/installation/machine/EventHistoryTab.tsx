// EventHistory tab: alarms raised in a time range (POST /rvmpage/eventHistory), texts from the alarm
// catalogue (fleet.alarms.*), raised and cleared times; alarms still active are highlighted and can
// be listed alone.
import { useState } from 'react';
import { useTranslate } from 'ra-core';
import { Box, Chip, FormControlLabel, Switch } from '@mui/material';
import { ALARM_CATEGORIES, ALARM_SEVERITIES } from '../../../resources/fleetCatalogue';
import { EnumSelect } from '../../kit/EnumSelect';
import { pagedTableState, PagedTable, type Column } from '../../kit/PagedTable';
import { StatusChip } from '../../kit/StatusChip';
import { TimeRangePicker } from '../../kit/TimeRangePicker';
import { usePagedRange } from '../../kit/usePagedRange';
import { useMachineData } from './MachineContext';
import type { MachineEvent, Page } from './machineTypes';

const RANGE_DAYS = 30;
const ACTIVE_ROW = { bgcolor: 'rgba(211, 47, 47, 0.08)', '& td:first-of-type': { boxShadow: 'inset 4px 0 0 #d32f2f' } };

export const EventHistoryTab = () => {
  const translate = useTranslate();
  const paging = usePagedRange(RANGE_DAYS);
  const [category, setCategory] = useState<string | null>(null);
  const [severity, setSeverity] = useState<string | null>(null);
  const [openOnly, setOpenOnly] = useState(false);
  const filters = { category, severity, openOnly: openOnly || null };
  const loaded = useMachineData(
    (http, id, signal) => http.post<Page<MachineEvent>>('/rvmpage/eventHistory', { id, ...paging.body, ...filters }, { signal }),
    ['eventHistory', paging.body, filters],
  );
  const filterChanged =
    <T,>(set: (value: T) => void) =>
    (value: T) => {
      set(value);
      paging.setPage(1);
    };

  const columns: Column<MachineEvent>[] = [
    { key: 'code', label: 'fleet.event.code', render: (row) => row.code, nowrap: true },
    { key: 'text', label: 'fleet.event.text', render: (row) => translate(`fleet.alarms.${row.code}`, { _: row.code }) },
    { key: 'category', label: 'fleet.event.category', render: (row) => translate(`fleet.alarmCategories.${row.category}`, { _: row.category }) },
    { key: 'severity', label: 'fleet.event.severity', render: (row) => <StatusChip value={row.severity} labels="fleet.severities" /> },
    { key: 'raisedTime', label: 'fleet.event.raisedTime', render: (row) => row.raisedTime, nowrap: true },
    {
      key: 'clearedTime',
      label: 'fleet.event.clearedTime',
      nowrap: true,
      render: (row) => row.clearedTime ?? <Chip size="small" color="error" label={translate('installation.events.active')} data-testid="event-active" />,
    },
    { key: 'detail', label: 'fleet.event.detail', render: (row) => row.detail },
  ];

  return (
    <>
      <TimeRangePicker value={paging.range} onChange={paging.setRange} initialPreset={RANGE_DAYS} />
      <Box sx={{ display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: 1.5, mb: 1 }}>
        <EnumSelect label="fleet.event.category" value={category} options={ALARM_CATEGORIES} labels="fleet.alarmCategories" onChange={filterChanged(setCategory)} />
        <EnumSelect label="fleet.event.severity" value={severity} options={ALARM_SEVERITIES} labels="fleet.severities" onChange={filterChanged(setSeverity)} />
        <FormControlLabel control={<Switch checked={openOnly} onChange={(event) => filterChanged(setOpenOnly)(event.target.checked)} />} label={translate('fleet.event.open')} />
      </Box>
      <PagedTable
        columns={columns}
        {...pagedTableState(paging, loaded)}
        rowKey={(row) => row.id}
        rowSx={(row) => (row.clearedTime ? undefined : ACTIVE_ROW)}
        empty="installation.common.emptyRange"
        caption={translate('menu.EventHistory')}
        testId="event-history"
      />
    </>
  );
};
