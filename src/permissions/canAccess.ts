// The console's one permission guard (docs/product-rules.md#permission-model): react-admin's
// `authProvider.canAccess({ action, resource, record })` answers from here, and the route guards, the
// sidebar, the area pages, the machine page's tabs and every button ask it through react-admin's
// `useCanAccess`, `useCanAccessResources` and `<CanAccess>`. The server checks every call again; this only
// decides what the console offers. Answers come from the signed-in user's permission identifiers (`*`
// matching of resources/permissions.ts); permissions are not per record, so `record` is not read.
//
// What a request names:
// - a declared resource by its react-admin name ('systemSettings/user', registry.ts): react-admin's actions
//   (`list` is the declaration's `page`, `clone` its `create`), the declaration's own (`page`, `show`, `create`,
//   `edit`, `delete`, `export`) or one of its `extraPermissions` by its last part ('resetPassword' for
//   'user:resetPassword'); an action the declaration lacks is refused;
// - a menu entry as `menu.<key>` (resources/menu.ts and the configured types' entries): `list` = may open
//   its screen (routes, machine page tabs), `menu` = listed in the sidebar and its area's page (an
//   entry that can be opened but leads to no listed screen is not listed), by the rules of ./menuVisibility.ts;
// - anything else is a permission identifier `<resource>:<action>` ('deployment:approve',
//   'installation:rvmpage:RemoteControl'), see `identifierRequest`.
import { MENU, walkMenu, type MenuNode } from '../../resources/menu';
import { hasPermission, type PermissionHolder } from '../../resources/permissions';
import { RESOURCES } from '../../resources';
import type { Action, ResourceDeclaration } from '../../resources/types';
import type { AccessRequest } from '../providers/authProvider';
import { resourceNameOf } from '../providers/registry';
import { visibleMenu } from './menuVisibility';

/** The declarations and the menu the answers are about (the console adds its configured types). */
export interface AccessScope {
  registry: readonly ResourceDeclaration[];
  menu: MenuNode[];
}

export const STATIC_SCOPE: AccessScope = { registry: RESOURCES, menu: MENU };

const MENU_PREFIX = 'menu.';
/** The canAccess resource of a menu entry. */
export const menuResource = (node: Pick<MenuNode, 'key'>): string => `${MENU_PREFIX}${node.key}`;
/** Actions on a menu entry: open its screen, be listed in the sidebar. */
export const MENU_ACTIONS = { open: 'list', listed: 'menu' } as const;

/** A permission identifier as a request: 'installation:rvmpage:RemoteControl' -> resource 'installation:rvmpage', action 'RemoteControl'. */
export const identifierRequest = (identifier: string): { resource: string; action: string } => {
  const colon = identifier.lastIndexOf(':');
  if (colon <= 0 || colon === identifier.length - 1) throw new Error(`"${identifier}" is not a permission identifier <resource>:<action>`);
  return { resource: identifier.slice(0, colon), action: identifier.slice(colon + 1) };
};

const REACT_ADMIN_ACTIONS: Readonly<Record<string, Action>> = { list: 'page', clone: 'create' };

/** The identifier a declaration asks for an action; undefined when the declaration has no such action. */
export const declaredIdentifier = (declaration: ResourceDeclaration, action: string): string | undefined => {
  const own = REACT_ADMIN_ACTIONS[action] ?? action;
  const declared = Object.entries(declaration.permissions).find(([name]) => name === own)?.[1];
  if (declared !== undefined) return declared;
  return Object.keys(declaration.extraPermissions ?? {}).find((identifier) => identifier.endsWith(`:${action}`));
};

interface MenuAnswers {
  open: ReadonlySet<string>;
  listed: ReadonlySet<string>;
}

const menuKeys = (nodes: MenuNode[]) => new Set(walkMenu(nodes).map((node) => node.key));

const menuAnswers = (holder: PermissionHolder | null | undefined, scope: AccessScope): MenuAnswers => ({
  open: menuKeys(visibleMenu(holder, { includeHidden: true, registry: scope.registry }, scope.menu)),
  listed: menuKeys(visibleMenu(holder, { registry: scope.registry }, scope.menu)),
});

const decide = (holder: PermissionHolder | null | undefined, { action, resource }: AccessRequest, scope: AccessScope, menu: () => MenuAnswers): boolean => {
  if (resource.startsWith(MENU_PREFIX)) {
    const key = resource.slice(MENU_PREFIX.length);
    if (action === MENU_ACTIONS.open) return menu().open.has(key);
    if (action === MENU_ACTIONS.listed) return menu().listed.has(key);
    return false;
  }
  const declaration = scope.registry.find((candidate) => resourceNameOf(candidate) === resource);
  if (declaration) {
    const identifier = declaredIdentifier(declaration, action);
    return identifier !== undefined && hasPermission(holder, [identifier]);
  }
  return resource !== '' && action !== '' && hasPermission(holder, [`${resource}:${action}`]);
};

/** The answer for one holder (pure; tests and e2e helpers ask it directly). */
export const canAccessAs =
  (holder: PermissionHolder | null | undefined, scope: AccessScope = STATIC_SCOPE) =>
  (request: AccessRequest): boolean => {
    let answers: MenuAnswers | undefined;
    return decide(holder, request, scope, () => (answers ??= menuAnswers(holder, scope)));
  };

/**
 * authProvider.canAccess's decision. The menu is computed once per user and scope and kept until either
 * changes: the sidebar asks about every entry at once.
 */
export const createAccessRule = (scope: () => AccessScope = () => STATIC_SCOPE) => {
  let kept: { holder: string; scope: AccessScope; answers: MenuAnswers } | undefined;
  return (holder: PermissionHolder | null | undefined, request: AccessRequest): boolean => {
    const current = scope();
    const menu = () => {
      const key = JSON.stringify(holder ?? null);
      if (kept?.holder !== key || kept.scope.registry !== current.registry || kept.scope.menu !== current.menu) {
        kept = { holder: key, scope: current, answers: menuAnswers(holder, current) };
      }
      return kept.answers;
    };
    return decide(holder, request, current, menu);
  };
};

/** The menu as the sidebar lists it: the entries whose `menu.<key>` answer is true (a listed entry's parent always is). */
export const listedMenu = (menu: MenuNode[], listed: Readonly<Record<string, boolean>> | undefined): MenuNode[] =>
  menu.flatMap((node) => (listed?.[menuResource(node)] ? [{ ...node, children: listedMenu(node.children, listed) }] : []));
