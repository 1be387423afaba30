// The machine a page shows, for its tabs: its id, and a way to report that the server does not know
// it (6001 'The RVM does not exist'), which turns the whole page into its not-found state.
import { createContext, useContext, useEffect, type ReactNode } from 'react';
import { ApiError, type HttpClient } from '../../providers/httpTypes';
import type { QueryKey } from '@tanstack/react-query';
import { useApiQuery, type ApiAnswer } from '../../kit/useApiQuery';

interface MachineScope {
  machineId: number;
  markNotFound: () => void;
}

const MachineContext = createContext<MachineScope | null>(null);

export const MachineProvider = ({ machineId, markNotFound, children }: MachineScope & { children: ReactNode }) => (
  <MachineContext.Provider value={{ machineId, markNotFound }}>{children}</MachineContext.Provider>
);

export const useMachine = (): MachineScope => {
  const scope = useContext(MachineContext);
  if (!scope) throw new Error('useMachine must be used inside <MachineProvider>');
  return scope;
};

/** Codes meaning "no such machine (for you)": 6001 from the machine page calls, 2003 from generic CRUD. */
export const isMachineMissing = (error: unknown): boolean => error instanceof ApiError && (error.code === '6001' || error.code === '2003');

/**
 * useApiQuery for a tab of the current machine (`key`: what the tab asks besides the machine); a 6001
 * answer shows the page's not-found state.
 */
export const useMachineData = <T,>(load: (http: HttpClient, machineId: number, signal: AbortSignal) => Promise<T>, key: QueryKey): ApiAnswer<T> => {
  const { machineId, markNotFound } = useMachine();
  const answer = useApiQuery(['machine', machineId, ...key], (http, signal) => load(http, machineId, signal));
  const missing = isMachineMissing(answer.error);
  useEffect(() => {
    if (missing) markNotFound();
  }, [missing, markNotFound]);
  return answer;
};
