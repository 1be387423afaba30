// Loads one server answer for a screen: pending/error/data with a reload, the request aborted when
// the inputs change or the screen closes. The previous answer stays shown while the next one loads
// (paging and range changes do not blank the table).
import { useCallback, useEffect, useRef, useState } from 'react';
import { useConsoleServices } from '../../layout/ConsoleServices';
import type { HttpClient } from '../../providers/httpTypes';

export interface ApiData<T> {
  data: T | undefined;
  error: unknown;
  isPending: boolean;
  reload: () => void;
}

export interface ApiDataOptions {
  /**
   * Loads again this often while the browser tab is shown (data that changes by itself, e.g. machine
   * status: docs/fleet.md "Live pages"); the shown answer stays until the next one arrives.
   */
  refreshEveryMs?: number;
}

export const useApiData = <T,>(
  load: ((http: HttpClient, signal: AbortSignal) => Promise<T>) | null,
  /** The inputs of `load`: a new key loads again. */
  key: string,
  { refreshEveryMs }: ApiDataOptions = {},
): ApiData<T> => {
  const { http } = useConsoleServices();
  const [data, setData] = useState<T | undefined>(undefined);
  const [error, setError] = useState<unknown>(null);
  const [isPending, setPending] = useState(load !== null);
  const [generation, setGeneration] = useState(0);
  // A refresh by the timer is quiet: no pending state, and a failed one keeps the answer shown.
  const [refreshes, setRefreshes] = useState(0);
  const quiet = useRef(false);

  useEffect(() => {
    if (!load) return undefined;
    const controller = new AbortController();
    const background = quiet.current;
    quiet.current = false;
    if (!background) {
      setPending(true);
      setError(null);
    }
    load(http, controller.signal).then(
      (answer) => {
        if (controller.signal.aborted) return;
        setData(answer);
        setError(null);
        setPending(false);
      },
      (failure: unknown) => {
        if (controller.signal.aborted || background) return;
        setError(failure);
        setPending(false);
      },
    );
    return () => controller.abort();
    // `load` is re-created every render; `key` names what it depends on.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [http, key, generation, refreshes, load === null]);

  const reload = useCallback(() => setGeneration((count) => count + 1), []);
  useEffect(() => {
    if (!refreshEveryMs || !load) return undefined;
    const timer = setInterval(() => {
      if (document.visibilityState !== 'visible') return;
      quiet.current = true;
      setRefreshes((count) => count + 1);
    }, refreshEveryMs);
    return () => clearInterval(timer);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [refreshEveryMs, load === null]);
  return { data, error, isPending, reload };
};
