// The permission sweep, generated from the routes the app really registers (an onRoute hook on every
// Fastify instance, so a new route is swept without touching this file): every API route refuses a
// caller without a token (11011), and every route that is not explicitly token-only refuses a signed-in
// non-superAdmin holding no permission at all (4003, HTTP 403), aimed at real records of the caller's
// own license account (not at the superAdmin, whose own protection would answer before the guard).
import type { RouteOptions } from 'fastify';
import { eq } from 'drizzle-orm';
import { beforeAll, expect, it, vi } from 'vitest';
import { sysRole, sysUser } from '../../server/db/schema';
import { describeOneBackend } from './helpers';

const registered = vi.hoisted(() => new Map<string, { method: string; url: string; public: boolean }>());

vi.mock('fastify', async (importOriginal) => {
  const actual = await importOriginal<typeof import('fastify')>();
  const recording = ((options?: Parameters<typeof actual.default>[0]) => {
    const app = actual.default(options);
    app.addHook('onRoute', (route: RouteOptions) => {
      for (const method of [route.method].flat()) {
        // the OpenAPI document and UI are public by design (ARCHITECTURE.md), outside the guarded API plugin
        if (method === 'HEAD' || !route.url.startsWith('/test-api/') || route.url.startsWith('/test-api/docs')) continue;
        registered.set(`${method} ${route.url}`, { method, url: route.url, public: Boolean(route.config?.public) });
      }
    });
    return app;
  }) as unknown as typeof actual.default;
  return { ...actual, default: recording, fastify: recording };
});

/**
 * Routes any signed-in user may call: their own session, accounts, password and saved filters
 * (ARCHITECTURE.md "Calls", permission column "token"). Everything else needs a permission.
 */
const TOKEN_ONLY = new Set([
  'GET /test-api/login/logout',
  'GET /test-api/login/current',
  'GET /test-api/license-account-user-relation',
  'PUT /test-api/license-account-user-relation',
  'PUT /test-api/user/password',
  'GET /test-api/saved-filter',
  'POST /test-api/saved-filter',
  'PUT /test-api/saved-filter',
  'DELETE /test-api/saved-filter',
  // the configured types the caller may use (empty for a caller holding none of their permissions)
  'GET /test-api/resource-types/active',
  // uploaded files of the caller's own license account (docs/files.md); uploading needs a resource's create or edit
  'GET /test-api/file/info',
  'GET /test-api/file/:id',
  'GET /test-api/file/:id/thumbnail',
  // a resumable upload by id (server/files/resumable.ts): the upload must be of the caller's account (2003), then
  // its resource's permission is checked (4003, tests/server/resumableUpload.test.ts); an unknown id is 2003 for all
  'DELETE /test-api/file/upload/:id',
  'PATCH /test-api/file/upload/:id',
]);

describeOneBackend('the guard over every registered route', (server) => {
  let admin: string;
  let nobody: string;
  const victims = { user: 0, role: 0 };

  beforeAll(async () => {
    admin = await server.login();
    await server.createUser({ name: 'nobody' }, admin);
    nobody = await server.login('nobody', 'Passw0rd!');
    // Records an unguarded route would change: a plain user and a role, in nobody's own account.
    victims.user = await server.createUser({ name: 'victim' }, admin);
    victims.role = (await server.call('POST', '/role', { token: admin, body: { name: 'victim role' } })).body.resData.id;
  });

  const routes = () => [...registered.values()].sort((a, b) => `${a.url} ${a.method}`.localeCompare(`${b.url} ${b.method}`));
  /** The record a route would act on: the victims for users and roles, else an id of nobody's account scope. */
  const idFor = (url: string) => (/^\/test-api\/user\b/.test(url) ? victims.user : /^\/test-api\/role\b/.test(url) ? victims.role : 1);
  const request = (route: { method: string; url: string }) => {
    const id = idFor(route.url);
    const path = route.url.replace('/test-api', '').replace(/:[A-Za-z]+/g, String(id));
    const body = route.url.endsWith('/batchDelete')
      ? { ids: [id] }
      : route.url.endsWith('/page')
        ? { pageNum: 1, pageSize: 10 }
        : route.url.endsWith('/export')
          ? { format: 'csv' }
          : { id };
    return {
      method: route.method as 'GET',
      path: route.method === 'DELETE' || route.method === 'GET' ? `${path}${path.includes('?') ? '&' : '?'}id=${id}` : path,
      body: route.method === 'GET' || route.method === 'DELETE' ? undefined : body,
    };
  };

  it('sees the route table (the sweep below is not a sweep over nothing)', () => {
    const keys = routes().map((route) => `${route.method} ${route.url}`);
    expect(keys.length).toBeGreaterThan(60);
    for (const known of [
      'POST /test-api/user/page',
      'GET /test-api/user/list',
      'DELETE /test-api/user',
      'POST /test-api/user/batchDelete',
      'DELETE /test-api/role',
      'POST /test-api/role/batchDelete',
      'POST /test-api/quarantine/retryAll',
      'GET /test-api/fleet/tree',
      'PUT /test-api/user/resetPassword',
      'POST /test-api/login/login',
    ]) {
      expect(keys).toContain(known);
    }
    // every token-only entry still exists (a stale entry would hide nothing, but says the list is kept)
    for (const key of TOKEN_ONLY) expect(keys).toContain(key);
  });

  it('refuses every non-public route without a token (11011, HTTP 401)', async () => {
    const guarded = routes().filter((route) => !route.public);
    expect(guarded.length).toBeGreaterThan(50);
    const answers = [];
    for (const route of guarded) {
      const { method, path, body } = request(route);
      const answer = await server.call(method, path, { body });
      answers.push([`${route.method} ${route.url}`, answer.status, answer.body.resCode]);
    }
    expect(answers.filter(([, status, code]) => status !== 401 || code !== '11011')).toEqual([]);
  });

  it('refuses every route that needs a permission to a signed-in user without any (4003, HTTP 403), and changes nothing', async () => {
    const guarded = routes().filter((route) => !route.public && !TOKEN_ONLY.has(`${route.method} ${route.url}`));
    expect(guarded.length).toBeGreaterThan(50);
    const answers = [];
    for (const route of guarded) {
      const { method, path, body } = request(route);
      const answer = await server.call(method, path, { token: nobody, body });
      answers.push([`${route.method} ${route.url}`, answer.status, answer.body.resCode]);
    }
    expect(answers.filter(([, status, code]) => status !== 403 || code !== '4003')).toEqual([]);
    // The victims are untouched, and nobody is still signed in (the sweep did not die on a 11011).
    expect(await server.db.select({ id: sysUser.id }).from(sysUser).where(eq(sysUser.id, victims.user))).toHaveLength(1);
    expect(await server.db.select({ id: sysRole.id }).from(sysRole).where(eq(sysRole.id, victims.role))).toHaveLength(1);
    expect((await server.call('GET', '/login/current', { token: nobody })).body.resCode).toBe('00000');
  });

  it('lets the same user call the token-only routes', async () => {
    expect((await server.call('GET', '/login/current', { token: nobody })).body.resCode).toBe('00000');
    expect((await server.call('GET', '/license-account-user-relation', { token: nobody })).body.resCode).toBe('00000');
    expect((await server.call('GET', '/saved-filter?resource=user', { token: nobody })).body.resCode).toBe('00000');
  });
});
