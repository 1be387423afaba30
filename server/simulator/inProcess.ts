// `npm start -- --simulate` / SIMULATE=N: the first N active machines of the database come alive as
// virtual machines inside the server process, with fresh secrets issued directly (no HTTP sign-in)
// and connecting to this server's own gateway over real MQTT.
import { asc, eq, inArray } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { donationInstitute, rvm, rvmBin } from '../db/schema/fleet';
import { issueCredential } from '../gateway/credentials';
import type { DeployFaults } from './deploy';
import { Fleet, startFleet, type SimulatedMachine } from './fleet';

export interface InProcessOptions {
  machines: number;
  speed?: number;
  seed?: string | number;
  failureRate?: number;
  reopenAfterSeconds?: number;
  /** Deployment failure modes (default none) and bad package names. */
  deployFaults?: Partial<DeployFaults>;
  badPackages?: readonly string[];
}

export interface InProcessSimulation {
  fleet: Fleet;
  stop(): Promise<void>;
}

export const startInProcessSimulation = async (app: FastifyInstance, options: InProcessOptions): Promise<InProcessSimulation> => {
  const { db, gateway } = app.services;
  const brokerUrl = gateway.machineUrl;
  if (!brokerUrl) throw new Error('the machine gateway has no broker: nothing to simulate against');
  const rows = await db.select().from(rvm).where(eq(rvm.sts, 'active')).orderBy(asc(rvm.id)).limit(Math.max(0, options.machines));
  const ids = rows.map((row) => row.id);
  const bins = ids.length ? await db.select().from(rvmBin).where(inArray(rvmBin.rvmId, ids)) : [];
  const accounts = [...new Set(rows.map((row) => row.licenseAccountId))];
  const institutes = accounts.length
    ? await db.select({ id: donationInstitute.id, licenseAccountId: donationInstitute.licenseAccountId }).from(donationInstitute).where(inArray(donationInstitute.licenseAccountId, accounts))
    : [];

  const machines: SimulatedMachine[] = rows.map((row) => ({
    id: row.id,
    licenseAccountId: row.licenseAccountId,
    serialNumber: row.serialNumber,
    termType: row.termType,
    binCount: row.binCount,
    binEmptyHeight: row.binEmptyHeight,
    binFullHeight: row.binFullHeight,
    binAlmostFull: row.binAlmostFull,
    binAlreadyFull: row.binAlreadyFull,
    onTime: row.onTime,
    offTime: row.offTime,
    softwareVersion: row.softwareVersion,
    bins: bins.filter((bin) => bin.rvmId === row.id),
    donationInstituteIds: institutes.filter((institute) => institute.licenseAccountId === row.licenseAccountId).map((institute) => institute.id),
  }));

  const fleet = startFleet({
    machines,
    seed: options.seed ?? 'demo',
    speed: options.speed,
    failureRate: options.failureRate,
    reopenAfterSeconds: options.reopenAfterSeconds,
    deployFaults: options.deployFaults,
    badPackages: options.badPackages,
    provision: async (machine) => ({
      serialNumber: machine.serialNumber,
      secret: await issueCredential(db, { id: machine.id!, licenseAccountId: machine.licenseAccountId!, serialNumber: machine.serialNumber }, null),
      brokerUrl,
    }),
    log: (line) => app.log.debug({ simulator: true }, line),
  });
  return { fleet, stop: () => fleet.stop() };
};
