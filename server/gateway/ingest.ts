// The gateway's intake: a batch of machine messages becomes committed rows in ONE transaction (one
// commit per batch, not per message, is what makes thousands of messages a second possible). A refused
// message is quarantined in the same transaction; a database error reruns the batch with a savepoint
// per message, so only the faulty one is rolled back. Message ids make a re-sent message a no-op;
// plain heartbeats of online machines become one UPDATE per batch.
import { and, eq, inArray, sql } from 'drizzle-orm';
import type { QuarantineReason } from '../../resources/fleetCatalogue';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../db/client';
import { rvm } from '../db/schema/fleet';
import { machineMessage } from '../db/schema/liveFleet';
import { quarantineMessage } from '../db/schema/quarantine';
import { AccountUsageBatch } from '../dashboard/rollup';
import { ReportItemsBatch } from '../reports/rollup';
import { HookupEvents } from '../hookups/outbox';
import { machineIdBySerial, type MachineIdentity } from './credentials';
import { handle, Refusal, type Machine } from './handlers';
import { isMessageKind, MAX_CLOCK_SKEW_MS, MAX_MESSAGE_AGE_MS, MAX_MESSAGE_BYTES, messageTypeOf, schemaProblem, type MessageBodies, type MessageKind } from './protocol';

export interface IncomingMessage {
  identity: MachineIdentity;
  kind: string;
  payload: string;
  receivedAt: Date;
  /** Set when re-processing a quarantined message ("retry"): its row is updated or removed, never duplicated. */
  quarantineId?: number;
  /**
   * A quarantined message that came with the enrollment key: it is applied on retry only to a machine
   * registered after it arrived (the operator registered the device it announced), never to one that existed.
   */
  viaEnrollmentKey?: boolean;
}

export type Outcome =
  | { result: 'processed'; rvmId: number; kind: MessageKind; finishedDelivery?: true }
  | { result: 'duplicate'; rvmId: number; kind: MessageKind }
  | { result: 'quarantined'; reason: QuarantineReason; value: string | null };

interface Checked {
  message: IncomingMessage;
  kind: MessageKind;
  body: MessageBodies[MessageKind];
  at: Date;
}

/** Kinds that only describe the present (connection, liveness): replaying an old one would lie. */
const PRESENT_ONLY = new Set<MessageKind>(['hello', 'goodbye', 'heartbeat']);

const check = (message: IncomingMessage): Checked | Refusal => {
  const bytes = Buffer.byteLength(message.payload);
  if (bytes > MAX_MESSAGE_BYTES) return new Refusal('valueOutOfRange', `message of ${bytes} bytes, at most ${MAX_MESSAGE_BYTES}`);
  let body: unknown;
  try {
    body = JSON.parse(message.payload);
  } catch {
    return new Refusal('malformedContent');
  }
  if (!isMessageKind(message.kind)) return new Refusal('schemaViolation', `kind ${message.kind}`.slice(0, 200));
  const problem = schemaProblem(message.kind, body);
  if (problem) return new Refusal('schemaViolation', problem);
  const typed = body as MessageBodies[MessageKind];
  const at = new Date(typed.ts);
  if (at.getTime() > message.receivedAt.getTime() + MAX_CLOCK_SKEW_MS) return new Refusal('invalidTimestamp', typed.ts);
  if (at.getTime() < message.receivedAt.getTime() - MAX_MESSAGE_AGE_MS) return new Refusal('invalidTimestamp', typed.ts);
  return { message, kind: message.kind, body: typed, at };
};

/** The database's message of a failed statement (drizzle wraps it in "Failed query: <sql>"), without SQL. */
const databaseReason = (error: unknown): string => {
  const cause = (error as { cause?: { message?: unknown } })?.cause;
  const message = typeof cause?.message === 'string' ? cause.message : 'the database refused a value';
  return message.slice(0, 200);
};

/** SQLSTATE classes 22 (data exception) and 23 (integrity): the message's values, not the database, are at fault. */
const isDataError = (error: unknown): boolean => {
  const code = (error as { code?: unknown; cause?: { code?: unknown } })?.code ?? (error as { cause?: { code?: unknown } })?.cause?.code;
  return typeof code === 'string' && (code.startsWith('22') || code.startsWith('23'));
};

type LoadedMachine = Machine & { online: boolean; createTime: Date };

const loadMachines = async (db: Db, checked: Checked[]): Promise<Map<string, LoadedMachine>> => {
  const ids = new Set<number>();
  const bySerial = new Map<string, number>();
  for (const { message } of checked) {
    if (message.identity.enrolled) continue; // quarantined whatever it says (credentials.ts)
    const key = `${message.identity.licenseAccountId}/${message.identity.serialNumber}`;
    const id = message.identity.rvmId ?? bySerial.get(key) ?? (await machineIdBySerial(db, message.identity.licenseAccountId, message.identity.serialNumber));
    if (id !== null) {
      ids.add(id);
      bySerial.set(key, id);
    }
  }
  const machines = new Map<string, LoadedMachine>();
  if (!ids.size) return machines;
  const rows = await db
    .select({
      id: rvm.id,
      licenseAccountId: rvm.licenseAccountId,
      serialNumber: rvm.serialNumber,
      binCount: rvm.binCount,
      binEmptyHeight: rvm.binEmptyHeight,
      binFullHeight: rvm.binFullHeight,
      statusSince: rvm.statusSince,
      online: rvm.online,
      createTime: rvm.createTime,
    })
    .from(rvm)
    .where(inArray(rvm.id, [...ids]));
  const byId = new Map(rows.map((row) => [row.id, row]));
  for (const [key, id] of bySerial) {
    const row = byId.get(id);
    if (row && `${row.licenseAccountId}/${row.serialNumber}` === key) machines.set(key, row);
  }
  return machines;
};

/**
 * What a quarantined message keeps of its content: every message a machine may send fits whole (so it
 * can be retried); a larger one (only an external broker without a size limit lets one through) keeps
 * its beginning, with its whole size in `contentBytes`.
 */
export const MAX_QUARANTINED_CHARS = MAX_MESSAGE_BYTES;

const quarantine = async (tx: Db, message: IncomingMessage, refusal: Refusal) => {
  const values = { reason: refusal.reason, value: refusal.value?.replaceAll('\u0000', '\\u0000').slice(0, 200) ?? null };
  if (message.quarantineId !== undefined) {
    await tx
      .update(quarantineMessage)
      .set({ ...values, retryCount: sql`${quarantineMessage.retryCount} + 1`, lastRetryTime: sql`now()` })
      .where(eq(quarantineMessage.id, message.quarantineId));
    return;
  }
  await tx.insert(quarantineMessage).values({
    licenseAccountId: message.identity.licenseAccountId,
    causedBy: message.identity.serialNumber.slice(0, 64),
    messageType: messageTypeOf(message.kind),
    // PostgreSQL text cannot hold NUL: a raw NUL byte (never valid JSON) is kept visible, escaped.
    content: message.payload.slice(0, MAX_QUARANTINED_CHARS).replaceAll('\u0000', '\\u0000'),
    contentBytes: Buffer.byteLength(message.payload),
    viaEnrollmentKey: Boolean(message.identity.enrolled || message.viaEnrollmentKey),
    receivedTime: message.receivedAt,
    ...values,
  });
};

/**
 * Kinds whose effect is idempotent by itself (unique session ids, conditional transitions, absolute bin
 * levels): no message id row needed, one round trip less each.
 */
const SELF_IDEMPOTENT = new Set<MessageKind>(['heartbeat', 'bins', 'session', 'service', 'commandAck', 'commandResult', 'deployStatus']);

/** A database error in the fast pass: the batch is rolled back and run again with a savepoint per message. */
class NeedsSavepoints extends Error {}

/** Processes a batch (in arrival order) and answers one outcome per message. Throws only when the database is away. */
export const ingestBatch = async (db: Db, messages: readonly IncomingMessage[], log?: FastifyBaseLogger): Promise<Outcome[]> => {
  const checked = messages.map(check);
  const machines = await loadMachines(
    db,
    checked.filter((item): item is Checked => !(item instanceof Refusal)),
  );
  // Fast pass: handlers refuse before their first write, so a refusal needs no savepoint; only a
  // database error (a value the checks let through) makes the batch run again, message by message.
  try {
    return await runBatch(db, messages, checked, machines, false, log);
  } catch (error) {
    if (!(error instanceof NeedsSavepoints)) throw error;
    return runBatch(db, messages, checked, machines, true, log);
  }
};

const runBatch = async (
  db: Db,
  messages: readonly IncomingMessage[],
  checked: ReadonlyArray<Checked | Refusal>,
  loaded: ReadonlyMap<string, LoadedMachine>,
  safe: boolean,
  log: FastifyBaseLogger | undefined,
): Promise<Outcome[]> => {
  const outcomes = Array.from<Outcome>({ length: messages.length });
  // A copy: the pass updates `online` as it goes, and a rolled-back pass must not leave its guesses.
  const machines = new Map([...loaded].map(([key, machine]) => [key, { ...machine }]));
  await db.transaction(async (tx) => {
    const heartbeats: number[] = [];
    // The dashboard's account roll-up of this batch's new sessions, written last (dashboard/rollup.ts).
    const usage = new AccountUsageBatch();
    const reportItems = new ReportItemsBatch();
    // Webhook messages of this batch's events, written last in the same transaction (docs/api-hookups.md).
    const hookups = new HookupEvents();
    for (const [index, item] of checked.entries()) {
      const message = messages[index];
      const refuse = async (refusal: Refusal) => {
        await quarantine(tx, message, refusal);
        outcomes[index] = { result: 'quarantined', reason: refusal.reason, value: refusal.value };
      };
      if (item instanceof Refusal) {
        await refuse(item);
        continue;
      }
      const machine = message.identity.enrolled ? undefined : machines.get(`${message.identity.licenseAccountId}/${message.identity.serialNumber}`);
      if (!machine) {
        await refuse(new Refusal('unknownMachine', message.identity.serialNumber));
        continue;
      }
      if (message.viaEnrollmentKey && machine.createTime.getTime() <= message.receivedAt.getTime()) {
        await refuse(new Refusal('unknownMachine', `${message.identity.serialNumber}: enrollment key, machine registered before the message`));
        continue;
      }
      const replay = message.quarantineId !== undefined;
      const leaveQuarantine = () => (replay ? tx.delete(quarantineMessage).where(eq(quarantineMessage.id, message.quarantineId!)) : undefined);
      if (replay && PRESENT_ONLY.has(item.kind)) {
        await leaveQuarantine();
        outcomes[index] = { result: 'processed', rvmId: machine.id, kind: item.kind };
        continue;
      }
      // The common case, batched: a heartbeat without news from a machine already online.
      if (item.kind === 'heartbeat' && machine.online && !('status' in item.body && item.body.status)) {
        heartbeats.push(machine.id);
        outcomes[index] = { result: 'processed', rvmId: machine.id, kind: item.kind };
        continue;
      }
      let finishedDelivery = false;
      const apply = async (target: Db): Promise<boolean> => {
        if (!SELF_IDEMPOTENT.has(item.kind)) {
          const fresh = await target
            .insert(machineMessage)
            .values({ rvmId: machine.id, messageId: item.body.id, kind: item.kind })
            .onConflictDoNothing()
            .returning({ rvmId: machineMessage.rvmId });
          if (!fresh.length) return true;
        }
        try {
          const context = {
            tx: target,
            machine,
            at: item.at,
            receivedAt: message.receivedAt,
            replay,
            usage,
            reportItems,
            hookups,
            finishedDelivery: () => (finishedDelivery = true),
          };
          await handle(item.kind, context, item.body);
        } catch (error) {
          // Refused before any write: only the message id row must go, so a corrected re-send is accepted.
          if (error instanceof Refusal && !SELF_IDEMPOTENT.has(item.kind)) {
            await target.delete(machineMessage).where(and(eq(machineMessage.rvmId, machine.id), eq(machineMessage.messageId, item.body.id)));
          }
          throw error;
        }
        return false;
      };
      try {
        const duplicate = safe ? await tx.transaction((savepoint) => apply(savepoint)) : await apply(tx);
        await leaveQuarantine();
        if (item.kind === 'hello' || item.kind === 'goodbye' || item.kind === 'status') machine.online = item.kind !== 'goodbye';
        outcomes[index] = duplicate
          ? { result: 'duplicate', rvmId: machine.id, kind: item.kind }
          : { result: 'processed', rvmId: machine.id, kind: item.kind, ...(finishedDelivery ? { finishedDelivery: true as const } : {}) };
      } catch (error) {
        if (error instanceof Refusal) await refuse(error);
        else if (!safe) throw new NeedsSavepoints();
        else if (isDataError(error)) {
          // The database's own words (e.g. 'value "…" is out of range for type integer'), never the SQL text.
          log?.warn({ err: error, serial: message.identity.serialNumber, kind: item.kind }, 'machine message refused by the database');
          await refuse(new Refusal('valueOutOfRange', databaseReason(error)));
        } else throw error;
      }
    }
    if (heartbeats.length) {
      await tx
        .update(rvm)
        .set({ lastSeenTime: sql`greatest(${rvm.lastSeenTime}, now())` })
        .where(and(inArray(rvm.id, heartbeats), eq(rvm.online, true)));
    }
    await usage.flush(tx);
    await reportItems.flush(tx);
    await hookups.flush(tx);
  });
  return outcomes;
};
