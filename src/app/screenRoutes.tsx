// Routes of every menu screen (rendered inside the layout), guarded by the menu permissions.
import { Loading } from 'react-admin';
import { usePermissions } from 'ra-core';
import { Navigate, Route } from 'react-router-dom';
import { canOpenMenuNode } from '../permissions/menuVisibility';
import type { UserInfo } from '../providers/session';
import { AreaIndexPage } from './AreaIndexPage';
import { menuScreenEntries, type MenuScreenEntry } from './menuScreens';
import { NotAvailablePage } from '../pages/NotAvailablePage';
import { SCREENS } from './screens';
import { ChunkSuspense } from '../pages/ChunkBoundary';

const MenuScreen = ({ entry }: { entry: MenuScreenEntry }) => {
  const { permissions, isPending } = usePermissions<UserInfo | null>();
  if (isPending) return <Loading />;
  if (!canOpenMenuNode(permissions, entry.node)) return <Navigate to="/401" replace />;
  const Component = entry.kind === 'screen' ? SCREENS[entry.route] : entry.kind === 'area' ? AreaIndexPage : NotAvailablePage;
  return (
    <ChunkSuspense fallback={<Loading />}>
      <Component node={entry.node} />
    </ChunkSuspense>
  );
};

/** `<Route>` elements for `<CustomRoutes>`; `excludedRoutes` are served by react-admin resources. */
export const screenRoutes = (excludedRoutes: readonly string[] = []) =>
  menuScreenEntries(new Set(Object.keys(SCREENS)), excludedRoutes).map((entry) => <Route key={entry.route} path={`${entry.route}/*`} element={<MenuScreen entry={entry} />} />);
