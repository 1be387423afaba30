// The signed-in console (a lazy chunk of src/main.tsx, which hands over its services and the messages
// of the page's language): providers, the router and the routes. Behaviour lives in the modules.
import { lazy, useState } from 'react';
import { CoreAdminUI, localStorageStore } from 'ra-core';
import { AdminContext, AuthenticationError, CustomRoutes, Error as ErrorPage, LoadingPage } from 'react-admin';
import { CssBaseline } from '@mui/material';
import { Navigate, Route, RouterProvider, createBrowserRouter } from 'react-router-dom';
import { RESOURCES } from '../resources';
import { createAuthProvider } from './providers/authProvider';
import { createConsoleI18nProvider, createScreenTexts, type ConsoleMessages } from './providers/consoleI18n';
import { createDataProvider } from './providers/dataProvider';
import { buildResources } from './app/resourceViews';
import { ConsoleServicesProvider, type ConsoleServices } from './layout/ConsoleServices';
import { BridgedNotification } from './layout/notifyBridge';
import { ConsoleLayout } from './app/ConsoleLayout';
import { ScreenTextsProvider } from './layout/ScreenTexts';
import { consoleThemeFor } from './layout/theme';
import { RouteGuard } from './auth/RouteGuard';
import { LoginPage } from './auth/LoginPage';
import { NoPermissionPage, NotFoundPage } from './pages/StatusPage';
import { screenRoutes } from './app/screenRoutes';
import { ChunkSuspense } from './pages/ChunkBoundary';
import { createAccessRule } from './permissions/canAccess';

// Signed-out pages reached while a session exists: loaded when opened (with the password cipher they
// need), so the home screen does not download them (issue 8's budget).
const ForgotPasswordPage = lazy(() => import('./auth/ForgotPasswordPage').then((module) => ({ default: module.ForgotPasswordPage })));
const ResetPasswordPage = lazy(() => import('./auth/ResetPasswordPage').then((module) => ({ default: module.ResetPasswordPage })));
const publicPage = (Page: typeof ForgotPasswordPage) => (
  <ChunkSuspense fallback={<LoadingPage />}>
    <Page />
  </ChunkSuspense>
);
import { createConfiguredTypesStore } from './resourceTypes/configuredTypesStore';
import { ConfiguredTypesProvider, useRuntimeResources } from './resourceTypes/ConfiguredTypesProvider';

const CatchAll = () => <Navigate to="/404" replace />;
// react-admin's own refusals (a controller whose canAccess says no) land on the console's 403 page too.
const AccessDeniedRedirect = () => <Navigate to="/401" replace />;

const createConsoleRouter = (services: ConsoleServices, messages: ConsoleMessages) => {
  const { session, http, download, locale } = services;
  // resource types configured at run time (issue 9): their declarations, menu entries and labels
  const configuredTypes = createConfiguredTypesStore(http, locale);
  // canAccess, the one permission guard, over the code-declared and configured resources and menu
  const authProvider = createAuthProvider(http, session, { access: createAccessRule(configuredTypes.snapshot) });
  // the shell's and the home's texts now, every screen's once one needs them (src/layout/ScreenTexts.tsx)
  const screenTexts = createScreenTexts(messages, () => i18nProvider.changeLocale(locale));
  const i18nProvider = createConsoleI18nProvider(locale, () => configuredTypes.messagesWith(screenTexts.current()));
  configuredTypes.beforeChange(() => i18nProvider.changeLocale(locale));
  const dataProvider = createDataProvider(http, download, configuredTypes.registry);
  // the page's language is fixed for its life (switching reloads it): every nameless spinner says it in that language
  const theme = consoleThemeFor(i18nProvider.translate('app.busy'));
  // react-admin's <Admin> is <AdminContext> + <AdminUI>; AdminUI's defaults (its layout, login page,
  // app bar, menu…) would ship in this chunk although every one is replaced, so the parts are wired here
  // with ra-core's <CoreAdminUI>, as AdminUI does it (issue 8: the home screen's download).
  const store = localStorageStore();
  const ConsoleAdmin = () => {
    const { registry } = useRuntimeResources();
    return (
      <AdminContext authProvider={authProvider} dataProvider={dataProvider} i18nProvider={i18nProvider} store={store} theme={theme}>
        <CssBaseline enableColorScheme>
          <CoreAdminUI
            layout={ConsoleLayout}
            loginPage={LoginPage}
            catchAll={CatchAll}
            error={ErrorPage}
            loading={LoadingPage}
            accessDenied={AccessDeniedRedirect}
            authenticationError={AuthenticationError}
            title="React Admin"
            requireAuth
            disableTelemetry
          >
            {buildResources(registry)}
            <CustomRoutes noLayout>
              <Route path="/forgotPassword" element={publicPage(ForgotPasswordPage)} />
              <Route path="/resetPassword" element={publicPage(ResetPasswordPage)} />
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
  };
  // BrowserRouter (real paths such as /index/index; the server falls back to index.html). A data
  // router, so react-admin can block navigation away from unsaved forms.
  return createBrowserRouter([
    {
      path: '*',
      element: (
        <ConsoleServicesProvider services={services}>
          <RouteGuard isSignedIn={session.isSignedIn}>
            <ConfiguredTypesProvider store={configuredTypes}>
              <ScreenTextsProvider value={screenTexts}>
                <ConsoleAdmin />
              </ScreenTextsProvider>
            </ConfiguredTypesProvider>
          </RouteGuard>
        </ConsoleServicesProvider>
      ),
    },
  ]);
};

/** `messages`: the catalogue of the page's language (./providers/messagesEn.ts or messagesZh.ts). */
const App = ({ services, messages }: { services: ConsoleServices; messages: ConsoleMessages }) => {
  // created on first render (not on import: the chunk may load while the login form is still shown)
  const [router] = useState(() => createConsoleRouter(services, messages));
  return <RouterProvider router={router} />;
};

export default App;
