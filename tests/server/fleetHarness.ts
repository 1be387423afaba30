// Test servers for the fleet suites: the real app (fleet routes, tables and hooks are wired in) and a
// small deterministic demo fleet.
import { eq } from 'drizzle-orm';
import { licenseAccount } from '../../server/db/schema/system';
import { seedDemoFleet, type SeedOptions } from '../../server/seed/demoFleet';
import { startTestServer, type BackendName } from './helpers';

export type FleetServer = Awaited<ReturnType<typeof startFleetServer>>;

export const startFleetServer = (backend: BackendName) => startTestServer(backend);

/** A license account by name (created when missing). */
export const accountNamed = async (server: FleetServer, name: string) => {
  const [found] = await server.db.select({ id: licenseAccount.id }).from(licenseAccount).where(eq(licenseAccount.licenseAccountName, name));
  if (found) return found.id;
  const [created] = await server.db.insert(licenseAccount).values({ licenseAccountName: name }).returning({ id: licenseAccount.id });
  return created.id;
};

/** Small on purpose (CPU is shared): a dozen machines over a few days still cover every table. */
export const SMALL_FLEET = { machines: 12, days: 6, seed: 'fleet-test' } as const;

export const seedSmallFleet = (server: FleetServer, licenseAccountId: number, options: Partial<SeedOptions> = {}) =>
  seedDemoFleet(server.db, { ...SMALL_FLEET, licenseAccountId, ...options });
