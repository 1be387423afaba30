// Renders remote control screens in jsdom with the console's real i18n and permission plumbing, a
// fake http layer (tests/fixtures/fakeHttp.ts) and a fake command stream (a scripted fetch whose
// text/event-stream body the test writes to).
import type { ReactNode } from 'react';
import { CoreAdminContext, type AuthProvider } from 'ra-core';
import { MemoryRouter } from 'react-router-dom';
import { createTheme, ThemeProvider } from '@mui/material';
import { vi } from 'vitest';
import type { Locale } from '../../i18n';
import { MachineProvider } from '../../src/installation/machine/MachineContext';
import { canAccessAs } from '../../src/permissions/canAccess';
import { ConsoleServicesProvider, type ConsoleServices } from '../../src/layout/ConsoleServices';
import { consoleTheme } from '../../src/layout/theme';
import { createI18nProvider } from '../../src/providers/i18nProvider';
import type { Session } from '../../src/providers/session';
import { fakeHttp } from '../fixtures/fakeHttp';

/** A fetch for the command stream: every connection stays open until the test ends it. */
export const fakeStream = () => {
  const encoder = new TextEncoder();
  const connections: Array<{ url: string; headers: Record<string, string>; controller: ReadableStreamDefaultController<Uint8Array>; aborted: boolean }> = [];
  const fetch = vi.fn(async (url: RequestInfo | URL, init?: RequestInit) => {
    let controller!: ReadableStreamDefaultController<Uint8Array>;
    const body = new ReadableStream<Uint8Array>({ start: (c) => void (controller = c) });
    const connection = { url: String(url), headers: init?.headers as Record<string, string>, controller, aborted: false };
    init?.signal?.addEventListener('abort', () => {
      connection.aborted = true;
      try {
        controller.error(new DOMException('aborted', 'AbortError'));
      } catch {
        /* already closed */
      }
    });
    connections.push(connection);
    return new Response(body, { status: 200, headers: { 'Content-Type': 'text/event-stream' } });
  });
  const last = () => {
    const connection = connections.at(-1);
    if (!connection) throw new Error('no stream connection yet');
    return connection;
  };
  return {
    fetch,
    connections,
    /** Writes raw text to the newest connection. */
    write: (text: string) => last().controller.enqueue(encoder.encode(text)),
    command: (record: object) => last().controller.enqueue(encoder.encode(`event: command\ndata: ${JSON.stringify(record)}\n\n`)),
    /** Ends the newest connection (the server dropped it). */
    drop: () => last().controller.close(),
  };
};

export const ADMIN = { superAdmin: true, permissions: [] };
export const REMOTE_ONLY = { superAdmin: false, permissions: [{ id: 1, identifier: 'installation:rvmpage:RemoteControl' }] };

export interface HarnessOptions {
  locale?: Locale;
  handlers?: Record<string, unknown>;
  userInfo?: object;
  machineId?: number;
}

export const harness = ({ locale = 'en', handlers = {}, userInfo = ADMIN, machineId = 5 }: HarnessOptions = {}) => {
  const { http, download, calls } = fakeHttp(handlers);
  const session = { getToken: () => ({ name: 'rvm-token', value: 'tok' }), getLang: () => locale, clear: vi.fn() } as unknown as Session;
  const services: ConsoleServices = { session, http, download, locale, reload: vi.fn() };
  const authProvider: AuthProvider = {
    login: async () => undefined,
    logout: async () => undefined,
    checkAuth: async () => undefined,
    checkError: async () => undefined,
    // the console's own rule over this user's permissions
    canAccess: async ({ action, resource }) => canAccessAs(userInfo)({ action, resource }),
  };
  const wrap = (children: ReactNode) => (
    <MemoryRouter>
      <ThemeProvider theme={createTheme(consoleTheme)}>
        <ConsoleServicesProvider services={services}>
          <CoreAdminContext authProvider={authProvider} i18nProvider={createI18nProvider(locale)}>
            <MachineProvider machineId={machineId} markNotFound={vi.fn()}>
              {children}
            </MachineProvider>
          </CoreAdminContext>
        </ConsoleServicesProvider>
      </ThemeProvider>
    </MemoryRouter>
  );
  return { http, download, calls, services, wrap };
};

let nextId = 100;
/** A CommandRecord as the http client hands it over (date-times already local text). */
export const commandRecord = (overrides: Record<string, unknown> = {}) => ({
  id: nextId++,
  rvmId: 5,
  termNo: 'HK0005',
  batchId: null,
  command: 'restart',
  params: {},
  status: 'notSent',
  statusReason: null,
  result: null,
  fileId: null,
  createdBy: 1,
  createdByName: 'Ada Admin',
  createdTime: '2025-03-01 10:00:00',
  expiresTime: '2025-03-02 10:00:00',
  sentTime: null,
  ackTime: null,
  finishedTime: null,
  updatedTime: '2025-03-01 10:00:00',
  attempts: 0,
  resendOf: null,
  ...overrides,
});
