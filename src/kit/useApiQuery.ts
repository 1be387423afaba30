// One server answer of a screen through react-query (react-admin's QueryClient): keyed by what the screen
// asks for, so identical requests at once are one request, and a screen opened again shows its last answer
// at once while it loads again. The previous answer stays shown while the next one loads (paging and filter
// changes do not blank a table); the request is aborted when the inputs change or the screen closes.
// `refreshEveryMs` loads again while the browser tab is shown (react-query pauses its interval while the tab
// is hidden: docs/fleet.md#live-pages), quietly, and a failed refresh keeps the shown answer.
import { useCallback } from 'react';
import { keepPreviousData, skipToken, useQuery, useQueryClient, type QueryKey } from '@tanstack/react-query';
import { useConsoleServices } from '../layout/ConsoleServices';
import type { HttpClient } from '../providers/httpTypes';

export interface ApiAnswer<T> {
  data: T | undefined;
  /** Shown only while there is no answer to show (a failed refresh keeps the answer, not the error). */
  error: unknown;
  /** No answer for the current inputs yet (the previous one may still be shown). */
  isPending: boolean;
  /** Loads again (a retry button, or after a change the answer reflects). */
  reload: () => void;
  /** Replaces the cached answer (e.g. by the record a save answered with). */
  setData: (data: T) => void;
}

export interface ApiQueryOptions {
  /** Loads again this often while the browser tab is shown (data that changes by itself, e.g. machine status). */
  refreshEveryMs?: number;
}

/** Keys of the console's own answers start with this, apart from react-admin's (resource names). */
const KEY_ROOT = 'api';

export const useApiQuery = <T>(
  /** What is asked for (the screen's name, then every input of `load`): the same key is the same answer. */
  key: QueryKey,
  /** null: nothing to load yet (the last answer, if any, stays). */
  load: ((http: HttpClient, signal: AbortSignal) => Promise<T>) | null,
  { refreshEveryMs }: ApiQueryOptions = {},
): ApiAnswer<T> => {
  const { http } = useConsoleServices();
  const queryClient = useQueryClient();
  const queryKey = [KEY_ROOT, ...key];
  const query = useQuery({
    queryKey,
    queryFn: load ? ({ signal }) => load(http, signal) : skipToken,
    placeholderData: keepPreviousData,
    refetchInterval: refreshEveryMs ?? false,
    // as before react-query: an error shows at once (the screen offers a retry), and a screen loads when
    // opened or changed, not when the window gets the focus back
    retry: false,
    refetchOnWindowFocus: false,
  });
  const isPending = query.isFetching && (query.data === undefined || query.isPlaceholderData);
  const { refetch } = query;
  const reload = useCallback(() => void refetch(), [refetch]);
  return {
    data: query.data,
    error: query.data === undefined && !isPending ? query.error : null,
    isPending,
    reload,
    setData: (data: T) => void queryClient.setQueryData(queryKey, data),
  };
};
