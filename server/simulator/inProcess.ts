// `npm start -- --simulate` / SIMULATE=N: the first N active machines of the database come alive as
// virtual machines inside the server process, with fresh secrets issued directly (no HTTP sign-in)
// and connecting to this server's own gateway over real MQTT. Each one serves consumers at the rate its
// own history shows (the demo seed's popularity of that machine), so the dashboard's "average per day"
// and the live fleet agree; a machine without history draws one as the seed does.
import { and, asc, eq, gte, inArray, lt, min, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { Db } from '../db/client';
import { donationInstitute, rvm, rvmBin } from '../db/schema/fleet';
import { rvmDailyUsage } from '../db/schema/fleetActivity';
import { issueCredential } from '../gateway/credentials';
import type { DeployFaults } from './deploy';
import { Fleet, startFleet, type SimulatedMachine } from './fleet';
import { DEFAULT_PICTURE_RATE, PICTURE_PATH, PictureUploader } from './pictureUpload';
import type { VendorConnectClient } from './vendorConnect';
import { inProcessVendorConnect } from './vendorConnectInProcess';
import { DAY, sessionsPerDayForAverage } from './world';

/** Complete days of history a machine's consumer rate is read from (four whole weeks). */
export const HISTORY_DAYS = 28;

export interface InProcessOptions {
  machines: number;
  speed?: number;
  seed?: string | number;
  failureRate?: number;
  reopenAfterSeconds?: number;
  /** Deployment failure modes (default none) and bad package names. */
  deployFaults?: Partial<DeployFaults>;
  badPackages?: readonly string[];
  /** Share of items whose picture a machine uploads (default DEFAULT_PICTURE_RATE; 0: none). */
  pictureRate?: number;
}

export interface InProcessSimulation {
  fleet: Fleet;
  /** The machines' vendor-connect calls (docs/api-hookups.md "Simulator"). */
  vendorConnect: VendorConnectClient;
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
    ? await db
        .select({ id: donationInstitute.id, name: donationInstitute.name, licenseAccountId: donationInstitute.licenseAccountId })
        .from(donationInstitute)
        .where(inArray(donationInstitute.licenseAccountId, accounts))
    : [];

  const popularity = await sessionsPerDayFromHistory(db, ids);

  const machines: SimulatedMachine[] = rows.map((row) => ({
    id: row.id,
    licenseAccountId: row.licenseAccountId,
    serialNumber: row.serialNumber,
    termType: row.termType,
    fleetId: row.fleetId,
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
    donationInstituteNames: Object.fromEntries(
      institutes.filter((institute) => institute.licenseAccountId === row.licenseAccountId).map((institute) => [institute.id, institute.name]),
    ),
    ...(popularity.has(row.id) ? { sessionsPerDay: popularity.get(row.id) } : {}),
  }));

  const vendorConnect = inProcessVendorConnect(app, new Map(rows.map((row) => [row.serialNumber, row.id])), (line) => app.log.debug({ simulator: true }, line));
  // pictures go through this server's own upload route (app.inject: the same authentication and storage as HTTP)
  const pictures = new PictureUploader({
    rate: options.pictureRate ?? DEFAULT_PICTURE_RATE,
    transport: async (authorization, query, body) => {
      const answer = await app.inject({ method: 'PUT', url: `${PICTURE_PATH}?${query}`, headers: { authorization, 'content-type': 'image/png' }, payload: body });
      return { status: answer.statusCode, resCode: String(answer.json<{ resCode?: string }>().resCode ?? '') };
    },
    log: (line) => app.log.debug({ simulator: true }, line),
  });
  const fleet = startFleet({
    vendorConnect,
    pictures,
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
  return { fleet, vendorConnect, stop: () => fleet.stop() };
};

const utcDay = (time: number) => new Date(time).toISOString().slice(0, 10);

/**
 * Each machine's curve scale from its sessions of the last complete days (UTC days, as the roll-up
 * stores them): the sessions divided by the days since its first day with sessions in that window.
 */
const sessionsPerDayFromHistory = async (db: Db, ids: readonly number[]): Promise<Map<number, number>> => {
  if (!ids.length) return new Map();
  const today = utcDay(Date.now());
  const rows = await db
    .select({ rvmId: rvmDailyUsage.rvmId, sessions: sql<string>`sum(${rvmDailyUsage.sessions})`, first: min(rvmDailyUsage.day) })
    .from(rvmDailyUsage)
    .where(and(inArray(rvmDailyUsage.rvmId, [...ids]), gte(rvmDailyUsage.day, utcDay(Date.now() - HISTORY_DAYS * DAY)), lt(rvmDailyUsage.day, today)))
    .groupBy(rvmDailyUsage.rvmId);
  const rates = new Map<number, number>();
  for (const row of rows) {
    if (!row.first) continue;
    const days = Math.max(1, Math.round((Date.parse(today) - Date.parse(row.first)) / DAY));
    rates.set(row.rvmId, sessionsPerDayForAverage(Number(row.sessions) / days));
  }
  return rates;
};
