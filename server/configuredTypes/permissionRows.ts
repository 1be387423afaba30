// The permission rows of a configured type, so roles can grant it: a menu row `custom:<name>` under
// the chosen top-level menu entry and one button per action `custom:<name>:<action>`. Rows are kept
// by identifier (updated in place, so role grants survive relabelling or moving the type); their ids
// come from sys_permission's identity, which starts at 10,000,000, far above every seeded id.
import { and, eq, inArray, like, or } from 'drizzle-orm';
import { customMenuIdentifier, customPermission, type ConfiguredType } from '../../resources/configuredTypes';
import { MENU } from '../../resources/menu';
import type { Action } from '../../resources/types';
import type { Db } from '../db/client';
import { sysPermission } from '../db/schema';

const ACTION_LABELS: Record<Action, string> = { page: 'list', show: 'details', create: 'add', edit: 'edit', delete: 'delete', export: 'export' };
/** After the seeded children of the menu entry. */
const MENU_SORT = 900;

const rowsOfType = (db: Db, name: string) =>
  db
    .select({ id: sysPermission.id, identifier: sysPermission.identifier })
    .from(sysPermission)
    .where(or(eq(sysPermission.identifier, customMenuIdentifier(name)), like(sysPermission.identifier, `${customMenuIdentifier(name)}:%`)));

/** Removes every row of the type (role grants go with them: sys_role_permission cascades). */
export const removePermissionRows = async (db: Db, name: string) => {
  const rows = await rowsOfType(db, name);
  const buttons = rows.filter((row) => row.identifier !== customMenuIdentifier(name)).map((row) => row.id);
  if (buttons.length) await db.delete(sysPermission).where(inArray(sysPermission.id, buttons));
  await db.delete(sysPermission).where(eq(sysPermission.identifier, customMenuIdentifier(name)));
};

/** Makes the type's rows exactly its menu entry and actions. */
export const syncPermissionRows = async (db: Db, type: ConfiguredType) => {
  const parentId = MENU.find((node) => node.key === type.menuParent)?.id ?? null;
  const existing = new Map((await rowsOfType(db, type.name)).map((row) => [row.identifier, row.id]));
  const label = type.labels.en.slice(0, 50);
  const upsert = async (identifier: string, values: Omit<typeof sysPermission.$inferInsert, 'identifier'>) => {
    const id = existing.get(identifier);
    if (id !== undefined) {
      await db.update(sysPermission).set(values).where(eq(sysPermission.id, id));
      return id;
    }
    const [row] = await db
      .insert(sysPermission)
      .values({ ...values, identifier })
      .returning({ id: sysPermission.id });
    return row.id;
  };
  const menuIdentifier = customMenuIdentifier(type.name);
  const menuId = await upsert(menuIdentifier, { name: label, parentId, type: 'menu', sort: MENU_SORT, description: 'Configured resource type' });
  const wanted = new Set([menuIdentifier]);
  for (const [index, action] of type.actions.entries()) {
    const identifier = customPermission(type.name, action);
    wanted.add(identifier);
    await upsert(identifier, { name: `${label}: ${ACTION_LABELS[action]}`.slice(0, 64), parentId: menuId, type: 'button', sort: index + 1 });
  }
  const stale = [...existing].filter(([identifier]) => !wanted.has(identifier)).map(([, id]) => id);
  if (stale.length) await db.delete(sysPermission).where(and(inArray(sysPermission.id, stale)));
};
