// The demo fleet generator: `seedDemoFleet(db, { machines, days, seed, licenseAccountId })` fills a
// license account with a deterministic, living fleet (same seed and `now` -> same data). Everything
// runs in one transaction (a failed seed leaves nothing behind). Large loads into empty tables drop
// the activity tables' secondary indexes and foreign keys first and rebuild them once at the end.
import { asc, count, eq, sql } from 'drizzle-orm';
import { rowsOf, type Db } from '../db/client';
import { donationInstitute, fleet, rvm } from '../db/schema/fleet';
import { licenseAccount } from '../db/schema/system';
import { consumerSession } from '../db/schema/fleetActivity';
import { simulateMachine } from './activity';
import { BulkWriter, dropSecondaryStructures, restoreSecondaryStructures, type DeferredStructures } from './bulk';
import { createFleetTree, nextId, planMachine, timeOfDay, type MachinePlan } from './machines';
import { fillRollups } from '../dashboard/rollup';
import { fillReportRollups } from '../reports/rollup';
import { seedQuarantine } from './quarantine';
import { ACTIVITY_TABLES, createSeedTables, tablesInOrder, type SeedTables } from './tables';
import { buildTimeline, type Timeline } from './timeline';
import { DONATION_INSTITUTES, REGIONS } from './vocabulary';
import type { MachineOutcome } from './activity';

const DAY = 86_400_000;
const MACHINES_PER_BATCH = 100;
/** Below this many machine-days, rebuilding indexes costs more than it saves. */
const BULK_MODE_MACHINE_DAYS = 50_000;

export interface SeedProgress {
  phase: 'start' | 'machines' | 'indexes' | 'done';
  machinesDone: number;
  machines: number;
  sessions: number;
  items: number;
  elapsedMs: number;
}

export interface SeedOptions {
  machines: number;
  days: number;
  seed: number | string;
  licenseAccountId: number;
  /** End of the simulated window (default: now). Fix it to reproduce the exact same rows. */
  now?: Date | number;
  onProgress?: (progress: SeedProgress) => void;
}

export interface SeedSummary {
  fleets: number;
  machines: number;
  sessions: number;
  items: number;
  statusIntervals: number;
  events: number;
  serviceSessions: number;
  quarantined: number;
  bulkMode: boolean;
  elapsedMs: number;
}

const epochDate = (time: number) => new Date(time).toISOString().slice(0, 10);

const pushMachine = (tables: SeedTables, account: number, plan: MachinePlan, timeline: Timeline, outcome: MachineOutcome) => {
  const current = timeline.segments.at(-1)!;
  const online = timeline.online.at(-1)?.online ?? true;
  const { onTime, offTime } = timeOfDay(plan);
  tables.rvm.push(
    plan.id,
    account,
    plan.district.fleetId,
    plan.termNo,
    plan.serialNumber,
    plan.model.name,
    'active',
    current.status,
    current.start,
    online,
    plan.operator,
    plan.address,
    plan.softwareVersion,
    plan.simNo,
    plan.macAddress,
    plan.longitude,
    plan.latitude,
    epochDate(plan.installTime),
    epochDate(plan.activationTime),
    plan.model.bins.length,
    plan.binEmptyHeight,
    plan.binFullHeight,
    plan.binAlmostFull,
    plan.binAlreadyFull,
    onTime,
    offTime,
    outcome.lastSessionTime,
    null,
    plan.installTime,
  );
  outcome.bins.forEach((bin, index) => {
    const height = Math.round(plan.binEmptyHeight - ((plan.binEmptyHeight - plan.binFullHeight) * bin.fill) / 100);
    tables.bin.push(plan.id, index + 1, account, bin.itemType, height, bin.fill, bin.count, bin.lastEmptied);
  });
  for (const segment of timeline.segments) tables.status.push(account, plan.id, segment.status, segment.start, segment.end);
  for (const interval of timeline.online) tables.online.push(account, plan.id, interval.online, interval.start, interval.end);
};

const isEmpty = async (db: Db) => Number((await db.select({ n: count() }).from(consumerSession))[0].n) === 0 && Number((await db.select({ n: count() }).from(rvm))[0].n) === 0;

export const seedDemoFleet = async (db: Db, options: SeedOptions): Promise<SeedSummary> => {
  const started = Date.now();
  const end = Math.floor(new Date(options.now ?? Date.now()).getTime() / 1000) * 1000;
  const start = end - options.days * DAY;
  const account = options.licenseAccountId;
  const tables = createSeedTables();
  let sessions = 0;
  let items = 0;
  const report = (phase: SeedProgress['phase'], machinesDone: number) =>
    options.onProgress?.({ phase, machinesDone, machines: options.machines, sessions, items, elapsedMs: Date.now() - started });

  const [existing] = await db.select({ n: count() }).from(fleet).where(eq(fleet.licenseAccountId, account));
  if (Number(existing.n) > 0) throw new Error(`License account ${account} already has a fleet; the demo fleet only fills an empty one.`);

  const summary = await db.transaction(async (tx) => {
    // Other writers wait (readers do not): the preallocated ids below stay free.
    await tx.execute(
      sql.raw(
        `lock table fleet, rvm, rvm_bin, donation_institute, quarantine_message, ${ACTIVITY_TABLES.join(', ')}, account_usage_15m, rvm_hourly_usage, rvm_cleaning_state in share row exclusive mode`,
      ),
    );
    const bulkMode = options.machines * options.days >= BULK_MODE_MACHINE_DAYS && (await isEmpty(tx));
    let deferred: DeferredStructures | null = null;
    if (bulkMode) {
      await tx.execute(sql`set local maintenance_work_mem = '512MB'`);
      deferred = await dropSecondaryStructures(tx, ACTIVITY_TABLES);
    }
    report('start', 0);
    const institutes = await tx
      .insert(donationInstitute)
      .values(DONATION_INSTITUTES.map((name) => ({ licenseAccountId: account, name })))
      .returning({ id: donationInstitute.id });
    const districts = await createFleetTree(tx, account, new Date(start - 400 * DAY));
    const firstRvmId = await nextId(tx, 'rvm');
    let sessionId = await nextId(tx, 'consumer_session');
    const context = {
      seed: options.seed,
      licenseAccountId: account,
      start,
      end,
      tables,
      donationInstituteIds: institutes.map((row) => row.id).sort((a, b) => a - b),
      nextSessionId: () => sessionId++,
    };
    const writer = new BulkWriter(tx);
    const serialNumbers: string[] = [];
    for (let index = 0; index < options.machines; index++) {
      const plan = planMachine(options.seed, index, firstRvmId + index, districts, start);
      const timeline = buildTimeline(plan, options.seed, start, end);
      const outcome = simulateMachine(plan, timeline, context);
      pushMachine(tables, account, plan, timeline, outcome);
      serialNumbers.push(plan.serialNumber);
      sessions += outcome.sessions;
      items += outcome.items;
      if ((index + 1) % MACHINES_PER_BATCH === 0 || index + 1 === options.machines) {
        await writer.write(tablesInOrder(tables));
        report('machines', index + 1);
      }
    }
    await writer.flush();
    // Explicit ids were written: move the identity sequences past them.
    for (const table of ['rvm', 'consumer_session']) {
      await tx.execute(sql.raw(`select setval(pg_get_serial_sequence('${table}', 'id'), greatest((select max(id) from "${table}"), 1))`));
    }
    const quarantined = await seedQuarantine(tx, { seed: options.seed, licenseAccountId: account, serialNumbers, end });
    // The dashboard's roll-ups of what was just written (the gateway keeps them current from now on).
    await fillRollups(tx, account);
    await fillReportRollups(tx, account);
    if (deferred) {
      report('indexes', options.machines);
      await restoreSecondaryStructures(tx, deferred);
    }
    return {
      fleets: districts.length + REGIONS.length,
      machines: options.machines,
      sessions,
      items,
      statusIntervals: tables.status.written,
      events: tables.event.written,
      serviceSessions: tables.service.written,
      quarantined,
      bulkMode,
    };
  });
  // Fresh statistics, so the planner knows the tables just grew by millions of rows.
  await db.execute(sql.raw(`analyze fleet, rvm, rvm_bin, ${ACTIVITY_TABLES.join(', ')}, account_usage_15m, rvm_hourly_usage, rvm_cleaning_state`));
  report('done', options.machines);
  return { ...summary, elapsedMs: Date.now() - started };
};

/** The demo fleet a new installation starts with: enough to see a living console, quick on PGlite. */
export const STARTER_FLEET = { machines: 200, days: 30, seed: 1 } as const;

/**
 * At server start: fills the oldest license account with the starter fleet on a database that has
 * never had a fleet (the fleet id sequence is unused), so deleting every fleet later does not bring
 * the demo back on the next start. Answers the summary, or null when there was nothing to do.
 */
export const seedDemoFleetIfEmpty = async (db: Db, options: Partial<Omit<SeedOptions, 'licenseAccountId'>> = {}): Promise<SeedSummary | null> => {
  const [sequence] = rowsOf<{ used: boolean }>(
    await db.execute(sql`select last_value is not null as used from pg_sequences where sequencename = (select split_part(pg_get_serial_sequence('fleet', 'id'), '.', 2))`),
  );
  const [fleets] = await db.select({ n: count() }).from(fleet);
  if ((sequence && sequence.used) || Number(fleets.n) > 0) return null;
  const [account] = await db.select({ id: licenseAccount.id }).from(licenseAccount).orderBy(asc(licenseAccount.id)).limit(1);
  if (!account) return null;
  return seedDemoFleet(db, { ...STARTER_FLEET, ...options, licenseAccountId: account.id });
};
