// The demo fleet's structure: the fleet tree (regions > districts) and one plan per machine
// (identity, model, profile, popularity). Machine i's plan depends only on (seed, i).
import { sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { fleet } from '../db/schema/fleet';
import { Random, WeightedTable } from './random';
import { MODELS, OPERATORS, REGIONS, SITES, STREETS, type MachineModel } from './vocabulary';

export interface District {
  fleetId: number;
  index: number;
  name: string;
  longitude: number;
  latitude: number;
}

/** Creates the regions and districts of the license account; answers the districts. */
export const createFleetTree = async (db: Db, licenseAccountId: number, createTime: Date): Promise<District[]> => {
  const districts: District[] = [];
  for (const region of REGIONS) {
    const [root] = await db.insert(fleet).values({ licenseAccountId, name: region.name, level: 1, createTime }).returning({ id: fleet.id });
    const rows = await db
      .insert(fleet)
      .values(region.districts.map(([name]) => ({ licenseAccountId, parentId: root.id, name, level: 2, createTime })))
      .returning({ id: fleet.id, name: fleet.name });
    for (const [name, longitude, latitude] of region.districts) {
      const row = rows.find((candidate) => candidate.name === name)!;
      districts.push({ fleetId: row.id, index: districts.length, name, longitude, latitude });
    }
  }
  return districts;
};

export interface MachinePlan {
  id: number;
  index: number;
  termNo: string;
  serialNumber: string;
  district: District;
  model: MachineModel;
  /** Median consumer sessions per day. */
  popularity: number;
  /** Local opening minutes; 0 and 1440 for a machine that never sleeps. */
  onMinute: number;
  offMinute: number;
  binEmptyHeight: number;
  binFullHeight: number;
  binAlmostFull: number;
  binAlreadyFull: number;
  softwareVersion: string;
  operator: string;
  address: string;
  longitude: number;
  latitude: number;
  simNo: string;
  macAddress: string;
  installTime: number;
  activationTime: number;
}

const MODEL_TABLE = new WeightedTable(MODELS.map((model) => [model, model.share] as const));
const DAY = 86_400_000;

const hhmm = (minutes: number) => `${String(Math.floor(minutes / 60) % 24).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}`;

export const timeOfDay = (plan: MachinePlan) => (plan.offMinute === 1440 ? { onTime: '00:00', offTime: '23:59' } : { onTime: hhmm(plan.onMinute), offTime: hhmm(plan.offMinute) });

export const planMachine = (seed: string | number, index: number, id: number, districts: readonly District[], windowStart: number): MachinePlan => {
  const random = new Random(seed, 'machine', index);
  // Kowloon and the New Territories have more machines per district than the island.
  const district = districts[Math.floor(Math.pow(random.next(), 0.85) * districts.length)];
  const model = MODEL_TABLE.pick(random);
  const alwaysOpen = random.chance(0.2);
  const onMinute = alwaysOpen ? 0 : random.pick([360, 390, 420, 450, 480]);
  const offMinute = alwaysOpen ? 1440 : random.pick([1200, 1260, 1290, 1320, 1380, 1410]);
  const versions = model.softwareVersions;
  const softwareVersion = random.chance(0.8) ? versions[versions.length - 1] : random.pick(versions.slice(0, -1).length ? versions.slice(0, -1) : versions);
  const installTime = windowStart - random.int(30, 4 * 365) * DAY - random.int(0, DAY - 1);
  const mac = Array.from({ length: 5 }, () => random.int(0, 255).toString(16).padStart(2, '0').toUpperCase());
  const site = random.pick(SITES);
  const street = random.pick(STREETS);
  const modelYear = new Date(installTime).getUTCFullYear();
  return {
    id,
    index,
    termNo: `RVM${String(index + 1).padStart(5, '0')}`,
    serialNumber: `${model.name}${modelYear}${String(index + 1).padStart(6, '0')}`,
    district,
    model,
    popularity: Math.min(60, random.logNormal(4.2, 0.6)),
    onMinute,
    offMinute,
    binEmptyHeight: random.int(100, 130),
    binFullHeight: random.int(18, 35),
    binAlmostFull: random.pick([75, 80, 85, 90]),
    binAlreadyFull: random.pick([95, 98, 100]),
    softwareVersion,
    operator: OPERATORS[(district.index + (random.chance(0.2) ? 1 : 0)) % OPERATORS.length],
    address: `${site}, ${random.int(1, 388)} ${street}, ${district.name}`,
    longitude: Number((district.longitude + random.normal(0, 0.008)).toFixed(6)),
    latitude: Number((district.latitude + random.normal(0, 0.006)).toFixed(6)),
    simNo: `898520${String(random.int(0, 999_999)).padStart(6, '0')}${String(random.int(0, 999_999)).padStart(6, '0')}`,
    macAddress: `02:${mac.join(':')}`,
    installTime,
    activationTime: installTime + random.int(1, 14) * DAY,
  };
};

/** The next free id of a table (the caller holds a lock that keeps other writers out). */
export const nextId = async (db: Db, table: string): Promise<number> => {
  const result = await db.execute(sql.raw(`select coalesce(max(id), 0) + 1 as next from "${table}"`));
  return Number((result as { rows: Array<{ next: number | string }> }).rows[0].next);
};
