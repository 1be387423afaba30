// ConsumerSessions tab: sessions started in a time range (POST /rvmpage/consumerSessions), filtered
// by payout method, voucher code or user ID; a row opens the session details.
import { useState, type FormEvent } from 'react';
import { useTranslate } from 'ra-core';
import { useNavigate } from 'react-router-dom';
import { Box, Button, TextField, Typography } from '@mui/material';
import { PAYOUT_METHODS } from '../../../resources/fleetCatalogue';
import { useConsoleServices } from '../../layout/ConsoleServices';
import { formatDate } from '../../generic/format';
import { EnumSelect } from '../../kit/EnumSelect';
import { StatusChip } from '../../kit/StatusChip';
import { formatMoney, formatPeriod } from '../../kit/format';
import { pagedTableState, PagedTable, type Column } from '../../kit/PagedTable';
import { DEFAULT_RANGE_DAYS } from '../../kit/timeRange';
import { TimeRangePicker } from '../../kit/TimeRangePicker';
import { usePagedRange } from '../../kit/usePagedRange';
import { useMachine, useMachineData } from './MachineContext';
import type { ConsumerSessionRow, Page } from './machineTypes';
import { consumerSessionPath } from '../../pages/machinePaths';

interface SessionFilters {
  payoutMethod: string | null;
  voucherCode: string | null;
  userId: string | null;
}

const NO_FILTERS: SessionFilters = { payoutMethod: null, voucherCode: null, userId: null };

export const ConsumerSessionsTab = () => {
  const translate = useTranslate();
  const navigate = useNavigate();
  const { locale, session } = useConsoleServices();
  const { machineId } = useMachine();
  const paging = usePagedRange(DEFAULT_RANGE_DAYS);
  const [filters, setFilters] = useState<SessionFilters>(NO_FILTERS);
  const [typed, setTyped] = useState({ voucherCode: '', userId: '' });
  const loaded = useMachineData(
    (http, id, signal) => http.post<Page<ConsumerSessionRow>>('/rvmpage/consumerSessions', { id, ...paging.body, ...filters }, { signal }),
    ['consumerSessions', paging.body, filters],
  );

  const applyTexts = (event: FormEvent) => {
    event.preventDefault();
    setFilters((current) => ({ ...current, voucherCode: typed.voucherCode.trim() || null, userId: typed.userId.trim() || null }));
    paging.setPage(1);
  };

  const columns: Column<ConsumerSessionRow>[] = [
    { key: 'period', label: 'installation.sessions.period', render: (row) => formatPeriod(row.startTime, row.endTime), nowrap: true },
    {
      key: 'payoutMethod',
      label: 'fleet.consumerSession.payoutMethod',
      // a refused consumer (a ban, docs/service-personnel.md#bans) paid nothing: the refusal is what happened
      render: (row) =>
        row.refusal ? <StatusChip value={row.refusal} labels="personnel.refusals" tone="error" /> : translate(`fleet.payoutMethods.${row.payoutMethod}`, { _: row.payoutMethod }),
    },
    { key: 'totalRefund', label: 'fleet.consumerSession.totalRefund', render: (row) => formatMoney(row.totalRefund, locale, session.getCurrency()), align: 'right' },
    { key: 'itemCount', label: 'fleet.consumerSession.itemCount', render: (row) => row.itemCount, align: 'right' },
    { key: 'acceptedCount', label: 'fleet.consumerSession.acceptedCount', render: (row) => row.acceptedCount, align: 'right' },
    { key: 'rejectedCount', label: 'fleet.consumerSession.rejectedCount', render: (row) => row.rejectedCount, align: 'right' },
    {
      key: 'userId',
      label: 'fleet.consumerSession.userId',
      render: (row) => row.userId ?? (row.cardNo ? `${translate('personnel.sessions.cardNo')} ${row.cardNo}` : null),
      nowrap: true,
    },
    {
      key: 'voucherCode',
      label: 'fleet.consumerSession.voucherCode',
      // the validity under the code: one column, and a list that fits 1280 px
      render: (row) =>
        row.voucherCode ? (
          <>
            {row.voucherCode}
            {row.voucherValidUntil ? (
              <Typography component="div" variant="caption" color="text.secondary">
                {translate('fleet.consumerSession.voucherValidUntil', { date: formatDate(row.voucherValidUntil) })}
              </Typography>
            ) : null}
          </>
        ) : null,
      nowrap: true,
    },
  ];

  return (
    <>
      <TimeRangePicker value={paging.range} onChange={paging.setRange} initialPreset={DEFAULT_RANGE_DAYS} />
      <Box component="form" onSubmit={applyTexts} sx={{ display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: 1.5, mb: 1 }}>
        <EnumSelect
          label="fleet.consumerSession.payoutMethod"
          value={filters.payoutMethod}
          options={PAYOUT_METHODS}
          labels="fleet.payoutMethods"
          onChange={(payoutMethod) => {
            setFilters((current) => ({ ...current, payoutMethod }));
            paging.setPage(1);
          }}
        />
        <TextField
          size="small"
          fullWidth={false}
          label={translate('fleet.consumerSession.voucherCode')}
          value={typed.voucherCode}
          onChange={(event) => setTyped({ ...typed, voucherCode: event.target.value })}
        />
        <TextField
          size="small"
          fullWidth={false}
          label={translate('fleet.consumerSession.userId')}
          value={typed.userId}
          onChange={(event) => setTyped({ ...typed, userId: event.target.value })}
        />
        <Button type="submit" variant="outlined">
          {translate('installation.common.filter')}
        </Button>
      </Box>
      <PagedTable
        columns={columns}
        {...pagedTableState(paging, loaded)}
        rowKey={(row) => row.id}
        onRowClick={(row) => navigate(consumerSessionPath(machineId, row.id))}
        empty="installation.common.emptyRange"
        caption={translate('menu.ConsumerSessions')}
        testId="consumer-sessions"
      />
    </>
  );
};
