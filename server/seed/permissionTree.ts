// The permission tree seeded from resources/menu.ts (directories, menus, tabs) plus one button per
// distinct permission identifier of each resource declaration, under the declaration's menu node.
// Ids are stable: menu ids from menu.ts, buttons menuId*100+n, so restarts upsert in place.
import { translate } from '../../i18n';
import { HOME_MENU_ID, MENU, type MenuNode, type PermissionType } from '../../resources/menu';
import type { Action, ResourceDeclaration } from '../../resources/types';

export interface PermissionSeed {
  id: number;
  name: string;
  parentId: number | null;
  type: PermissionType;
  identifier: string;
  sort: number;
}

/** 'quarantineOverview' -> 'Quarantine overview' (the English label of a menu key). */
export const labelFromKey = (key: string) => {
  const words = key.replace(/([a-z0-9])([A-Z])/g, '$1 $2').toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
};

const ACTION_ORDER: Action[] = ['page', 'show', 'create', 'edit', 'delete', 'export'];
const ACTION_LABELS: Record<Action, string> = {
  page: 'list',
  show: 'details',
  create: 'add',
  edit: 'edit',
  delete: 'delete',
  export: 'export',
};

const menuRows = (nodes: MenuNode[], parentId: number | null): PermissionSeed[] =>
  nodes.flatMap((node, index) => [
    { id: node.id, name: labelFromKey(node.key), parentId, type: node.type, identifier: node.identifier, sort: index + 1 },
    ...menuRows(node.children, node.id),
  ]);

const buttonRows = (declaration: ResourceDeclaration): PermissionSeed[] => {
  const resource = translate('en', `resources.${declaration.name}.name`).split('||||')[0].trim();
  const names = new Map<string, string>();
  for (const action of ACTION_ORDER) {
    const identifier = declaration.permissions[action];
    if (identifier && !names.has(identifier)) names.set(identifier, `${resource}: ${ACTION_LABELS[action]}`);
  }
  for (const [identifier, key] of Object.entries(declaration.extraPermissions ?? {})) {
    if (!names.has(identifier)) names.set(identifier, `${resource}: ${translate('en', key).toLowerCase()}`);
  }
  return [...names].map(([identifier, name], index) => ({
    id: declaration.menuId * 100 + index + 1,
    name: name.slice(0, 64),
    parentId: declaration.menuId,
    type: 'button' as const,
    identifier,
    sort: index + 1,
  }));
};

export const permissionTree = (declarations: readonly ResourceDeclaration[]): PermissionSeed[] => {
  // Home is always visible (SPEC 6) and so is everything under it: it needs no permission row.
  const menu = MENU.filter((node) => node.id !== HOME_MENU_ID);
  const rows = [...menuRows(menu, null), ...declarations.flatMap(buttonRows)];
  const seen = new Map<number, PermissionSeed>();
  for (const row of rows) {
    const clash = seen.get(row.id);
    if (clash) throw new Error(`Permission id ${row.id} is used by "${clash.identifier}" and "${row.identifier}"`);
    if (row.parentId !== null && !seen.has(row.parentId)) throw new Error(`Permission "${row.identifier}": parent ${row.parentId} is not a menu node`);
    seen.set(row.id, row);
  }
  return rows;
};
