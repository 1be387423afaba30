// The performance screen's calls (service › performance, docs/performance.md): MCBE over time and the
// main errors ranking of the caller's license account, a fleet (with its sub-fleets) or a machine, over
// local days within the last three months; the fleets and machines to choose from.
import { and, asc, eq, ilike, or, sql } from 'drizzle-orm';
import type { FastifySchema } from 'fastify';
import { Type } from 'typebox';
import { findMenuByKey } from '../../resources/menu';
import { callerOf } from '../auth/guard';
import type { Caller } from '../auth/principal';
import { rvm } from '../db/schema/fleet';
import { envelopeSchema, failureResponses, localeOf, ok } from '../lib/envelope';
import { AppError } from '../lib/errors';
import { Nullable, RowId, StrictObject, StringEnum, type TypedApp } from '../lib/typedApp';
import type { Services } from '../services';
import { computeErrors, computeMcbe } from './compute';
import { dayLabel, earliestDayOf, PERFORMANCE_MONTHS, resolveRange, todayOf } from './range';
import { accountFleets, resolveScope, subtreeOf } from './scope';
import { rollupSource } from './sources';

/** The menu's service › performance entry (resources/menu.ts): the permission of every call here. */
export const PERFORMANCE_PERMISSION = findMenuByKey('performance')!.identifier;

/** A local date YYYY-MM-DD (at utcOffsetMinutes). */
const localDate = (description: string) => Type.String({ pattern: '^\\d{4}-\\d{2}-\\d{2}$', description });
const OFFSET = Type.Optional(
  Type.Integer({
    minimum: -840,
    maximum: 840,
    multipleOf: 15,
    description: "The caller's UTC offset in minutes (default: the one sent at sign-in, else 0); local days are cut at it",
  }),
);
const SCOPE = {
  fleetId: Type.Optional(Nullable(RowId({ description: 'A fleet of the account: it and all its sub-fleets' }))),
  rvmId: Type.Optional(Nullable(RowId({ description: 'A machine of the account' }))),
};
const RANGE_BODY = {
  from: localDate(`First local day (inclusive), not before today ${PERFORMANCE_MONTHS} months back (else 9340)`),
  to: localDate('Last local day (inclusive), not after today'),
  utcOffsetMinutes: OFFSET,
  ...SCOPE,
};

const figures = { items: { type: 'integer' }, errors: { type: 'integer' }, mcbe: { type: ['number', 'null'], description: 'items ÷ errors; null without errors' } } as const;
const named = { type: ['object', 'null'], properties: { id: { type: 'integer' }, name: { type: 'string' } } } as const;
const machineLabel = { type: ['object', 'null'], properties: { id: { type: 'integer' }, termNo: { type: 'string' } } } as const;
const common = { from: { type: 'string' }, to: { type: 'string' }, utcOffsetMinutes: { type: 'integer' }, fleet: named, machine: machineLabel } as const;

const mcbeAnswer = {
  type: 'object',
  properties: {
    ...common,
    granularity: { type: 'string', enum: ['day', 'week'] },
    total: { type: 'object', properties: figures },
    series: { type: 'array', items: { type: 'object', properties: { start: { type: 'string' }, end: { type: 'string' }, ...figures } } },
    fleets: {
      type: 'array',
      items: { type: 'object', properties: { id: { type: 'integer' }, name: { type: 'string' }, own: { type: 'boolean' }, ...figures } },
    },
  },
} as const;

const errorsAnswer = {
  type: 'object',
  properties: {
    ...common,
    sort: { type: 'string', enum: ['count', 'downtime'] },
    total: { type: 'object', properties: { count: { type: 'integer' }, downtimeSeconds: { type: 'integer' } } },
    list: {
      type: 'array',
      items: {
        type: 'object',
        properties: {
          code: { type: 'string' },
          text: { type: 'string' },
          category: { type: 'string' },
          severity: { type: 'string' },
          blocking: { type: 'boolean' },
          count: { type: 'integer' },
          cleared: { type: 'integer' },
          openSeconds: { type: 'integer' },
          downtimeSeconds: { type: 'integer' },
        },
      },
    },
  },
} as const;

/** `extra`: the request's TypeBox body or querystring. */
const route = <Extra extends FastifySchema>(summary: string, extra: Extra, data: Record<string, unknown>) => ({
  config: { permissions: [PERFORMANCE_PERMISSION] },
  schema: {
    tags: ['performance'],
    summary,
    description: `Needs ${PERFORMANCE_PERMISSION} (superAdmin passes). Scoped to the caller's license account: another account's fleet answers 2003, its machine 6001. Definitions: docs/performance.md.`,
    security: [{ rvmToken: [] }],
    ...extra,
    response: { 200: envelopeSchema(data), ...failureResponses(true) },
  },
});

/** The caller's license account; without one there is nothing to show (2003). */
const accountOf = (caller: Caller) => {
  if (caller.principal.licenseAccountId === null) throw new AppError('2003');
  return caller.principal.licenseAccountId;
};

const offsetOf = (caller: Caller, requested?: number) => requested ?? caller.principal.utcOffsetMinutes ?? 0;

export const registerPerformanceRoutes = (app: TypedApp, { db }: Services) => {
  app.post(
    '/performance/mcbe',
    route(
      "MCBE (mean consumer items between error events) per day or week, with the sub-fleets' figures",
      {
        body: StrictObject({ ...RANGE_BODY, granularity: Type.Optional(StringEnum(['day', 'week'], { description: 'Default: day up to 31 days, else week' })) }),
      },
      mcbeAnswer,
    ),
    async (request) => {
      const caller = callerOf(request);
      const range = resolveRange(request.body, offsetOf(caller, request.body.utcOffsetMinutes));
      const scope = await resolveScope(db, accountOf(caller), request.body);
      return ok(request, await computeMcbe(db, rollupSource, scope, range));
    },
  );

  app.post(
    '/performance/errors',
    route(
      'Main errors: error alarm codes raised in the range by count or by downtime caused',
      {
        body: StrictObject({ ...RANGE_BODY, sort: Type.Optional(StringEnum(['count', 'downtime'], { default: 'count' })) }),
      },
      errorsAnswer,
    ),
    async (request) => {
      const caller = callerOf(request);
      const range = resolveRange(request.body, offsetOf(caller, request.body.utcOffsetMinutes));
      const scope = await resolveScope(db, accountOf(caller), request.body);
      return ok(request, await computeErrors(db, rollupSource, scope, range, request.body.sort ?? 'count', localeOf(request)));
    },
  );

  app.get(
    '/performance/options',
    route(
      "What the performance screen offers: today, the earliest day that may be asked for, the account's fleets",
      {
        querystring: StrictObject({ utcOffsetMinutes: OFFSET }),
      },
      {
        type: 'object',
        properties: {
          today: { type: 'string' },
          earliestDay: { type: 'string' },
          utcOffsetMinutes: { type: 'integer' },
          fleets: { type: 'array', items: { type: 'object', properties: { id: { type: 'integer' }, name: { type: 'string' }, parentId: { type: ['integer', 'null'] } } } },
        },
      },
    ),
    async (request) => {
      const caller = callerOf(request);
      const offset = offsetOf(caller, request.query.utcOffsetMinutes);
      const today = todayOf(new Date(), offset);
      const fleets = await accountFleets(db, accountOf(caller));
      return ok(request, { today: dayLabel(today), earliestDay: dayLabel(earliestDayOf(today)), utcOffsetMinutes: offset, fleets });
    },
  );

  app.get(
    '/performance/machines',
    route(
      'Machines of the account (in a fleet and its sub-fleets) whose RVM or serial number contains q: at most 20',
      {
        querystring: StrictObject({ q: Type.Optional(Type.String({ maxLength: 32 })), fleetId: Type.Optional(RowId()) }),
      },
      { type: 'array', items: { type: 'object', properties: { id: { type: 'integer' }, termNo: { type: 'string' }, serialNumber: { type: 'string' } } } },
    ),
    async (request) => {
      const account = accountOf(callerOf(request));
      const { q, fleetId } = request.query;
      let fleetIds: number[] | undefined;
      if (fleetId) {
        const fleets = await accountFleets(db, account);
        if (!fleets.some((row) => row.id === fleetId)) throw new AppError('2003');
        fleetIds = subtreeOf(fleets, fleetId);
      }
      const like = q ? `%${q.replace(/[\\%_]/g, (char) => `\\${char}`)}%` : undefined;
      const rows = await db
        .select({ id: rvm.id, termNo: rvm.termNo, serialNumber: rvm.serialNumber })
        .from(rvm)
        .where(
          and(
            eq(rvm.licenseAccountId, account),
            fleetIds ? sql`${rvm.fleetId} = any(${sql.param(fleetIds)}::int4[])` : undefined,
            like ? or(ilike(rvm.termNo, like), ilike(rvm.serialNumber, like)) : undefined,
          ),
        )
        .orderBy(asc(rvm.termNo))
        .limit(20);
      return ok(request, rows);
    },
  );
};
