// GET /dashboard (docs/dashboard.md): the home screen's cards and charts for the caller's license
// account, optionally scoped by a saved filter of the machine list (`savedFilterId`).
import { Ajv } from 'ajv';
import { and, eq } from 'drizzle-orm';
import { Type } from 'typebox';
import { DEFAULT_ACCOUNT_CURRENCY } from '../../resources/account';
import { CARD_KEYS } from '../../resources/dashboard';
import { HOME_MENU_ID, findMenuById } from '../../resources/menu';
import type { Caller } from '../auth/principal';
import { callerOf } from '../auth/guard';
import { pageBodySchema } from '../crud/schemas';
import { savedFilter } from '../db/schema';
import { savedFilterVisibleTo } from '../savedFilters/visibility';
import { envelopeSchema, failureResponses, ok } from '../lib/envelope';
import { issuesFromAjv } from '../lib/ajv';
import { AppError, invalid } from '../lib/errors';
import { RowId, StrictObject, type TypedApp } from '../lib/typedApp';
import { resolveRelativeTimes } from '../savedFilters/relativeTimes';
import type { Services } from '../services';
import { computeDashboard, type MachineFilter } from './compute';
import { periodsOf } from './periods';
import { usageOf } from './rollup';

/** The menu's Home › index entry (resources/menu.ts): the permission of the home screen. */
export const DASHBOARD_PERMISSION = findMenuById(HOME_MENU_ID)!.children.find((node) => node.key === 'index')!.identifier;
/**
 * Home is always visible and has no permission row (server/seed/permissionTree.ts), so only a
 * superAdmin (or a role given a hand-made `home:index` permission) holds it: whoever may list the
 * machines may see their figures too.
 */
export const DASHBOARD_PERMISSIONS = [DASHBOARD_PERMISSION, 'machine:page'] as const;

/** Refund values of a caller without a license account are in this currency (the accounts' default). */
export const DEFAULT_CURRENCY = DEFAULT_ACCOUNT_CURRENCY;

const MACHINE_RESOURCE = 'machine';

const filterSchema = { type: 'object', additionalProperties: true, description: 'A POST /rvm/page body (filters only)' } as const;
const segment = {
  type: 'object',
  properties: { key: { type: 'string' }, value: { type: 'number' }, filter: filterSchema },
} as const;
const report = {
  type: 'object',
  properties: {
    sessions: { type: 'integer' },
    items: { type: 'integer' },
    accepted: { type: 'integer' },
    rejected: { type: 'integer' },
    rejectRate: { type: ['number', 'null'] },
    refund: { type: 'number' },
  },
} as const;
const answerSchema = {
  type: 'object',
  properties: {
    now: { type: 'string', description: 'The instant every window ends at (ISO)' },
    utcOffsetMinutes: { type: 'integer', description: 'Local days and months are cut at this UTC offset' },
    currency: { type: 'string', description: "ISO 4217 code of refund values: the license account's currency" },
    machineCount: { type: 'integer', description: 'Machines in the scope (the saved filter, else the whole account)' },
    savedFilter: { type: ['object', 'null'], properties: { id: { type: 'integer' }, name: { type: 'string' } } },
    cards: {
      type: 'array',
      items: {
        type: 'object',
        properties: {
          key: { type: 'string', enum: CARD_KEYS, description: 'The card (resources/dashboard.ts DASHBOARD_CARDS, in its order)' },
          value: { type: ['number', 'null'] },
          filter: filterSchema,
          average: { type: 'number', description: 'Per day over the complete days of the last 4 weeks' },
          report,
        },
      },
    },
    charts: {
      type: 'object',
      properties: {
        statusOverview: { type: 'array', items: segment },
        typesOverview: { type: 'array', items: segment },
        rejectRate: {
          type: 'array',
          items: { type: 'object', properties: { day: { type: 'string' }, items: { type: 'integer' }, rejected: { type: 'integer' }, rate: { type: ['number', 'null'] } } },
        },
        volumePerDay: {
          type: 'array',
          items: {
            type: 'object',
            properties: { day: { type: 'string' }, sessions: { type: 'integer' }, accepted: { type: 'integer' }, rejected: { type: 'integer' }, refund: { type: 'number' } },
          },
        },
      },
    },
  },
} as const;

const visibleFilter = (caller: Caller, id: number) => and(eq(savedFilter.id, id), eq(savedFilter.resource, MACHINE_RESOURCE), savedFilterVisibleTo(caller));

export const registerDashboardRoutes = (app: TypedApp, { db, models }: Services) => {
  const model = models.get(MACHINE_RESOURCE);
  if (!model) return;
  const filterNames = new Set(model.declaration.list.filters.map((filter) => filter.name));
  // A saved filter's body is checked like a POST /rvm/page body (it was saved from one).
  const checkFilter = new Ajv({ strict: false, allErrors: true }).compile(pageBodySchema(model));

  app.get(
    '/dashboard',
    {
      config: { permissions: DASHBOARD_PERMISSIONS },
      schema: {
        tags: ['dashboard'],
        summary: 'The home dashboard: cards (machine cards with their machine-list filter) and charts',
        description:
          `Needs one of: ${DASHBOARD_PERMISSIONS.join(', ')} (superAdmin passes). Scoped to the caller's license account and, with savedFilterId, to the ` +
          'machines of that saved machine-list filter. Definitions: docs/dashboard.md.',
        security: [{ rvmToken: [] }],
        querystring: StrictObject({
          savedFilterId: Type.Optional(RowId({ description: 'A saved filter of the machine list (resource "machine")' })),
          utcOffsetMinutes: Type.Optional(
            Type.Integer({ minimum: -840, maximum: 840, multipleOf: 15, description: "The caller's UTC offset in minutes (default: the one sent at sign-in, else 0)" }),
          ),
        }),
        response: { 200: envelopeSchema(answerSchema), ...failureResponses(true) },
      },
    },
    async (request) => {
      const caller = callerOf(request);
      const { query } = request;
      let base: MachineFilter = {};
      let chosen: { id: number; name: string } | null = null;
      if (query.savedFilterId !== undefined) {
        const [row] = await db.select().from(savedFilter).where(visibleFilter(caller, query.savedFilterId));
        if (!row) throw new AppError('2003');
        const stored = resolveRelativeTimes((row.filter ?? {}) as Record<string, unknown>, new Date()); // built-in ones say "now-7d"
        base = Object.fromEntries(Object.entries(stored).filter(([name]) => filterNames.has(name)));
        if (!checkFilter(base)) throw invalid(issuesFromAjv(checkFilter.errors ?? []));
        chosen = { id: row.id, name: row.name };
      }
      const offset = query.utcOffsetMinutes ?? caller.principal.utcOffsetMinutes ?? 0;
      const periods = periodsOf(new Date(), offset);
      // No license account: nothing is the caller's (the scope condition is false).
      const account = caller.principal.licenseAccountId ?? -1;
      const answer = await computeDashboard({
        db,
        model,
        caller,
        account,
        base,
        periods,
        currency: caller.principal.licenseAccountCurrency ?? DEFAULT_CURRENCY,
        usage: (tx, machines) => usageOf(tx, account, periods, machines, base),
      });
      return ok(request, { ...answer, savedFilter: chosen });
    },
  );
};
