// Which page each menu route gets (pure, see ./screens.ts for the rules and the registry).
import { MENU, walkMenu, type MenuNode } from '../../resources/menu';

export type ScreenKind = 'screen' | 'area' | 'notAvailable';

export interface MenuScreenEntry {
  route: string;
  node: MenuNode;
  kind: ScreenKind;
}

const isAreaOf = (node: MenuNode, route: string) => node.children.some((child) => child.route && child.route !== route);

/**
 * One entry per distinct menu route. When a parent and a child share a route (e.g. installation
 * and fleetManagement), the child is the screen. Routes in `excludedRoutes` are served elsewhere
 * (react-admin resources of the generic views).
 */
export const menuScreenEntries = (builtRoutes: ReadonlySet<string>, excludedRoutes: readonly string[] = [], menu: MenuNode[] = MENU): MenuScreenEntry[] => {
  const byRoute = new Map<string, MenuNode>();
  for (const node of walkMenu(menu)) {
    if (!node.route || excludedRoutes.includes(node.route)) continue;
    const known = byRoute.get(node.route);
    // walkMenu is pre-order: a child sharing its parent's route comes later and takes the route.
    if (!known || known.children.includes(node)) byRoute.set(node.route, node);
  }
  return [...byRoute.entries()].map(([route, node]) => ({
    route,
    node,
    kind: builtRoutes.has(route) ? 'screen' : isAreaOf(node, route) ? 'area' : 'notAvailable',
  }));
};
