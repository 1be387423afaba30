// Issue 7–10 of the outside test: browser security headers and caching, the per-address flood guard
// (4029), hostile input (NUL bytes, empty JSON bodies, deep nesting, a saved filter with only an id),
// logs without statement parameters or percent-encoded secrets, and the console's password cookie
// being worthless to the server. See docs/security.md.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPasswordHasher } from '../../server/auth/passwords';
import { DEFAULT_CONFIG, settingsFromEnv } from '../../server/config';
import { userHooks } from '../../server/resources/user';
import { encryptPassword } from '../../src/providers/crypto';
import { describeBackends, describeOneBackend } from './helpers';

/** A log stream captured as text. */
const capturedLog = () => {
  const stream = new PassThrough();
  const captured = { stream, text: '' };
  stream.on('data', (chunk: Buffer) => (captured.text += chunk.toString()));
  return captured;
};

/** `{ a: { a: … { a: leaf } } }` with `levels` objects. */
const nested = (levels: number, leaf: unknown = 1): unknown => {
  let value: unknown = leaf;
  for (let level = 0; level < levels; level++) value = { a: value };
  return value;
};

const directives = (header: unknown) =>
  new Map(
    String(header)
      .split(';')
      .map((part) => part.trim())
      .filter(Boolean)
      .map((part) => {
        const [name, ...values] = part.split(/\s+/);
        return [name, values] as const;
      }),
  );

describeOneBackend('security headers and flood guard', (server) => {
  const consoleDir = mkdtempSync(join(tmpdir(), 'rvm-console-sec-'));
  mkdirSync(join(consoleDir, 'assets'));
  writeFileSync(join(consoleDir, 'index.html'), '<!doctype html><title>RVM Console</title><script type="module" src="/assets/index-Ab12Cd34.js"></script>');
  writeFileSync(join(consoleDir, 'assets', 'index-Ab12Cd34.js'), 'console.log(1)');
  writeFileSync(join(consoleDir, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
  afterAll(() => rmSync(consoleDir, { recursive: true, force: true }));

  let withConsole: FastifyInstance;
  beforeAll(async () => {
    withConsole = await server.anotherInstance({ staticDir: consoleDir });
  });

  it('sends a Content-Security-Policy without inline script, plugins, base or framing, and nosniff / referrer policy', async () => {
    for (const url of ['/', '/login', '/assets/index-Ab12Cd34.js', '/test-api/login/current', '/test-api/no/such/thing']) {
      const answer = await withConsole.inject({ method: 'GET', url });
      const csp = directives(answer.headers['content-security-policy']);
      expect(csp.get('default-src'), url).toEqual(["'self'"]);
      expect(csp.get('script-src'), url).toEqual(["'self'"]);
      expect(csp.get('object-src'), url).toEqual(["'none'"]);
      expect(csp.get('base-uri'), url).toEqual(["'none'"]);
      expect(csp.get('frame-ancestors'), url).toEqual(["'none'"]);
      expect(csp.get('script-src-attr'), url).toEqual(["'none'"]);
      // the console is served over plain HTTP by default: upgrading would break it on a LAN address
      expect(csp.has('upgrade-insecure-requests'), url).toBe(false);
      expect(answer.headers['x-content-type-options'], url).toBe('nosniff');
      expect(answer.headers['referrer-policy'], url).toBe('no-referrer');
      expect(answer.headers['x-frame-options'], url).toBe('DENY');
    }
  });

  it('never lets an API answer be cached, an unknown API route included', async () => {
    for (const url of ['/test-api/login/current', '/test-api/no/such/thing', '/test-api']) {
      const answer = await withConsole.inject({ method: 'GET', url });
      expect([answer.statusCode >= 400, answer.headers['cache-control']], url).toEqual([true, 'no-store']);
    }
  });

  // The same policy serves the Swagger UI: its page has no inline script either (checked in Chromium, docs/security.md).
  it('keeps the Swagger UI at /test-api/docs working under the same policy', async () => {
    const page = await server.app.inject({ method: 'GET', url: '/test-api/docs/' });
    expect(page.statusCode).toBe(200);
    expect(page.payload).toContain('swagger-ui-bundle.js');
    const csp = directives(page.headers['content-security-policy']);
    expect(csp.get('script-src')).toEqual(["'self'"]);
    expect(csp.get('object-src')).toEqual(["'none'"]);
    expect(csp.get('frame-ancestors')).toEqual(["'none'"]);
    expect(csp.get('img-src')).toEqual(expect.arrayContaining(["'self'", 'data:']));
    const script = await server.app.inject({ method: 'GET', url: '/test-api/docs/static/swagger-initializer.js' });
    expect([script.statusCode, script.headers['x-content-type-options']]).toEqual([200, 'nosniff']);
    expect((await server.app.inject({ method: 'GET', url: '/test-api/docs/json' })).statusCode).toBe(200);
  });

  it('caches hashed assets for a year, revalidates index.html, and never stores API answers', async () => {
    const asset = await withConsole.inject({ method: 'GET', url: '/assets/index-Ab12Cd34.js' });
    expect([asset.statusCode, asset.headers['cache-control']]).toEqual([200, 'public, max-age=31536000, immutable']);
    for (const url of ['/', '/index.html', '/login', '/systemSettings/user']) {
      const page = await withConsole.inject({ method: 'GET', url });
      expect([url, page.statusCode, page.headers['cache-control']]).toEqual([url, 200, 'no-cache']);
    }
    // a file outside /assets is not hashed: revalidated, not cached for a year
    expect((await withConsole.inject({ method: 'GET', url: '/favicon.svg' })).headers['cache-control']).toBe('no-cache');
    // an asset of another release is missing, not index.html (which would be taken for the script)
    const gone = await withConsole.inject({ method: 'GET', url: '/assets/index-Gone0000.js' });
    expect([gone.statusCode, gone.headers['content-type']]).toEqual([404, 'application/json; charset=utf-8']);

    const login = await server.call('POST', '/login/login', { body: { username: 'admin', password: 'Admin@123' } });
    expect([login.body.resCode, login.raw.headers['cache-control']]).toEqual(['00000', 'no-store']);
    const token = await server.login();
    expect((await server.call('GET', '/login/current', { token })).raw.headers['cache-control']).toBe('no-store');
    const refused = await server.call('GET', '/login/current');
    expect([refused.status, refused.raw.headers['cache-control']]).toEqual([401, 'no-store']);
    const invalid = await server.call('POST', '/user', { token, body: {} });
    expect([invalid.status, invalid.raw.headers['cache-control']]).toEqual([400, 'no-store']);
  });

  it("answers 4029 (HTTP 429, Retry-After) in the caller's language past the per-address limit, other addresses unaffected", async () => {
    const limited = await server.anotherInstance({ config: { rateLimitPerMinute: 3 } });
    const hit = (remoteAddress: string, lang = 'en') => limited.inject({ method: 'GET', url: '/test-api/login/current', remoteAddress, headers: { lang } });
    for (let i = 0; i < 3; i++) expect((await hit('203.0.113.7')).statusCode).toBe(401);
    const refused = await hit('203.0.113.7');
    expect(refused.statusCode).toBe(429);
    expect(refused.json()).toEqual({ resCode: '4029', resMsg: 'Too many requests, please try again later', resData: null });
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect(Number(refused.headers['retry-after'])).toBeLessThanOrEqual(60);
    expect(refused.headers['cache-control']).toBe('no-store');
    const chinese = await hit('203.0.113.7', 'zh');
    expect([chinese.statusCode, chinese.json().resCode, chinese.json().resMsg]).toEqual([429, '4029', '请求过于频繁，请稍后再试']);
    expect((await hit('198.51.100.9')).statusCode).toBe(401);
    // the console's static files are not counted
    expect((await limited.inject({ method: 'GET', url: '/test-api/docs/json', remoteAddress: '203.0.113.7' })).statusCode).toBe(200);
  });

  it('has a default generous enough for a 1,500 requests/s benchmark from one address, configurable by RATE_LIMIT_PER_MINUTE (0: off)', async () => {
    expect(DEFAULT_CONFIG.rateLimitPerMinute).toBeGreaterThanOrEqual(1500 * 60);
    expect(settingsFromEnv({}, []).config.rateLimitPerMinute).toBe(DEFAULT_CONFIG.rateLimitPerMinute);
    expect(settingsFromEnv({ RATE_LIMIT_PER_MINUTE: '600' }, []).config.rateLimitPerMinute).toBe(600);
    expect(settingsFromEnv({ RATE_LIMIT_PER_MINUTE: '0' }, []).config.rateLimitPerMinute).toBe(0);
    expect(() => settingsFromEnv({ RATE_LIMIT_PER_MINUTE: '-1' }, [])).toThrow(/RATE_LIMIT_PER_MINUTE/);
    const off = await server.anotherInstance({ config: { rateLimitPerMinute: 0 } });
    for (let i = 0; i < 5; i++) {
      expect((await off.inject({ method: 'GET', url: '/test-api/login/current', remoteAddress: '203.0.113.8' })).statusCode).toBe(401);
    }
  });
});

describeOneBackend('hostile input', (server) => {
  let token: string;
  let relationId: number;
  beforeAll(async () => {
    token = await server.login();
    relationId = (await server.call('GET', '/license-account-user-relation', { token })).body.resData[0].id;
  });

  const expectParameterError = (answer: { status: number; body: { resCode: string; resData: unknown } }, field: string) => {
    expect([answer.status, answer.body.resCode]).toEqual([400, '1004']);
    expect((answer.body.resData as { issues: Array<{ field: string }> }).issues.map((issue) => issue.field)).toContain(field);
  };

  describe('NUL bytes (PostgreSQL refuses them in text)', () => {
    it('answers 1004 naming the field for a NUL in a body text field, a nested JSON value or key, a query parameter', async () => {
      expectParameterError(
        await server.call('POST', '/user', { token, body: { realname: 'Eve\u0000', name: 'eve', password: 'Passw0rd!', confirmPassword: 'Passw0rd!' } }),
        'realname',
      );
      expectParameterError(await server.call('POST', '/user/page', { token, body: { pageNum: 1, pageSize: 10, name: 'a\u0000b' } }), 'name');
      expectParameterError(
        await server.call('POST', '/saved-filter', { token, body: { resource: 'user', name: 'n', filter: { name: ['x', 'y\u0000'] }, visibility: 'personal' } }),
        'filter.name.1',
      );
      expectParameterError(
        await server.call('POST', '/saved-filter', { token, body: { resource: 'user', name: 'n', filter: { 'na\u0000me': 'x' }, visibility: 'personal' } }),
        'filter.na\\0me',
      );
      expectParameterError(await server.call('GET', '/user/list?nameLike=%00', { token }), 'nameLike');
      expectParameterError(await server.call('GET', '/search?q=ab%00', { token }), 'q');
      expectParameterError(await server.call('POST', '/login/login', { body: { username: 'adm\u0000in', password: 'Admin@123' } }), 'username');
      // the escaped text "\u0000" (backslash, u, zeros) is no NUL and stays allowed
      const saved = await server.call('POST', '/saved-filter', { token, body: { resource: 'user', name: 'n', filter: { name: '\\u0000' }, visibility: 'personal' } });
      expect([saved.body.resCode, saved.body.resData.filter]).toEqual(['00000', { name: '\\u0000' }]);
    });

    it("answers in the caller's language", async () => {
      const answer = await server.call('GET', '/user/list?nameLike=%00', { token, lang: 'zh' });
      expect(answer.body.resCode).toBe('1004');
      expect(answer.body.resMsg).toMatch(/^参数错误/);
    });
  });

  describe('JSON bodies', () => {
    it('reads an empty body sent as application/json as no body', async () => {
      const put = await server.app.inject({
        method: 'PUT',
        url: `/test-api/license-account-user-relation?id=${relationId}`,
        headers: { 'rvm-token': token, 'content-type': 'application/json' },
      });
      expect([put.statusCode, put.json().resCode]).toEqual([200, '00000']);
      const blank = await server.app.inject({
        method: 'POST',
        url: '/test-api/saved-filter',
        headers: { 'rvm-token': token, 'content-type': 'application/json; charset=utf-8' },
        payload: '  ',
      });
      // a route that needs a body still says so (1001), never 500
      expect([blank.statusCode, blank.json().resCode]).toEqual([400, '1001']);
      // the parser that reads it is still Fastify's: prototype poisoning is refused
      for (const payload of ['{"__proto__":{"superAdmin":true}}', '{"constructor":{"prototype":{"superAdmin":true}}}']) {
        const poisoned = await server.app.inject({ method: 'POST', url: '/test-api/saved-filter', headers: { 'rvm-token': token, 'content-type': 'application/json' }, payload });
        expect([poisoned.statusCode, poisoned.json().resCode]).toEqual([400, '1004']);
      }
    });

    it('refuses bodies nested deeper than 32 levels with 1004; 32 levels pass', async () => {
      /** `levels` objects in all, the body itself included. */
      const body = (levels: number) => ({ resource: 'user', name: `deep ${levels}`, filter: nested(levels - 1), visibility: 'personal' });
      expect((await server.call('POST', '/saved-filter', { token, body: body(32) })).body.resCode).toBe('00000');
      expectParameterError(await server.call('POST', '/saved-filter', { token, body: body(33) }), '(body)');
      // 5,000 levels (the tester's): sent as text, since even JSON.stringify overflows on it
      const deep = await server.app.inject({
        method: 'POST',
        url: '/test-api/saved-filter',
        headers: { 'rvm-token': token, 'content-type': 'application/json' },
        payload: `{"resource":"user","name":"deep","visibility":"personal","filter":${'{"a":'.repeat(4999)}1${'}'.repeat(4999)}}`,
      });
      expect([deep.statusCode, deep.json().resCode]).toEqual([400, '1004']);
      const arrays = await server.app.inject({
        method: 'POST',
        url: '/test-api/user/page',
        headers: { 'rvm-token': token, 'content-type': 'application/json' },
        payload: `${'['.repeat(200_000)}${']'.repeat(200_000)}`,
      });
      expect([arrays.statusCode, arrays.json().resCode]).toEqual([400, '1004']);
      // brackets inside strings are text, not nesting
      const text = await server.call('POST', '/saved-filter', {
        token,
        body: { resource: 'user', name: 'brackets', filter: { name: '['.repeat(100) + '{'.repeat(100) }, visibility: 'personal' },
      });
      expect(text.body.resCode).toBe('00000');
    });

    it('answers PUT /saved-filter with only an id with 1004, not 500', async () => {
      const created = await server.call('POST', '/saved-filter', { token, body: { resource: 'user', name: 'only id', filter: {}, visibility: 'personal' } });
      const answer = await server.call('PUT', '/saved-filter', { token, body: { id: created.body.resData.id } });
      expectParameterError(answer, '(body)');
      expect((await server.call('PUT', '/saved-filter', { token, body: { id: created.body.resData.id, name: 'renamed' } })).body.resCode).toBe('00000');
    });
  });

  describe('the password cookie of the console', () => {
    it('is never a credential: the cookie alone is no session, and the ciphertext is no password', async () => {
      await server.createUser({ name: 'cookie', password: 'Cookie#12' }, token);
      const cipher = encryptPassword('Cookie#12');
      const withCookie = await server.call('GET', '/login/current', { headers: { cookie: `password=${encodeURIComponent(cipher)}; username=cookie` } });
      expect([withCookie.status, withCookie.body.resCode]).toEqual([401, '11011']);
      const withCipher = await server.call('POST', '/login/login', { body: { username: 'cookie', password: cipher } });
      expect(withCipher.body.resCode).not.toBe('00000');
      expect(withCipher.raw.headers['set-cookie']).toBeUndefined();
    });
  });
});

// both: the failed statement's error (detail, failing row) is the driver's own object, shaped differently by each
describeBackends('logs', (server) => {
  it('never logs the parameters (or the failing row) of a failed statement', async () => {
    const log = capturedLog();
    const hashes: string[] = [];
    const original = userHooks(createPasswordHasher(14));
    const app = await server.anotherInstance({
      logger: { level: 'info', stream: log.stream },
      hooks: {
        user: {
          ...original,
          // a statement that fails in a way no rule maps (1000, logged) while carrying the new user's password hash
          beforeCreate: async (context, input, values) => {
            await original.beforeCreate?.(context, input, values);
            hashes.push(String(values.password));
            if (input.name === 'failrw') {
              // a check no rule maps (a null for a required column answers 1001): its detail is "Failing row contains (<hash>)"
              await context.tx.execute(sql`create temp table failing_row (secret text check (secret = ''))`);
              await context.tx.execute(sql`insert into failing_row values (${values.password})`);
            }
            await context.tx.execute(sql`select length(${values.password}) / 0`);
          },
        },
      },
    });
    const token = await server.login(); // the instances share the database: its tokens work on both
    for (const name of ['failsq', 'failrw']) {
      const answer = await app.inject({
        method: 'POST',
        url: '/test-api/user',
        headers: { 'rvm-token': token },
        payload: { realname: 'Fails', name, password: 'Hunter#22', confirmPassword: 'Hunter#22' },
      });
      expect([answer.statusCode, answer.json().resCode], answer.payload).toEqual([500, '1000']);
    }
    expect(hashes).toHaveLength(2);
    // the failures are logged (with the statement and the database's reason) ...
    expect(log.text).toContain('unexpected failure');
    expect(log.text).toContain('division by zero');
    expect(log.text).toContain('violates check constraint');
    expect(log.text).toContain('select length($1) / 0');
    // ... but neither the parameters nor the failing row
    for (const hash of hashes) expect(log.text).not.toContain(hash);
    expect(log.text).not.toContain('scrypt$');
    expect(log.text).not.toContain('Hunter#22');
    expect(log.text).not.toMatch(/Failing row|params:/);
  });

  it('redacts query parameters whose decoded name carries a password or token', async () => {
    const log = capturedLog();
    const app = await server.anotherInstance({ logger: { level: 'info', stream: log.stream } });
    const secrets = ['Hunter%2301', 'Hunter%2302', 'Hunter%2303', 'Hunter%2304'];
    for (const url of [
      `/test-api/login/current?pa%73sword=${secrets[0]}`,
      `/test-api/login/current?x=1&%70%61%73%73%77%6F%72%64=${secrets[1]}`,
      `/test-api/login/current?reset%54oken=${secrets[2]}`,
      `/test-api/login/current?pa%2573sword=${secrets[3]}`,
    ]) {
      await app.inject({ method: 'GET', url });
    }
    expect(log.text).toContain('/test-api/login/current?[redacted]');
    for (const secret of secrets) {
      expect(log.text).not.toContain(secret);
      expect(log.text).not.toContain(decodeURIComponent(secret));
    }
    await app.inject({ method: 'GET', url: '/test-api/login/current?pageNum=2' });
    expect(log.text).toContain('/test-api/login/current?pageNum=2');
  });
});

describeOneBackend('addresses Fastify refuses before routing', (server) => {
  it("answers a malformed or over-long address with the envelope (1004), not Fastify's own JSON", async () => {
    for (const url of ['/test-api/event/' + '1'.repeat(600), '/test-api/%zz']) {
      const raw = await server.app.inject({ method: 'GET', url, headers: { lang: 'zh' } });
      expect(raw.statusCode).toBe(400);
      expect(raw.json()).toMatchObject({ resCode: '1004' });
      expect(raw.body).not.toContain('FST_ERR');
    }
  });

  it('answers a request head Node refuses (over 16 KB) with the envelope, on a real socket', async () => {
    const app = await server.anotherInstance();
    const address = await app.listen({ port: 0, host: '127.0.0.1' });
    try {
      const response = await fetch(`${address}/test-api/login/current?pad=${'x'.repeat(20_000)}`);
      expect(response.status).toBe(431);
      expect(await response.json()).toMatchObject({ resCode: '1004' });
    } finally {
      await app.close();
    }
  });

  it('answers null for a value a record cannot be without with 1001, not 1000', async () => {
    const token = await server.login();
    const [permission] = (await server.call('POST', '/permission/page', { token, body: { pageNum: 1, pageSize: 1 } })).body.resData.list;
    const answer = await server.call('PUT', '/permission', { token, body: { id: permission.id, sort: null } });
    expect([answer.status, answer.body.resCode]).toEqual([400, '1001']);
  });
});
