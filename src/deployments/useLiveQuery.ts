// One server answer of the deployment screens through react-query: the previous answer stays shown
// while the next loads (paging, filters), and `refreshMs` decides after each answer whether and when
// to read again (a running deployment every few seconds, a finished one never). react-query pauses
// the interval while the browser tab is hidden. Failures show inline (no toast every few seconds).
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useConsoleServices } from '../layout/ConsoleServices';
import type { HttpClient } from '../providers/httpTypes';

export interface LiveAnswer<T> {
  data: T | undefined;
  error: unknown;
  isPending: boolean;
  reload: () => void;
}

export const useLiveQuery = <T>(
  key: readonly unknown[],
  load: ((http: HttpClient, signal: AbortSignal) => Promise<T>) | null,
  refreshMs: (data: T | undefined) => number | false = () => false,
): LiveAnswer<T> => {
  const { http } = useConsoleServices();
  const query = useQuery({
    queryKey: ['deployments', ...key],
    queryFn: ({ signal }) => load!(http, signal),
    enabled: load !== null,
    placeholderData: keepPreviousData,
    refetchInterval: (current) => refreshMs(current.state.data),
    retry: false,
    refetchOnWindowFocus: false,
  });
  return {
    data: query.data,
    // a failed background read keeps the answer shown
    error: query.data === undefined ? query.error : null,
    isPending: query.isFetching && (query.isPlaceholderData || query.data === undefined),
    reload: () => void query.refetch(),
  };
};
