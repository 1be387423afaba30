// Entry point (index.html loads it). Light on purpose (issue 8): a signed-out visitor gets the login
// screen from this chunk alone (./auth/PublicApp.tsx: no react-admin, no router); the console
// (./App.tsx: react-admin, layout, menu, screens) is a lazy chunk, loaded when a session exists or
// while the sign-in request runs.
import { lazy, StrictMode, useCallback, useState } from 'react';
import { createRoot } from 'react-dom/client';
import { I18nContext } from 'ra-core';
import { PublicApp, type PublicAppProps } from './auth/PublicApp';
import { createPublicI18n } from './auth/publicI18n';
import { afterSignInPath, guardRedirect, guardTarget, HOME_PATH, LOGIN_PATH, safeNextPath } from './providers/routeGuard';
import { bridgedNotify } from './layout/notifySink';
import type { ConsoleServices } from './layout/ConsoleServices';
import type { DownloadClient } from './providers/httpTypes';
import { applyDocumentLanguage } from './providers/documentLanguage';
import { createHttpClient } from './providers/http';
import { createSession, documentCookieJar } from './providers/session';
import { ChunkErrorBoundary, ChunkSuspense } from './pages/ChunkBoundary';

const session = createSession(window.localStorage, documentCookieJar());
const locale = session.getLang();
const reload = (path?: string) => (path ? window.location.assign(path) : window.location.reload());
// The page language's texts of the signed-out pages: a small chunk, fetched now (the page renders once it is in).
const publicI18n = createPublicI18n(locale);
// The http client's texts are errors.* and app.http.*, which the light translator has.
const clientOptions = { session, notify: bridgedNotify, translate: publicI18n.translate, onForcedLogout: () => reload() };
// Downloads happen in the console only: the download client's code comes with its first use.
const download: DownloadClient = {
  download: (...args) => import('./providers/download').then(({ createDownloadClient }) => createDownloadClient(clientOptions).download(...args)),
};
const services: ConsoleServices = { session, http: createHttpClient(clientOptions), download, locale, reload };
applyDocumentLanguage(locale);

// The console and the catalogue of the page's language only (each language is a chunk of its own). One
// loader per language: written as one conditional import, the build preloaded both languages' chunks.
const MESSAGES = { en: () => import('./providers/messagesEn'), zh: () => import('./providers/messagesZh') };
const loadMessages = () => MESSAGES[locale]().then((module) => module.messages);
// The console opens on the home dashboard after a sign-in and on its own route: the dashboard's chunk is
// fetched together with the console's rather than after it has run (one round trip less before the cards).
const opensOnHome = () => (!session.isSignedIn() && !safeNextPath(window.location.search)) || ['/', HOME_PATH].includes(window.location.pathname.replace(/\/+$/, '') || '/');
const loadConsole = () => {
  if (opensOnHome()) void import('./dashboard/DashboardPage').catch(() => undefined);
  return Promise.all([import('./App'), loadMessages()]).then(([{ default: App }, messages]) => ({
    default: () => <App services={services} messages={messages} />,
  }));
};
let consoleChunk: ReturnType<typeof loadConsole> | undefined;
const ConsoleApp = lazy(() => (consoleChunk ??= loadConsole()));
// The console's chunk starts loading with the sign-in request, so both arrive together.
const prefetchConsoleChunk = () => void (consoleChunk ??= loadConsole()).catch(() => undefined);

type Mode = 'console' | PublicAppProps['mode'];

/**
 * The route guard (docs/product-rules.md#screens-and-routes) for the page load: signed in, the console; signed out, a public page (else the
 * login page, `?next=` keeping the deep link to open after sign-in).
 */
const initialMode = (): Mode => {
  if (session.isSignedIn()) return 'console';
  const redirect = guardTarget(window.location.pathname, window.location.search, false);
  if (redirect) window.history.replaceState(null, '', redirect);
  return guardRedirect(window.location.pathname, false) === null && window.location.pathname.replace(/\/+$/, '') === LOGIN_PATH ? 'login' : 'pages';
};

/** While the console's chunk loads: an empty page that says it is busy (no spinner code in this chunk). */
const Loading = () => <div aria-busy="true" style={{ minHeight: '100vh' }} />;

const Root = () => {
  const [mode, setMode] = useState<Mode>(initialMode);
  const enterConsole = useCallback(() => {
    // the deep link the visitor opened signed out (`/login?next=…`), else home
    window.history.replaceState(null, '', afterSignInPath(window.location.search));
    setMode('console');
  }, []);
  const navigate = useCallback((path: string) => {
    window.history.pushState(null, '', path);
    setMode(path === LOGIN_PATH ? 'login' : 'pages');
  }, []);
  if (mode !== 'console') return <PublicApp services={services} mode={mode} navigate={navigate} onSignInStarted={prefetchConsoleChunk} onSignedIn={enterConsole} />;
  return (
    <ChunkErrorBoundary>
      <ChunkSuspense fallback={<Loading />}>
        <ConsoleApp />
      </ChunkSuspense>
    </ChunkErrorBoundary>
  );
};

// Signed in, the console's chunks are fetched together with the texts rather than after them.
if (session.isSignedIn()) prefetchConsoleChunk();

const container = document.getElementById('root');
if (!container) throw new Error('index.html has no #root element');
// Texts that failed to load (network) leave their keys on screen rather than a blank page.
void publicI18n.ready
  .catch(() => undefined)
  .then(() => {
    // docs/product-rules.md#screens-and-routes: the page title is the translated application title (the language is fixed per page load).
    document.title = publicI18n.translate('app.title');
    createRoot(container).render(
      <StrictMode>
        <I18nContext.Provider value={publicI18n.provider}>
          <Root />
        </I18nContext.Provider>
      </StrictMode>,
    );
  });
