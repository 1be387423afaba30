// The machine gateway of one server instance: a broker link (embedded or external), the intake that
// batches messages into transactions, command and package delivery, and the periodic sweeps. Nothing here is
// needed for correctness across instances: state lives in the database (docs/machine-protocol.md).
import { and, eq, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../db/client';
import { rvm } from '../db/schema/fleet';
import { machineMessage, rvmCommand, rvmCredential } from '../db/schema/liveFleet';
import { claimPending, releaseClaimed } from '../commands/store';
import { claimDeliveries, machinesAwaitingDelivery, releaseClaimedDeliveries } from '../deployments/delivery';
import { DEPLOYMENTS_JOB } from '../deployments/rollout';
import type { JobRunner } from '../jobs/periodic';
import { connectExternalBroker, startEmbeddedBroker, type BrokerHooks, type BrokerLink } from './brokers';
import { authenticateMachine, type MachineIdentity } from './credentials';
import { Intake } from './intake';
import { sweepSilentMachines } from './liveState';
import type { Gateway } from './types';

export interface GatewayOptions {
  /** External broker (`mqtt://user:pass@host:1883`); without it the embedded broker listens on `port`. */
  mqttUrl?: string;
  host: string;
  port: number;
  offlineAfterSeconds: number;
  /** Processed message ids are kept this long (re-sends come within minutes; a week is generous). */
  messageIdDays: number;
  /** Where machines download packages: PUBLIC_URL with the API prefix (buildApp sets it from the server's config). */
  apiBase?: string;
}

export const GATEWAY_DEFAULTS = { port: 1883, offlineAfterSeconds: 90, messageIdDays: 7 } as const;

export const startGateway = async (db: Db, jobs: JobRunner, log: FastifyBaseLogger, options: GatewayOptions): Promise<Gateway> => {
  let link: BrokerLink | null = null;

  const deliverPending = async (rvmId: number) => {
    if (!link?.connected) return;
    const [machine] = await db.select({ serial: rvm.serialNumber, online: rvm.online }).from(rvm).where(eq(rvm.id, rvmId)).limit(1);
    // An offline machine gets its commands after its next hello.
    if (!machine?.online || !link.isReachable(machine.serial)) return;
    const claimed = await claimPending(db, rvmId);
    const failed: number[] = [];
    for (const command of claimed) {
      try {
        await link.publishCommand(machine.serial, JSON.stringify(command));
      } catch (error) {
        log.warn({ err: error, commandId: command.commandId }, 'publishing a command failed; it waits for the next delivery');
        failed.push(command.commandId);
      }
    }
    await releaseClaimed(db, failed);
    // Packages of started waves (docs/deployments.md "Delivery and deadlines").
    const deliveries = await claimDeliveries(db, rvmId, options.apiBase ?? 'http://localhost:8080/test-api');
    const unsent: number[] = [];
    for (const delivery of deliveries) {
      try {
        await link.publishDeploy(machine.serial, JSON.stringify(delivery));
      } catch (error) {
        log.warn({ err: error, deployId: delivery.deployId }, 'publishing a deploy message failed; it waits for the next delivery');
        unsent.push(delivery.deployId);
      }
    }
    await releaseClaimedDeliveries(db, unsent);
  };

  const intake = new Intake(db, log, (outcome) => {
    if (outcome.result !== 'processed') return;
    if (outcome.kind === 'hello') void deliverPending(outcome.rvmId).catch((error: unknown) => log.error({ err: error, rvmId: outcome.rvmId }, 'command delivery failed'));
    // A finished delivery may complete its wave or its deployment: checked now, not at the job's next tick.
    if (outcome.finishedDelivery) jobs.soon(DEPLOYMENTS_JOB);
  });

  // External broker: the broker authenticated the machine; the credential table says which one it is.
  const identities = new Map<string, { identity: MachineIdentity | null; until: number }>();
  const hooks: BrokerHooks = {
    authenticate: (serial, password) => authenticateMachine(db, serial, password),
    identify: async (serial) => {
      const cached = identities.get(serial);
      if (cached && cached.until > Date.now()) return cached.identity;
      const [row] = await db.select().from(rvmCredential).where(eq(rvmCredential.serialNumber, serial)).limit(1);
      const identity = row ? { rvmId: row.rvmId, licenseAccountId: row.licenseAccountId, serialNumber: serial } : null;
      identities.set(serial, { identity, until: Date.now() + 30_000 });
      return identity;
    },
    process: (identity, kind, payload) => intake.submit({ identity, kind, payload, receivedAt: new Date() }).then(() => undefined),
  };
  link = options.mqttUrl ? await connectExternalBroker(hooks, { url: options.mqttUrl, log }) : await startEmbeddedBroker(hooks, { host: options.host, port: options.port, log });
  if (link?.machineUrl) log.info(`machine gateway: machines connect to ${link.machineUrl}`);

  jobs.add({ name: 'gatewayOfflineSweep', everyMs: 15_000, run: (now) => sweepSilentMachines(db, now, options.offlineAfterSeconds) });
  // Commands created on another instance, or while a delivery raced a reconnect, go out here.
  jobs.add({
    name: 'gatewayDeliverWaiting',
    everyMs: 10_000,
    run: async (now) => {
      const waiting = await db
        .selectDistinct({ rvmId: rvmCommand.rvmId })
        .from(rvmCommand)
        .innerJoin(rvm, eq(rvm.id, rvmCommand.rvmId))
        .where(and(eq(rvmCommand.status, 'notSent'), eq(rvm.online, true), sql`${rvmCommand.expiresTime} > ${now}`))
        .limit(500);
      for (const { rvmId } of waiting) await deliverPending(rvmId);
    },
  });
  // Deliveries of waves that started while their machines were online, on any instance.
  jobs.add({
    name: 'gatewayDeliverPackages',
    everyMs: 10_000,
    run: async (now) => {
      for (const rvmId of await machinesAwaitingDelivery(db, now, 1000)) await deliverPending(rvmId);
    },
  });
  jobs.add({
    name: 'gatewayForgetMessageIds',
    everyMs: 3_600_000,
    run: (now) => db.delete(machineMessage).where(sql`${machineMessage.receivedTime} < ${new Date(now.getTime() - options.messageIdDays * 86_400_000)}`),
  });

  return {
    deliverPending,
    get connected() {
      return link?.connected ?? false;
    },
    get machineUrl() {
      return link?.machineUrl ?? null;
    },
    close: async () => {
      await link?.close();
      await intake.drain();
    },
  };
};
