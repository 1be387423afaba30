// Fleet tree rules: `level` follows the parent (create and move, the whole moved subtree too);
// names are unique among siblings (9450, case-insensitive); deleting answers 5003 while sub-fleets
// remain and 6000 while machines do.
import { and, eq, inArray, isNull, ne, notInArray, sql } from 'drizzle-orm';
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

/**
 * 9450 (an issue on `name`) when another fleet of the caller's account under `parentId` has the name.
 * A transaction lock per account makes two simultaneous creates of one name wait for each other.
 */
const refuseSiblingName = async ({ tx, caller }: HookContext, name: unknown, parentId: unknown, selfId?: number) => {
  const account = caller.principal.licenseAccountId;
  if (typeof name !== 'string' || account === null) return;
  await tx.execute(sql`select pg_advisory_xact_lock(9450, ${account})`);
  const [taken] = await tx
    .select({ id: fleet.id })
    .from(fleet)
    .where(
      and(
        eq(fleet.licenseAccountId, account),
        typeof parentId === 'number' ? eq(fleet.parentId, parentId) : isNull(fleet.parentId),
        sql`lower(btrim(${fleet.name})) = lower(btrim(${name}))`,
        selfId === undefined ? undefined : ne(fleet.id, selfId),
      ),
    )
    .limit(1);
  if (taken) throw new AppError('9450', { issues: [{ field: 'name', message: 'fleet.validation.nameTaken', values: { name: name.trim() } }] });
};

export const fleetHooks: ResourceHooks = {
  computed: (table: PgTable) => ({
    machineCount: sql<number>`(select count(*)::int from ${rvm} where ${rvm.fleetId} = ${outerColumn((table as typeof fleet).id)})`,
  }),

  beforeCreate: async (context, input: Values, values: Values) => {
    await refuseSiblingName(context, input.name, input.parentId ?? null);
    const level = await levelUnder(context, input.parentId);
    if (level !== undefined) values.level = level;
  },

  beforeUpdate: async (context, id, input, values, existing) => {
    if ('name' in input || 'parentId' in input) {
      await refuseSiblingName(context, 'name' in input ? input.name : existing.name, 'parentId' in input ? input.parentId : existing.parentId, id);
    }
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
