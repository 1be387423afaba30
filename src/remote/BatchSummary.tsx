// The delivery summary of a batch (GET /rvm/command/batch/{id}), live: counts per status, the
// machines refused at creation with their reason, and the machines' commands (paged, by status).
// Stream updates change rows at once; the counts are read again shortly after (at most ~1/s).
import { useCallback, useEffect, useRef, useState } from 'react';
import { useTranslate } from 'ra-core';
import { Link as RouterLink } from 'react-router-dom';
import { Box, Chip, LinearProgress, Link, Table, TableBody, TableCell, TableHead, TableRow, Typography } from '@mui/material';
import { COMMAND_STATUSES, PENDING_STATUSES } from '../../resources/commands';
import { EnumSelect } from '../kit/EnumSelect';
import { PagedTable, type Column } from '../kit/PagedTable';
import { useApiQuery } from '../kit/useApiQuery';
import { machinePagePath } from '../pages/machinePaths';
import { mergeCommand, type BatchPage, type CommandRecord, type RefusedMachine } from './commandTypes';
import { CommandResultCell, CommandStatusCell } from './CommandHistory';
import { commandStatusColor } from './commandUi';
import { useCommandStream } from './useCommandStream';

const COUNTS_REFRESH_MS = 800;

export interface BatchSummaryProps {
  batchId: number | null;
  total: number;
  queued: number;
  refused: readonly RefusedMachine[];
  /** Counts per status as last read (the dialog enables "Resend failed" from them). */
  onCounts?: (counts: Record<string, number>) => void;
}

const Figure = ({ label, value, testId }: { label: string; value: number; testId: string }) => (
  <Box sx={{ minWidth: 90 }} data-testid={testId}>
    <Typography variant="caption" color="text.secondary" component="div">
      {label}
    </Typography>
    <Typography variant="h6" component="div">
      {value}
    </Typography>
  </Box>
);

export const BatchSummary = ({ batchId, total, queued, refused, onCounts }: BatchSummaryProps) => {
  const translate = useTranslate();
  const [page, setPage] = useState(1);
  const [pageSize, setPageSize] = useState(10);
  const [status, setStatus] = useState<string | null>(null);
  const query = { pageNum: page, pageSize, status: status ?? undefined };
  const loaded = useApiQuery(['commandBatch', batchId, query], batchId === null ? null : (http, signal) => http.get<BatchPage>(`/rvm/command/batch/${batchId}`, query, { signal }));
  const [rows, setRows] = useState<CommandRecord[] | undefined>(undefined);
  useEffect(() => setRows(loaded.data?.list), [loaded.data]);
  const counts = loaded.data?.counts;
  useEffect(() => {
    if (counts) onCounts?.(counts);
  }, [counts, onCounts]);

  // Counts are the server's: read them again a little after a burst of updates, not per update.
  const refresh = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const { reload } = loaded;
  useEffect(() => () => clearTimeout(refresh.current), []);
  const onCommand = useCallback(
    (record: CommandRecord) => {
      setRows((current) => (current ? mergeCommand(current, record, false) : current));
      if (refresh.current === undefined) {
        refresh.current = setTimeout(() => {
          refresh.current = undefined;
          reload();
        }, COUNTS_REFRESH_MS);
      }
    },
    [reload],
  );
  useCommandStream(batchId === null ? null : { batchId }, onCommand, reload);

  const pending = counts ? PENDING_STATUSES.reduce((sum, name) => sum + (counts[name] ?? 0), 0) : queued;
  const columns: Column<CommandRecord>[] = [
    {
      key: 'termNo',
      label: 'remote.bulk.machine',
      render: (row) => (
        <Link component={RouterLink} to={machinePagePath(row.rvmId, 'RemoteControl')}>
          {row.termNo}
        </Link>
      ),
    },
    { key: 'status', label: 'remote.history.status', render: (row) => <CommandStatusCell row={row} /> },
    { key: 'result', label: 'remote.history.result', render: (row) => <CommandResultCell row={row} /> },
  ];

  return (
    <Box data-testid="batch-summary">
      <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 2, mb: 1 }}>
        <Figure label={translate('remote.bulk.total')} value={total} testId="batch-total" />
        <Figure label={translate('remote.bulk.queued')} value={queued} testId="batch-queued" />
        <Figure label={translate('remote.bulk.refused')} value={refused.length} testId="batch-refused" />
        <Box sx={{ flex: 1 }} />
        {batchId !== null ? (
          <EnumSelect
            label="remote.history.filterStatus"
            value={status}
            options={COMMAND_STATUSES}
            labels="remote.statuses"
            onChange={(next) => {
              setStatus(next);
              setPage(1);
            }}
          />
        ) : null}
      </Box>
      {counts ? (
        <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 1, mb: 1 }} data-testid="batch-counts">
          {COMMAND_STATUSES.filter((name) => (counts[name] ?? 0) > 0).map((name) => (
            <Chip
              key={name}
              size="small"
              color={commandStatusColor(name)}
              label={`${translate(`remote.statuses.${name}`)}: ${counts[name]}`}
              data-status={name}
              data-count={counts[name]}
            />
          ))}
        </Box>
      ) : null}
      <Box sx={{ height: 4, mb: 1 }}>{queued > 0 && pending > 0 ? <LinearProgress variant="determinate" value={(100 * (queued - pending)) / queued} /> : null}</Box>

      {refused.length > 0 ? (
        <Box sx={{ mb: 2 }}>
          <Typography component="h3" variant="subtitle2" sx={{ mb: 0.5 }}>
            {translate('remote.bulk.refusedTitle')}
          </Typography>
          <Box sx={{ maxHeight: 180, overflowY: 'auto' }}>
            <Table size="small" stickyHeader aria-label={translate('remote.bulk.refusedTitle')} data-testid="batch-refused-table">
              <TableHead>
                <TableRow>
                  <TableCell sx={{ fontWeight: 600 }}>{translate('remote.bulk.machine')}</TableCell>
                  <TableCell sx={{ fontWeight: 600 }}>{translate('remote.bulk.reason')}</TableCell>
                </TableRow>
              </TableHead>
              <TableBody>
                {refused.map((row) => (
                  <TableRow key={row.rvmId}>
                    <TableCell>{row.termNo || `#${row.rvmId}`}</TableCell>
                    <TableCell>{translate(`errors.${row.code}`, { _: row.message })}</TableCell>
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          </Box>
        </Box>
      ) : null}

      {batchId !== null ? (
        <>
          <PagedTable
            columns={columns}
            rows={rows}
            total={loaded.data?.total ?? 0}
            page={page}
            pageSize={pageSize}
            onPage={setPage}
            onPageSize={(next) => {
              setPageSize(next);
              setPage(1);
            }}
            isPending={loaded.isPending}
            error={loaded.error}
            onRetry={reload}
            rowKey={(row) => row.id}
            empty="remote.bulk.empty"
            caption={translate('remote.history.title')}
            testId="batch-commands"
          />
        </>
      ) : null}
    </Box>
  );
};
