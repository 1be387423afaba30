// GET /search?q=: machines by serial number, RVM number (prefix, any case) or address (anywhere),
// and consumer sessions by voucher code or user ID (exact; prefix from 6 characters on, so a short
// query never walks millions of vouchers). Typed hits tell the console which page to open.
// Machines come from two queries, each able to use an index: identifier matches and address matches,
// both in RVM number order, merged (identifiers first). The ILIKE patterns are served by trigram GIN
// indexes on the three columns (migration 0012_search_trigram_indexes); a common term instead walks the
// RVM-number index and stops at the limit, and a term under 3 characters (no trigram) does the same or
// reads the table (docs/benchmarks.md "Search and contains-filters at scale").
import { and, desc, eq, ilike, like, or, type SQL } from 'drizzle-orm';
import { Type } from 'typebox';
import { callerOf } from '../auth/guard';
import { rvm } from '../db/schema/fleet';
import { consumerSession } from '../db/schema/fleetActivity';
import { ok } from '../lib/envelope';
import { StrictObject, type TypedApp } from '../lib/typedApp';
import type { Services } from '../services';
import { accountOf, fleetRoute, iso, PERMISSIONS } from './access';

const PREFIX_FROM = 6;
const DEFAULT_LIMIT = 20;
const escapeLike = (text: string) => text.replace(/[\\%_]/g, (char) => `\\${char}`);

export const registerSearchRoutes = (app: TypedApp, { db }: Services) => {
  app.get(
    '/search',
    fleetRoute(
      'search',
      'Search machines (serial, RVM number, address) and consumer sessions (voucher code, user ID); hits typed "machine" or "consumerSession"',
      [PERMISSIONS.search],
      {
        querystring: StrictObject({
          q: Type.String({ minLength: 1, maxLength: 64 }),
          limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: DEFAULT_LIMIT })),
        }),
      },
    ),
    async (request) => {
      // The validator fills an absent limit with its default; the schema's type cannot say so.
      const query = { ...request.query, limit: request.query.limit ?? DEFAULT_LIMIT };
      const account = accountOf(callerOf(request));
      const q = query.q.trim();
      if (!q) return ok(request, { q, hits: [], truncated: false });
      const prefix = `${escapeLike(q)}%`;
      const upper = q.toUpperCase();
      const sessionMatch = (column: typeof consumerSession.voucherCode | typeof consumerSession.userId) =>
        q.length >= PREFIX_FROM ? or(like(column, `${escapeLike(q)}%`), like(column, `${escapeLike(upper)}%`)) : or(eq(column, q), eq(column, upper));

      const machineColumns = { id: rvm.id, termNo: rvm.termNo, serialNumber: rvm.serialNumber, address: rvm.address, termType: rvm.termType, currentSts: rvm.currentSts };
      const machinesWhere = (match: SQL | undefined) =>
        db
          .select(machineColumns)
          .from(rvm)
          .where(and(eq(rvm.licenseAccountId, account), match))
          .orderBy(rvm.termNo)
          .limit(query.limit + 1);
      const [byIdentifier, byAddress, sessions] = await Promise.all([
        machinesWhere(or(ilike(rvm.serialNumber, prefix), ilike(rvm.termNo, prefix))),
        machinesWhere(ilike(rvm.address, `%${escapeLike(q)}%`)),
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
      // Identifier matches before address matches, each in RVM number order (term numbers are unique
      // per account). Enough address rows are fetched: at most byIdentifier.length of them are dropped.
      const identifierIds = new Set(byIdentifier.map((row) => row.id));
      const machines = [...byIdentifier, ...byAddress.filter((row) => !identifierIds.has(row.id))].slice(0, query.limit + 1);
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
