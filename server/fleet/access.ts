// What every installation-screen route shares: the caller's license account, the machine lookup
// (6001 when it is not the caller's), time ranges, paging and the route options (permission,
// OpenAPI tags, envelope).
import { and, eq } from 'drizzle-orm';
import type { FastifySchema, RouteShorthandOptions } from 'fastify';
import type { Caller } from '../auth/principal';
import type { Db } from '../db/client';
import { rvm } from '../db/schema/fleet';
import { envelopeSchema, failureResponses } from '../lib/envelope';
import { AppError, invalidField } from '../lib/errors';

type JsonSchema = Record<string, unknown>;

/** The caller's current license account; without one nothing is theirs (6001 for machines). */
export const accountOf = (caller: Caller): number => {
  if (caller.principal.licenseAccountId === null) throw new AppError('6001');
  return caller.principal.licenseAccountId;
};

export type MachineRow = typeof rvm.$inferSelect;

/** The caller's machine `id`, else 6001 'The RVM does not exist' (other accounts' machines too). */
export const findMachine = async (db: Db, caller: Caller, id: number): Promise<MachineRow> => {
  const [row] = await db
    .select()
    .from(rvm)
    .where(and(eq(rvm.id, id), eq(rvm.licenseAccountId, accountOf(caller))))
    .limit(1);
  if (!row) throw new AppError('6001');
  return row;
};

export const iso = (value: Date | string | null | undefined): string | null => {
  if (value === null || value === undefined) return null;
  return (value instanceof Date ? value : new Date(value)).toISOString();
};

const DAY = 86_400_000;

/** An optional ISO date-time of a request (1003 when it is not one). */
export const optionalTime = (value: string | null | undefined, field: string): Date | undefined => {
  if (value === undefined || value === null || value === '') return undefined;
  const time = Date.parse(value);
  if (Number.isNaN(time)) throw invalidField(field, 'validation.date', '1003');
  return new Date(time);
};

/** `[from, to)` from optional ISO strings; `to` defaults to now, `from` to `defaultDays` before `to`. */
export const timeRange = (body: { from?: string | null; to?: string | null }, defaultDays: number) => {
  const to = optionalTime(body.to, 'to') ?? new Date();
  const from = optionalTime(body.from, 'from') ?? new Date(to.getTime() - defaultDays * DAY);
  if (to <= from) throw invalidField('to', 'validation.endAfterStart', '1004');
  return { from, to };
};

export const PAGE_PROPERTIES = {
  pageNum: { type: 'integer', minimum: 1, default: 1 },
  pageSize: { type: 'integer', minimum: 1, maximum: 500, default: 20 },
} as const;

export const RANGE_PROPERTIES = {
  from: { type: ['string', 'null'], maxLength: 40, description: 'ISO date-time, inclusive' },
  to: { type: ['string', 'null'], maxLength: 40, description: 'ISO date-time, exclusive (default now)' },
} as const;

export const MACHINE_ID = { type: 'integer', minimum: 1, description: 'Machine (RVM) id' } as const;

/** A strict JSON body (unknown fields answer 1004). */
export const objectSchema = (properties: JsonSchema, required: string[] = []): JsonSchema => ({
  type: 'object',
  additionalProperties: false,
  required,
  properties,
});

export interface PageBody {
  pageNum: number;
  pageSize: number;
}

export const pageOf = <T>(list: T[], total: number, body: PageBody) => ({ list, total, pageNum: body.pageNum, pageSize: body.pageSize });

/** Route options in the core's style: permissions for the guard, OpenAPI description, envelope. */
export const fleetRoute = (
  tag: string,
  summary: string,
  permissions: readonly string[],
  schema: FastifySchema = {},
  data: JsonSchema = {},
): RouteShorthandOptions => ({
  config: { permissions },
  schema: {
    tags: [tag],
    summary,
    description: `Needs one of: ${permissions.join(', ')} (superAdmin passes).`,
    security: [{ rvmToken: [] }],
    ...schema,
    response: { 200: envelopeSchema(data), ...failureResponses(true) },
  },
});

/** Permission identifiers of the installation screens (resources/menu.ts and the declarations). */
export const PERMISSIONS = {
  fleetPage: 'fleet:page',
  machineEdit: 'machine:edit',
  overview: 'installation:rvmpage:Overview',
  profile: 'installation:rvmpage:ProfileSetting',
  statusHistory: 'installation:rvmpage:StatusHistory',
  onlineHistory: 'installation:rvmpage:OnlineOfflineHistory',
  serviceSessions: 'installation:rvmpage:ServiceSessions',
  eventHistory: 'installation:rvmpage:EventHistory',
  consumerSessions: 'installation:rvmpage:ConsumerSessions',
  search: 'search',
  quarantine: 'home:quarantineOverview',
} as const;
