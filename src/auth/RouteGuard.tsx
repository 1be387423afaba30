// Applies guardRedirect before react-admin renders anything, so a signed-out user never sees a
// protected screen flash and a signed-in one never sees the login form. A deep link opened signed out
// is kept in the login URL (`/login?next=…`) and opened after sign-in.
import type { ReactNode } from 'react';
import { Navigate, useLocation } from 'react-router-dom';
import { guardTarget } from '../providers/routeGuard';

export const RouteGuard = ({ isSignedIn, children }: { isSignedIn: () => boolean; children: ReactNode }) => {
  const location = useLocation();
  const target = guardTarget(location.pathname, location.search, isSignedIn());
  if (target && target !== `${location.pathname}${location.search}`) return <Navigate to={target} replace />;
  return <>{children}</>;
};
