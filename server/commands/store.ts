// The remote command state machine (docs/machine-protocol.md "Commands"), used by the gateway and the
// expiry job. Every transition is one conditional UPDATE on the command's current status, so it is
// safe on any number of instances and idempotent: a repeated or late message changes nothing.
// Every status change moves `updated_time` (the live stream polls on it).
import { and, eq, gt, inArray, lte, sql } from 'drizzle-orm';
import { COMMAND_PARAMS, commandDefinition, isRemoteCommand } from '../../resources/commands';
import type { Db } from '../db/client';
import { rvm } from '../db/schema/fleet';
import { rvmCommand, rvmFile } from '../db/schema/liveFleet';

export interface CommandMessage {
  v: 1;
  commandId: number;
  command: string;
  params: Record<string, unknown>;
  expiresAt: string;
}

const touched = sql`now()`;
/** status_reason is varchar(200): long machine texts are cut, the full text stays in `result`. */
const reason = (text: string | undefined | null) => (text ? text.slice(0, 200) : null);

/**
 * Atomically moves the machine's waiting commands (notSent, not expired) to `sending` (attempts+1,
 * sentTime) and answers their payloads, oldest first. Rows another caller is claiming are skipped
 * (`for update skip locked`), and the UPDATE re-checks the status, so no command is handed out twice.
 */
export const claimPending = async (db: Db, rvmId: number, now: Date = new Date()): Promise<CommandMessage[]> => {
  const waiting = db
    .select({ id: rvmCommand.id })
    .from(rvmCommand)
    .where(and(eq(rvmCommand.rvmId, rvmId), eq(rvmCommand.status, 'notSent'), gt(rvmCommand.expiresTime, now)))
    .for('update', { skipLocked: true });
  const claimed = await db
    .update(rvmCommand)
    .set({ status: 'sending', attempts: sql`${rvmCommand.attempts} + 1`, sentTime: now, updatedTime: touched })
    .where(and(inArray(rvmCommand.id, waiting), eq(rvmCommand.status, 'notSent')))
    .returning({ id: rvmCommand.id, command: rvmCommand.command, params: rvmCommand.params, expiresTime: rvmCommand.expiresTime, createdTime: rvmCommand.createdTime });
  return claimed
    .sort((a, b) => a.createdTime.getTime() - b.createdTime.getTime() || a.id - b.id)
    .map((row) => ({ v: 1, commandId: row.id, command: row.command, params: (row.params ?? {}) as Record<string, unknown>, expiresAt: row.expiresTime.toISOString() }));
};

/** Publishing failed (broker away): back to notSent so the next hello delivers it. */
export const releaseClaimed = async (db: Db, commandIds: number[]): Promise<void> => {
  if (commandIds.length === 0) return;
  await db
    .update(rvmCommand)
    .set({ status: 'notSent', sentTime: null, updatedTime: touched })
    .where(and(inArray(rvmCommand.id, commandIds), eq(rvmCommand.status, 'sending')));
};

/**
 * The machine's commandAck: sending|notSent -> sent (accepted) or sendFailed (with its reason).
 * Unknown ids, other machines' ids and commands already past that state change nothing (false).
 */
export const applyAck = async (tx: Db, rvmId: number, ack: { commandId: number; accepted: boolean; reason?: string }, at: Date): Promise<boolean> => {
  const changes = ack.accepted ? { status: 'sent', ackTime: at } : { status: 'sendFailed', statusReason: reason(ack.reason) ?? 'refused', ackTime: at, finishedTime: at };
  const changed = await tx
    .update(rvmCommand)
    .set({ ...changes, updatedTime: touched })
    .where(and(eq(rvmCommand.id, ack.commandId), eq(rvmCommand.rvmId, rvmId), inArray(rvmCommand.status, ['notSent', 'sending'])))
    .returning({ id: rvmCommand.id });
  return changed.length > 0;
};

/**
 * Machine data a successful command changed: a command whose entry says `storesParams` (resources/commands.ts)
 * writes its params to the machine's fields of the same names, in the same transaction as the result
 * (tests/unit/commandCatalogue.test.ts checks those names are machine columns).
 */
const applySideEffects = async (tx: Db, rvmId: number, command: string, params: Record<string, unknown>) => {
  if (!isRemoteCommand(command) || !commandDefinition(command).storesParams) return;
  const values = Object.fromEntries(
    Object.keys(COMMAND_PARAMS[command].fields)
      .filter((name) => params[name] !== undefined)
      .map((name) => [name, params[name]]),
  );
  if (Object.keys(values).length > 0) await tx.update(rvm).set(values).where(eq(rvm.id, rvmId));
};

/**
 * The machine's commandResult: sending|sent -> executedSuccessfully / executedFailed with its message
 * and file (kept only when the file is this machine's). Same idempotency rules as applyAck; a
 * success of a `storesParams` command (setOnOffTime, binHeight) writes the machine's values in the same transaction.
 */
export const applyResult = async (tx: Db, rvmId: number, result: { commandId: number; success: boolean; message?: string; fileId?: number }, at: Date): Promise<boolean> => {
  // Without a fileId the command keeps the file its machine uploaded before the result (a `file` message).
  const fileId =
    result.fileId === undefined ? rvmCommand.fileId : sql`(select ${rvmFile.id} from ${rvmFile} where ${rvmFile.id} = ${result.fileId} and ${rvmFile.rvmId} = ${rvmId})`;
  const [changed] = await tx
    .update(rvmCommand)
    .set({
      status: result.success ? 'executedSuccessfully' : 'executedFailed',
      statusReason: reason(result.message),
      result: { success: result.success, message: result.message ?? null, fileId: result.fileId ?? null },
      fileId,
      ackTime: sql`coalesce(${rvmCommand.ackTime}, ${at.toISOString()}::timestamptz)`,
      finishedTime: at,
      updatedTime: touched,
    })
    .where(and(eq(rvmCommand.id, result.commandId), eq(rvmCommand.rvmId, rvmId), inArray(rvmCommand.status, ['sending', 'sent'])))
    .returning({ command: rvmCommand.command, params: rvmCommand.params });
  if (!changed) return false;
  if (result.success) await applySideEffects(tx, rvmId, changed.command, (changed.params ?? {}) as Record<string, unknown>);
  return true;
};

/**
 * Periodic job body: commands still notSent/sending past their expiry -> sendFailed, reason 'expired';
 * commands acknowledged but without a result an hour past it -> executedFailed, reason 'noResult'.
 */
export const expireCommands = async (db: Db, now: Date): Promise<number> => {
  const expired = await db
    .update(rvmCommand)
    .set({ status: 'sendFailed', statusReason: 'expired', finishedTime: now, updatedTime: touched })
    .where(and(inArray(rvmCommand.status, ['notSent', 'sending']), lte(rvmCommand.expiresTime, now)))
    .returning({ id: rvmCommand.id });
  // Acknowledged but never answered (the machine lost it, e.g. rebooted while executing): failed, an
  // hour after the expiry, so a long-running command that was acknowledged in time may still finish.
  const unanswered = await db
    .update(rvmCommand)
    .set({ status: 'executedFailed', statusReason: 'noResult', finishedTime: now, updatedTime: touched })
    .where(and(eq(rvmCommand.status, 'sent'), lte(rvmCommand.expiresTime, new Date(now.getTime() - RESULT_GRACE_MS))))
    .returning({ id: rvmCommand.id });
  return expired.length + unanswered.length;
};

/** How long after its expiry an acknowledged command may still report its result. */
export const RESULT_GRACE_MS = 3_600_000;
