// The machine page's ConsumerSessions tab (sessions started in a time range, paged, filterable)
// and the consumer session details (items with reject reasons and pictures).
import { and, asc, count, desc, eq, gte, lt } from 'drizzle-orm';
import { Type } from 'typebox';
import { PAYOUT_METHODS } from '../../resources/fleetCatalogue';
import { callerOf } from '../auth/guard';
import { donationInstitute, rvm } from '../db/schema/fleet';
import { consumerSession, consumerSessionItem } from '../db/schema/fleetActivity';
import { ok } from '../lib/envelope';
import { AppError } from '../lib/errors';
import { Nullable, NullableStringEnum, StrictObject, StringEnum, type TypedApp } from '../lib/typedApp';
import type { Services } from '../services';
import { accountOf, findMachine, fleetRoute, iso, MACHINE_ID, PAGE_PROPERTIES, pageOf, PERMISSIONS, RANGE_PROPERTIES, timeRange, withPaging } from './access';
import { pictureUrl } from './pictures';

const SORT_KEYS = ['startTime', 'totalRefund', 'itemCount', 'rejectedCount'] as const;
const SORTABLE = {
  startTime: consumerSession.startTime,
  totalRefund: consumerSession.totalRefund,
  itemCount: consumerSession.itemCount,
  rejectedCount: consumerSession.rejectedCount,
} as const satisfies Record<(typeof SORT_KEYS)[number], unknown>;

export const sessionToWire = (row: typeof consumerSession.$inferSelect) => ({
  id: row.id,
  rvmId: row.rvmId,
  startTime: iso(row.startTime),
  endTime: iso(row.endTime),
  payoutMethod: row.payoutMethod,
  totalRefund: row.totalRefund,
  itemCount: row.itemCount,
  acceptedCount: row.acceptedCount,
  rejectedCount: row.rejectedCount,
  userId: row.userId,
  voucherCode: row.voucherCode,
  // until when the voucher can be redeemed, as the machine reported it (null: no voucher, or no validity)
  voucherValidUntil: iso(row.voucherValidUntil),
  cardNo: row.cardNo,
  // `banned`: the machine refused the consumer (docs/service-personnel.md#bans)
  refusal: row.refusal,
  donationInstituteId: row.donationInstituteId,
});

export const registerConsumerSessionRoutes = (app: TypedApp, { db }: Services) => {
  app.post(
    '/rvmpage/consumerSessions',
    fleetRoute('rvmpage', 'ConsumerSessions tab: sessions started in [from, to) (default 7 days), newest first unless sorted', [PERMISSIONS.consumerSessions], {
      body: StrictObject({
        id: MACHINE_ID,
        ...RANGE_PROPERTIES,
        ...PAGE_PROPERTIES,
        payoutMethod: Type.Optional(NullableStringEnum(PAYOUT_METHODS)),
        voucherCode: Type.Optional(Nullable(Type.String({ maxLength: 32 }))),
        userId: Type.Optional(Nullable(Type.String({ maxLength: 32 }))),
        sort: Type.Optional(StringEnum(SORT_KEYS)),
        order: Type.Optional(StringEnum(['ASC', 'DESC'])),
      }),
    }),
    async (request) => {
      const body = withPaging(request.body);
      await findMachine(db, callerOf(request), body.id);
      const { from, to } = timeRange(body, 7);
      const where = and(
        eq(consumerSession.rvmId, body.id),
        gte(consumerSession.startTime, from),
        lt(consumerSession.startTime, to),
        body.payoutMethod ? eq(consumerSession.payoutMethod, body.payoutMethod) : undefined,
        body.voucherCode ? eq(consumerSession.voucherCode, body.voucherCode) : undefined,
        body.userId ? eq(consumerSession.userId, body.userId) : undefined,
      );
      const direction = (body.order ?? (body.sort ? 'ASC' : 'DESC')) === 'DESC' ? desc : asc;
      const [rows, [{ total }]] = await Promise.all([
        db
          .select()
          .from(consumerSession)
          .where(where)
          .orderBy(direction(SORTABLE[body.sort ?? 'startTime']), direction(consumerSession.id))
          .limit(body.pageSize)
          .offset((body.pageNum - 1) * body.pageSize),
        db.select({ total: count() }).from(consumerSession).where(where),
      ]);
      return ok(request, { ...pageOf(rows.map(sessionToWire), Number(total), body), from: from.toISOString(), to: to.toISOString() });
    },
  );

  app.get(
    '/rvmpage/consumerSessionDetails',
    fleetRoute(
      'rvmpage',
      "Consumer session details: the session, its machine and its items (reject reason codes, picture URLs); 2003 when not the caller's",
      [PERMISSIONS.consumerSessions],
      {
        querystring: StrictObject({ id: Type.Integer({ minimum: 1, description: 'Consumer session id' }) }),
      },
    ),
    async (request) => {
      const { id } = request.query;
      const account = accountOf(callerOf(request));
      const [found] = await db
        .select({ session: consumerSession, termNo: rvm.termNo, serialNumber: rvm.serialNumber, termType: rvm.termType, donationInstitute: donationInstitute.name })
        .from(consumerSession)
        .innerJoin(rvm, eq(rvm.id, consumerSession.rvmId))
        .leftJoin(donationInstitute, eq(donationInstitute.id, consumerSession.donationInstituteId))
        .where(and(eq(consumerSession.id, id), eq(consumerSession.licenseAccountId, account)))
        .limit(1);
      if (!found) throw new AppError('2003');
      const items = await db.select().from(consumerSessionItem).where(eq(consumerSessionItem.sessionId, id)).orderBy(consumerSessionItem.seq);
      return ok(request, {
        session: {
          ...sessionToWire(found.session),
          termNo: found.termNo,
          serialNumber: found.serialNumber,
          termType: found.termType,
          donationInstitute: found.donationInstitute,
        },
        items: items.map((item) => ({
          seq: item.seq,
          itemType: item.itemType,
          barcode: item.barcode,
          category: item.category,
          refund: item.refund,
          accepted: item.rejectReason === null,
          rejectReason: item.rejectReason,
          picture: item.picture,
          pictureUrl: item.picture ? pictureUrl(item.picture) : null,
        })),
      });
    },
  );
};
