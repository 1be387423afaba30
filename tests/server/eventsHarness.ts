// A tiny, hand-made fleet for the event suites: two license accounts, a fleet with a sub-fleet, a
// machine per fleet and alarm events with known times (no random demo data: every filter result is known).
import { findAlarm } from '../../resources/fleetCatalogue';
import { fleet, rvm } from '../../server/db/schema/fleet';
import { rvmEvent } from '../../server/db/schema/fleetActivity';
import type { Db } from '../../server/db/client';

export const MINUTE = 60_000;
export const HOUR = 60 * MINUTE;

export interface EventsWorld {
  fleets: { north: number; northEast: number; south: number; other: number };
  machines: { m1: number; m2: number; m3: number; x1: number };
}

export const addFleet = async (db: Db, licenseAccountId: number, name: string, parentId: number | null = null, level = 1) => {
  const [row] = await db.insert(fleet).values({ licenseAccountId, name, parentId, level }).returning({ id: fleet.id });
  return row.id;
};

export const addMachine = async (db: Db, licenseAccountId: number, fleetId: number, termNo: string) => {
  const [row] = await db
    .insert(rvm)
    .values({ licenseAccountId, fleetId, termNo, serialNumber: `SN-${termNo}`, termType: 'H30', address: `${termNo} street 1` })
    .returning({ id: rvm.id });
  return row.id;
};

export const addEvent = async (db: Db, licenseAccountId: number, rvmId: number, code: string, raisedTime: Date, clearedTime: Date | null = null, detail: string | null = null) => {
  const alarm = findAlarm(code);
  if (!alarm) throw new Error(`unknown alarm ${code}`);
  const [row] = await db
    .insert(rvmEvent)
    .values({ licenseAccountId, rvmId, code, category: alarm.category, severity: alarm.severity, raisedTime, clearedTime, detail })
    .returning({ id: rvmEvent.id });
  return row.id;
};

/** North (with its sub-fleet North-East) and South in `account`, one fleet in `otherAccount`. */
export const buildWorld = async (db: Db, account: number, otherAccount: number, prefix: string): Promise<EventsWorld> => {
  const north = await addFleet(db, account, `${prefix} North`);
  const northEast = await addFleet(db, account, `${prefix} North-East`, north, 2);
  const south = await addFleet(db, account, `${prefix} South`);
  const other = await addFleet(db, otherAccount, `${prefix} Elsewhere`);
  return {
    fleets: { north, northEast, south, other },
    machines: {
      m1: await addMachine(db, account, north, `${prefix}M1`),
      m2: await addMachine(db, account, northEast, `${prefix}M2`),
      m3: await addMachine(db, account, south, `${prefix}M3`),
      x1: await addMachine(db, otherAccount, other, `${prefix}X1`),
    },
  };
};
