// The signed-out console (public routes of docs/product-rules.md#screens-and-routes) without react-admin and without a router: the light
// part of the entry chunk, so the login screen is usable after a small download. The login form is
// here; forgot and reset password are a lazy chunk (./PublicPages.tsx, with react-router); the
// console itself loads when the user signs in (src/main.tsx).
import { lazy, useMemo } from 'react';
import { NotificationContextProvider } from 'ra-core';
import { CssBaseline } from '@mui/material';
import { createTheme, ThemeProvider } from '@mui/material/styles';
import { consoleTheme } from '../layout/theme';
import { ConsoleServicesProvider, type ConsoleServices } from '../layout/ConsoleServices';
import { PublicNotification } from '../layout/PublicNotification';
import { ChunkErrorBoundary, ChunkSuspense } from '../pages/ChunkBoundary';
import { createAuthProvider, type LoginParams } from '../providers/authProvider';
import { LoginForm } from './LoginForm';

const PublicPages = lazy(() => import('./PublicPages'));

export type SignIn = (params: Required<LoginParams>) => Promise<void>;

export interface PublicAppProps {
  services: ConsoleServices;
  /** 'login': the light login form; 'pages': the router of every public page (forgot, reset password, login). */
  mode: 'login' | 'pages';
  /** Goes to another public page (from the light login form). */
  navigate: (path: string) => void;
  /** The sign-in began: the console's code may start loading meanwhile. */
  onSignInStarted?: () => void;
  /** The session is stored: the console takes over. */
  onSignedIn: () => void;
}

const theme = createTheme(consoleTheme);

export const PublicApp = ({ services, mode, navigate, onSignInStarted, onSignedIn }: PublicAppProps) => {
  const signIn = useMemo<SignIn>(() => {
    const authProvider = createAuthProvider(services.http, services.session);
    return async (params) => {
      onSignInStarted?.();
      await authProvider.login(params);
      onSignedIn();
    };
  }, [services, onSignInStarted, onSignedIn]);
  return (
    <ThemeProvider theme={theme}>
      <CssBaseline enableColorScheme />
      {/* the translations: src/main.tsx's I18nContext (the page language's texts, ./publicI18n.ts) */}
      <NotificationContextProvider>
        <ConsoleServicesProvider services={services}>
          {mode === 'login' ? (
            <LoginForm signIn={signIn} navigate={navigate} />
          ) : (
            <ChunkErrorBoundary>
              <ChunkSuspense fallback={null}>
                <PublicPages signIn={signIn} />
              </ChunkSuspense>
            </ChunkErrorBoundary>
          )}
          <PublicNotification />
        </ConsoleServicesProvider>
      </NotificationContextProvider>
    </ThemeProvider>
  );
};
