// /index/quarantineOverview (docs/product-rules.md#screen-contents): machine messages the server could not accept, newest first
// (POST /quarantine/page): caused by, message type and content, received time, reason, value; paged
// and filterable, with "retry all" (POST /quarantine/retryAll; 9500 while a retry runs, shown as the
// http client's toast). Home's screens are always in the menu, so the page checks its permission.
import { useState, type FormEvent } from 'react';
import { usePaging } from '../layout/usePaging';
import { CanAccess, useNotify, useTranslate } from 'ra-core';
import { Alert, Box, Button, Chip, CircularProgress, Paper, TextField, Tooltip, Typography } from '@mui/material';
import ReplayIcon from '@mui/icons-material/Replay';
import { MESSAGE_TYPES, QUARANTINE_REASONS } from '../../resources/fleetCatalogue';
import { EnumSelect } from '../kit/EnumSelect';
import { PagedTable, type Column } from '../kit/PagedTable';
import { useApiQuery } from '../kit/useApiQuery';
import { useConsoleServices } from '../layout/ConsoleServices';
import type { ScreenProps } from '../pages/screenProps';
import { ScreenHeading } from '../pages/ScreenHeading';
import { identifierRequest } from '../permissions/canAccess';

/** The permission of the quarantine calls (resources/menu.ts Home > quarantineOverview). */
export const QUARANTINE_PERMISSION = 'home:quarantineOverview';

interface QuarantinedMessage {
  id: number;
  causedBy: string;
  messageType: string;
  /** The first 2,000 characters; `contentBytes` is the whole message's size. */
  content: string;
  contentBytes: number;
  /** Sent with the enrollment key: retried only onto a machine registered after it arrived. */
  viaEnrollmentKey: boolean;
  receivedTime: string | null;
  reason: string;
  value: string | null;
  retryCount: number;
  lastRetryTime: string | null;
}

interface RetryState {
  running: boolean;
  startedTime: string | null;
  finishedTime: string | null;
  resolved: number;
  remaining: number;
}

interface QuarantineAnswer {
  list: QuarantinedMessage[];
  total: number;
  retry: RetryState;
}

interface Filters {
  reason: string | null;
  messageType: string | null;
  causedBy: string | null;
}

const RetryStatus = ({ retry }: { retry: RetryState | undefined }) => {
  const translate = useTranslate();
  if (!retry?.startedTime) return null;
  return (
    <Typography variant="body2" color="text.secondary" data-testid="retry-state">
      {retry.running
        ? translate('installation.quarantine.running', { time: retry.startedTime })
        : translate('installation.quarantine.lastRun', { time: retry.finishedTime ?? '', resolved: retry.resolved, remaining: retry.remaining })}
    </Typography>
  );
};

/** One line, cut with an ellipsis. */
const ONE_LINE = { overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' } as const;

const QuarantineList = () => {
  const translate = useTranslate();
  const notify = useNotify();
  const { http } = useConsoleServices();
  const paging = usePaging(20);
  const { page, pageSize } = paging;
  const [filters, setFilters] = useState<Filters>({ reason: null, messageType: null, causedBy: null });
  const [causedBy, setCausedBy] = useState('');
  const [retrying, setRetrying] = useState(false);
  const body = { pageNum: page, pageSize, ...filters };
  const { data, error, isPending, reload } = useApiQuery(['quarantine', body], (client, signal) => client.post<QuarantineAnswer>('/quarantine/page', body, { signal }));

  const setFilter = (name: keyof Filters) => (value: string | null) => {
    setFilters((current) => ({ ...current, [name]: value }));
    paging.firstPage();
  };
  const applyCausedBy = (event: FormEvent) => {
    event.preventDefault();
    setFilter('causedBy')(causedBy.trim() || null);
  };

  const retryAll = async () => {
    setRetrying(true);
    try {
      const state = await http.post<RetryState>('/quarantine/retryAll');
      notify('installation.quarantine.retryDone', { type: 'success', messageArgs: { resolved: state.resolved, remaining: state.remaining } });
    } catch {
      // 9500 and other failures: the http client's toast
    } finally {
      setRetrying(false);
      reload();
    }
  };

  const columns: Column<QuarantinedMessage>[] = [
    {
      key: 'causedBy',
      label: 'fleet.quarantine.causedBy',
      nowrap: true,
      render: (row) => (
        <>
          {row.causedBy}
          {row.viaEnrollmentKey && (
            <Tooltip title={translate('fleet.quarantine.viaEnrollmentKeyHint')}>
              <Chip size="small" variant="outlined" tabIndex={0} label={translate('fleet.quarantine.viaEnrollmentKey')} sx={{ ml: 0.5, height: 18, fontSize: 11 }} />
            </Tooltip>
          )}
        </>
      ),
    },
    { key: 'messageType', label: 'fleet.quarantine.messageType', render: (row) => translate(`fleet.messageTypes.${row.messageType}`, { _: row.messageType }), nowrap: true },
    {
      key: 'content',
      label: 'fleet.quarantine.content',
      // raw JSON: the table keeps what room is left for it, the tooltip shows it whole
      fill: { minWidth: 120 },
      render: (row) => (
        <Tooltip
          title={
            <Box component="pre" sx={{ m: 0, whiteSpace: 'pre-wrap' }}>
              {row.content}
              {row.contentBytes > row.content.length && `\n… ${translate('fleet.quarantine.contentSize', { bytes: row.contentBytes.toLocaleString() })}`}
            </Box>
          }
        >
          <Box component="code" tabIndex={0} sx={{ ...ONE_LINE, display: 'block', fontSize: 12 }}>
            {row.content}
          </Box>
        </Tooltip>
      ),
    },
    { key: 'receivedTime', label: 'fleet.quarantine.receivedTime', render: (row) => row.receivedTime, nowrap: true },
    { key: 'reason', label: 'fleet.quarantine.reason', render: (row) => translate(`fleet.quarantineReasons.${row.reason}`, { _: row.reason }), nowrap: true },
    {
      key: 'value',
      label: 'fleet.quarantine.value',
      render: (row) =>
        row.value ? (
          <Tooltip title={row.value}>
            <Box component="span" tabIndex={0} sx={{ ...ONE_LINE, display: 'inline-block', maxWidth: 170, verticalAlign: 'bottom' }}>
              {row.value}
            </Box>
          </Tooltip>
        ) : null,
    },
    { key: 'retryCount', label: 'fleet.quarantine.retryCount', render: (row) => row.retryCount, align: 'right' },
  ];

  const running = retrying || Boolean(data?.retry?.running);
  return (
    <>
      <Box sx={{ display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: 1.5, mb: 2 }}>
        <EnumSelect label="fleet.quarantine.reason" value={filters.reason} options={QUARANTINE_REASONS} labels="fleet.quarantineReasons" onChange={setFilter('reason')} />
        <EnumSelect label="fleet.quarantine.messageType" value={filters.messageType} options={MESSAGE_TYPES} labels="fleet.messageTypes" onChange={setFilter('messageType')} />
        <Box component="form" onSubmit={applyCausedBy} sx={{ display: 'flex', alignItems: 'center', gap: 1 }}>
          <TextField
            size="small"
            fullWidth={false}
            label={translate('fleet.quarantine.causedBy')}
            value={causedBy}
            onChange={(event) => setCausedBy(event.target.value)}
            slotProps={{ htmlInput: { maxLength: 64 } }}
          />
          <Button type="submit" variant="outlined">
            {translate('installation.common.filter')}
          </Button>
        </Box>
        <Box sx={{ flex: 1 }} />
        <RetryStatus retry={data?.retry} />
        <Button
          variant="contained"
          startIcon={running ? <CircularProgress size={16} color="inherit" /> : <ReplayIcon />}
          onClick={retryAll}
          disabled={running}
          data-testid="retry-all"
        >
          {translate('fleet.quarantine.retryAll')}
        </Button>
      </Box>
      <PagedTable
        columns={columns}
        rows={data?.list}
        total={data?.total ?? 0}
        {...paging.props}
        rowKey={(row) => row.id}
        isPending={isPending}
        error={error}
        onRetry={reload}
        empty="installation.quarantine.empty"
        caption={translate('menu.quarantineOverview')}
        testId="quarantine-list"
      />
    </>
  );
};

const QuarantinePage = ({ node }: ScreenProps) => {
  const translate = useTranslate();
  return (
    <Paper sx={{ p: 2 }} data-testid="quarantine-page">
      <ScreenHeading node={node} />
      <CanAccess {...identifierRequest(QUARANTINE_PERMISSION)} accessDenied={<Alert severity="info">{translate('app.noPermission.message')}</Alert>}>
        <QuarantineList />
      </CanAccess>
    </Paper>
  );
};

export default QuarantinePage;
