// Creating commands: for one machine, a batch or a resend. One transaction locks the addressed
// machines (so two operators cannot both slip past the repeat rule), decides the refusals (8000 the
// model lacks the command, 8001 the same command went to the machine within the repeat interval),
// inserts the commands in bulk and writes the audit row. Delivery happens after the commit.
import { and, eq, gt, inArray, ne, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { translate, type Locale } from '../../i18n';
import { COMMAND_EXPIRY_HOURS, supportsCommand, type RemoteCommand } from '../../resources/commands';
import type { Db } from '../db/client';
import { rvm } from '../db/schema/fleet';
import { rvmCommand, rvmCommandBatch } from '../db/schema/liveFleet';
import type { Services } from '../services';
import { recordAudit } from './audit';
import type { Actor } from './shared';

export interface Target {
  id: number;
  termNo: string;
  termType: string;
}

export type RefusalCode = '6001' | '8000' | '8001';
export interface Refusal {
  rvmId: number;
  termNo: string | null;
  code: RefusalCode;
}

export interface QueueRequest {
  command: RemoteCommand;
  params: Record<string, unknown>;
  targets: Target[];
  /** Ids asked for that are not the account's machines (refused with 6001). */
  missing?: number[];
  /** Create a batch with this selection (`{ ids }`, `{ filter }` or `{ resendOf }`). */
  batch?: { selection: Record<string, unknown> };
  /** The command each machine's new command re-sends. */
  resendOf?: ReadonlyMap<number, number>;
  /** audit_log action (default `command.<name>`). */
  action?: string;
}

export interface QueueOutcome {
  batchId: number | null;
  queued: Array<{ id: number; rvmId: number }>;
  refused: Refusal[];
}

const INSERT_CHUNK = 1000;

/** Machines that got the same command (not cancelled) within the repeat interval. */
const recentlySent = async (tx: Db, ids: number[], command: string, seconds: number): Promise<Set<number>> => {
  if (ids.length === 0) return new Set();
  const rows = await tx
    .selectDistinct({ rvmId: rvmCommand.rvmId })
    .from(rvmCommand)
    .where(
      and(
        inArray(rvmCommand.rvmId, ids),
        eq(rvmCommand.command, command),
        ne(rvmCommand.status, 'cancelled'),
        gt(rvmCommand.createdTime, sql`now() - make_interval(secs => ${seconds})`),
      ),
    );
  return new Set(rows.map((row) => row.rvmId));
};

/** Locks, checks and inserts; answers what was queued and refused (nothing is thrown for refusals). */
export const queueCommands = async (db: Db, services: Pick<Services, 'config'>, actor: Actor, request: QueueRequest): Promise<QueueOutcome> =>
  db.transaction(async (tx) => {
    const ids = [...new Set(request.targets.map((target) => target.id))].sort((a, b) => a - b);
    // Same order everywhere, so two batches over overlapping machines cannot deadlock.
    if (ids.length) await tx.select({ id: rvm.id }).from(rvm).where(inArray(rvm.id, ids)).orderBy(rvm.id).for('no key update');
    const recent = await recentlySent(tx, ids, request.command, services.config.commandRepeatSeconds);
    const refused: Refusal[] = (request.missing ?? []).map((id) => ({ rvmId: id, termNo: null, code: '6001' }));
    const accepted: Target[] = [];
    const seen = new Set<number>();
    for (const target of request.targets) {
      if (seen.has(target.id)) continue;
      seen.add(target.id);
      if (!supportsCommand(target.termType, request.command)) refused.push({ rvmId: target.id, termNo: target.termNo, code: '8000' });
      else if (recent.has(target.id)) refused.push({ rvmId: target.id, termNo: target.termNo, code: '8001' });
      else accepted.push(target);
    }

    let batchId: number | null = null;
    if (request.batch) {
      const [batch] = await tx
        .insert(rvmCommandBatch)
        .values({
          licenseAccountId: actor.account,
          command: request.command,
          params: request.params,
          selection: request.batch.selection,
          machineCount: accepted.length,
          createdBy: actor.userId,
          createdByName: actor.displayName,
        })
        .returning({ id: rvmCommandBatch.id });
      batchId = batch.id;
    }

    const queued: QueueOutcome['queued'] = [];
    for (let start = 0; start < accepted.length; start += INSERT_CHUNK) {
      const rows = accepted.slice(start, start + INSERT_CHUNK).map((target) => ({
        licenseAccountId: actor.account,
        rvmId: target.id,
        batchId,
        command: request.command,
        params: request.params,
        resendOf: request.resendOf?.get(target.id) ?? null,
        createdBy: actor.userId,
        createdByName: actor.displayName,
        expiresTime: sql`now() + make_interval(hours => ${COMMAND_EXPIRY_HOURS})`,
      }));
      queued.push(...(await tx.insert(rvmCommand).values(rows).returning({ id: rvmCommand.id, rvmId: rvmCommand.rvmId })));
    }

    await recordAudit(tx, actor, {
      action: request.action ?? `command.${request.command}`,
      target: {
        rvmIds: [...queued.map((row) => row.rvmId), ...refused.map((refusal) => refusal.rvmId)],
        ...(batchId === null ? {} : { batchId }),
        commandIds: queued.map((row) => row.id),
        ...(request.resendOf ? { resendOf: [...request.resendOf.values()] } : {}),
      },
      detail: { params: request.params, ...(refused.length ? { refused: refused.map(({ rvmId, code }) => ({ rvmId, code })) } : {}) },
      outcome: refused.length === 0 ? 'queued' : queued.length === 0 ? 'refused' : 'partial',
    });
    return { batchId, queued, refused };
  });

/** A refusal as answered: the catalogue message in the caller's language. */
export const refusalToWire = (locale: Locale) => (refusal: Refusal) => ({ ...refusal, message: translate(locale, `errors.${refusal.code}`) });

const DELIVERY_CONCURRENCY = 16;
const inFlight = new WeakMap<Services, Set<Promise<void>>>();

/**
 * Asks the gateway to deliver the machines' waiting commands, at most 16 at a time, in the
 * background (a batch of thousands must not hold the answer). A failure only leaves the commands
 * waiting: the machine's next hello delivers them. `settleDeliveries` awaits what is under way.
 */
export const deliverInBackground = (services: Services, rvmIds: readonly number[], log: FastifyBaseLogger): Promise<void> => {
  const queue = [...new Set(rvmIds)];
  const worker = async () => {
    for (let id = queue.shift(); id !== undefined; id = queue.shift()) {
      await services.gateway.deliverPending(id).catch((error: unknown) => log.warn({ err: error, rvmId: id }, 'command delivery failed'));
    }
  };
  const all = Promise.all(Array.from({ length: Math.min(DELIVERY_CONCURRENCY, queue.length) }, worker)).then(() => undefined);
  const running = inFlight.get(services) ?? new Set();
  inFlight.set(services, running);
  running.add(all);
  void all.finally(() => running.delete(all));
  return all;
};

export const settleDeliveries = async (services: Services) => {
  const running = inFlight.get(services);
  if (running) await Promise.all(running);
};
