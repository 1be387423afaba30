// The audit log of operator actions on machines (remote commands today): written in the same
// transaction as the action, listed newest first for the RemoteControl screens.
import { and, count, desc, eq, gte, lt, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { callerOf } from '../auth/guard';
import type { Db } from '../db/client';
import { auditLog } from '../db/schema/liveFleet';
import { accountOf, iso, MACHINE_ID, objectSchema, optionalTime, PAGE_PROPERTIES, pageOf, RANGE_PROPERTIES, type PageBody } from '../fleet/access';
import { ok } from '../lib/envelope';
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

export const recordAudit = async (db: Db, actor: Actor, entry: AuditEntry) => {
  await db.insert(auditLog).values({ licenseAccountId: actor.account, userId: actor.userId, userName: actor.userName, ...entry });
};

interface AuditBody extends PageBody {
  rvmId?: number | null;
  action?: string | null;
  from?: string | null;
  to?: string | null;
}

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

export const registerAuditRoutes = (app: FastifyInstance, { db }: Services) => {
  app.post<{ Body: AuditBody }>(
    '/audit-log/page',
    commandRoute(
      'Audit log of operator actions, newest first; rvmId: entries about that machine, action: exact (e.g. command.restart, command.cancel)',
      {
        body: objectSchema({
          ...PAGE_PROPERTIES,
          ...RANGE_PROPERTIES,
          rvmId: { ...MACHINE_ID, type: ['integer', 'null'] },
          action: { type: ['string', 'null'], maxLength: 48 },
        }),
      },
      { type: 'object', properties: { list: { type: 'array', items: auditRecordSchema }, total: { type: 'integer' }, pageNum: { type: 'integer' }, pageSize: { type: 'integer' } } },
    ),
    async (request) => {
      const body = request.body;
      const account = accountOf(callerOf(request));
      const [from, to] = [optionalTime(body.from, 'from'), optionalTime(body.to, 'to')];
      const where = and(
        eq(auditLog.licenseAccountId, account),
        body.rvmId ? sql`${auditLog.target} -> 'rvmIds' @> ${JSON.stringify([body.rvmId])}::jsonb` : undefined,
        body.action ? eq(auditLog.action, body.action) : undefined,
        from ? gte(auditLog.time, from) : undefined,
        to ? lt(auditLog.time, to) : undefined,
      );
      const [rows, [{ total }]] = await Promise.all([
        db.select().from(auditLog).where(where).orderBy(desc(auditLog.time), desc(auditLog.id)).limit(body.pageSize).offset((body.pageNum - 1) * body.pageSize),
        db.select({ total: count() }).from(auditLog).where(where),
      ]);
      const list = rows.map(({ licenseAccountId: _account, time, ...row }) => ({ ...row, time: iso(time) }));
      return ok(request, pageOf(list, Number(total), body));
    },
  );
};
