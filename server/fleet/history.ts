// Machine page tabs over a time range: StatusHistory and OnlineOfflineHistory (intervals overlapping
// the range, paged for the table plus the clipped timeline for the chart), ServiceSessions and
// EventHistory. Every query is led by the machine id, on an index (rvm_id, time).
import { and, count, desc, eq, gt, gte, isNull, lt, or, type SQL } from 'drizzle-orm';
import { Type, type TProperties } from 'typebox';
import { ALARM_CATEGORIES, ALARM_SEVERITIES, CLEANING_OUTCOMES, RVM_STATUSES } from '../../resources/fleetCatalogue';
import { callerOf } from '../auth/guard';
import type { Db } from '../db/client';
import { rvmEvent, rvmOnlineHistory, rvmStatusHistory, serviceSession } from '../db/schema/fleetActivity';
import { servicePersonnel } from '../db/schema/personnel';
import { ok } from '../lib/envelope';
import { Nullable, NullableStringEnum, StrictObject, type TypedApp } from '../lib/typedApp';
import type { Services } from '../services';
import { findMachine, fleetRoute, iso, MACHINE_ID, PAGE_PROPERTIES, pageOf, PERMISSIONS, RANGE_PROPERTIES, timeRange, withPaging, type PageBody } from './access';
import { eventToWire } from './machinePage';

/** The chart never needs more points than this; a range that holds more is clipped at its start. */
const TIMELINE_LIMIT = 5000;

interface RangeBody extends PageBody {
  id: number;
  from?: string | null;
  to?: string | null;
}

type IntervalTable = typeof rvmStatusHistory | typeof rvmOnlineHistory;

const seconds = (start: Date, end: Date | null, now: Date) => Math.round(((end ?? now).getTime() - start.getTime()) / 1000);

/** Intervals of `table` overlapping [from, to): a page (newest first), the total and the clipped timeline. */
const intervals = async <K extends 'status' | 'online'>(db: Db, table: IntervalTable, key: K, body: RangeBody, extra: SQL | undefined, defaultDays: number) => {
  const { from, to } = timeRange(body, defaultDays);
  const value = (table as typeof rvmStatusHistory & typeof rvmOnlineHistory)[key];
  const overlap = and(eq(table.rvmId, body.id), lt(table.startTime, to), or(isNull(table.endTime), gt(table.endTime, from)));
  const where = and(overlap, extra);
  const now = new Date();
  const [rows, [{ total }], chart] = await Promise.all([
    db
      .select({ id: table.id, value, startTime: table.startTime, endTime: table.endTime })
      .from(table)
      .where(where)
      .orderBy(desc(table.startTime))
      .limit(body.pageSize)
      .offset((body.pageNum - 1) * body.pageSize),
    db.select({ total: count() }).from(table).where(where),
    db.select({ value, startTime: table.startTime, endTime: table.endTime }).from(table).where(overlap).orderBy(desc(table.startTime)).limit(TIMELINE_LIMIT),
  ]);
  const end = to < now ? to : now;
  const timeline = chart.reverse().map((row) => {
    const start = row.startTime < from ? from : row.startTime;
    const stop = row.endTime === null || row.endTime > end ? end : row.endTime;
    return { [key]: row.value, startTime: start.toISOString(), endTime: stop.toISOString(), seconds: Math.max(0, Math.round((stop.getTime() - start.getTime()) / 1000)) };
  });
  const totals: Record<string, number> = {};
  for (const slice of timeline) totals[String(slice[key])] = (totals[String(slice[key])] ?? 0) + slice.seconds;
  const list = rows.map((row) => ({
    id: row.id,
    [key]: row.value,
    startTime: iso(row.startTime),
    endTime: iso(row.endTime),
    durationSeconds: seconds(row.startTime, row.endTime, now),
  }));
  return { ...pageOf(list, Number(total), body), from: from.toISOString(), to: to.toISOString(), timeline, secondsBy: totals };
};

const rangeBody = <Extra extends TProperties>(extra: Extra) => StrictObject({ id: MACHINE_ID, ...RANGE_PROPERTIES, ...PAGE_PROPERTIES, ...extra });

export const registerHistoryRoutes = (app: TypedApp, { db }: Services) => {
  app.post(
    '/rvmpage/statusHistory',
    fleetRoute(
      'rvmpage',
      'StatusHistory tab: status intervals overlapping [from, to) (default 7 days), paged newest first, plus the clipped timeline and seconds per status',
      [PERMISSIONS.statusHistory],
      {
        body: rangeBody({ status: Type.Optional(NullableStringEnum(RVM_STATUSES)) }),
      },
    ),
    async (request) => {
      const body = withPaging(request.body);
      await findMachine(db, callerOf(request), body.id);
      const extra = body.status ? eq(rvmStatusHistory.status, body.status) : undefined;
      return ok(request, await intervals(db, rvmStatusHistory, 'status', body, extra, 7));
    },
  );

  app.post(
    '/rvmpage/onlineOfflineHistory',
    fleetRoute('rvmpage', 'OnlineOfflineHistory tab: online/offline intervals overlapping [from, to) (default 7 days), paged, plus the timeline', [PERMISSIONS.onlineHistory], {
      body: rangeBody({ online: Type.Optional(Nullable(Type.Boolean())) }),
    }),
    async (request) => {
      const body = withPaging(request.body);
      await findMachine(db, callerOf(request), body.id);
      const extra = typeof body.online === 'boolean' ? eq(rvmOnlineHistory.online, body.online) : undefined;
      return ok(request, await intervals(db, rvmOnlineHistory, 'online', body, extra, 7));
    },
  );

  app.post(
    '/rvmpage/serviceSessions',
    fleetRoute(
      'rvmpage',
      'ServiceSessions tab: technician visits started in [from, to) (default 30 days), newest first, with counts per cleaning outcome',
      [PERMISSIONS.serviceSessions],
      {
        body: rangeBody({ cleaningOutcome: Type.Optional(NullableStringEnum(CLEANING_OUTCOMES)) }),
      },
    ),
    async (request) => {
      const body = withPaging(request.body);
      await findMachine(db, callerOf(request), body.id);
      const { from, to } = timeRange(body, 30);
      const inRange = and(eq(serviceSession.rvmId, body.id), gte(serviceSession.startTime, from), lt(serviceSession.startTime, to));
      const where = and(inRange, body.cleaningOutcome ? eq(serviceSession.cleaningOutcome, body.cleaningOutcome) : undefined);
      const [rows, [{ total }], outcomes] = await Promise.all([
        // the technician is the login name a person of the machine's personnel package signed in with
        // (docs/service-personnel.md#service-sessions): shown with that person's names while the person exists
        db
          .select({ row: serviceSession, realName: servicePersonnel.realName, company: servicePersonnel.company, accessLevel: servicePersonnel.accessLevel })
          .from(serviceSession)
          .leftJoin(servicePersonnel, and(eq(servicePersonnel.licenseAccountId, serviceSession.licenseAccountId), eq(servicePersonnel.loginName, serviceSession.technician)))
          .where(where)
          .orderBy(desc(serviceSession.startTime))
          .limit(body.pageSize)
          .offset((body.pageNum - 1) * body.pageSize),
        db.select({ total: count() }).from(serviceSession).where(where),
        db.select({ outcome: serviceSession.cleaningOutcome, sessions: count() }).from(serviceSession).where(inRange).groupBy(serviceSession.cleaningOutcome),
      ]);
      const list = rows.map(({ row, realName, company, accessLevel }) => ({
        id: row.id,
        technician: row.technician,
        personnel: realName === null ? null : { realName, company, accessLevel },
        startTime: iso(row.startTime),
        endTime: iso(row.endTime),
        durationSeconds: Math.round((row.endTime.getTime() - row.startTime.getTime()) / 1000),
        cleaningOutcome: row.cleaningOutcome,
        binsEmptied: row.binsEmptied,
        note: row.note,
      }));
      const byOutcome = Object.fromEntries(CLEANING_OUTCOMES.map((outcome) => [outcome, Number(outcomes.find((row) => row.outcome === outcome)?.sessions ?? 0)]));
      return ok(request, { ...pageOf(list, Number(total), body), from: from.toISOString(), to: to.toISOString(), byOutcome });
    },
  );

  app.post(
    '/rvmpage/eventHistory',
    fleetRoute('rvmpage', 'EventHistory tab: alarms raised in [from, to) (default 30 days), newest first; openOnly lists those not cleared', [PERMISSIONS.eventHistory], {
      body: rangeBody({
        category: Type.Optional(NullableStringEnum(ALARM_CATEGORIES)),
        severity: Type.Optional(NullableStringEnum(ALARM_SEVERITIES)),
        code: Type.Optional(Nullable(Type.String({ maxLength: 24 }))),
        openOnly: Type.Optional(Nullable(Type.Boolean())),
      }),
    }),
    async (request) => {
      const body = withPaging(request.body);
      await findMachine(db, callerOf(request), body.id);
      const { from, to } = timeRange(body, 30);
      const where = and(
        eq(rvmEvent.rvmId, body.id),
        gte(rvmEvent.raisedTime, from),
        lt(rvmEvent.raisedTime, to),
        body.category ? eq(rvmEvent.category, body.category) : undefined,
        body.severity ? eq(rvmEvent.severity, body.severity) : undefined,
        body.code ? eq(rvmEvent.code, body.code) : undefined,
        body.openOnly ? isNull(rvmEvent.clearedTime) : undefined,
      );
      const [rows, [{ total }]] = await Promise.all([
        db
          .select()
          .from(rvmEvent)
          .where(where)
          .orderBy(desc(rvmEvent.raisedTime))
          .limit(body.pageSize)
          .offset((body.pageNum - 1) * body.pageSize),
        db.select({ total: count() }).from(rvmEvent).where(where),
      ]);
      return ok(request, { ...pageOf(rows.map(eventToWire), Number(total), body), from: from.toISOString(), to: to.toISOString() });
    },
  );
};
