// Who and what a performance request covers: the caller's license account, a fleet with its
// sub-fleets, a machine (docs/performance.md). Another account's fleet answers 2003, its machine 6001.
import { and, eq } from 'drizzle-orm';
import type { Db } from '../db/client';
import { fleet, rvm } from '../db/schema/fleet';
import { AppError } from '../lib/errors';

export interface FleetRow {
  id: number;
  name: string;
  parentId: number | null;
}

export interface PerformanceScope {
  account: number;
  fleets: FleetRow[];
  /** The chosen fleet, or null for the whole account. */
  fleet: FleetRow | null;
  /** The chosen fleet and all its sub-fleets; null for the whole account. */
  fleetIds: number[] | null;
  /** The chosen machine (within the chosen fleet, if one is chosen too). */
  machine: { id: number; termNo: string; fleetId: number } | null;
}

/** A fleet and every fleet below it. */
export const subtreeOf = (fleets: readonly FleetRow[], rootId: number): number[] => {
  const children = new Map<number, number[]>();
  for (const row of fleets) {
    if (row.parentId === null) continue;
    children.set(row.parentId, [...(children.get(row.parentId) ?? []), row.id]);
  }
  const ids: number[] = [];
  const seen = new Set<number>();
  const stack = [rootId];
  while (stack.length) {
    const id = stack.pop()!;
    if (seen.has(id)) continue;
    seen.add(id);
    ids.push(id);
    stack.push(...(children.get(id) ?? []));
  }
  return ids;
};

export const accountFleets = (db: Db, account: number): Promise<FleetRow[]> =>
  db.select({ id: fleet.id, name: fleet.name, parentId: fleet.parentId }).from(fleet).where(eq(fleet.licenseAccountId, account)).orderBy(fleet.name);

export const resolveScope = async (db: Db, account: number, request: { fleetId?: number | null; rvmId?: number | null }): Promise<PerformanceScope> => {
  const fleets = await accountFleets(db, account);
  let chosen: FleetRow | null = null;
  let fleetIds: number[] | null = null;
  if (request.fleetId) {
    chosen = fleets.find((row) => row.id === request.fleetId) ?? null;
    if (!chosen) throw new AppError('2003');
    fleetIds = subtreeOf(fleets, chosen.id);
  }
  let machine: PerformanceScope['machine'] = null;
  if (request.rvmId) {
    const [row] = await db
      .select({ id: rvm.id, termNo: rvm.termNo, fleetId: rvm.fleetId })
      .from(rvm)
      .where(and(eq(rvm.id, request.rvmId), eq(rvm.licenseAccountId, account)))
      .limit(1);
    if (!row) throw new AppError('6001');
    // A machine outside the chosen fleet is not in the scope: the figures are those of nothing.
    machine = fleetIds && !fleetIds.includes(row.fleetId) ? { ...row, id: -1 } : row;
  }
  return { account, fleets, fleet: chosen, fleetIds, machine };
};
