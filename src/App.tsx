// Wiring only: services, providers, the router and the routes. Behaviour lives in the modules.
import { Admin, CustomRoutes } from 'react-admin';
import { Navigate, Route, RouterProvider, createBrowserRouter } from 'react-router-dom';
import { RESOURCES } from '../resources';
import { createHttpClient } from './providers/http';
import { createDownloadClient } from './providers/download';
import { createSession, documentCookieJar } from './providers/session';
import { createAuthProvider } from './providers/authProvider';
import { catalogueTranslator, createI18nProvider } from './providers/i18nProvider';
import { createDataProvider } from './providers/dataProvider';
import { buildResources } from './generic';
import { ConsoleServicesProvider, type ConsoleServices } from './layout/ConsoleServices';
import { BridgedNotification, bridgedNotify } from './layout/notifyBridge';
import { ConsoleLayout } from './layout/ConsoleLayout';
import { consoleTheme } from './layout/theme';
import { RouteGuard } from './auth/RouteGuard';
import { LoginPage } from './auth/LoginPage';
import { ForgotPasswordPage } from './auth/ForgotPasswordPage';
import { ResetPasswordPage } from './auth/ResetPasswordPage';
import { NoPermissionPage, NotFoundPage } from './pages/StatusPage';
import { screenRoutes } from './pages/screenRoutes';

const session = createSession(window.localStorage, documentCookieJar());
const locale = session.getLang();
const reload = (path?: string) => (path ? window.location.assign(path) : window.location.reload());
const clientOptions = {
  session,
  notify: bridgedNotify,
  translate: catalogueTranslator(locale),
  onForcedLogout: () => reload(),
};
const http = createHttpClient(clientOptions);
const download = createDownloadClient(clientOptions);
const services: ConsoleServices = { session, http, download, locale, reload };

const authProvider = createAuthProvider(http, session);
const i18nProvider = createI18nProvider(locale);
const dataProvider = createDataProvider(http, download);

// SPEC 2: the page title is the translated application title (the language is fixed per page load).
document.title = i18nProvider.translate('app.title');
document.documentElement.lang = locale === 'zh' ? 'zh-CN' : 'en';

const CatchAll = () => <Navigate to="/404" replace />;

const ConsoleAdmin = () => (
  <Admin
    authProvider={authProvider}
    dataProvider={dataProvider}
    i18nProvider={i18nProvider}
    layout={ConsoleLayout}
    loginPage={LoginPage}
    catchAll={CatchAll}
    notification={BridgedNotification}
    theme={consoleTheme}
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
    {/* Menu screens; routes of declared resources are served by buildResources() above. */}
    <CustomRoutes>{screenRoutes(RESOURCES.map((declaration) => declaration.route))}</CustomRoutes>
  </Admin>
);

// BrowserRouter (real paths such as /index/index; the server falls back to index.html). A data
// router, so react-admin can block navigation away from unsaved forms.
const router = createBrowserRouter([
  {
    path: '*',
    element: (
      <ConsoleServicesProvider services={services}>
        <RouteGuard isSignedIn={session.isSignedIn}>
          <ConsoleAdmin />
        </RouteGuard>
      </ConsoleServicesProvider>
    ),
  },
]);

export const App = () => <RouterProvider router={router} />;
