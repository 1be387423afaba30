// Fleet tree rules: `level` follows the parent (create and move, the whole moved subtree too);
// deleting answers 5003 while sub-fleets remain and 6000 while machines do.
import { and, eq, inArray, notInArray, sql } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';
import type { HookContext, ResourceHooks, Values } from '../crud/hooks';
import type { Db } from '../db/client';
import { fleet, rvm } from '../db/schema/fleet';
import { AppError } from '../lib/errors';
import { outerColumn } from './outerColumn';

/** Level under `parentId` (1 for a root); undefined when the parent is not the caller's (the engine then answers 1004). */
const levelUnder = async ({ tx, caller }: HookContext, parentId: unknown): Promise<number | undefined> => {
  if (parentId === null || parentId === undefined) return 1;
  if (typeof parentId !== 'number' || caller.principal.licenseAccountId === null) return undefined;
  const [parent] = await tx
    .select({ level: fleet.level })
    .from(fleet)
    .where(and(eq(fleet.id, parentId), eq(fleet.licenseAccountId, caller.principal.licenseAccountId)));
  return parent ? parent.level + 1 : undefined;
};

/** Re-levels the subtree below `id` after a move (one recursive statement). */
const relevelDescendants = (tx: Db, id: number) =>
  tx.execute(sql`
    with recursive subtree(id, level) as (
      select ${fleet.id}, ${fleet.level} from ${fleet} where ${fleet.id} = ${id}
      union all
      select child.id, (subtree.level + 1)::smallint from ${fleet} child join subtree on child.parent_id = subtree.id
    )
    update ${fleet} set level = subtree.level from subtree where ${fleet.id} = subtree.id and ${fleet.id} <> ${id}`);

export const fleetHooks: ResourceHooks = {
  computed: (table: PgTable) => ({
    machineCount: sql<number>`(select count(*)::int from ${rvm} where ${rvm.fleetId} = ${outerColumn((table as typeof fleet).id)})`,
  }),

  beforeCreate: async (context, input: Values, values: Values) => {
    const level = await levelUnder(context, input.parentId);
    if (level !== undefined) values.level = level;
  },

  beforeUpdate: async (context, _id, input, values) => {
    if (!('parentId' in input)) return;
    const level = await levelUnder(context, input.parentId);
    if (level !== undefined) values.level = level;
  },

  afterUpdate: async ({ tx }, id, input, existing) => {
    if ('parentId' in input && input.parentId !== existing.parentId) await relevelDescendants(tx, id);
  },

  beforeDelete: async ({ tx }, ids) => {
    const children = await tx
      .select({ id: fleet.id })
      .from(fleet)
      .where(and(inArray(fleet.parentId, ids), notInArray(fleet.id, ids)))
      .limit(1);
    if (children.length) throw new AppError('5003');
    const machines = await tx.select({ id: rvm.id }).from(rvm).where(inArray(rvm.fleetId, ids)).limit(1);
    if (machines.length) throw new AppError('6000');
  },
};
