// Writing the audit log (docs/audit-log.md). Every entry goes through the handle it is given: pass the
// transaction of the action, so a rolled-back action leaves no entry and a committed one always has it.
// The address defaults to the current request's (server/lib/requestContext.ts).
import type { AuditAction, AuditOutcome } from '../../resources/auditLog';
import type { Db } from '../db/client';
import { auditLog } from '../db/schema';
import { currentRequest } from '../lib/requestContext';
import { diffFields, type Changes } from './diff';

export { diffFields, type Changes, type FieldChange } from './diff';

/** Who acted: their license account at that time, id and user name (a failed sign-in: the name tried, no id). */
export interface AuditActor {
  licenseAccountId: number | null;
  userId: number | null;
  userName: string | null;
}

export interface AuditEvent extends AuditActor {
  action: AuditAction;
  /** The resource acted on (a declaration's name; `machine` for commands) and its record, when one. */
  resource?: string | null;
  recordId?: number | null;
  changes?: Changes | null;
  /** Commands: `{ rvmIds, batchId?, commandIds?, resendOf? }`. */
  target?: Record<string, unknown>;
  /** Anything else worth keeping (a command's parameters and refusals, a failed sign-in's reason); no secrets. */
  detail?: Record<string, unknown>;
  outcome: AuditOutcome;
  /** Default: the current request's address (none outside a request). */
  address?: string | null;
}

/**
 * What an entry reads of its caller: server/auth/principal.ts `Caller` (and `Principal` for `.principal`)
 * fit it as they are; named here because audit/ sits below auth/ in the import layers (.dependency-cruiser.cjs).
 */
export interface AuditCaller {
  principal: { licenseAccountId: number | null; userId: number; userName: string };
}

export const auditActor = (principal: AuditCaller['principal']): AuditActor => ({
  licenseAccountId: principal.licenseAccountId,
  userId: principal.userId,
  userName: principal.userName,
});

/** The row of an entry (its address the current request's when the entry names none). */
export const eventRow = (event: AuditEvent): typeof auditLog.$inferInsert => ({
  licenseAccountId: event.licenseAccountId,
  userId: event.userId,
  userName: event.userName?.slice(0, 64) ?? null,
  action: event.action,
  resource: event.resource ?? null,
  recordId: event.recordId ?? null,
  changes: event.changes && Object.keys(event.changes).length ? JSON.stringify(event.changes) : null,
  target: event.target ?? {},
  detail: event.detail ?? {},
  outcome: event.outcome,
  address: (event.address ?? currentRequest()?.address ?? null)?.slice(0, 64) ?? null,
});

/** Writes entries, in one statement. */
export const recordEvents = async (db: Db, events: readonly AuditEvent[]): Promise<void> => {
  if (events.length) await db.insert(auditLog).values(events.map(eventRow));
};

export const recordEvent = (db: Db, event: AuditEvent): Promise<void> => recordEvents(db, [event]);

/** A write of the resource engine (server/crud/write.ts), as `recordWrite` takes it. */
export interface WriteEntry {
  /** The request's Caller (server/auth/principal.ts). */
  caller: AuditCaller;
  /** The declaration's name (a configured type's: its type name). */
  resource: string;
  action: 'create' | 'update' | 'delete';
  recordId: number;
  /** The stored record before (update, delete), by field name; include multiReference id lists (roles, permissions). */
  before?: Record<string, unknown>;
  /** The record as written (create, update): for an update at least the fields the write set. */
  after?: Record<string, unknown>;
  /** Fields whose values never reach the log: the declaration's writeOnly and password fields. */
  secretFields: readonly string[];
  /** Default: the current request's address. */
  address?: string;
}

const writeEvent = (entry: WriteEntry): AuditEvent => ({
  ...auditActor(entry.caller.principal),
  action: entry.action,
  resource: entry.resource,
  recordId: entry.recordId,
  changes: diffFields(entry.before, entry.after, entry.secretFields),
  outcome: 'success',
  address: entry.address,
});

/** Records one create, update or delete. Call it with the write's transaction, after the write. */
export const recordWrite = (tx: Db, entry: WriteEntry): Promise<void> => recordEvent(tx, writeEvent(entry));

/** Several writes in one statement (a batch delete's records). */
export const recordWrites = (tx: Db, entries: readonly WriteEntry[]): Promise<void> => recordEvents(tx, entries.map(writeEvent));
