// Loads one server answer for a screen: pending/error/data with a reload, the request aborted when
// the inputs change or the screen closes. The previous answer stays shown while the next one loads
// (paging and range changes do not blank the table).
import { useCallback, useEffect, useState } from 'react';
import { useConsoleServices } from '../../layout/ConsoleServices';
import type { HttpClient } from '../../providers/httpTypes';

export interface ApiData<T> {
  data: T | undefined;
  error: unknown;
  isPending: boolean;
  reload: () => void;
}

export const useApiData = <T,>(
  load: ((http: HttpClient, signal: AbortSignal) => Promise<T>) | null,
  /** The inputs of `load`: a new key loads again. */
  key: string,
): ApiData<T> => {
  const { http } = useConsoleServices();
  const [data, setData] = useState<T | undefined>(undefined);
  const [error, setError] = useState<unknown>(null);
  const [isPending, setPending] = useState(load !== null);
  const [generation, setGeneration] = useState(0);

  useEffect(() => {
    if (!load) return undefined;
    const controller = new AbortController();
    setPending(true);
    setError(null);
    load(http, controller.signal).then(
      (answer) => {
        if (controller.signal.aborted) return;
        setData(answer);
        setPending(false);
      },
      (failure: unknown) => {
        if (controller.signal.aborted) return;
        setError(failure);
        setPending(false);
      },
    );
    return () => controller.abort();
    // `load` is re-created every render; `key` names what it depends on.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [http, key, generation, load === null]);

  const reload = useCallback(() => setGeneration((count) => count + 1), []);
  return { data, error, isPending, reload };
};
