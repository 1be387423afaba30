// A machine's live state as the gateway changes it: online/offline and status, each change closing
// the current history interval and opening the next, in the caller's transaction. Every update is
// conditional on the state it changes from, so two instances applying the same change do it once.
import { and, eq, isNull, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { rvm } from '../db/schema/fleet';
import { rvmOnlineHistory, rvmStatusHistory } from '../db/schema/fleetActivity';

export type LiveStatus = 'Up' | 'Down' | 'Sleep' | 'Offline';

interface MachineRef {
  id: number;
  licenseAccountId: number;
}

const openInterval = async (tx: Db, machine: MachineRef, status: LiveStatus, at: Date) => {
  await tx.update(rvmStatusHistory).set({ endTime: at }).where(and(eq(rvmStatusHistory.rvmId, machine.id), isNull(rvmStatusHistory.endTime)));
  await tx.insert(rvmStatusHistory).values({ licenseAccountId: machine.licenseAccountId, rvmId: machine.id, status, startTime: at });
};

/**
 * Sets the status (Offline only through `setOffline`). Answers false when it already was that status
 * or when `at` is older than the current status (an out-of-order report changes nothing).
 */
export const setStatus = async (tx: Db, machine: MachineRef, status: Exclude<LiveStatus, 'Offline'>, at: Date): Promise<boolean> => {
  const changed = await tx
    .update(rvm)
    .set({ currentSts: status, statusSince: at })
    .where(and(eq(rvm.id, machine.id), sql`${rvm.currentSts} <> ${status}`, sql`${rvm.currentSts} <> 'Offline'`, sql`${rvm.statusSince} <= ${at}`))
    .returning({ id: rvm.id });
  if (!changed.length) return false;
  await openInterval(tx, machine, status, at);
  return true;
};

/** The machine is connected: online, and its status `status` (Up unless it says otherwise). */
export const setOnline = async (tx: Db, machine: MachineRef, at: Date, status: Exclude<LiveStatus, 'Offline'> = 'Up'): Promise<boolean> => {
  const changed = await tx
    .update(rvm)
    .set({ online: true, lastSeenTime: at, currentSts: status, statusSince: at })
    .where(and(eq(rvm.id, machine.id), eq(rvm.online, false)))
    .returning({ id: rvm.id });
  if (!changed.length) {
    await tx.update(rvm).set({ lastSeenTime: at }).where(eq(rvm.id, machine.id));
    return false;
  }
  await tx.update(rvmOnlineHistory).set({ endTime: at }).where(and(eq(rvmOnlineHistory.rvmId, machine.id), isNull(rvmOnlineHistory.endTime)));
  await tx.insert(rvmOnlineHistory).values({ licenseAccountId: machine.licenseAccountId, rvmId: machine.id, online: true, startTime: at });
  await openInterval(tx, machine, status, at);
  return true;
};

/** The machine said goodbye or fell silent: offline since `at`. */
export const setOffline = async (tx: Db, machine: MachineRef, at: Date): Promise<boolean> => {
  const changed = await tx
    .update(rvm)
    .set({ online: false, currentSts: 'Offline', statusSince: at })
    .where(and(eq(rvm.id, machine.id), eq(rvm.online, true)))
    .returning({ id: rvm.id });
  if (!changed.length) return false;
  await tx.update(rvmOnlineHistory).set({ endTime: at }).where(and(eq(rvmOnlineHistory.rvmId, machine.id), isNull(rvmOnlineHistory.endTime)));
  await tx.insert(rvmOnlineHistory).values({ licenseAccountId: machine.licenseAccountId, rvmId: machine.id, online: false, startTime: at });
  await openInterval(tx, machine, 'Offline', at);
  return true;
};

/**
 * Sweep (a periodic job on every instance): machines online whose last message is older than the
 * time-out go offline, from the moment they fell silent. Each machine is claimed by one conditional
 * update, so instances sweeping together never write a transition twice.
 */
export const sweepSilentMachines = async (db: Db, now: Date, offlineAfterSeconds: number): Promise<number> => {
  const silent = await db
    .select({ id: rvm.id, licenseAccountId: rvm.licenseAccountId, lastSeenTime: rvm.lastSeenTime })
    .from(rvm)
    .where(and(eq(rvm.online, true), sql`${rvm.lastSeenTime} < ${new Date(now.getTime() - offlineAfterSeconds * 1000)}`))
    .limit(1000);
  let count = 0;
  for (const machine of silent) {
    const went = await db.transaction((tx) => setOffline(tx, machine, machine.lastSeenTime ?? now));
    if (went) count++;
  }
  return count;
};
