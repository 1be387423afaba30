// Machine rules the declaration cannot say: live-state defaults and bins on create, bins following
// binCount, the fleet filter that includes sub-fleets, and the home dashboard's health flags
// (computed fields) and time filters (server/dashboard/definitions.ts, docs/dashboard.md). (The profile
// rules of docs/product-rules.md#validation-rules are declaration rules, checked by the engine on the
// stored record merged with each change.)
import { and, eq, gt, sql, type SQL } from 'drizzle-orm';
import { ITEM_TYPES } from '../../resources/fleetCatalogue';
import type { FilterDeclaration } from '../../resources/types';
import type { ResourceHooks, Values } from '../crud/hooks';
import { dbNow, FACTS, isSinceFilter, MACHINE_FACTS, sinceCondition } from '../dashboard/definitions';
import { forgetMachinesUsage } from '../dashboard/rollup';
import { forgetMachinesReportItems } from '../reports/rollup';
import type { Db } from '../db/client';
import { invalidField } from '../lib/errors';
import { accountMachineCounts, fleet, rvm, rvmBin } from '../db/schema/fleet';
import { rvmOnlineHistory, rvmStatusHistory } from '../db/schema/fleetActivity';

const DEFAULT_EMPTY_HEIGHT = 120;

/** Adds or removes bins so the machine has exactly `binCount` (new bins start empty). */
const syncBins = async (tx: Db, row: Values) => {
  const id = row.id as number;
  const binCount = (row.binCount as number | null) ?? 1;
  await tx.delete(rvmBin).where(and(eq(rvmBin.rvmId, id), gt(rvmBin.binNo, binCount)));
  const bins = Array.from({ length: binCount }, (_, index) => ({
    rvmId: id,
    binNo: index + 1,
    licenseAccountId: row.licenseAccountId as number,
    itemType: ITEM_TYPES[index % 3],
    currentHeight: (row.binEmptyHeight as number | null) ?? DEFAULT_EMPTY_HEIGHT,
  }));
  await tx.insert(rvmBin).values(bins).onConflictDoNothing();
};

/**
 * `fleetId` filter: the given fleets and all their sub-fleets (one recursive query over the small
 * fleet table, then the machines' fleet index). Meant for the engine's custom filter hook; without
 * it the generic `in` still answers the listed fleets exactly.
 */
export const machineFilter = (filter: FilterDeclaration, value: unknown): SQL | undefined => {
  if (isSinceFilter(filter.name)) {
    const since = typeof value === 'string' ? Date.parse(value) : Number.NaN;
    if (Number.isNaN(since)) throw invalidField(filter.name, 'validation.date', '1003');
    return sinceCondition(filter.name, new Date(since));
  }
  if (filter.name !== 'fleetId') return undefined;
  const ids = (Array.isArray(value) ? value : [value]).filter((id): id is number => typeof id === 'number');
  if (ids.length === 0) return undefined;
  return sql`${rvm.fleetId} in (
    with recursive subtree(id) as (
      select ${fleet.id} from ${fleet} where ${fleet.id} = any(${sql.param(ids)}::int[])
      union
      select child.id from ${fleet} child join subtree on child.parent_id = subtree.id
    ) select id from subtree)`;
};

export const machineHooks: ResourceHooks & { filter: typeof machineFilter } = {
  filter: machineFilter,

  // The unfiltered list's total: the account's machine count the rvm triggers keep (migration 0017).
  scopeTotal: (caller) => {
    const account = caller.principal.licenseAccountId;
    if (account === null) return sql`0`;
    return sql`coalesce((select ${accountMachineCounts.machines} from ${accountMachineCounts} where ${accountMachineCounts.licenseAccountId} = ${account}), 0)`;
  },

  // Health flags: per-machine index probes, cheap for a page of rows (the dashboard counts whole accounts its own way).
  computed: () => Object.fromEntries(MACHINE_FACTS.map((fact) => [fact, FACTS[fact].perMachine(dbNow)])),

  beforeCreate: async (_context, _input, values) => {
    // Live state is the machine's to report: a new machine has not been seen yet.
    values.lastSessionTime = null;
    values.online = false;
    values.currentSts = 'Offline';
  },

  afterCreate: async ({ tx }, id) => {
    const [row] = (await tx.select().from(rvm).where(eq(rvm.id, id))) as Values[];
    await syncBins(tx, row);
    const since = row.statusSince as Date;
    await tx.insert(rvmStatusHistory).values({ licenseAccountId: row.licenseAccountId as number, rvmId: id, status: 'Offline', startTime: since });
    await tx.insert(rvmOnlineHistory).values({ licenseAccountId: row.licenseAccountId as number, rvmId: id, online: false, startTime: since });
  },

  // Deleted machines take their consumer sessions with them: the dashboard's account roll-up forgets them too.
  beforeDelete: async ({ tx }, ids) => {
    await forgetMachinesUsage(tx, ids);
    await forgetMachinesReportItems(tx, ids);
  },

  afterUpdate: async ({ tx }, id, input) => {
    if (!('binCount' in input)) return;
    const [row] = (await tx.select().from(rvm).where(eq(rvm.id, id))) as Values[];
    await syncBins(tx, row);
  },
};
