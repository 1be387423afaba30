// The route declarations of server/session/*.ts and server/savedFilters/routes.ts, pinned from outside: each route's OpenAPI entry (tags,
// summary, description, token, request schema, documented answers) against the table below, and one
// bad input per schema rule sent through the app, answered with its catalogue code (1001 missing,
// 1002 length, 1003 type, 1004 anything else) and the field named.
//
// Every test builds its own app inside the test (not in beforeAll): the declarations run when the app
// is built, and a mutation run only counts the code a test itself executed (stryker.config.mjs).
import { describe, expect, it } from 'vitest';
import { passwordChecksOf } from '../../server/auth/passwordQueue';
import { licenseAccountUserRelation, loginAttempt, rateLimitHit, sysUser } from '../../server/db/schema';
import { eq } from 'drizzle-orm';
import { ADMIN, backendsFor, documentedPaths, startTestServer, type BackendName, type TestServer } from './helpers';

const TOKEN = [{ rvmToken: [] }];
/** The answers documented on every route: success, the failure ranges, and 401 (forced logout) where a token is needed. */
const ANSWERS = ['200', '4XX', '5XX'];
const ANSWERS_WITH_TOKEN = ['200', '401', '4XX', '5XX'];
const NULL_DATA = { type: 'object', nullable: true, enum: [null] };
const ID_PARAMETER = [{ in: 'query', name: 'id', required: true, schema: { type: 'integer', minimum: 1, maximum: 2147483647 } }];
const SAVED_FILTER_ITEM = {
  type: 'object',
  properties: {
    id: { type: 'integer' },
    resource: { type: 'string' },
    name: { type: 'string' },
    filter: { type: 'object', additionalProperties: true },
    visibility: { type: 'string', enum: ['personal', 'public'] },
    builtIn: { type: 'boolean' },
    ownerId: { type: 'integer', nullable: true },
    mine: { type: 'boolean' },
  },
};
const SAVED_FILTER_FIELDS = {
  resource: {
    type: 'string',
    anyOf: [
      {
        enum: [
          'account',
          'user',
          'role',
          'permission',
          'fleet',
          'machine',
          'event',
          'eventNotification',
          'reportNotification',
          'auditLog',
          'mailOutbox',
          'deploymentPackage',
          'deployment',
          // machine configuration, personnel and bans, promotions (docs/machine-configuration.md, docs/service-personnel.md, docs/promotions.md)
          'assortment',
          'mainConfig',
          'refund',
          'sorting',
          'group',
          'payout',
          'langConfig',
          'h30config',
          'configTemplate',
          'configTemplateContent',
          'servicePersonnel',
          'personnelAccessLevel',
          'consumerBan',
          'promotionResource',
          'promotionOption',
          'promotionItem',
          'defaultPromotion',
          // the APIs area (docs/api-hookups.md)
          'csApi',
          'csApiTransaction',
          'csThridApp',
          'ciApi',
          'ciApiTransaction',
          'ciThridApp',
          'statusApi',
          'statusApiTransaction',
          'statusThridApp',
          'tcRvmList',
          'tcTransactionList',
          'notificationList',
        ],
      },
      { pattern: '^[a-z][a-zA-Z0-9]{1,39}$', maxLength: 40 },
    ],
  },
  name: { type: 'string', minLength: 1, maxLength: 40, pattern: '\\S' },
  filter: { type: 'object', additionalProperties: true },
  visibility: { type: 'string', enum: ['personal', 'public'] },
};

interface Documented {
  tags?: string[];
  summary?: string;
  description?: string;
  security?: unknown;
  parameters?: unknown;
  body?: unknown;
  answers: string[];
  data: unknown;
}

/** What the OpenAPI document says of each route (body: the JSON request body's schema; data: resData of the success answer). */
const EXPECTED: Record<string, Documented> = {
  'post /login/login': {
    tags: ['login'],
    summary: 'Sign in',
    description:
      'Wrong user name or password, unknown or disabled user: code 6, the message ending with the attempts left (the only number in it). ' +
      'Code 7 (HTTP 429, Retry-After) after LOGIN_MAX_FAILURES failures of this user name from this address, or LOGIN_ACCOUNT_MAX_FAILURES ' +
      'from all addresses, within LOGIN_LOCK_MINUTES. 4029 (HTTP 429, Retry-After) after LOGIN_ADDRESS_MAX_FAILURES failures from this ' +
      `address, or when the instance's password checks are all busy. README "Permissions and security".`,
    body: {
      type: 'object',
      additionalProperties: false,
      required: ['username', 'password'],
      properties: {
        username: { type: 'string', minLength: 2, maxLength: 8 },
        password: { type: 'string', minLength: 1, maxLength: 128 },
        rememberPassword: { type: 'boolean' },
        utcOffsetMinutes: { type: 'integer', minimum: -840, maximum: 840 },
      },
    },
    answers: ANSWERS,
    // the login answer, with the token
    data: expect.objectContaining({ type: 'object', properties: expect.objectContaining({ userName: { type: 'string' }, tokenInfo: expect.any(Object) }) }),
  },
  'get /login/logout': {
    tags: ['login'],
    summary: 'Sign out: the token is revoked (11015 afterwards)',
    security: TOKEN,
    answers: ANSWERS_WITH_TOKEN,
    data: NULL_DATA,
  },
  'get /login/current': {
    tags: ['login'],
    summary: 'The login answer without tokenInfo (refreshes permissions)',
    security: TOKEN,
    answers: ANSWERS_WITH_TOKEN,
    data: expect.objectContaining({ type: 'object', properties: expect.not.objectContaining({ tokenInfo: expect.anything() }) }),
  },
  'put /user/password': {
    tags: ['password'],
    summary: 'Change my password: ?password=<new>, body { oldPassword }; all my sessions are revoked',
    security: TOKEN,
    parameters: [{ in: 'query', name: 'password', required: true, schema: { type: 'string', maxLength: 128 } }],
    body: { type: 'object', additionalProperties: false, required: ['oldPassword'], properties: { oldPassword: { type: 'string', minLength: 1, maxLength: 128 } } },
    answers: ANSWERS_WITH_TOKEN,
    data: NULL_DATA,
  },
  'put /user/resetPassword': {
    tags: ['password'],
    summary: "Set another user's password (they must change it at next sign-in; their sessions are revoked)",
    security: TOKEN,
    body: {
      type: 'object',
      additionalProperties: false,
      required: ['id', 'password'],
      properties: { id: { type: 'integer', minimum: 1 }, password: { type: 'string', maxLength: 128 } },
    },
    answers: ANSWERS_WITH_TOKEN,
    data: NULL_DATA,
  },
  'post /login/forgotPassword': {
    tags: ['password'],
    summary: 'Mail a reset link to the user (by user name or e-mail). Answers success (before any work on the account)',
    description:
      'Answers success whether or not the account exists, before looking it up (the mail is written after the answer). ' +
      'At most RESET_MAILS_PER_ACCOUNT mails per user within FORGOT_PASSWORD_WINDOW_MINUTES (further calls answer success and send nothing); ' +
      'more than FORGOT_PASSWORD_PER_ADDRESS calls from one address within that window: 4029 (HTTP 429, Retry-After).',
    body: { type: 'object', additionalProperties: false, required: ['account'], properties: { account: { type: 'string', minLength: 1, maxLength: 128 } } },
    answers: ANSWERS,
    data: NULL_DATA,
  },
  'get /login/resetPassword/check': {
    tags: ['password'],
    summary: 'Whether a reset link token can still be used: { valid } (never says whose it is)',
    parameters: [{ in: 'query', name: 'token', required: true, schema: { type: 'string', maxLength: 128 } }],
    answers: ANSWERS,
    data: { type: 'object', properties: { valid: { type: 'boolean' } } },
  },
  'post /login/resetPassword': {
    tags: ['password'],
    summary: 'Set a new password with a reset link token (single use); bad, used or expired token: 4006',
    body: {
      type: 'object',
      additionalProperties: false,
      required: ['token', 'password', 'confirmPassword'],
      properties: {
        token: { type: 'string', minLength: 1, maxLength: 128 },
        password: { type: 'string', maxLength: 128 },
        confirmPassword: { type: 'string', maxLength: 128 },
      },
    },
    answers: ANSWERS,
    data: NULL_DATA,
  },
  'get /saved-filter': {
    tags: ['saved filter'],
    summary: 'Saved filters I can use (built-in, mine, public ones of my license account)',
    security: TOKEN,
    parameters: [{ in: 'query', name: 'resource', required: false, schema: { type: 'string', maxLength: 64 } }],
    answers: ANSWERS_WITH_TOKEN,
    data: { type: 'array', items: SAVED_FILTER_ITEM },
  },
  'post /saved-filter': {
    tags: ['saved filter'],
    summary: 'Save a filter',
    security: TOKEN,
    body: { type: 'object', additionalProperties: false, required: ['resource', 'name', 'filter', 'visibility'], properties: SAVED_FILTER_FIELDS },
    answers: ANSWERS_WITH_TOKEN,
    data: SAVED_FILTER_ITEM,
  },
  'put /saved-filter': {
    tags: ['saved filter'],
    summary: 'Change one of my saved filters (built-in ones: 5001)',
    security: TOKEN,
    body: {
      type: 'object',
      additionalProperties: false,
      required: ['id'],
      properties: { id: { type: 'integer', minimum: 1, maximum: 2147483647 }, ...SAVED_FILTER_FIELDS },
      minProperties: 2,
    },
    answers: ANSWERS_WITH_TOKEN,
    data: SAVED_FILTER_ITEM,
  },
  'delete /saved-filter': {
    tags: ['saved filter'],
    summary: 'Delete one of my saved filters (built-in ones: 5001)',
    security: TOKEN,
    parameters: ID_PARAMETER,
    answers: ANSWERS_WITH_TOKEN,
    data: NULL_DATA,
  },
  'get /license-account-user-relation': {
    tags: ['license account'],
    summary: "The caller's license accounts; isDefault marks the current one",
    security: TOKEN,
    answers: ANSWERS_WITH_TOKEN,
    data: { type: 'array', items: { type: 'object', properties: { id: { type: 'integer' }, licenseAccountName: { type: 'string' }, isDefault: { type: 'boolean' } } } },
  },
  'put /license-account-user-relation': {
    tags: ['license account'],
    summary: 'Make one of my license accounts the default (current) one; any other id answers 2003',
    security: TOKEN,
    parameters: ID_PARAMETER,
    answers: ANSWERS_WITH_TOKEN,
    data: { type: 'object', properties: { id: { type: 'integer' }, licenseAccountName: { type: 'string' } } },
  },
};

/** The documented shape of the routes named `prefix` (method and path, as in EXPECTED). */
const documented = async (server: TestServer, prefix: string) => {
  const paths = await documentedPaths(server.app);
  const keys = Object.keys(EXPECTED).filter((key) => key.split(' ')[1].startsWith(prefix));
  return Object.fromEntries(
    keys.map((key) => {
      const [method, path] = key.split(' ');
      const operation = paths[`/test-api${path}`]?.[method];
      if (!operation) return [key, undefined];
      const { tags, summary, description, security, parameters, requestBody, responses } = operation;
      const shape: Documented = {
        answers: Object.keys(responses),
        data: responses['200']?.content?.['application/json'].schema.properties?.resData,
        ...(tags ? { tags } : {}),
        ...(summary !== undefined ? { summary } : {}),
        ...(description !== undefined ? { description } : {}),
        ...(security ? { security } : {}),
        ...(parameters ? { parameters } : {}),
        ...(requestBody ? { body: requestBody.content['application/json'].schema } : {}),
      };
      return [key, shape];
    }),
  );
};

const expectedFor = (prefix: string) => Object.fromEntries(Object.entries(EXPECTED).filter(([key]) => key.split(' ')[1].startsWith(prefix)));

type Bad = [label: string, method: 'GET' | 'POST' | 'PUT' | 'DELETE', path: string, body: unknown, code: string, fields: string[]];

/** Sends each bad input and answers [label, status, code, fields named] (to compare with the table in one go). */
const refusals = async (server: TestServer, token: string | undefined, cases: Bad[]) => {
  const answers = [];
  for (const [label, method, path, body] of cases) {
    const { status, body: envelope } = await server.call(method, path, { token, body });
    const issues = (envelope.resData?.issues ?? []) as Array<{ field: string }>;
    answers.push([label, status, envelope.resCode, issues.map((issue) => issue.field)]);
  }
  return answers;
};
const expectedRefusals = (cases: Bad[]) => cases.map(([label, , , , code, fields]) => [label, 400, code, fields]);

const long = (length: number) => 'x'.repeat(length);

const withServer = async (backend: BackendName, run: (server: TestServer) => Promise<void>) => {
  const server = await startTestServer(backend);
  try {
    await run(server);
  } finally {
    await server.close();
  }
};

// One backend (docs/test-quality.md "One backend or both"): declarations and schema checks, no storage behaviour.
for (const backend of backendsFor('one')) {
  describe.skipIf(backend === 'postgres' && !process.env.DATABASE_URL)(`route declarations [${backend}]`, () => {
    it('sign-in routes: documented as declared, bad inputs refused, sessions and the password-check queue', async () => {
      await withServer(backend, async (server) => {
        expect(await documented(server, '/login/l')).toEqual(expectedFor('/login/l'));
        expect(await documented(server, '/login/current')).toEqual(expectedFor('/login/current'));

        const sign = (body: Record<string, unknown>) => ['POST', '/login/login', body] as const;
        const cases: Bad[] = [
          ['no user name', ...sign({ password: 'x' }), '1001', ['username']],
          ['no password', ...sign({ username: 'admin' }), '1001', ['password']],
          ['empty password', ...sign({ username: 'admin', password: '' }), '1001', ['password']],
          ['unknown field', ...sign({ ...ADMIN, remember: true }), '1004', ['remember']],
          ['user name too short', ...sign({ username: 'a', password: 'x' }), '1002', ['username']],
          ['user name too long', ...sign({ username: long(9), password: 'x' }), '1002', ['username']],
          ['password too long', ...sign({ username: 'admin', password: long(129) }), '1002', ['password']],
          ['user name not text', ...sign({ username: 12345, password: 'x' }), '1003', ['username']],
          ['rememberPassword not a boolean', ...sign({ ...ADMIN, rememberPassword: 'yes' }), '1003', ['rememberPassword']],
          ['offset not whole', ...sign({ ...ADMIN, utcOffsetMinutes: 1.5 }), '1003', ['utcOffsetMinutes']],
          ['offset above 14 h', ...sign({ ...ADMIN, utcOffsetMinutes: 841 }), '1004', ['utcOffsetMinutes']],
          ['offset below -14 h', ...sign({ ...ADMIN, utcOffsetMinutes: -841 }), '1004', ['utcOffsetMinutes']],
        ];
        expect(await refusals(server, undefined, cases)).toEqual(expectedRefusals(cases));
        // the limits themselves are accepted
        const edge = await server.call('POST', '/login/login', { body: { ...ADMIN, rememberPassword: true, utcOffsetMinutes: -840 } });
        expect(edge.body.resCode).toBe('00000');
        const token = edge.body.resData.tokenInfo.tokenValue as string;

        // /login/current: the login answer again, without the token; /login/logout revokes it
        const current = await server.call('GET', '/login/current', { token });
        expect([current.body.resCode, current.body.resData.userName, 'tokenInfo' in current.body.resData]).toEqual(['00000', 'admin', false]);
        expect((await server.call('GET', '/login/logout', { token })).body.resCode).toBe('00000');
        expect((await server.call('GET', '/login/current', { token })).body.resCode).toBe('11015');

        // both work for a user who must change the password first (the forced dialog needs them), other calls answer 4007
        await server.createUser({ name: 'fresh1', password: 'Fresh#123' });
        const first = await server.call('POST', '/login/login', { body: { username: 'fresh1', password: 'Fresh#123' } });
        expect([first.body.resCode, first.body.resData.firstLogin]).toEqual(['00000', true]);
        const forced = first.body.resData.tokenInfo.tokenValue as string;
        expect((await server.call('GET', '/saved-filter', { token: forced })).body.resCode).toBe('4007');
        expect((await server.call('GET', '/login/current', { token: forced })).body.resData).toMatchObject({ userName: 'fresh1', firstLogin: true });
        expect((await server.call('GET', '/login/logout', { token: forced })).body.resCode).toBe('00000');

        // the sweep of old sign-in attempts is the instance's job 'loginAttemptSweep'
        await server.call('POST', '/login/login', { body: { username: 'ghost', password: 'Wrong#123' } });
        expect((await server.db.select().from(loginAttempt)).length).toBeGreaterThan(0);
        await server.app.services.jobs.runNow('loginAttemptSweep', new Date(Date.now() + 365 * 24 * 3600_000));
        expect(await server.db.select().from(loginAttempt)).toEqual([]);

        // all the instance's password checks busy: 4029 at once, Retry-After 1, before any attempt is recorded
        const { queue } = passwordChecksOf(server.app.services);
        let release = () => {};
        const gate = new Promise<void>((resolve) => (release = resolve));
        const held: Array<Promise<unknown>> = [];
        while (!queue.full) held.push(queue.run(() => gate));
        try {
          const busy = await server.call('POST', '/login/login', { body: ADMIN });
          expect([busy.status, busy.body.resCode, busy.raw.headers['retry-after']]).toEqual([429, '4029', '1']);
          expect(await server.db.select().from(loginAttempt)).toEqual([]);
        } finally {
          release();
          await Promise.all(held);
        }
        expect((await server.call('POST', '/login/login', { body: ADMIN })).body.resCode).toBe('00000');
      });
    });

    it('password routes: documented as declared, bad inputs refused, public and permission rules', async () => {
      await withServer(backend, async (server) => {
        expect({ ...(await documented(server, '/user/')), ...(await documented(server, '/login/forgot')), ...(await documented(server, '/login/reset')) }).toEqual({
          ...expectedFor('/user/'),
          ...expectedFor('/login/forgot'),
          ...expectedFor('/login/reset'),
        });
        const admin = await server.login();
        const cases: Bad[] = [
          ['change: no new password', 'PUT', '/user/password', { oldPassword: ADMIN.password }, '1001', ['password']],
          ['change: new password too long', 'PUT', `/user/password?password=${long(129)}`, { oldPassword: ADMIN.password }, '1002', ['password']],
          ['change: no old password', 'PUT', '/user/password?password=New%231234', {}, '1001', ['oldPassword']],
          ['change: empty old password', 'PUT', '/user/password?password=New%231234', { oldPassword: '' }, '1001', ['oldPassword']],
          ['change: old password too long', 'PUT', '/user/password?password=New%231234', { oldPassword: long(129) }, '1002', ['oldPassword']],
          ['change: unknown field', 'PUT', '/user/password?password=New%231234', { oldPassword: ADMIN.password, password: 'x' }, '1004', ['password']],
          ['reset: no id', 'PUT', '/user/resetPassword', { password: 'Reset#123' }, '1001', ['id']],
          ['reset: no password', 'PUT', '/user/resetPassword', { id: 1 }, '1001', ['password']],
          ['reset: id 0', 'PUT', '/user/resetPassword', { id: 0, password: 'Reset#123' }, '1004', ['id']],
          ['reset: id as text', 'PUT', '/user/resetPassword', { id: '2', password: 'Reset#123' }, '1003', ['id']],
          ['reset: password too long', 'PUT', '/user/resetPassword', { id: 2, password: long(129) }, '1002', ['password']],
          ['reset: unknown field', 'PUT', '/user/resetPassword', { id: 2, password: 'Reset#123', mustChange: false }, '1004', ['mustChange']],
          ['forgot: no account', 'POST', '/login/forgotPassword', {}, '1001', ['account']],
          ['forgot: empty account', 'POST', '/login/forgotPassword', { account: '' }, '1001', ['account']],
          ['forgot: account too long', 'POST', '/login/forgotPassword', { account: long(129) }, '1002', ['account']],
          ['forgot: unknown field', 'POST', '/login/forgotPassword', { account: 'admin', email: 'a@b.c' }, '1004', ['email']],
          ['check: no token', 'GET', '/login/resetPassword/check', undefined, '1001', ['token']],
          ['check: token too long', 'GET', `/login/resetPassword/check?token=${long(129)}`, undefined, '1002', ['token']],
          ['check: unknown parameter', 'GET', '/login/resetPassword/check?token=abc&user=admin', undefined, '1004', ['user']],
          ['set: no token', 'POST', '/login/resetPassword', { password: 'New#1234', confirmPassword: 'New#1234' }, '1001', ['token']],
          ['set: no password', 'POST', '/login/resetPassword', { token: 'abc', confirmPassword: 'New#1234' }, '1001', ['password']],
          ['set: no confirmation', 'POST', '/login/resetPassword', { token: 'abc', password: 'New#1234' }, '1001', ['confirmPassword']],
          ['set: empty token', 'POST', '/login/resetPassword', { token: '', password: 'New#1234', confirmPassword: 'New#1234' }, '1001', ['token']],
          ['set: token too long', 'POST', '/login/resetPassword', { token: long(129), password: 'New#1234', confirmPassword: 'New#1234' }, '1002', ['token']],
          ['set: password too long', 'POST', '/login/resetPassword', { token: 'abc', password: long(129), confirmPassword: 'New#1234' }, '1002', ['password']],
          ['set: confirmation too long', 'POST', '/login/resetPassword', { token: 'abc', password: 'New#1234', confirmPassword: long(129) }, '1002', ['confirmPassword']],
          ['set: unknown field', 'POST', '/login/resetPassword', { token: 'abc', password: 'New#1234', confirmPassword: 'New#1234', userId: 1 }, '1004', ['userId']],
        ];
        expect(await refusals(server, admin, cases)).toEqual(expectedRefusals(cases));

        // the reset-link routes need no token
        const check = await server.call('GET', '/login/resetPassword/check?token=abc');
        expect([check.body.resCode, check.body.resData]).toEqual(['00000', { valid: false }]);
        const set = await server.call('POST', '/login/resetPassword', { body: { token: 'abc', password: 'New#1234', confirmPassword: 'New#1234' } });
        expect(set.body.resCode).toBe('4006');

        // resetting another user's password needs user:resetPassword, even over a user with no more rights than the caller
        const plainId = await server.createUser({ name: 'plain1' });
        const otherId = await server.createUser({ name: 'plain2' });
        const plain = await server.login('plain1', 'Passw0rd!');
        expect((await server.call('PUT', '/user/resetPassword', { token: plain, body: { id: otherId, password: 'Reset#123' } })).body.resCode).toBe('4003');
        // a holder of user:resetPassword (210206) who is not superAdmin may
        const role = await server.call('POST', '/role', { token: admin, body: { name: 'resetter1', permissions: [210206] } });
        await server.createUser({ name: 'reset1', roles: [role.body.resData.id] });
        const resetter = await server.login('reset1', 'Passw0rd!');
        expect((await server.call('PUT', '/user/resetPassword', { token: resetter, body: { id: otherId, password: 'Reset#123' } })).body.resCode).toBe('00000');
        expect((await server.call('PUT', '/user/resetPassword', { token: admin, body: { id: plainId, password: 'Reset#123' } })).body.resCode).toBe('00000');

        // changing one's own password works while the change is forced (the reset above forces it)
        const forced = await server.call('POST', '/login/login', { body: { username: 'plain1', password: 'Reset#123' } });
        const forcedToken = forced.body.resData.tokenInfo.tokenValue as string;
        expect((await server.call('GET', '/saved-filter', { token: forcedToken })).body.resCode).toBe('4007');
        const changed = await server.call('PUT', '/user/password?password=Chang3%23d', { token: forcedToken, body: { oldPassword: 'Reset#123' } });
        expect(changed.body.resCode).toBe('00000');
        const [stored] = await server.db.select({ mustChange: sysUser.mustChangePassword }).from(sysUser).where(eq(sysUser.id, plainId));
        expect(stored.mustChange).toBe(false);

        // the sweep of the forgot-password counts is the instance's job 'rateLimitSweep'
        expect((await server.call('POST', '/login/forgotPassword', { body: { account: 'nobody' } })).body.resCode).toBe('00000');
        expect((await server.db.select().from(rateLimitHit)).length).toBeGreaterThan(0);
        await server.app.services.jobs.runNow('rateLimitSweep', new Date(Date.now() + 365 * 24 * 3600_000));
        expect(await server.db.select().from(rateLimitHit)).toEqual([]);
      });
    });

    it('saved-filter routes: documented as declared, bad inputs refused', async () => {
      await withServer(backend, async (server) => {
        expect(await documented(server, '/saved-filter')).toEqual(expectedFor('/saved-filter'));
        const token = await server.login();
        const good = { resource: 'user', name: 'Mine', filter: { enabled: true, nameLike: 'a' }, visibility: 'personal' };
        const created = await server.call('POST', '/saved-filter', { token, body: good });
        expect(created.body.resData).toMatchObject({ ...good, builtIn: false, mine: true });
        const id = created.body.resData.id as number;
        const without = (field: string) => Object.fromEntries(Object.entries(good).filter(([key]) => key !== field));
        const cases: Bad[] = [
          ['list: resource too long', 'GET', `/saved-filter?resource=${long(65)}`, undefined, '1002', ['resource']],
          ['save: no resource', 'POST', '/saved-filter', without('resource'), '1001', ['resource']],
          ['save: no name', 'POST', '/saved-filter', without('name'), '1001', ['name']],
          ['save: no filter', 'POST', '/saved-filter', without('filter'), '1001', ['filter']],
          ['save: no visibility', 'POST', '/saved-filter', without('visibility'), '1001', ['visibility']],
          ['save: unknown field', 'POST', '/saved-filter', { ...good, ownerId: 1 }, '1004', ['ownerId']],
          ['save: resource not text', 'POST', '/saved-filter', { ...good, resource: 5 }, '1003', ['resource']],
          // neither a declared resource nor a type name: both branches of anyOf fail, then anyOf itself
          ['save: resource not a name', 'POST', '/saved-filter', { ...good, resource: 'Bad-Name' }, '1004', ['resource', 'resource', 'resource']],
          // empty: missing (minLength), and not a non-blank character (pattern)
          ['save: empty name', 'POST', '/saved-filter', { ...good, name: '' }, '1001', ['name', 'name']],
          ['save: name too long', 'POST', '/saved-filter', { ...good, name: long(41) }, '1002', ['name']],
          ['save: blank name', 'POST', '/saved-filter', { ...good, name: '   ' }, '1004', ['name']],
          ['save: filter not an object', 'POST', '/saved-filter', { ...good, filter: 'enabled' }, '1003', ['filter']],
          ['save: visibility not offered', 'POST', '/saved-filter', { ...good, visibility: 'secret' }, '1004', ['visibility']],
          ['change: no id', 'PUT', '/saved-filter', { name: 'Other', visibility: 'public' }, '1001', ['id']],
          ['change: nothing to change', 'PUT', '/saved-filter', { id }, '1004', ['(body)']],
          ['change: id 0', 'PUT', '/saved-filter', { id: 0, name: 'Other' }, '1004', ['id']],
          ['change: id beyond integer', 'PUT', '/saved-filter', { id: 2147483648, name: 'Other' }, '1004', ['id']],
          ['change: unknown field', 'PUT', '/saved-filter', { id, builtIn: true }, '1004', ['builtIn']],
          ['change: name too long', 'PUT', '/saved-filter', { id, name: long(41) }, '1002', ['name']],
          ['change: visibility not offered', 'PUT', '/saved-filter', { id, visibility: 'secret' }, '1004', ['visibility']],
          ['delete: no id', 'DELETE', '/saved-filter', undefined, '1001', ['id']],
          ['delete: id 0', 'DELETE', '/saved-filter?id=0', undefined, '1004', ['id']],
          ['delete: id as text', 'DELETE', '/saved-filter?id=abc', undefined, '1003', ['id']],
          ['delete: id beyond integer', 'DELETE', '/saved-filter?id=2147483648', undefined, '1004', ['id']],
        ];
        expect(await refusals(server, token, cases)).toEqual(expectedRefusals(cases));

        // a well-formed type name that is no active configured type: refused by the route, with the enum's message
        const unknownType = await server.call('POST', '/saved-filter', { token, body: { ...good, resource: 'nosuchtype' } });
        const offered = await server.call('POST', '/saved-filter', { token, body: { ...good, visibility: 'secret' } });
        expect([unknownType.body.resCode, unknownType.body.resData.issues]).toEqual(['1004', [{ field: 'resource', message: offered.body.resData.issues[0].message }]]);
        expect(offered.body.resData.issues[0].message).toBe('Please choose one of the offered values');

        // accepted: the change of only the id's filter, the list narrowed by resource, the delete
        const changed = await server.call('PUT', '/saved-filter', { token, body: { id, filter: { nameLike: 'b' } } });
        expect(changed.body.resData).toMatchObject({ id, name: 'Mine', filter: { nameLike: 'b' } });
        const listed = (await server.call('GET', '/saved-filter?resource=user', { token })).body.resData as Array<{ name: string }>;
        expect(listed.map((filter) => filter.name)).toEqual(['Enabled users', 'Mine']);
        expect((await server.call('DELETE', `/saved-filter?id=${id}`, { token })).body.resCode).toBe('00000');
        expect((await server.call('DELETE', `/saved-filter?id=${id}`, { token })).body.resCode).toBe('2003');

        // a user left without any license account sees the built-in filters only (no public ones of an account)
        const lonerId = await server.createUser({ name: 'loner1' });
        const loner = await server.login('loner1', 'Passw0rd!');
        await server.call('POST', '/saved-filter', { token, body: { ...good, name: 'Shared', visibility: 'public' } });
        await server.db.delete(licenseAccountUserRelation).where(eq(licenseAccountUserRelation.userId, lonerId));
        const seen = (await server.call('GET', '/saved-filter?resource=user', { token: loner })).body as { resCode: string; resData: Array<{ name: string }> };
        expect([seen.resCode, seen.resData.map((filter) => filter.name)]).toEqual(['00000', ['Enabled users']]);
      });
    });

    it('license-account routes: documented as declared, bad inputs refused, the default switched', async () => {
      await withServer(backend, async (server) => {
        expect(await documented(server, '/license-account-user-relation')).toEqual(expectedFor('/license-account-user-relation'));
        const token = await server.login();
        const cases: Bad[] = [
          ['no id', 'PUT', '/license-account-user-relation', undefined, '1001', ['id']],
          ['id 0', 'PUT', '/license-account-user-relation?id=0', undefined, '1004', ['id']],
          ['id as text', 'PUT', '/license-account-user-relation?id=abc', undefined, '1003', ['id']],
          ['id beyond integer', 'PUT', '/license-account-user-relation?id=2147483648', undefined, '1004', ['id']],
        ];
        expect(await refusals(server, token, cases)).toEqual(expectedRefusals(cases));
        const [mine] = (await server.call('GET', '/license-account-user-relation', { token })).body.resData as Array<{ id: number }>;
        const other = await server.call('POST', '/license-account', { token, body: { licenseAccountName: 'Zeta' } });
        const otherId = other.body.resData.id as number;
        const list = await server.call('GET', '/license-account-user-relation', { token });
        expect(list.body.resData).toEqual([
          { id: mine.id, licenseAccountName: 'Default', isDefault: true },
          { id: otherId, licenseAccountName: 'Zeta', isDefault: false },
        ]);
        const switched = await server.call('PUT', `/license-account-user-relation?id=${otherId}`, { token });
        expect(switched.body.resData).toEqual({ id: otherId, licenseAccountName: 'Zeta' });
        expect((await server.call('GET', '/license-account-user-relation', { token })).body.resData.map((row: { isDefault: boolean }) => row.isDefault)).toEqual([false, true]);
        expect((await server.call('PUT', '/license-account-user-relation?id=999999', { token })).body.resCode).toBe('2003');
      });
    });
  });
}
