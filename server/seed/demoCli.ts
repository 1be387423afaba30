// `npm run seed -- --machines N --days D --seed S [--account NAME]`: migrates and applies the start-up
// seed (like the server start), then fills a license account (default: the oldest one; created when
// --account names a new one) with the deterministic demo fleet. Uses DATABASE_URL, else PGlite in
// DATA_DIR (default ./data), exactly like the server (stop a PGlite server first: one process per folder).
import { parseArgs } from 'node:util';
import { asc, eq } from 'drizzle-orm';
import { RESOURCES } from '../../resources';
import { createPasswordHasher } from '../auth/passwords';
import { settingsFromEnv } from '../config';
import { openDatabase, type Db } from '../db/client';
import { prepareDataFolder } from '../dataFolder';
import { DataFolderInUse, lockDataFolder } from '../dataFolderLock';
import { licenseAccount } from '../db/schema/system';
import { seedDemoFleet, STARTER_FLEET, type SeedProgress } from './demoFleet';
import { seed } from './seed';
import { compactAfterBulkLoad } from './storage';

const { values } = parseArgs({
  options: {
    machines: { type: 'string', default: String(STARTER_FLEET.machines) },
    days: { type: 'string', default: String(STARTER_FLEET.days) },
    seed: { type: 'string', default: String(STARTER_FLEET.seed) },
    account: { type: 'string' },
  },
});
const positiveInteger = (name: string, raw: string) => {
  const value = Number(raw);
  if (!Number.isInteger(value) || value <= 0) throw new Error(`--${name} must be a positive whole number, got "${raw}"`);
  return value;
};
const machines = positiveInteger('machines', values.machines);
const days = positiveInteger('days', values.days);

const accountId = async (db: Db, name?: string) => {
  if (name) {
    const [found] = await db.select({ id: licenseAccount.id }).from(licenseAccount).where(eq(licenseAccount.licenseAccountName, name));
    if (found) return found.id;
    const [created] = await db.insert(licenseAccount).values({ licenseAccountName: name }).returning({ id: licenseAccount.id });
    return created.id;
  }
  const [oldest] = await db.select({ id: licenseAccount.id }).from(licenseAccount).orderBy(asc(licenseAccount.id)).limit(1);
  if (!oldest) throw new Error('No license account: pass --account NAME');
  return oldest.id;
};

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
const millions = (n: number) => (n >= 1e6 ? `${(n / 1e6).toFixed(2)}M` : n.toLocaleString('en'));
let lastPrinted = 0;
const onProgress = (p: SeedProgress) => {
  if (p.phase === 'machines' && p.machinesDone < p.machines && Date.now() - lastPrinted < 2000) return;
  lastPrinted = Date.now();
  const what = p.phase === 'indexes' ? 'rebuilding indexes' : p.phase === 'done' ? 'analyzed' : `${p.machinesDone}/${p.machines} machines`;
  console.log(`[seed] ${what}: ${millions(p.sessions)} consumer sessions, ${millions(p.items)} items (${seconds(p.elapsedMs)})`);
};

const settings = settingsFromEnv();
if (!settings.databaseUrl) {
  try {
    lockDataFolder(settings.dataDir); // released when the process exits
  } catch (error) {
    if (!(error instanceof DataFolderInUse)) throw error;
    console.error(`[seed] ${error.message}`);
    process.exit(1);
  }
  prepareDataFolder(settings.dataDir);
}
const database = await openDatabase({ databaseUrl: settings.databaseUrl, dataDir: settings.databaseUrl ? undefined : settings.dataDir });
try {
  await database.migrateLocked((db) => seed(db, settings.config, createPasswordHasher(settings.config.passwordHashLogN), RESOURCES));
  console.log(`[seed] database migrated (${database.kind}); ${machines} machines over ${days} days, seed "${values.seed}"`);
  const licenseAccountId = await accountId(database.db, values.account);
  const summary = await seedDemoFleet(database.db, { machines, days, seed: values.seed, licenseAccountId, onProgress });
  console.log(`[seed] done in ${seconds(summary.elapsedMs)}:`, JSON.stringify({ ...summary, licenseAccountId }));
  // PGlite: drop the write-ahead log of the load (server/seed/storage.ts)
  await compactAfterBulkLoad(database);
} catch (error) {
  // Expected refusals (an account that already has a fleet) read better without a stack trace.
  console.error(`[seed] ${error instanceof Error ? error.message : String(error)} (use --account NAME for another license account)`);
  process.exitCode = 1;
} finally {
  await database.close();
}
