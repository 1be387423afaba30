// What every installation-screen route shares: the caller's license account, the machine lookup
// (6001 when it is not the caller's), time ranges, paging and the route options (permission,
// OpenAPI tags, envelope).
import { and, eq } from 'drizzle-orm';
import type { FastifySchema } from 'fastify';
import { Type } from 'typebox';
import type { Caller } from '../auth/principal';
import type { Db } from '../db/client';
import { rvm } from '../db/schema/fleet';
import { envelopeSchema, failureResponses } from '../lib/envelope';
import { AppError, invalidField } from '../lib/errors';
import { Nullable } from '../lib/typedApp';

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

const PAGE_DEFAULTS = { pageNum: 1, pageSize: 20 } as const;

/** A page size from 1 to `maximum`, 20 when absent. */
export const pageSizeUpTo = (maximum: number) => Type.Optional(Type.Integer({ minimum: 1, maximum, default: PAGE_DEFAULTS.pageSize }));

export const PAGE_PROPERTIES = {
  pageNum: Type.Optional(Type.Integer({ minimum: 1, default: PAGE_DEFAULTS.pageNum })),
  pageSize: pageSizeUpTo(500),
};

export const RANGE_PROPERTIES = {
  from: Type.Optional(Nullable(Type.String({ maxLength: 40, description: 'ISO date-time, inclusive' }))),
  to: Type.Optional(Nullable(Type.String({ maxLength: 40, description: 'ISO date-time, exclusive (default now)' }))),
};

export const MACHINE_ID = Type.Integer({ minimum: 1, description: 'Machine (RVM) id' });

export interface PageBody {
  pageNum: number;
  pageSize: number;
}

/**
 * A validated body or query with its paging as a type: the validator has already put the default in
 * an absent pageNum or pageSize (Ajv useDefaults), which a TypeBox type cannot express.
 */
export const withPaging = <Paged extends { pageNum?: number; pageSize?: number }>(input: Paged) => ({
  ...input,
  pageNum: input.pageNum ?? PAGE_DEFAULTS.pageNum,
  pageSize: input.pageSize ?? PAGE_DEFAULTS.pageSize,
});

export const pageOf = <T>(list: T[], total: number, body: PageBody) => ({ list, total, pageNum: body.pageNum, pageSize: body.pageSize });

/**
 * Route options in the core's style: permissions for the guard, OpenAPI description, envelope.
 * `schema` (TypeBox body, querystring, params; `{}` for none) types the handler's request.
 */
export const fleetRoute = <Schema extends FastifySchema>(tag: string, summary: string, permissions: readonly string[], schema: Schema, data: JsonSchema = {}) => ({
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
