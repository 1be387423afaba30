// The APIs area's own calls (docs/api-hookups.md): reveal once and rotate an app's signing secret, resend
// and replay messages, and vendor connect for machines. Every operator call checks its screen's permission
// (the guard) and keeps to the caller's license account and the screen's family; the list, filter, export
// and forms of every screen are the generic engine's.
import { and, eq, gte, inArray, lte, sql, type SQL } from 'drizzle-orm';
import { Type } from 'typebox';
import { FAMILY_API_TYPES, HOOKUP_FAMILIES, type HookupFamily } from '../../resources/hookupCatalogue';
import { HOOKUP_APPS } from '../../resources/hookupApp';
import { HOOKUP_MESSAGES } from '../../resources/hookupMessage';
import { auditActor, recordEvent } from '../audit/record';
import { callerOf } from '../auth/guard';
import type { Caller } from '../auth/principal';
import type { Db } from '../db/client';
import { hookupApp, hookupMessage } from '../db/schema/hookups';
import { fleetRoute } from '../fleet/access';
import { failureResponses, envelopeSchema, ok } from '../lib/envelope';
import { AppError } from '../lib/errors';
import { RowId, StrictObject, AnyObject, type TypedApp } from '../lib/typedApp';
import { newSecret, SECRET_GRACE_HOURS } from './signing';
import { callVendor } from './vendor';

/** Checks a machine's gateway credentials (server/gateway/credentials.ts, handed in by app.ts: gateway/ sits above hookups/). */
export type MachineAuthenticator = (db: Db, serialNumber: string, password: string) => Promise<{ rvmId: number | null } | null>;

const account = (caller: Caller) => {
  if (caller.principal.licenseAccountId === null) throw new AppError('5001');
  return caller.principal.licenseAccountId;
};

const appInScope = (caller: Caller, family: HookupFamily, id: number): SQL =>
  and(eq(hookupApp.id, id), eq(hookupApp.licenseAccountId, account(caller)), inArray(hookupApp.apiType, [...FAMILY_API_TYPES[family]])) as SQL;

const SECRET_ANSWER = { type: 'object', properties: { secret: { type: 'string' }, previousValidUntil: { type: ['string', 'null'] } } };
const COUNT_ANSWER = { type: 'object', properties: { count: { type: 'integer' } } };

const registerFamilyRoutes = (app: TypedApp, db: Db, family: HookupFamily) => {
  const apps = HOOKUP_APPS[family];
  const messages = HOOKUP_MESSAGES[family];
  const secretPermission = [`${apps.name}:secret`];
  const resendPermission = [`${messages.name}:resend`];
  const audit = (caller: Caller, resource: string, recordId: number | null, detail: Record<string, unknown>) =>
    recordEvent(db, { ...auditActor(caller.principal), action: 'update', resource, recordId, detail, outcome: 'success' });

  app.post(
    `${apps.apiPath}/secret/reveal`,
    fleetRoute(
      apps.name,
      "The app's first signing secret, once (5001 when it was already shown: rotate for a new one)",
      secretPermission,
      { querystring: StrictObject({ id: RowId() }) },
      SECRET_ANSWER,
    ),
    async (request) => {
      const caller = callerOf(request);
      const [found] = await db
        .select({ id: hookupApp.id, revealed: hookupApp.secretRevealed })
        .from(hookupApp)
        .where(appInScope(caller, family, request.query.id));
      if (!found) throw new AppError('2003');
      const [revealed] = await db
        .update(hookupApp)
        .set({ secretRevealed: true })
        .where(and(appInScope(caller, family, request.query.id), eq(hookupApp.secretRevealed, false)))
        .returning({ secret: hookupApp.secret });
      if (!revealed) throw new AppError('5001');
      await audit(caller, apps.name, request.query.id, { secret: 'revealed' });
      return ok(request, { secret: revealed.secret, previousValidUntil: null });
    },
  );

  app.post(
    `${apps.apiPath}/secret/rotate`,
    fleetRoute(
      apps.name,
      `A new signing secret, answered once; the previous one keeps signing for ${SECRET_GRACE_HOURS} hours`,
      secretPermission,
      { querystring: StrictObject({ id: RowId() }) },
      SECRET_ANSWER,
    ),
    async (request) => {
      const caller = callerOf(request);
      const until = new Date(Date.now() + SECRET_GRACE_HOURS * 3_600_000);
      const secret = newSecret();
      const [rotated] = await db
        .update(hookupApp)
        .set({ previousSecret: sql`${hookupApp.secret}`, previousSecretUntil: until, secret, secretRevealed: true })
        .where(appInScope(caller, family, request.query.id))
        .returning({ id: hookupApp.id });
      if (!rotated) throw new AppError('2003');
      await audit(caller, apps.name, rotated.id, { secret: 'rotated' });
      return ok(request, { secret, previousValidUntil: until.toISOString() });
    },
  );

  const messageScope = (caller: Caller) => and(eq(hookupMessage.licenseAccountId, account(caller)), eq(hookupMessage.family, family));
  /** Back to notSent with a fresh schedule, due now; attempts are kept (the screen shows every try). */
  const requeue = { status: 'notSent', scheduleStep: 0, nextAttemptTime: sql`now()`, claimedUntil: null } as const;

  app.post(
    `${messages.apiPath}/resend`,
    fleetRoute(
      messages.name,
      'Send these messages again (any status), each with a fresh schedule',
      resendPermission,
      { body: StrictObject({ ids: Type.Array(Type.Integer({ minimum: 1 }), { minItems: 1, maxItems: 1000 }) }) },
      COUNT_ANSWER,
    ),
    async (request) => {
      const caller = callerOf(request);
      const changed = await db
        .update(hookupMessage)
        .set(requeue)
        .where(and(messageScope(caller), inArray(hookupMessage.id, request.body.ids)))
        .returning({ id: hookupMessage.id });
      if (changed.length !== new Set(request.body.ids).size) throw new AppError('2003');
      await audit(caller, messages.name, null, { resend: changed.length });
      return ok(request, { count: changed.length });
    },
  );

  app.post(
    `${messages.apiPath}/replay`,
    fleetRoute(
      messages.name,
      'Send again every failed message whose event time is in [from, to]',
      resendPermission,
      {
        body: StrictObject({ from: Type.String({ format: 'date-time' }), to: Type.String({ format: 'date-time' }) }),
      },
      COUNT_ANSWER,
    ),
    async (request) => {
      const caller = callerOf(request);
      const from = new Date(request.body.from);
      const to = new Date(request.body.to);
      if (to < from) throw new AppError('1004', { issues: [{ field: 'to', message: 'validation.endAfterStart', code: '1004' }] });
      const changed = await db
        .update(hookupMessage)
        .set(requeue)
        .where(and(messageScope(caller), eq(hookupMessage.status, 'fail'), gte(hookupMessage.eventTime, from), lte(hookupMessage.eventTime, to)))
        .returning({ id: hookupMessage.id });
      await audit(caller, messages.name, null, { replay: { from: request.body.from, to: request.body.to, count: changed.length } });
      return ok(request, { count: changed.length });
    },
  );
};

const basicCredentials = (header: string | undefined): { user: string; password: string } | null => {
  const match = /^Basic\s+([A-Za-z0-9+/=]+)$/i.exec(header?.trim() ?? '');
  if (!match) return null;
  const text = Buffer.from(match[1], 'base64').toString('utf8');
  const colon = text.indexOf(':');
  return colon > 0 ? { user: text.slice(0, colon), password: text.slice(colon + 1) } : null;
};

export const registerHookupRoutes = (app: TypedApp, db: Db, authenticateMachine: MachineAuthenticator) => {
  for (const family of HOOKUP_FAMILIES) registerFamilyRoutes(app, db, family);

  app.post(
    '/gateway/vendor-connect',
    {
      config: { public: true },
      schema: {
        tags: ['gateway'],
        summary: 'A machine asks its vendorConnect app (HTTP Basic: serial number and gateway secret); 9000 when the app fails',
        description:
          'Called during a consumer session (the simulator: `loyaltyAccount` with `{ account }` for a loyalty payout, else `tracingCodes` with `{ codes }`). ' +
          'Every call the app was asked is recorded (notification list, channel vendorConnect). 9000: `resData.appId` and `status` when the app failed, `resData.reason` when no app is bound.',
        body: StrictObject({
          requestType: Type.String({ minLength: 1, maxLength: 64, description: 'What the machine asks, e.g. loyaltyAccount or tracingCodes' }),
          sessionId: Type.Optional(Type.String({ minLength: 1, maxLength: 64, description: "The machine's id of the session in progress" })),
          payload: Type.Optional(AnyObject()),
        }),
        response: { 200: envelopeSchema({ type: 'object', properties: { appId: { type: 'integer' }, status: { type: 'integer' }, body: {} } }), ...failureResponses(false) },
      },
    },
    async (request) => {
      const credentials = basicCredentials(request.headers.authorization);
      const identity = credentials ? await authenticateMachine(db, credentials.user, credentials.password) : null;
      if (!identity?.rvmId) throw new AppError('11012');
      return ok(request, await callVendor(db, identity.rvmId, request.body));
    },
  );
};
