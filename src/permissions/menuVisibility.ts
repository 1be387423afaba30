// SPEC section 6 menu filtering as pure functions (no React), shared by the sidebar, the area
// index pages and the route guard of menu screens.
//
// Rules:
// - superAdmin sees everything; Home (and its children) is always visible.
// - A node is granted when the user holds an identifier matching the node's identifier (`*` wildcard
//   on either side, resources/permissions.ts) or, for top-level entries only, a permission with the
//   entry's SPEC menu id (ids of other permissions are server-assigned and must not alias areas).
//   A granted node opens its whole area: all its children are visible.
// - Otherwise a node is visible when any descendant is, or when the user holds a permission of a
//   resource declared under it (e.g. 'user:page' makes 'systemSettings:user' visible); a parent is
//   visible when any child is.
import { HOME_MENU_ID, MENU, type MenuNode } from '../../resources/menu';
import { identifierMatches, type PermissionHolder } from '../../resources/permissions';
import { RESOURCES } from '../../resources';

/** Permission identifiers of declared resources, by the menu id they live under. */
export const resourceIdentifiersByMenuId = (): Map<number, string[]> => {
  const byMenu = new Map<number, string[]>();
  for (const declaration of RESOURCES) {
    const identifiers = [
      ...Object.values(declaration.permissions),
      ...Object.keys(declaration.extraPermissions ?? {}),
    ].filter((identifier): identifier is string => Boolean(identifier));
    byMenu.set(declaration.menuId, [...(byMenu.get(declaration.menuId) ?? []), ...identifiers]);
  }
  return byMenu;
};

export interface VisibilityOptions {
  /** Keep nodes with `inMenu: false` (route guards need them; the sidebar does not). */
  includeHidden?: boolean;
  /** Extra identifiers granting a node, by menu id (defaults to the declared resources' ones). */
  extraIdentifiers?: Map<number, string[]>;
}

const holdsNode = (
  holder: PermissionHolder,
  node: MenuNode,
  topLevel: boolean,
  extra: Map<number, string[]>,
  includeExtra: boolean,
): boolean => {
  const permissions = holder.permissions ?? [];
  if (permissions.some((p) => (topLevel && p.id === node.id) || identifierMatches(p.identifier, node.identifier))) return true;
  if (!includeExtra) return false;
  const required = extra.get(node.id) ?? [];
  return permissions.some((p) => required.some((identifier) => identifierMatches(p.identifier, identifier)));
};

const copyTree = (nodes: MenuNode[], includeHidden: boolean): MenuNode[] =>
  nodes
    .filter((node) => includeHidden || node.inMenu)
    .map((node) => ({ ...node, children: copyTree(node.children, includeHidden) }));

/** The menu tree the holder may see, as copies (inMenu-filtered unless `includeHidden`). */
export const visibleMenu = (
  holder: PermissionHolder | null | undefined,
  options: VisibilityOptions = {},
  menu: MenuNode[] = MENU,
): MenuNode[] => {
  const includeHidden = options.includeHidden ?? false;
  const extra = options.extraIdentifiers ?? resourceIdentifiersByMenuId();
  const filter = (nodes: MenuNode[], topLevel: boolean): MenuNode[] =>
    nodes.flatMap((node) => {
      if (!includeHidden && !node.inMenu) return [];
      if (topLevel && node.id === HOME_MENU_ID) return [{ ...node, children: copyTree(node.children, includeHidden) }];
      if (!holder) return [];
      // An own grant opens the whole area; a resource permission only shows the node it lives under.
      if (holder.superAdmin || holdsNode(holder, node, topLevel, extra, false)) {
        return [{ ...node, children: copyTree(node.children, includeHidden) }];
      }
      const children = filter(node.children, false);
      if (children.length > 0 || holdsNode(holder, node, topLevel, extra, true)) return [{ ...node, children }];
      return [];
    });
  return filter(menu, true);
};

/** Whether the holder may open `node` (route guard of menu screens); identifiers are unique per node. */
export const canOpenMenuNode = (holder: PermissionHolder | null | undefined, node: MenuNode, menu: MenuNode[] = MENU): boolean => {
  const contains = (nodes: MenuNode[]): boolean =>
    nodes.some((candidate) => candidate.identifier === node.identifier || contains(candidate.children));
  return contains(visibleMenu(holder, { includeHidden: true }, menu));
};
