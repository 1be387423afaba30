// The signed-in console (a lazy chunk of src/main.tsx, which hands over its services and the messages
// of the page's language): providers, the router and the routes. Behaviour lives in the modules.
import { useState } from 'react';
import { CoreAdminUI, localStorageStore } from 'ra-core';
import { AccessDenied, AdminContext, AuthenticationError, CustomRoutes, Error as ErrorPage, LoadingPage } from 'react-admin';
import { CssBaseline } from '@mui/material';
import { Navigate, Route, RouterProvider, createBrowserRouter } from 'react-router-dom';
import { RESOURCES } from '../resources';
import { createAuthProvider } from './providers/authProvider';
import { createConsoleI18nProvider } from './providers/consoleI18n';
import type { TranslationMessages } from 'ra-core';
import { createDataProvider } from './providers/dataProvider';
import { buildResources } from './generic';
import { ConsoleServicesProvider, type ConsoleServices } from './layout/ConsoleServices';
import { BridgedNotification } from './layout/notifyBridge';
import { ConsoleLayout } from './layout/ConsoleLayout';
import { consoleTheme } from './layout/theme';
import { RouteGuard } from './auth/RouteGuard';
import { LoginPage } from './auth/LoginPage';
import { ForgotPasswordPage } from './auth/ForgotPasswordPage';
import { ResetPasswordPage } from './auth/ResetPasswordPage';
import { NoPermissionPage, NotFoundPage } from './pages/StatusPage';
import { screenRoutes } from './pages/screenRoutes';

const CatchAll = () => <Navigate to="/404" replace />;

const createConsoleRouter = (services: ConsoleServices, messages: TranslationMessages) => {
  const { session, http, download, locale } = services;
  const authProvider = createAuthProvider(http, session);
  const i18nProvider = createConsoleI18nProvider(locale, () => messages);
  const dataProvider = createDataProvider(http, download);
  // react-admin's <Admin> is <AdminContext> + <AdminUI>; AdminUI's defaults (its layout, login page,
  // app bar, menu…) would ship in this chunk although every one is replaced, so the parts are wired here
  // with ra-core's <CoreAdminUI>, as AdminUI does it (issue 8: the home screen's download).
  const store = localStorageStore();
  const ConsoleAdmin = () => (
    <AdminContext authProvider={authProvider} dataProvider={dataProvider} i18nProvider={i18nProvider} store={store} theme={consoleTheme}>
      <CssBaseline enableColorScheme>
        <CoreAdminUI
          layout={ConsoleLayout}
          loginPage={LoginPage}
          catchAll={CatchAll}
          error={ErrorPage}
          loading={LoadingPage}
          accessDenied={AccessDenied}
          authenticationError={AuthenticationError}
          title="React Admin"
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
        </CoreAdminUI>
        <BridgedNotification />
      </CssBaseline>
    </AdminContext>
  );
  // BrowserRouter (real paths such as /index/index; the server falls back to index.html). A data
  // router, so react-admin can block navigation away from unsaved forms.
  return createBrowserRouter([
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
};

/** `messages`: the catalogue of the page's language (./providers/messagesEn.ts or messagesZh.ts). */
const App = ({ services, messages }: { services: ConsoleServices; messages: TranslationMessages }) => {
  // created on first render (not on import: the chunk may load while the login form is still shown)
  const [router] = useState(() => createConsoleRouter(services, messages));
  return <RouterProvider router={router} />;
};

export default App;
