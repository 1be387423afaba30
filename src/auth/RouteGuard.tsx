// Applies guardRedirect before react-admin renders anything, so a signed-out user never sees a
// protected screen flash and a signed-in one never sees the login form.
import type { ReactNode } from 'react';
import { Navigate, useLocation } from 'react-router-dom';
import { guardRedirect } from './routeGuard';

export const RouteGuard = ({ isSignedIn, children }: { isSignedIn: () => boolean; children: ReactNode }) => {
  const location = useLocation();
  const target = guardRedirect(location.pathname, isSignedIn());
  if (target && target !== location.pathname) return <Navigate to={target} replace />;
  return <>{children}</>;
};
