// The command history table of a machine (or of a batch): status chips coloured per status, times,
// result or refusal reason, the uploaded file of downloadLogs / remoteDiagnosis, and Resend /
// Cancel per row. Rows arrive from useCommandHistory, live.
import { useState } from 'react';
import { useNotify, useTranslate } from 'ra-core';
import { Box, Chip, IconButton, Link, Stack, Tooltip, Typography } from '@mui/material';
import CancelIcon from '@mui/icons-material/CancelOutlined';
import ReplayIcon from '@mui/icons-material/Replay';
import { COMMAND_STATUSES, REMOTE_COMMANDS } from '../../resources/commands';
import { EnumSelect } from '../kit/EnumSelect';
import { PagedTable, type Column } from '../kit/PagedTable';
import { useConsoleServices } from '../layout/ConsoleServices';
import { saveBlob } from '../providers/download';
import type { CommandRecord } from './commandTypes';
import { commandStatusColor, FILE_COMMANDS, isPending, isResendable, summariseParams } from './commandUi';
import type { CommandHistoryState } from './useCommandHistory';

export const CommandStatusChip = ({ status }: { status: string }) => {
  const translate = useTranslate();
  return <Chip size="small" label={translate(`remote.statuses.${status}`, { _: status })} color={commandStatusColor(status)} data-status={status} />;
};

/** Status, plus "waits for the RVM to come online, expires …" while it waits. */
export const CommandStatusCell = ({ row }: { row: CommandRecord }) => {
  const translate = useTranslate();
  return (
    <Box sx={{ minWidth: 150 }}>
      <CommandStatusChip status={row.status} />
      {row.status === 'notSent' && row.expiresTime ? (
        <Typography variant="caption" color="text.secondary" component="div" sx={{ mt: 0.5 }} data-testid="command-waiting">
          {translate('remote.history.waiting', { time: row.expiresTime })}
        </Typography>
      ) : null}
    </Box>
  );
};

/** The machine's result message when it says more than the status reason. */
const resultText = (row: CommandRecord): string | null => {
  const message = typeof row.result === 'string' ? row.result : (row.result as { message?: unknown } | null)?.message;
  return typeof message === 'string' && message !== '' && message !== row.statusReason ? message : null;
};

/** Reason of a refusal or failure (catalogue words when known), the machine's result, the file. */
export const CommandResultCell = ({ row }: { row: CommandRecord }) => {
  const translate = useTranslate();
  const { download } = useConsoleServices();
  const fetchFile = async () => {
    try {
      const file = await download.download('GET', `/rvm/file/${row.fileId}`);
      saveBlob(file.blob, file.filename);
    } catch {
      /* the download client already showed 'Download failed' */
    }
  };
  return (
    <Stack spacing={0.25}>
      {row.statusReason ? <Typography variant="body2">{translate(`remote.reasons.${row.statusReason}`, { _: row.statusReason })}</Typography> : null}
      {resultText(row) ? (
        <Typography variant="body2" color="text.secondary">
          {resultText(row)}
        </Typography>
      ) : null}
      {row.fileId && FILE_COMMANDS.includes(row.command) ? (
        <Link component="button" type="button" variant="body2" onClick={() => void fetchFile()} sx={{ textAlign: 'left' }} data-testid="command-file">
          {translate('remote.history.download')}
        </Link>
      ) : null}
    </Stack>
  );
};

export interface CommandRowActionsProps {
  row: CommandRecord;
  onChanged: (record: CommandRecord) => void;
}

export const CommandRowActions = ({ row, onChanged }: CommandRowActionsProps) => {
  const translate = useTranslate();
  const notify = useNotify();
  const { http } = useConsoleServices();
  const [busy, setBusy] = useState(false);
  const act = async (action: 'resend' | 'cancel') => {
    setBusy(true);
    try {
      // Failures (5001 in a wrong state, 8001 ...) get the http client's toast.
      onChanged(await http.post<CommandRecord>(`/rvm/command/${row.id}/${action}`));
      notify(action === 'resend' ? 'remote.history.resent' : 'remote.history.cancelled', { type: 'success' });
    } catch {
      /* shown by the http client */
    } finally {
      setBusy(false);
    }
  };
  return (
    <Box sx={{ display: 'flex', whiteSpace: 'nowrap' }}>
      {isResendable(row.status) ? (
        <Tooltip title={translate('remote.history.resend')}>
          <span>
            <IconButton size="small" disabled={busy} onClick={() => void act('resend')} aria-label={translate('remote.history.resend')} data-testid="command-resend">
              <ReplayIcon fontSize="small" />
            </IconButton>
          </span>
        </Tooltip>
      ) : null}
      {isPending(row.status) ? (
        <Tooltip title={translate('remote.history.cancel')}>
          <span>
            <IconButton size="small" disabled={busy} onClick={() => void act('cancel')} aria-label={translate('remote.history.cancel')} data-testid="command-cancel">
              <CancelIcon fontSize="small" />
            </IconButton>
          </span>
        </Tooltip>
      ) : null}
    </Box>
  );
};

const TIME_SX = { typography: 'body2', minWidth: 84 } as const;

export const CommandHistory = ({ history }: { history: CommandHistoryState }) => {
  const translate = useTranslate();
  const columns: Column<CommandRecord>[] = [
    { key: 'actions', label: 'remote.history.actions', render: (row) => <CommandRowActions row={row} onChanged={history.apply} /> },
    {
      key: 'command',
      label: 'remote.history.command',
      render: (row) => (
        <Box>
          <Typography variant="body2" sx={{ fontWeight: 500 }}>
            {translate(`remote.commands.${row.command}`, { _: row.command })}
          </Typography>
          {row.resendOf ? (
            <Typography variant="caption" color="text.secondary">
              {translate('remote.history.resendOf', { id: row.resendOf })}
            </Typography>
          ) : null}
        </Box>
      ),
    },
    { key: 'params', label: 'remote.history.params', render: (row) => summariseParams(row.command, row.params, translate) },
    { key: 'status', label: 'remote.history.status', render: (row) => <CommandStatusCell row={row} /> },
    { key: 'createdBy', label: 'remote.history.createdBy', render: (row) => row.createdByName },
    { key: 'createdTime', label: 'remote.history.createdTime', render: (row) => <Box sx={TIME_SX}>{row.createdTime}</Box> },
    { key: 'sentTime', label: 'remote.history.sentTime', render: (row) => <Box sx={TIME_SX}>{row.sentTime}</Box> },
    { key: 'finishedTime', label: 'remote.history.finishedTime', render: (row) => <Box sx={TIME_SX}>{row.finishedTime}</Box> },
    { key: 'result', label: 'remote.history.result', render: (row) => <CommandResultCell row={row} /> },
  ];

  const live = history.streamState === 'open';
  return (
    <Box component="section" aria-labelledby="command-history-title" data-testid="command-history">
      <Box sx={{ display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: 1.5, mb: 1 }}>
        <Typography id="command-history-title" component="h2" variant="subtitle1" sx={{ fontWeight: 600 }}>
          {translate('remote.history.title')}
        </Typography>
        <Chip
          size="small"
          variant="outlined"
          color={live ? 'success' : 'warning'}
          label={translate(live ? 'remote.history.live' : 'remote.history.reconnecting')}
          data-testid="stream-state"
          data-state={history.streamState}
          sx={{ visibility: history.streamState === 'connecting' ? 'hidden' : 'visible' }}
        />
        <Box sx={{ flex: 1 }} />
        <EnumSelect
          label="remote.history.filterCommand"
          value={history.filters.command}
          options={REMOTE_COMMANDS}
          labels="remote.commands"
          onChange={(command) => history.setFilters({ ...history.filters, command })}
        />
        <EnumSelect
          label="remote.history.filterStatus"
          value={history.filters.status}
          options={COMMAND_STATUSES}
          labels="remote.statuses"
          onChange={(status) => history.setFilters({ ...history.filters, status })}
        />
      </Box>
      {/* narrower cell padding: nine columns fit the 1280 px layout */}
      <Box sx={{ '& .MuiTableCell-root': { px: 1 } }}>
        <PagedTable
          columns={columns}
          rows={history.rows}
          total={history.total}
          page={history.page}
          pageSize={history.pageSize}
          onPage={history.setPage}
          onPageSize={history.setPageSize}
          isPending={history.isPending}
          error={history.error}
          onRetry={history.reload}
          rowKey={(row) => row.id}
          empty="remote.history.empty"
          caption={translate('remote.history.title')}
          testId="command-history-table"
        />
      </Box>
    </Box>
  );
};
