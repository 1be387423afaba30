// StatusHistory and OnlineOfflineHistory tabs: a time range (last 7 days by default), the timeline
// chart of the range and the paged periods, newest first (POST /rvmpage/statusHistory and
// /rvmpage/onlineOfflineHistory answer both in one call).
import { useTranslate } from 'ra-core';
import { Card, CardContent } from '@mui/material';
import { RVM_STATUSES } from '../../../resources/fleetCatalogue';
import { pagedTableState, PagedTable, type Column } from '../../kit/PagedTable';
import { StatusChip } from '../../kit/StatusChip';
import { DEFAULT_RANGE_DAYS } from '../../kit/timeRange';
import { TimeRangePicker } from '../../kit/TimeRangePicker';
import { usePagedRange } from '../../kit/usePagedRange';
import { useMachineData } from './MachineContext';
import type { IntervalPage, IntervalRow } from './machineTypes';
import { TimelineChart, useDurationText } from './TimelineChart';

interface HistoryKind {
  path: string;
  valueKey: 'status' | 'online';
  lanes: readonly string[];
  labels: string;
  tone: (value: string) => string;
  /** Catalogue key of the value column. */
  column: string;
  testId: string;
}

const STATUS_HISTORY: HistoryKind = {
  path: '/rvmpage/statusHistory',
  valueKey: 'status',
  lanes: RVM_STATUSES,
  labels: 'fleet.statuses',
  tone: (value) => value,
  column: 'fleet.history.status',
  testId: 'status-history',
};

const ONLINE_HISTORY: HistoryKind = {
  path: '/rvmpage/onlineOfflineHistory',
  valueKey: 'online',
  lanes: ['true', 'false'],
  labels: 'fleet.online',
  tone: (value) => (value === 'true' ? 'online' : 'offline'),
  column: 'fleet.history.online',
  testId: 'online-history',
};

const HistoryTab = ({ kind }: { kind: HistoryKind }) => {
  const translate = useTranslate();
  const durationText = useDurationText();
  const paging = usePagedRange(DEFAULT_RANGE_DAYS);
  const loaded = useMachineData((http, id, signal) => http.post<IntervalPage>(kind.path, { id, ...paging.body }, { signal }), [kind.path, paging.body]);
  const { data } = loaded;

  const columns: Column<IntervalRow>[] = [
    {
      key: 'value',
      label: kind.column,
      render: (row) => <StatusChip value={String(row[kind.valueKey])} labels={kind.labels} tone={kind.tone(String(row[kind.valueKey]))} />,
    },
    { key: 'startTime', label: 'fleet.history.startTime', render: (row) => row.startTime, nowrap: true },
    { key: 'endTime', label: 'fleet.history.endTime', render: (row) => row.endTime ?? translate('fleet.history.ongoing'), nowrap: true },
    { key: 'duration', label: 'fleet.history.duration', render: (row) => durationText(row.durationSeconds), align: 'right', nowrap: true },
  ];

  return (
    <>
      <TimeRangePicker value={paging.range} onChange={paging.setRange} initialPreset={DEFAULT_RANGE_DAYS} />
      <Card variant="outlined" sx={{ mb: 2 }}>
        <CardContent>
          <TimelineChart
            slices={data?.timeline ?? []}
            valueKey={kind.valueKey}
            lanes={kind.lanes}
            labels={kind.labels}
            tone={kind.tone}
            from={paging.range.from.getTime()}
            to={Math.min(paging.range.to.getTime(), Date.now())}
            secondsBy={data?.secondsBy}
          />
        </CardContent>
      </Card>
      <PagedTable
        columns={columns}
        {...pagedTableState(paging, loaded)}
        rowKey={(row) => row.id}
        empty="installation.common.emptyRange"
        caption={translate(kind.column)}
        testId={kind.testId}
      />
    </>
  );
};

export const StatusHistoryTab = () => <HistoryTab kind={STATUS_HISTORY} />;
export const OnlineOfflineHistoryTab = () => <HistoryTab kind={ONLINE_HISTORY} />;
