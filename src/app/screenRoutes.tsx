// Routes of every menu screen (rendered inside the layout), guarded by canAccess on the menu entry
// (`menu.<key>`, src/permissions/canAccess.ts): refused, the user lands on the /401 page.
import { CanAccess, Loading } from 'react-admin';
import { Navigate, Route } from 'react-router-dom';
import { menuResource, MENU_ACTIONS } from '../permissions/canAccess';
import { AreaIndexPage } from './AreaIndexPage';
import { menuScreenEntries, type MenuScreenEntry } from './menuScreens';
import { NotAvailablePage } from '../pages/NotAvailablePage';
import { SCREENS } from './screens';
import { ChunkSuspense } from '../pages/ChunkBoundary';

const MenuScreen = ({ entry }: { entry: MenuScreenEntry }) => {
  const Component = entry.kind === 'screen' ? SCREENS[entry.route] : entry.kind === 'area' ? AreaIndexPage : NotAvailablePage;
  // The screen's chunk is asked for now, beside the screens' texts: <CanAccess> answers only once committed, and
  // the texts' wait keeps it from committing, so the chunk would otherwise follow the texts (tests/e2e/lazyLoading).
  if (entry.kind === 'screen') void SCREENS[entry.route].preload?.();
  return (
    <CanAccess resource={menuResource(entry.node)} action={MENU_ACTIONS.open} loading={<Loading />} accessDenied={<Navigate to="/401" replace />}>
      <ChunkSuspense fallback={<Loading />}>
        <Component node={entry.node} />
      </ChunkSuspense>
    </CanAccess>
  );
};

/** `<Route>` elements for `<CustomRoutes>`; `excludedRoutes` are served by react-admin resources. */
export const screenRoutes = (excludedRoutes: readonly string[] = []) =>
  menuScreenEntries(new Set(Object.keys(SCREENS)), excludedRoutes).map((entry) => <Route key={entry.route} path={`${entry.route}/*`} element={<MenuScreen entry={entry} />} />);
