// A machine's command history: one page from POST /rvm/command/page (newest first), kept live by the
// command stream. Updates replace their row in place; a new command (sent here, by a colleague or a
// batch) appears at the top of page 1 when it matches the filters. A reconnect reloads the page.
import { useCallback, useEffect, useState } from 'react';
import { useApiQuery } from '../kit/useApiQuery';
import { mergeCommand, type CommandPage, type CommandRecord } from './commandTypes';
import { useCommandStream } from './useCommandStream';

export interface HistoryFilters {
  status: string | null;
  command: string | null;
}

export const useCommandHistory = (rvmId: number, defaultPageSize = 10) => {
  const [page, setPage] = useState(1);
  const [pageSize, setPageSizeState] = useState(defaultPageSize);
  const [filters, setFiltersState] = useState<HistoryFilters>({ status: null, command: null });
  const body = { rvmId, pageNum: page, pageSize, status: filters.status ?? undefined, command: filters.command ?? undefined };
  const loaded = useApiQuery(['commandHistory', body], (http, signal) => http.post<CommandPage>('/rvm/command/page', body, { signal }));
  // Rows and total change together (a new command adds one to both), in one pure state update.
  const [shown, setShown] = useState<{ rows: CommandRecord[]; total: number } | undefined>(undefined);

  useEffect(() => {
    if (loaded.data) setShown({ rows: loaded.data.list, total: loaded.data.total });
  }, [loaded.data]);

  const onTop = page === 1;
  const matches = useCallback(
    (record: CommandRecord) => (!filters.status || record.status === filters.status) && (!filters.command || record.command === filters.command),
    [filters.status, filters.command],
  );

  /** A record from the stream or from an answer of ours (send, resend, cancel). */
  const apply = useCallback(
    (record: CommandRecord) => {
      if (record.rvmId !== rvmId) return;
      setShown((current) => {
        if (!current) return current;
        const rows = mergeCommand(current.rows, record, onTop && matches(record));
        if (rows.length === current.rows.length) return { ...current, rows };
        return { rows: rows.slice(0, pageSize), total: current.total + 1 };
      });
    },
    [rvmId, onTop, matches, pageSize],
  );

  const streamState = useCommandStream({ rvmId }, apply, loaded.reload);

  return {
    rows: shown?.rows,
    total: shown?.total ?? 0,
    page,
    pageSize,
    filters,
    isPending: loaded.isPending,
    error: loaded.error,
    reload: loaded.reload,
    streamState,
    apply,
    setPage,
    setPageSize: (next: number) => {
      setPageSizeState(next);
      setPage(1);
    },
    setFilters: (next: HistoryFilters) => {
      setFiltersState(next);
      setPage(1);
    },
  };
};

export type CommandHistoryState = ReturnType<typeof useCommandHistory>;
