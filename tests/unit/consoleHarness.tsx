// Renders the console's hand-written screens in jsdom against a fake server: the real session (over
// in-memory storage and cookies), the real http client (envelopes of docs/ARCHITECTURE.md#console-http-client,
// error toasts, forced logout) over a scripted `fetch`, the real auth, i18n and data providers, and react-admin's own
// <AdminContext>/<AdminUI>. Nothing of the screen under test is mocked. Two ways in:
// `renderApp(path)` mounts the whole console as src/App.tsx wires it (route guard, layout, login page,
// menu screens, 404/401); `renderIn(element)` mounts one screen or dialog inside the same providers.
import type { ReactElement, ReactNode } from 'react';
import createCache from '@emotion/cache';
import { CacheProvider } from '@emotion/react';
import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { AdminContext, AdminUI, CustomRoutes, memoryStore } from 'react-admin';
import { MemoryRouter, Navigate, Route, useLocation } from 'react-router-dom';
import { expect, vi } from 'vitest';
import type { Locale } from '../../i18n';
import { RESOURCES } from '../../resources';
import { ForgotPasswordPage } from '../../src/auth/ForgotPasswordPage';
import { LoginPage } from '../../src/auth/LoginPage';
import { ResetPasswordPage } from '../../src/auth/ResetPasswordPage';
import { RouteGuard } from '../../src/auth/RouteGuard';
import { buildResources } from '../../src/app/resourceViews';
import { ConsoleLayout } from '../../src/app/ConsoleLayout';
import { ConsoleServicesProvider, type ConsoleServices } from '../../src/layout/ConsoleServices';
import { BridgedNotification, bridgedNotify } from '../../src/layout/notifyBridge';
import { consoleTheme } from '../../src/layout/theme';
import { NoPermissionPage, NotFoundPage } from '../../src/pages/StatusPage';
import { screenRoutes } from '../../src/app/screenRoutes';
import { createAuthProvider } from '../../src/providers/authProvider';
import { createAccessRule } from '../../src/permissions/canAccess';
import { createDataProvider } from '../../src/providers/dataProvider';
import { createHttpClient } from '../../src/providers/http';
import { ApiError } from '../../src/providers/httpTypes';
import { catalogueTranslator, createI18nProvider } from '../../src/providers/i18nProvider';
import { createSession, type CookieJar, type KeyValueStorage, type LoginAnswer, type UserInfo } from '../../src/providers/session';
import { fakeHttp, type RecordedCall } from '../fixtures/fakeHttp';

export const ADMIN: UserInfo = { superAdmin: true, permissions: [] };
/** A user holding exactly these identifiers (ids are server-assigned, never a product menu id of docs/product-rules.md#menu-tree). */
export const holding = (...identifiers: string[]): UserInfo => ({
  superAdmin: false,
  permissions: identifiers.map((identifier, index) => ({ id: 90_000 + index, identifier })),
});

export const memoryStorage = (): KeyValueStorage & { entries: Map<string, string> } => {
  const entries = new Map<string, string>();
  return {
    entries,
    getItem: (key) => entries.get(key) ?? null,
    setItem: (key, value) => void entries.set(key, String(value)),
    removeItem: (key) => void entries.delete(key),
  };
};

export const memoryCookies = (): CookieJar & { entries: Map<string, string> } => {
  const entries = new Map<string, string>();
  return {
    entries,
    get: (name) => entries.get(name),
    set: (name, value) => void entries.set(name, value),
    remove: (name) => void entries.delete(name),
  };
};

/**
 * The console's theme without animations: no ripples, and menus, dialogs and toasts open and close at
 * once (jsdom has no frames to animate; waiting for transitions only slows the tests down).
 */
const NO_DURATION = { shortest: 0, shorter: 0, short: 0, standard: 0, complex: 0, enteringScreen: 0, leavingScreen: 0 };
export const testTheme = {
  ...consoleTheme,
  transitions: { duration: NO_DURATION },
  components: { ...consoleTheme.components, MuiButtonBase: { defaultProps: { disableRipple: true } } },
} as typeof consoleTheme;

/**
 * MUI's styles go to a <style> container outside the document: jsdom lays nothing out, and every
 * getComputedStyle (accessible names, visibility, pointer-events checks) would otherwise match each
 * element against thousands of emotion rules (role queries were 5-10 times slower with them).
 */
const detachedStyles = () => createCache({ key: 'test', container: document.createElement('div') });

/** The translator the console itself uses (our catalogues plus react-admin's `ra.*`). */
export const translatorFor = (locale: Locale) => {
  const provider = createI18nProvider(locale);
  return (key: string, values?: Record<string, unknown>) => provider.translate(key, values);
};
export const t = translatorFor('en');

/** A user-event session without artificial pauses between keystrokes (the unit projects run twice). */
export const setupUser = () => userEvent.setup({ delay: null });

/** Shows where the router is (pathname + search), for navigation assertions. */
const LocationProbe = () => {
  const location = useLocation();
  return <output data-testid="location" hidden>{`${location.pathname}${location.search}`}</output>;
};
export const currentLocation = (container: ParentNode = document) => container.querySelector('[data-testid="location"]')?.textContent ?? '';

/**
 * Waits until the signed-in console shows its home route: the path and the header's greeting (the
 * home screen's own content is the dashboard's business, see src/app/HomePage.tsx).
 */
export const homeReached = async (realName = 'Ada Admin', options = { timeout: 20_000 }) => {
  await waitFor(() => expect(currentLocation()).toBe('/index/index'), options);
  await screen.findByText(t('app.header.greeting', { name: realName }), {}, options);
};

type Handler = (call: RecordedCall) => unknown;

/**
 * A `fetch` answering `/test-api/<path>` from handlers keyed 'METHOD path': a handler's value (or a
 * function's result, awaited) is sent as the success envelope; a thrown ApiError as a failure envelope
 * with its code, message and data. Unknown paths answer success with no data. Every call is recorded.
 */
export const fakeServer = (handlers: Record<string, unknown>, calls: RecordedCall[] = []) => {
  const fetch = vi.fn(async (input: RequestInfo | URL, init: RequestInit = {}) => {
    const url = new URL(String(input), 'http://console.test');
    const method = init.method ?? 'GET';
    const path = url.pathname.replace(/^\/test-api/, '');
    const query = url.search ? Object.fromEntries(url.searchParams) : undefined;
    const body = typeof init.body === 'string' ? (JSON.parse(init.body) as unknown) : undefined;
    const call: RecordedCall = { method, path, query, body };
    calls.push(call);
    const handler = handlers[`${method} ${path}`];
    let envelope: object;
    try {
      const data = typeof handler === 'function' ? await (handler as Handler)(call) : (handler ?? null);
      envelope = { code: '0', message: 'ok', data };
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      envelope = { code: error.code, message: error.message, data: error.data ?? null };
    }
    if (init.signal?.aborted) throw new DOMException('The operation was aborted.', 'AbortError');
    return new Response(JSON.stringify(envelope), { status: 200, headers: { 'Content-Type': 'application/json' } });
  });
  return { fetch, calls };
};

/** A handler that answers only when the test says so (pending states). */
export const deferred = <T,>() => {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((ok, fail) => {
    resolve = ok;
    reject = fail;
  });
  return { promise, resolve, reject };
};

export interface ConsoleOptions {
  /** Answers of the fake server, keyed 'METHOD path' (see fakeServer). */
  handlers?: Record<string, unknown>;
  /** Signed in as this user (null: signed out). */
  user?: UserInfo | null;
  realName?: string;
  accountName?: string;
  /** The license account's currency in the LoginAnswer (none: refund values show as plain numbers). */
  currency?: string;
  username?: string;
  /** The password of the stored session (the change-password dialog compares against it). */
  password?: string;
  rememberPassword?: boolean;
  /** A pending forced password change in the stored session. */
  forced?: 'firstLogin' | 'passwordExpired';
}

export const consoleHarness = (options: ConsoleOptions = {}) => {
  const { handlers = {}, user = ADMIN, realName = 'Ada Admin', accountName = 'Harbour Recycling', username = 'ada', password = 'Old#pass1' } = options;
  const { download } = fakeHttp();
  const storage = memoryStorage();
  const cookies = memoryCookies();
  const session = createSession(storage, cookies);
  const reload = vi.fn<(path?: string) => void>();
  const server = fakeServer(handlers);
  const { calls } = server;
  const http = createHttpClient({
    fetch: server.fetch,
    session,
    notify: bridgedNotify,
    translate: (key, values) => catalogueTranslator(session.getLang())(key, values),
    onForcedLogout: () => reload(),
  });
  if (user) {
    const answer: LoginAnswer = {
      accountName,
      ...(options.currency ? { currency: options.currency } : {}),
      userId: 7,
      realName,
      tokenInfo: { tokenName: 'rvm-token', tokenValue: 'token-1' },
      userInfo: user,
      firstLogin: options.forced === 'firstLogin',
      passwordExpired: options.forced === 'passwordExpired',
    };
    void session.storeLogin(answer, { username, password, rememberPassword: options.rememberPassword ?? false }); // synchronous: the cipher is loaded
  }
  // canAccess as App.tsx wires it (code-declared resources and menu: the harness has no configured types)
  const authProvider = createAuthProvider(http, session, { access: createAccessRule() });
  const dataProvider = createDataProvider(http, download);

  /** Providers as a page load builds them: the language is read from the session now. */
  const providers = (path: string, children: ReactNode) => {
    const locale = session.getLang();
    const services: ConsoleServices = { session, http, download, locale, reload };
    return (
      <MemoryRouter initialEntries={[path]}>
        <CacheProvider value={detachedStyles()}>
          <ConsoleServicesProvider services={services}>
            <AdminContext authProvider={authProvider} dataProvider={dataProvider} i18nProvider={createI18nProvider(locale)} store={memoryStore()} theme={testTheme}>
              {children}
            </AdminContext>
          </ConsoleServicesProvider>
        </CacheProvider>
        <LocationProbe />
      </MemoryRouter>
    );
  };

  /** The whole console at `path`, wired as src/App.tsx wires it (the router is a MemoryRouter). */
  const renderApp = (path: string) => {
    const locale = session.getLang();
    const services: ConsoleServices = { session, http, download, locale, reload };
    return render(
      <MemoryRouter initialEntries={[path]}>
        <CacheProvider value={detachedStyles()}>
          <ConsoleServicesProvider services={services}>
            <RouteGuard isSignedIn={session.isSignedIn}>
              <AdminContext authProvider={authProvider} dataProvider={dataProvider} i18nProvider={createI18nProvider(locale)} store={memoryStore()} theme={testTheme}>
                <AdminUI
                  layout={ConsoleLayout}
                  loginPage={LoginPage}
                  catchAll={() => <Navigate to="/404" replace />}
                  notification={BridgedNotification}
                  requireAuth
                  disableTelemetry
                >
                  {buildResources()}
                  <CustomRoutes noLayout>
                    <Route path="/forgotPassword" element={<ForgotPasswordPage />} />
                    <Route path="/resetPassword" element={<ResetPasswordPage />} />
                    <Route path="/404" element={<NotFoundPage />} />
                    <Route path="/401" element={<NoPermissionPage />} />
                  </CustomRoutes>
                  <CustomRoutes>{screenRoutes(RESOURCES.map((declaration) => declaration.route))}</CustomRoutes>
                </AdminUI>
              </AdminContext>
            </RouteGuard>
          </ConsoleServicesProvider>
        </CacheProvider>
        <LocationProbe />
      </MemoryRouter>,
    );
  };

  /** One element inside the console's providers (with the toast area), the router at `path`. */
  const renderIn = (element: ReactElement, path = '/') =>
    render(
      providers(
        path,
        <>
          {element}
          <BridgedNotification />
        </>,
      ),
    );

  return { http, download, calls, server, session, storage, cookies, reload, authProvider, renderApp, renderIn };
};

export type ConsoleHarness = ReturnType<typeof consoleHarness>;

/** Calls of one 'METHOD path'. */
export const callsTo = (calls: ConsoleHarness['calls'], method: string, path: string) => calls.filter((call) => call.method === method && call.path === path);
