// The permission tree seeded from resources/menu.ts (directories, menus, tabs) plus one button per
// distinct permission identifier of each resource declaration, under the declaration's menu node.
// Ids are permanent and written down: menu ids in menu.ts, button ids in each declaration's
// `permissionIds` (a declaration without them, e.g. a test fixture, gets menuId*100+n). Home is
// always visible and needs no row, except its entries that are not `open` (quarantine overview),
// which are seeded at the top level so roles can grant them.
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
    id: declaration.permissionIds?.[identifier] ?? declaration.menuId * 100 + index + 1,
    name: name.slice(0, 64),
    parentId: declaration.menuId,
    type: 'button' as const,
    identifier,
    sort: index + 1,
  }));
};

export const permissionTree = (declarations: readonly ResourceDeclaration[]): PermissionSeed[] => {
  // Home is always visible (docs/product-rules.md#permission-model) and needs no row; its entries that need a permission sit at the top.
  const home = MENU.find((node) => node.id === HOME_MENU_ID)?.children.filter((node) => !node.open) ?? [];
  const menu = MENU.filter((node) => node.id !== HOME_MENU_ID);
  const rows = [...menuRows(home, null).map((row) => ({ ...row, sort: 0 })), ...menuRows(menu, null), ...declarations.flatMap(buttonRows)];
  const seen = new Map<number, PermissionSeed>();
  const identifiers = new Map<string, PermissionSeed>();
  for (const row of rows) {
    const clash = seen.get(row.id);
    if (clash) throw new Error(`Permission id ${row.id} is used by "${clash.identifier}" and "${row.identifier}"`);
    const twin = identifiers.get(row.identifier);
    if (twin && twin.id !== row.id) throw new Error(`Permission "${row.identifier}" has two ids: ${twin.id} and ${row.id}`);
    identifiers.set(row.identifier, row);
    if (row.parentId !== null && !seen.has(row.parentId)) throw new Error(`Permission "${row.identifier}": parent ${row.parentId} is not a menu node`);
    seen.set(row.id, row);
  }
  return rows;
};

/** Ids below this are seeded ones; the API creates permissions from here on (server/db/schema/system.ts). */
export const FIRST_API_PERMISSION_ID = 10_000_000;

/**
 * Places the seed rows on an existing table by identifier, never by id: roles hold permission ids, so
 * an identifier already stored keeps its row (and every role holding it keeps its meaning) even if
 * the code were to give it another id, and a declared id already holding another identifier the code
 * still declares is refused rather than re-pointed. A row whose identifier the code no longer declares
 * (edited by hand) is given back its declared identity, as before.
 */
export const placeSeedRows = (rows: readonly PermissionSeed[], stored: ReadonlyArray<{ id: number; identifier: string }>): PermissionSeed[] => {
  const seeded = stored.filter((row) => row.id < FIRST_API_PERMISSION_ID);
  const storedIdOf = new Map(seeded.map((row) => [row.identifier, row.id]));
  const storedIdentifierOf = new Map(seeded.map((row) => [row.id, row.identifier]));
  const declared = new Set(rows.map((row) => row.identifier));
  const placed = new Map<number, number>();
  const result = rows.map((row) => {
    let id = storedIdOf.get(row.identifier) ?? row.id;
    const holder = storedIdentifierOf.get(id);
    if (holder !== undefined && holder !== row.identifier && declared.has(holder)) {
      throw new Error(`Permission id ${id} holds "${holder}" in the database; giving it to "${row.identifier}" would re-point roles: give "${row.identifier}" a new id`);
    }
    placed.set(row.id, id);
    return { ...row, id, parentId: row.parentId === null ? null : (placed.get(row.parentId) ?? row.parentId) };
  });
  return result;
};
