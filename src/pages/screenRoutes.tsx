// Routes of every menu screen (rendered inside the layout), guarded by the menu permissions.
import { Suspense } from 'react';
import { Loading } from 'react-admin';
import { usePermissions } from 'ra-core';
import { Navigate, Route } from 'react-router-dom';
import { canOpenMenuNode } from '../permissions/menuVisibility';
import type { UserInfo } from '../providers/session';
import { AreaIndexPage } from './AreaIndexPage';
import { menuScreenEntries, type MenuScreenEntry } from './menuScreens';
import { NotAvailablePage } from './NotAvailablePage';
import { SCREENS } from './screens';

const MenuScreen = ({ entry }: { entry: MenuScreenEntry }) => {
  const { permissions, isPending } = usePermissions<UserInfo | null>();
  if (isPending) return <Loading />;
  if (!canOpenMenuNode(permissions, entry.node)) return <Navigate to="/401" replace />;
  const Component = entry.kind === 'screen' ? SCREENS[entry.route] : entry.kind === 'area' ? AreaIndexPage : NotAvailablePage;
  return (
    <Suspense fallback={<Loading />}>
      <Component node={entry.node} />
    </Suspense>
  );
};

/** `<Route>` elements for `<CustomRoutes>`; `excludedRoutes` are served by react-admin resources. */
export const screenRoutes = (excludedRoutes: readonly string[] = []) =>
  menuScreenEntries(new Set(Object.keys(SCREENS)), excludedRoutes).map((entry) => (
    <Route key={entry.route} path={`${entry.route}/*`} element={<MenuScreen entry={entry} />} />
  ));
