// A machine's live state as the gateway changes it: online/offline and status, each change closing
// the current history interval and opening the next, in the caller's transaction. Every update is
// conditional on the state it changes from, so two instances applying the same change do it once.
import { and, eq, isNull, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { rvm } from '../db/schema/fleet';
import { rvmOnlineHistory, rvmStatusHistory } from '../db/schema/fleetActivity';
import { MAX_CLOCK_SKEW_MS } from './protocol';
import { recordStatusChange } from '../hookups/outbox';

export type LiveStatus = 'Up' | 'Down' | 'Sleep' | 'Offline';

interface MachineRef {
  id: number;
  licenseAccountId: number;
}

const openInterval = async (tx: Db, machine: MachineRef, status: LiveStatus, at: Date) => {
  await tx
    .update(rvmStatusHistory)
    .set({ endTime: at })
    .where(and(eq(rvmStatusHistory.rvmId, machine.id), isNull(rvmStatusHistory.endTime)));
  await tx.insert(rvmStatusHistory).values({ licenseAccountId: machine.licenseAccountId, rvmId: machine.id, status, startTime: at });
  // Every status change passes here: its webhook messages (docs/api-hookups.md) in the same transaction.
  await recordStatusChange(tx, machine, status, at);
};

/**
 * Sets the status (Offline only through `setOffline`) at the machine's time `at`. `statusSince` may
 * come from the server's clock (going online), so a machine clock behind by up to the allowed skew
 * still changes the status, never earlier than the current one; anything older changes nothing.
 */
export const setStatus = async (tx: Db, machine: MachineRef, status: Exclude<LiveStatus, 'Offline'>, at: Date): Promise<boolean> => {
  const [changed] = await tx
    .update(rvm)
    .set({ currentSts: status, statusSince: sql`greatest(${rvm.statusSince}, ${at})` })
    .where(
      and(
        eq(rvm.id, machine.id),
        sql`${rvm.currentSts} <> ${status}`,
        sql`${rvm.currentSts} <> 'Offline'`,
        sql`${rvm.statusSince} <= ${new Date(at.getTime() + MAX_CLOCK_SKEW_MS)}`,
      ),
    )
    .returning({ statusSince: rvm.statusSince });
  if (!changed) return false;
  await openInterval(tx, machine, status, changed.statusSince);
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
  await tx
    .update(rvmOnlineHistory)
    .set({ endTime: at })
    .where(and(eq(rvmOnlineHistory.rvmId, machine.id), isNull(rvmOnlineHistory.endTime)));
  await tx.insert(rvmOnlineHistory).values({ licenseAccountId: machine.licenseAccountId, rvmId: machine.id, online: true, startTime: at });
  await openInterval(tx, machine, status, at);
  return true;
};

/** The machine said goodbye or fell silent (no message since `silentBefore`, re-checked here): offline since `at`. */
export const setOffline = async (tx: Db, machine: MachineRef, at: Date, silentBefore?: Date): Promise<boolean> => {
  const changed = await tx
    .update(rvm)
    .set({ online: false, currentSts: 'Offline', statusSince: at })
    .where(and(eq(rvm.id, machine.id), eq(rvm.online, true), silentBefore ? sql`${rvm.lastSeenTime} < ${silentBefore}` : undefined))
    .returning({ id: rvm.id });
  if (!changed.length) return false;
  await tx
    .update(rvmOnlineHistory)
    .set({ endTime: at })
    .where(and(eq(rvmOnlineHistory.rvmId, machine.id), isNull(rvmOnlineHistory.endTime)));
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
  const cutoff = new Date(now.getTime() - offlineAfterSeconds * 1000);
  const silent = await db
    .select({ id: rvm.id, licenseAccountId: rvm.licenseAccountId, lastSeenTime: rvm.lastSeenTime })
    .from(rvm)
    .where(and(eq(rvm.online, true), sql`${rvm.lastSeenTime} < ${cutoff}`))
    .limit(1000);
  let count = 0;
  for (const machine of silent) {
    // Re-checked in the update: a message committed since the read keeps the machine online.
    const went = await db.transaction((tx) => setOffline(tx, machine, machine.lastSeenTime ?? now, cutoff));
    if (went) count++;
  }
  return count;
};
