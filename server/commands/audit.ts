// Operator actions on machines in the audit log (docs/audit-log.md; remote commands, gateway secrets):
// written in the same transaction as the action, listed newest first for the RemoteControl screens.
import { and, count, desc, eq, gte, like, lt, or, sql } from 'drizzle-orm';
import type { AuditAction, AuditOutcome } from '../../resources/auditLog';
import { recordEvent } from '../audit/record';
import { Type } from 'typebox';
import { callerOf } from '../auth/guard';
import type { Db } from '../db/client';
import { auditLog } from '../db/schema/liveFleet';
import { accountOf, iso, MACHINE_ID, optionalTime, PAGE_PROPERTIES, pageOf, RANGE_PROPERTIES, withPaging } from '../fleet/access';
import { ok } from '../lib/envelope';
import { Nullable, StrictObject, type TypedApp } from '../lib/typedApp';
import type { Services } from '../services';
import { commandRoute, type Actor } from './shared';

export interface AuditEntry {
  /** `command.<name>`, `command.cancel`, ... */
  action: string;
  target: { rvmIds: number[]; batchId?: number; commandIds?: number[] } & Record<string, unknown>;
  detail: Record<string, unknown>;
  /** queued, refused, partial, cancelled, ... */
  outcome: string;
}

/** Names the machine when the action addressed one (the audit screen's resource and record filters). */
export const recordAudit = async (db: Db, actor: Actor, entry: AuditEntry) => {
  const rvmIds = entry.target.rvmIds;
  await recordEvent(db, {
    licenseAccountId: actor.account,
    userId: actor.userId,
    userName: actor.userName,
    ...entry,
    action: entry.action as AuditAction,
    outcome: entry.outcome as AuditOutcome,
    resource: 'machine',
    recordId: rvmIds.length === 1 ? rvmIds[0] : null,
  });
};

/** The entries this route lists: operator actions on machines, not the account's other writes and sign-ins (other permissions). */
const MACHINE_ENTRIES = or(like(auditLog.action, 'command.%'), like(auditLog.action, 'gateway.%'));

const auditRecordSchema = {
  type: 'object',
  properties: {
    id: { type: 'integer' },
    userId: { type: ['integer', 'null'] },
    userName: { type: ['string', 'null'] },
    action: { type: 'string' },
    target: { type: 'object', additionalProperties: true },
    detail: { type: 'object', additionalProperties: true },
    outcome: { type: 'string' },
    time: { type: 'string', format: 'date-time' },
  },
};

export const registerAuditRoutes = (app: TypedApp, { db }: Services) => {
  app.post(
    '/audit-log/page',
    commandRoute(
      'Audit log of operator actions, newest first; rvmId: entries about that machine, action: exact (e.g. command.restart, command.cancel)',
      {
        body: StrictObject({
          ...PAGE_PROPERTIES,
          ...RANGE_PROPERTIES,
          rvmId: Type.Optional(Nullable(MACHINE_ID)),
          action: Type.Optional(Nullable(Type.String({ maxLength: 48 }))),
        }),
      },
      {
        type: 'object',
        properties: { list: { type: 'array', items: auditRecordSchema }, total: { type: 'integer' }, pageNum: { type: 'integer' }, pageSize: { type: 'integer' } },
      },
    ),
    async (request) => {
      const body = withPaging(request.body);
      const account = accountOf(callerOf(request));
      const [from, to] = [optionalTime(body.from, 'from'), optionalTime(body.to, 'to')];
      const where = and(
        eq(auditLog.licenseAccountId, account),
        MACHINE_ENTRIES,
        body.rvmId ? sql`${auditLog.target} -> 'rvmIds' @> ${JSON.stringify([body.rvmId])}::jsonb` : undefined,
        body.action ? eq(auditLog.action, body.action) : undefined,
        from ? gte(auditLog.time, from) : undefined,
        to ? lt(auditLog.time, to) : undefined,
      );
      const [rows, [{ total }]] = await Promise.all([
        db
          .select()
          .from(auditLog)
          .where(where)
          .orderBy(desc(auditLog.time), desc(auditLog.id))
          .limit(body.pageSize)
          .offset((body.pageNum - 1) * body.pageSize),
        db.select({ total: count() }).from(auditLog).where(where),
      ]);
      const list = rows.map(({ licenseAccountId: _account, time, ...row }) => ({ ...row, time: iso(time) }));
      return ok(request, pageOf(list, Number(total), body));
    },
  );
};
