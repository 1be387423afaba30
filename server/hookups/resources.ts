// What the APIs area's declarations cannot say (docs/api-hookups.md): each family's screens see their
// family and the caller's account only, apps get their secret and refuse deletion while machines are bound
// (9001), subscriptions are never made for a vendorConnect app, and computed columns (machine numbers,
// message bodies, tracing-code counts). Hooks by declaration name, merged into the engine's by app.ts.
import { and, eq, inArray, sql, type SQL } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';
import { FAMILY_API_TYPES, HOOKUP_FAMILIES, type HookupFamily } from '../../resources/hookupCatalogue';
import { HOOKUP_APPS } from '../../resources/hookupApp';
import { HOOKUP_SUBSCRIPTIONS } from '../../resources/hookupSubscription';
import { HOOKUP_MESSAGES } from '../../resources/hookupMessage';
import { notificationList, tcRvmList, tcTransactionList } from '../../resources/hookupLists';
import type { Caller } from '../auth/principal';
import type { HookContext, ResourceHooks, Values } from '../crud/hooks';
import { rowsOf } from '../db/client';
import { rvm } from '../db/schema/fleet';
import { hookupApp, hookupMessage, hookupSubscription } from '../db/schema/hookups';
import { AppError, invalidField } from '../lib/errors';
import { newSecret } from './signing';
import { hookupNotification, hookupTcTransaction } from './views';

/** The caller's account, or a condition nothing meets. */
const accountIs = (column: Parameters<typeof eq>[0], caller: Caller): SQL =>
  caller.principal.licenseAccountId === null ? sql`false` : eq(column, caller.principal.licenseAccountId);

const accountOf = (context: HookContext) => {
  const account = context.caller.principal.licenseAccountId;
  if (account === null) throw new AppError('5001');
  return account;
};

/** http and https only, as a URL parser reads it (the declaration's pattern is the console's first check). */
const checkUrl = (input: Values) => {
  if (typeof input.url !== 'string') return;
  let protocol = '';
  try {
    protocol = new URL(input.url).protocol;
  } catch {
    throw invalidField('url', 'hookups.validation.url');
  }
  if (protocol !== 'http:' && protocol !== 'https:') throw invalidField('url', 'hookups.validation.url');
};

/** Machines bound to any of `appIds`: in one of their fleets or a sub-fleet. */
export const boundMachineCount = async (context: Pick<HookContext, 'tx'>, appIds: number[]): Promise<number> => {
  const result = await context.tx.execute(sql`
    with recursive bound(fleet_id) as (
      select fleet_id from hookup_app_fleet where app_id = any(${sql.param(appIds)}::int[])
      union
      select f.id from fleet f join bound b on f.parent_id = b.fleet_id
    ) select count(*)::int as n from rvm where fleet_id in (select fleet_id from bound)`);
  return Number(rowsOf<{ n: number }>(result)[0]?.n ?? 0);
};

const appHooks = (family: HookupFamily): ResourceHooks => ({
  scope: (caller) => and(accountIs(hookupApp.licenseAccountId, caller), inArray(hookupApp.apiType, [...FAMILY_API_TYPES[family]])),
  computed: (table: PgTable) => ({ secretPending: sql<boolean>`(not ${(table as typeof hookupApp).secretRevealed})` }),
  beforeCreate: async (context, input, values) => {
    checkUrl(input);
    // readOnly datetimes are "now" by default on create; these two say what has happened since
    Object.assign(values, { licenseAccountId: accountOf(context), secret: newSecret(), lastSuccessTime: null, failingSince: null });
  },
  beforeUpdate: async (_context, _id, input, values, existing) => {
    checkUrl(input);
    // switched back on: its failing days count again from the next failure
    if (input.enabled === true && existing.enabled === false) Object.assign(values, { failingSince: null, disabledReason: null });
  },
  beforeDelete: async (context, ids) => {
    if ((await boundMachineCount(context, ids)) > 0) throw new AppError('9001');
  },
});

const normalizeEvents = (values: Values) => {
  if (typeof values.events === 'string')
    values.events = [
      ...new Set(
        values.events
          .split(',')
          .map((event) => event.trim())
          .filter(Boolean),
      ),
    ].join(', ');
};

const checkSubscribable = async (context: HookContext, input: Values) => {
  if (typeof input.appId !== 'number') return;
  const [app] = await context.tx.select({ apiType: hookupApp.apiType }).from(hookupApp).where(eq(hookupApp.id, input.appId)).limit(1);
  if (app?.apiType === 'vendorConnect') throw invalidField('appId', 'hookups.validation.vendorConnectEvents');
};

const subscriptionHooks = (family: HookupFamily): ResourceHooks => ({
  scope: (caller) => and(accountIs(hookupSubscription.licenseAccountId, caller), eq(hookupSubscription.family, family)),
  beforeCreate: async (context, input, values) => {
    await checkSubscribable(context, input);
    normalizeEvents(values);
    Object.assign(values, { licenseAccountId: accountOf(context), family });
  },
  beforeUpdate: async (context, _id, input, values) => {
    await checkSubscribable(context, input);
    normalizeEvents(values);
  },
});

const termNoOf = (column: SQL) => sql<string>`(select ${rvm.termNo} from ${rvm} where ${rvm.id} = ${column})`;

const messageHooks = (family: HookupFamily): ResourceHooks => ({
  scope: (caller) => and(accountIs(hookupMessage.licenseAccountId, caller), eq(hookupMessage.family, family)),
  computed: (table: PgTable) => {
    const messages = table as typeof hookupMessage;
    return {
      termNo: termNoOf(sql`${messages.rvmId}`),
      body: sql<string>`(${messages.payload})::text`,
      lastResponse: sql<string>`nullif(concat_ws(' ', ${messages.lastResponseStatus}::text, left(${messages.lastResponseExcerpt}, 20)), '')`,
    };
  },
});

/** Fleets of the caller's account bound to an enabled vendorConnect app, with their sub-fleets. */
const schemeFleets = (account: number) => sql`(
  with recursive scheme(fleet_id) as (
    select af.fleet_id from hookup_app_fleet af join hookup_app a on a.id = af.app_id
    where a.api_type = 'vendorConnect' and a.enabled and a.license_account_id = ${account}
    union
    select f.id from fleet f join scheme s on f.parent_id = s.fleet_id
  ) select fleet_id from scheme)`;

const tcRvmHooks: ResourceHooks = {
  scope: (caller) =>
    caller.principal.licenseAccountId === null
      ? sql`false`
      : and(eq(rvm.licenseAccountId, caller.principal.licenseAccountId), sql`${rvm.fleetId} in ${schemeFleets(caller.principal.licenseAccountId)}`),
  computed: (table: PgTable) => {
    const machines = table as typeof rvm;
    const id = sql`${machines.id}`;
    return {
      // the nearest scheme app: the machine's fleet's, else its parent's, and so on up
      schemeApp: sql<string>`(
        with recursive up(fleet_id, depth) as (
          select ${sql`${machines.fleetId}`}, 0
          union all
          select f.parent_id, up.depth + 1 from fleet f join up on f.id = up.fleet_id where f.parent_id is not null
        )
        select a.name from up join hookup_app_fleet af on af.fleet_id = up.fleet_id join hookup_app a on a.id = af.app_id
        where a.api_type = 'vendorConnect' and a.enabled order by up.depth, a.id limit 1)`,
      redeemed: sql<number>`(select coalesce(sum(s.accepted_count), 0)::int from consumer_session s where s.rvm_id = ${id})`,
      refused: sql<number>`(select count(*)::int from consumer_session s join consumer_session_item i on i.session_id = s.id
        where s.rvm_id = ${id} and i.reject_reason in (101, 102, 103))`,
    };
  },
};

const tcTransactionHooks: ResourceHooks = {
  computed: (table: PgTable) => ({ termNo: termNoOf(sql`${(table as typeof hookupTcTransaction).rvmId}`) }),
};

const notificationHooks: ResourceHooks = {
  computed: (table: PgTable) => ({ label: sql<string>`coalesce(${(table as typeof hookupNotification).subject}, '')` }),
};

export const HOOKUP_HOOKS: Readonly<Record<string, ResourceHooks>> = {
  ...Object.fromEntries(
    HOOKUP_FAMILIES.flatMap((family) => [
      [HOOKUP_APPS[family].name, appHooks(family)],
      [HOOKUP_SUBSCRIPTIONS[family].name, subscriptionHooks(family)],
      [HOOKUP_MESSAGES[family].name, messageHooks(family)],
    ]),
  ),
  [tcRvmList.name]: tcRvmHooks,
  [tcTransactionList.name]: tcTransactionHooks,
  [notificationList.name]: notificationHooks,
};
