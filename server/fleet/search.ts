// GET /search?q=: machines by serial number, RVM number (prefix, any case) or address (anywhere),
// and consumer sessions by voucher code or user ID (exact; prefix from 6 characters on, so a short
// query never walks millions of vouchers). Typed hits tell the console which page to open.
import { and, desc, eq, ilike, like, or, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { callerOf } from '../auth/guard';
import { rvm } from '../db/schema/fleet';
import { consumerSession } from '../db/schema/fleetActivity';
import { ok } from '../lib/envelope';
import type { Services } from '../services';
import { accountOf, fleetRoute, iso, objectSchema, PERMISSIONS } from './access';

const PREFIX_FROM = 6;
const escapeLike = (text: string) => text.replace(/[\\%_]/g, (char) => `\\${char}`);

export const registerSearchRoutes = (app: FastifyInstance, { db }: Services) => {
  app.get(
    '/search',
    fleetRoute('search', 'Search machines (serial, RVM number, address) and consumer sessions (voucher code, user ID); hits typed "machine" or "consumerSession"', [PERMISSIONS.search], {
      querystring: objectSchema(
        { q: { type: 'string', minLength: 1, maxLength: 64 }, limit: { type: 'integer', minimum: 1, maximum: 100, default: 20 } },
        ['q'],
      ),
    }),
    async (request) => {
      const query = request.query as { q: string; limit: number };
      const account = accountOf(callerOf(request));
      const q = query.q.trim();
      if (!q) return ok(request, { q, hits: [], truncated: false });
      const prefix = `${escapeLike(q)}%`;
      const upper = q.toUpperCase();
      const sessionMatch = (column: typeof consumerSession.voucherCode | typeof consumerSession.userId) =>
        q.length >= PREFIX_FROM ? or(like(column, `${escapeLike(q)}%`), like(column, `${escapeLike(upper)}%`)) : or(eq(column, q), eq(column, upper));

      const [machines, sessions] = await Promise.all([
        db
          .select({ id: rvm.id, termNo: rvm.termNo, serialNumber: rvm.serialNumber, address: rvm.address, termType: rvm.termType, currentSts: rvm.currentSts })
          .from(rvm)
          .where(and(eq(rvm.licenseAccountId, account), or(ilike(rvm.serialNumber, prefix), ilike(rvm.termNo, prefix), ilike(rvm.address, `%${escapeLike(q)}%`))))
          // Identifier matches before address matches, then in RVM number order.
          .orderBy(sql`(${rvm.termNo} ilike ${prefix} or ${rvm.serialNumber} ilike ${prefix}) desc`, rvm.termNo)
          .limit(query.limit + 1),
        db
          .select({
            id: consumerSession.id,
            rvmId: consumerSession.rvmId,
            termNo: rvm.termNo,
            startTime: consumerSession.startTime,
            payoutMethod: consumerSession.payoutMethod,
            totalRefund: consumerSession.totalRefund,
            voucherCode: consumerSession.voucherCode,
            userId: consumerSession.userId,
          })
          .from(consumerSession)
          .innerJoin(rvm, eq(rvm.id, consumerSession.rvmId))
          .where(and(eq(consumerSession.licenseAccountId, account), or(sessionMatch(consumerSession.voucherCode), sessionMatch(consumerSession.userId))))
          .orderBy(desc(consumerSession.startTime))
          .limit(query.limit + 1),
      ]);
      const lower = q.toLowerCase();
      const startsWith = (value: string | null) => value !== null && value.toLowerCase().startsWith(lower);
      const hits = [
        ...machines.slice(0, query.limit).map((row) => ({
          type: 'machine' as const,
          ...row,
          matched: startsWith(row.termNo) ? 'termNo' : startsWith(row.serialNumber) ? 'serialNumber' : 'address',
        })),
        ...sessions.slice(0, query.limit).map((row) => ({
          type: 'consumerSession' as const,
          ...row,
          startTime: iso(row.startTime),
          matched: startsWith(row.voucherCode) ? 'voucherCode' : 'userId',
        })),
      ];
      return ok(request, { q, hits, truncated: machines.length > query.limit || sessions.length > query.limit });
    },
  );
};
