// The console's non-React services (session, http and download clients, language), handed to
// components through context so pages and dialogs never create their own.
import { createContext, useContext, type ReactNode } from 'react';
import type { Locale } from '../../i18n';
import type { DownloadClient, HttpClient } from '../providers/httpTypes';
import type { Session } from '../providers/session';

export interface ConsoleServices {
  session: Session;
  http: HttpClient;
  download: DownloadClient;
  locale: Locale;
  /** Full page reload (docs/product-rules.md#sign-in-and-session: language switch, logout, forced logout, account switch). */
  reload: (path?: string) => void;
}

const ConsoleServicesContext = createContext<ConsoleServices | null>(null);

export const ConsoleServicesProvider = ({ services, children }: { services: ConsoleServices; children: ReactNode }) => (
  <ConsoleServicesContext.Provider value={services}>{children}</ConsoleServicesContext.Provider>
);

export const useConsoleServices = (): ConsoleServices => {
  const services = useContext(ConsoleServicesContext);
  if (!services) throw new Error('useConsoleServices must be used inside <ConsoleServicesProvider>');
  return services;
};
