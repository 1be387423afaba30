// Menu filtering (docs/product-rules.md#permission-model) as pure functions (no React): the rules by which canAccess
// (./canAccess.ts) answers for menu entries, and so for the sidebar, the area index pages, the machine page's tabs and
// the route guard of menu screens.
//
// Rules:
// - superAdmin sees everything; Home and its `open` children are always visible, its other
//   children (quarantine overview) need their own identifier.
// - A node is granted when the user holds an identifier matching the node's identifier (`*` wildcard
//   on either side, resources/permissions.ts) or, for top-level entries only, a permission with the
//   entry's product menu id (docs/product-rules.md#menu-tree; ids of other permissions are server-assigned and must not alias areas).
//   A granted node opens its whole area: all its children are visible.
// - Otherwise a node is visible when any descendant is, or when the user holds a permission of a
//   resource declared under it (e.g. 'user:page' makes 'systemSettings:user' visible); a parent is
//   visible when any child is.
// - A node whose route is a declared resource's list (e.g. /systemSettings/user) is that resource's
//   screen: visible only with the resource's page permission, the one its route guard asks for
//   (otherwise the entry would lead to /401), even inside a granted area.
// - The role editor stores a half-checked directory with its checked descendants: a granted node
//   that also has a granted descendant (or resource permission inside) is not a whole-area grant,
//   its children are then filtered one by one.
import { HOME_MENU_ID, MENU, type MenuNode } from '../../resources/menu';
import { identifierMatches, type PermissionHolder } from '../../resources/permissions';
import { RESOURCES } from '../../resources';
import type { ResourceDeclaration } from '../../resources/types';

/** Screens only a superAdmin opens (whatever area a role grants): the resource type editor (issue 9). */
export const SUPER_ADMIN_ROUTES: ReadonlySet<string> = new Set(['/systemSettings/resourceTypes']);

/** Permission identifiers of declared resources, by the menu id they live under. */
export const resourceIdentifiersByMenuId = (registry: readonly ResourceDeclaration[] = RESOURCES): Map<number, string[]> => {
  const byMenu = new Map<number, string[]>();
  for (const declaration of registry) {
    const identifiers = [...Object.values(declaration.permissions), ...Object.keys(declaration.extraPermissions ?? {})].filter((identifier): identifier is string =>
      Boolean(identifier),
    );
    byMenu.set(declaration.menuId, [...(byMenu.get(declaration.menuId) ?? []), ...identifiers]);
  }
  return byMenu;
};

export interface VisibilityOptions {
  /** Keep nodes with `inMenu: false` (route guards need them; the sidebar does not). */
  includeHidden?: boolean;
  /** Extra identifiers granting a node, by menu id (defaults to the declared resources' ones). */
  extraIdentifiers?: Map<number, string[]>;
  /** The declarations whose screens the menu holds (defaults to the code-declared ones; the console adds configured types). */
  registry?: readonly ResourceDeclaration[];
}

const holdsNode = (holder: PermissionHolder, node: MenuNode, topLevel: boolean, extra: Map<number, string[]>, includeExtra: boolean): boolean => {
  const permissions = holder.permissions ?? [];
  if (permissions.some((p) => (topLevel && p.id === node.id) || identifierMatches(p.identifier, node.identifier))) return true;
  if (!includeExtra) return false;
  const required = extra.get(node.id) ?? [];
  return permissions.some((p) => required.some((identifier) => identifierMatches(p.identifier, identifier)));
};

/** The page permission of the declared resource whose list a menu route is (menu route -> identifier). */
export const resourceScreens = (registry: readonly ResourceDeclaration[] = RESOURCES): Map<string, string> => {
  const screens = new Map<string, string>();
  for (const declaration of registry) if (declaration.permissions.page) screens.set(declaration.route, declaration.permissions.page);
  return screens;
};

/** The menu tree the holder may see, as copies (inMenu-filtered unless `includeHidden`). */
export const visibleMenu = (holder: PermissionHolder | null | undefined, options: VisibilityOptions = {}, menu: MenuNode[] = MENU): MenuNode[] => {
  const includeHidden = options.includeHidden ?? false;
  const extra = options.extraIdentifiers ?? resourceIdentifiersByMenuId(options.registry);
  const screens = resourceScreens(options.registry);
  const holds = (required: readonly string[]) => (holder?.permissions ?? []).some((p) => required.some((identifier) => identifierMatches(p.identifier, identifier)));
  /** Something more specific than the node itself is granted: a descendant or a resource permission inside. */
  const holdsInside = (node: MenuNode): boolean =>
    node.children.some((child) => holds([child.identifier]) || holds(extra.get(child.id) ?? []) || holdsInside(child)) || holds(extra.get(node.id) ?? []);
  // `area`: an ancestor's own grant opens everything below it (resource screens still need their permission)
  const filter = (nodes: MenuNode[], topLevel: boolean, area: boolean): MenuNode[] =>
    nodes.flatMap((node) => {
      if (!includeHidden && !node.inMenu) return [];
      if (node.route && SUPER_ADMIN_ROUTES.has(node.route) && !holder?.superAdmin) return [];
      if (topLevel && node.id === HOME_MENU_ID) {
        // Home's `open` entries need nothing; the others (quarantine overview) their own permission.
        const granted = node.children.filter((child) => child.open || holder?.superAdmin || holds([child.identifier]));
        return [{ ...node, children: filter(granted, false, true) }];
      }
      if (holder?.superAdmin) return [{ ...node, children: filter(node.children, false, true) }];
      const page = node.route ? screens.get(node.route) : undefined;
      if (page) return holds([page]) ? [{ ...node, children: filter(node.children, false, true) }] : [];
      if (area) {
        const children = filter(node.children, false, true);
        return children.length > 0 || node.children.length === 0 ? [{ ...node, children }] : [];
      }
      if (!holder) return [];
      const own = holdsNode(holder, node, topLevel, extra, false);
      if (own && (node.children.length === 0 || !holdsInside(node))) {
        const children = filter(node.children, false, true);
        // an area whose every screen needs a permission the holder lacks leads nowhere
        return children.length > 0 || node.children.length === 0 ? [{ ...node, children }] : [];
      }
      const children = filter(node.children, false, false);
      if (children.length > 0 || (!own && holdsNode(holder, node, topLevel, extra, true))) return [{ ...node, children }];
      return [];
    });
  return filter(menu, true, false);
};
