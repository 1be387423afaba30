// Issue 7, holes 1–3 (server-side authorization): the forced password change is enforced by the
// server (4007), deleting a user who also belongs to another license account only unlinks them from
// the caller's accounts, and removing rights (a role's permissions, a user's roles and accounts)
// needs the same cover as adding them. Every block starts its own server (fresh seed).
import type { RouteOptions } from 'fastify';
import { asc, eq, inArray } from 'drizzle-orm';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { translate } from '../../i18n';
import { licenseAccountUserRelation as relation, sysRolePermission, sysUser, sysUserRole } from '../../server/db/schema';
import { createHttpClient } from '../../src/providers/http';
import { createSession } from '../../src/providers/session';
import { ADMIN, describeOneBackend, minutesAgo, type TestServer } from './helpers';

// The routes the app really registers, with their config (the pattern of routeGuard.test.ts).
const registered = vi.hoisted(() => new Map<string, { method: string; url: string; public: boolean; whileForced: boolean }>());

vi.mock('fastify', async (importOriginal) => {
  const actual = await importOriginal<typeof import('fastify')>();
  const recording = ((options?: Parameters<typeof actual.default>[0]) => {
    const app = actual.default(options);
    app.addHook('onRoute', (route: RouteOptions) => {
      for (const method of [route.method].flat()) {
        if (method === 'HEAD' || !route.url.startsWith('/test-api/') || route.url.startsWith('/test-api/docs')) continue;
        const config = (route.config ?? {}) as { public?: boolean; whilePasswordChangeRequired?: boolean };
        registered.set(`${method} ${route.url}`, { method, url: route.url, public: Boolean(config.public), whileForced: Boolean(config.whilePasswordChangeRequired) });
      }
    });
    return app;
  }) as unknown as typeof actual.default;
  return { ...actual, default: recording, fastify: recording };
});

/** The only calls a user who must change their password can make: the forced dialog's own. */
const REACHABLE_WHILE_FORCED = ['GET /test-api/login/current', 'GET /test-api/login/logout', 'PUT /test-api/user/password'];

const ADMIN_CHANGED = 'Admin#2026';

/** Signs in without the helper's completion of a forced change (`server.login` would clear it). */
const signIn = async (server: TestServer, username: string, password: string) => {
  const { body } = await server.call('POST', '/login/login', { body: { username, password } });
  expect(body.resCode).toBe('00000');
  return { token: body.resData.tokenInfo.tokenValue as string, answer: body.resData };
};

const changePassword = (server: TestServer, token: string, oldPassword: string, password: string) =>
  server.call('PUT', `/user/password?password=${encodeURIComponent(password)}`, { token, body: { oldPassword } });

const userRow = async (server: TestServer, name: string) => (await server.db.select().from(sysUser).where(eq(sysUser.name, name)))[0];

describeOneBackend('hole 1: the server enforces the forced password change (4007)', (server) => {
  it('the seeded admin signed in with the initial password can change it and nothing else', async () => {
    const { token, answer } = await signIn(server, ADMIN.username, ADMIN.password);
    expect(answer).toMatchObject({ firstLogin: true, userInfo: { superAdmin: true } });
    // A victim to take over, put straight into the database (nobody can create one through the API yet).
    const hash = await server.app.services.hasher.hash('Victim#123');
    const [victim] = await server.db.insert(sysUser).values({ name: 'victim', realname: 'Victim', password: hash }).returning();

    const create = await server.call('POST', '/user', { token, body: { realname: 'Mallory', name: 'mallory', password: 'Passw0rd!', confirmPassword: 'Passw0rd!' } });
    expect([create.status, create.body]).toEqual([403, { resCode: '4007', resMsg: 'Please change your password first', resData: { reason: 'firstLogin' } }]);
    const reset = await server.call('PUT', '/user/resetPassword', { token, lang: 'zh', body: { id: victim.id, password: 'Taken#123' } });
    expect([reset.status, reset.body.resCode, reset.body.resMsg]).toEqual([403, '4007', '请先修改密码']);
    expect(await userRow(server, 'mallory')).toBeUndefined();
    expect(await userRow(server, 'victim')).toEqual(victim);

    // What the forced dialog needs still answers.
    const current = await server.call('GET', '/login/current', { token });
    expect([current.body.resCode, current.body.resData.firstLogin]).toEqual(['00000', true]);
    expect((await changePassword(server, token, ADMIN.password, ADMIN_CHANGED)).body.resCode).toBe('00000');
    const after = await signIn(server, ADMIN.username, ADMIN_CHANGED);
    expect(after.answer.firstLogin).toBe(false);
    expect((await server.call('POST', '/user/page', { token: after.token, body: {} })).body.resCode).toBe('00000');
  });

  it('every route but those flagged whilePasswordChangeRequired answers 4007 (HTTP 403) to a forced user', async () => {
    const routes = [...registered.values()];
    expect(routes.length).toBeGreaterThan(60);
    // The exemption is declared per route, and it is exactly the forced dialog's calls.
    expect(
      routes
        .filter((route) => route.whileForced)
        .map((route) => `${route.method} ${route.url}`)
        .sort(),
    ).toEqual(REACHABLE_WHILE_FORCED);
    const admin = await server.login(ADMIN.username, ADMIN_CHANGED);
    // Created by an administrator: must change the password at the first sign-in.
    const id = await server.createUser({ name: 'forced1' }, admin);
    const { token, answer } = await signIn(server, 'forced1', 'Passw0rd!');
    expect(answer.firstLogin).toBe(true);

    const refused = [];
    for (const route of routes.filter((candidate) => !candidate.public && !candidate.whileForced)) {
      const path = route.url.replace('/test-api', '').replace(/:[A-Za-z]+/g, String(id));
      const withQuery = route.method === 'GET' || route.method === 'DELETE' ? `${path}${path.includes('?') ? '&' : '?'}id=${id}` : path;
      const body = route.method === 'GET' || route.method === 'DELETE' ? undefined : { id };
      const { status, body: envelope } = await server.call(route.method, withQuery, { token, body });
      refused.push([`${route.method} ${route.url}`, status, envelope.resCode, envelope.resData]);
    }
    expect(refused.length).toBeGreaterThan(50);
    expect(refused.filter(([, status, code, data]) => status !== 403 || code !== '4007' || (data as { reason?: string })?.reason !== 'firstLogin')).toEqual([]);
    // The token survived the sweep; the exempted calls work, logout too.
    expect((await server.call('GET', '/login/current', { token })).body.resCode).toBe('00000');
    expect((await server.call('GET', '/login/logout', { token })).body.resCode).toBe('00000');
    expect((await server.call('GET', '/login/current', { token })).body.resCode).toBe('11015');
  });

  it('an expired password and an administrator-set one are forced the same way until changed', async () => {
    const admin = await server.login(ADMIN.username, ADMIN_CHANGED);
    const id = await server.createUser({ name: 'aging1', password: 'Aging#123' }, admin);
    await server.db
      .update(sysUser)
      .set({ mustChangePassword: false, passwordChangedAt: minutesAgo(91 * 24 * 60) })
      .where(eq(sysUser.id, id));
    const expired = await signIn(server, 'aging1', 'Aging#123');
    expect(expired.answer).toMatchObject({ firstLogin: false, passwordExpired: true });
    const listed = await server.call('GET', '/license-account-user-relation', { token: expired.token });
    expect([listed.status, listed.body.resCode, listed.body.resData]).toEqual([403, '4007', { reason: 'passwordExpired' }]);
    expect((await changePassword(server, expired.token, 'Aging#123', 'Aging#456')).body.resCode).toBe('00000');
    const renewed = await signIn(server, 'aging1', 'Aging#456');
    expect((await server.call('GET', '/license-account-user-relation', { token: renewed.token })).body.resCode).toBe('00000');

    // An administrator sets a new password: forced again at the next sign-in.
    expect((await server.call('PUT', '/user/resetPassword', { token: admin, body: { id, password: 'Reset#123' } })).body.resCode).toBe('00000');
    const reset = await signIn(server, 'aging1', 'Reset#123');
    expect(reset.answer.firstLogin).toBe(true);
    expect((await server.call('GET', '/saved-filter?resource=user', { token: reset.token })).body).toMatchObject({ resCode: '4007', resData: { reason: 'firstLogin' } });
  });
});

describeOneBackend('hole 2: deleting a user who also belongs to another license account', (server) => {
  let admin: string;
  let accountAdmin: string;
  let home: number;
  let outer: number;
  const roles = { viewer: 0, strong: 0, outerViewer: 0 };

  const accountsOf = async (userId: number) =>
    await server.db
      .select({ id: relation.licenseAccountId, isDefault: relation.isDefault })
      .from(relation)
      .where(eq(relation.userId, userId))
      .orderBy(asc(relation.licenseAccountId));
  const rolesOf = async (userId: number) =>
    (await server.db.select({ id: sysUserRole.roleId }).from(sysUserRole).where(eq(sysUserRole.userId, userId)).orderBy(asc(sysUserRole.roleId))).map((row) => row.id);
  const role = async (name: string, permissions: number[]) => (await server.call('POST', '/role', { token: admin, body: { name, permissions } })).body.resData.id as number;
  /** A user of both accounts, with roles linked directly (the arrangement, not what is tested). */
  const sharedUser = async (name: string, roleIds: number[] = []) => {
    const id = await server.createUser({ name, licenseAccounts: [home, outer] }, admin);
    if (roleIds.length) await server.db.insert(sysUserRole).values(roleIds.map((roleId) => ({ userId: id, roleId })));
    return id;
  };

  beforeAll(async () => {
    admin = await server.login();
    home = (await server.call('GET', '/login/current', { token: admin })).body.resData.licenseAccountId;
    outer = (await server.call('POST', '/license-account', { token: admin, body: { licenseAccountName: 'Outer' } })).body.resData.id;
    // user:page, user:edit, user:delete in the home account.
    const accountAdminRole = await role('account-admin', [210201, 210203, 210204]);
    roles.viewer = await role('viewer', [210201]);
    roles.strong = await role('strong', [210201, 210304]); // role:delete, which the account admin lacks
    await server.call('PUT', `/license-account-user-relation?id=${outer}`, { token: admin });
    roles.outerViewer = await role('outer-viewer', [210201]);
    await server.call('PUT', `/license-account-user-relation?id=${home}`, { token: admin });
    await server.createUser({ name: 'acctadm', roles: [accountAdminRole] }, admin);
    accountAdmin = await server.login('acctadm', 'Passw0rd!');
  });

  it('an account administrator only unlinks them from their own accounts (and their roles there); the user stays', async () => {
    const plain = await sharedUser('shared1');
    const withRoles = await sharedUser('shared2', [roles.viewer, roles.outerViewer]);
    for (const id of [plain, withRoles]) {
      expect((await server.call('DELETE', `/user?id=${id}`, { token: accountAdmin })).body).toEqual({ resCode: '00000', resMsg: 'Success', resData: null });
      expect(await accountsOf(id)).toEqual([{ id: outer, isDefault: true }]);
      expect((await server.call('GET', `/user/${id}`, { token: accountAdmin })).body.resCode).toBe('2003');
    }
    expect(await rolesOf(plain)).toEqual([]);
    expect(await rolesOf(withRoles)).toEqual([roles.outerViewer]);
    // They still sign in, now in the other account.
    const { body } = await server.call('POST', '/login/login', { body: { username: 'shared2', password: 'Passw0rd!' } });
    expect(body.resData).toMatchObject({ accountName: 'Outer', userInfo: { roleIds: [roles.outerViewer] } });
  });

  it("a batch deletes the users of the caller's accounts only and unlinks the shared ones", async () => {
    const shared = await sharedUser('shared3');
    const local = await server.createUser({ name: 'local1' }, admin);
    expect((await server.call('POST', '/user/batchDelete', { token: accountAdmin, body: { ids: [shared, local] } })).body.resCode).toBe('00000');
    expect(
      await server.db
        .select({ id: sysUser.id })
        .from(sysUser)
        .where(inArray(sysUser.id, [shared, local])),
    ).toEqual([{ id: shared }]);
    expect(await accountsOf(shared)).toEqual([{ id: outer, isDefault: true }]);
  });

  it('refuses (4003) to take away a role the caller does not cover; nothing changes', async () => {
    const id = await sharedUser('shared4', [roles.strong]);
    const { status, body } = await server.call('DELETE', `/user?id=${id}`, { token: accountAdmin });
    expect([status, body.resCode]).toEqual([403, '4003']);
    expect(await accountsOf(id)).toEqual([
      { id: home, isDefault: true },
      { id: outer, isDefault: false },
    ]);
    expect(await rolesOf(id)).toEqual([roles.strong]);
  });

  it('a superAdmin deletes for real', async () => {
    const id = await sharedUser('shared5');
    expect((await server.call('DELETE', `/user?id=${id}`, { token: admin })).body.resCode).toBe('00000');
    expect(await server.db.select().from(sysUser).where(eq(sysUser.id, id))).toEqual([]);
  });
});

describeOneBackend('hole 3: removing rights needs the same cover as adding them', (server) => {
  let admin: string;
  let home: number;
  let outer: number;
  const role = async (name: string, permissions: number[]) => (await server.call('POST', '/role', { token: admin, body: { name, permissions } })).body.resData.id as number;
  const permissionsOf = async (roleId: number) =>
    (
      await server.db
        .select({ id: sysRolePermission.permissionId })
        .from(sysRolePermission)
        .where(eq(sysRolePermission.roleId, roleId))
        .orderBy(asc(sysRolePermission.permissionId))
    ).map((row) => row.id);
  const rolesOf = async (userId: number) =>
    (await server.db.select({ id: sysUserRole.roleId }).from(sysUserRole).where(eq(sysUserRole.userId, userId)).orderBy(asc(sysUserRole.roleId))).map((row) => row.id);
  const inOuter = async <T>(run: () => Promise<T>) => {
    await server.call('PUT', `/license-account-user-relation?id=${outer}`, { token: admin });
    try {
      return await run();
    } finally {
      await server.call('PUT', `/license-account-user-relation?id=${home}`, { token: admin });
    }
  };

  beforeAll(async () => {
    admin = await server.login();
    home = (await server.call('GET', '/login/current', { token: admin })).body.resData.licenseAccountId;
    outer = (await server.call('POST', '/license-account', { token: admin, body: { licenseAccountName: 'Outer' } })).body.resData.id;
  });

  it('a role editor cannot strip, replace, change or rename a stronger role (4003); roles within their rights they change freely', async () => {
    // user:page, role:page, role:add, role:edit.
    const editor = await role('role-editor', [210201, 210301, 210302, 210303]);
    // user:page, user:delete, role:delete: the last two are beyond the editor.
    const strong = await role('strong', [210201, 210204, 210304]);
    await server.createUser({ name: 'redit', roles: [editor] }, admin);
    const token = await server.login('redit', 'Passw0rd!');
    const save = (permissions: number[], lang?: string) => server.call('PUT', '/role', { token, lang, body: { id: strong, permissions } });

    const stripped = await save([210201]);
    expect([stripped.status, stripped.body.resCode, stripped.body.resMsg]).toEqual([403, '4003', 'You do not have permission for this operation']);
    const replaced = await save([210201, 210301, 210302], 'zh');
    expect([replaced.status, replaced.body.resCode, replaced.body.resMsg]).toEqual([403, '4003', '您没有执行此操作的权限']);
    expect(await permissionsOf(strong)).toEqual([210201, 210204, 210304]);

    // A stronger role is not theirs to change at all (issue 29): not even what they cover, nor its name.
    expect((await save([210204, 210304])).body.resCode).toBe('4003');
    expect((await server.call('PUT', '/role', { token, body: { id: strong, name: 'strong (renamed)' } })).body.resCode).toBe('4003');
    expect(await permissionsOf(strong)).toEqual([210201, 210204, 210304]);
    // A role within their rights they change freely: adding and removing what they cover, renaming.
    const mine = await role('within', [210201, 210301]);
    expect((await server.call('PUT', '/role', { token, body: { id: mine, permissions: [210301, 210302] } })).body.resCode).toBe('00000');
    expect(await permissionsOf(mine)).toEqual([210301, 210302]);
    expect((await server.call('PUT', '/role', { token, body: { id: mine, name: 'within (renamed)' } })).body.resCode).toBe('00000');
    // The superAdmin may strip anything.
    expect((await server.call('PUT', '/role', { token: admin, body: { id: strong, permissions: [210201] } })).body.resCode).toBe('00000');
    expect(await permissionsOf(strong)).toEqual([210201]);
  });

  it("saving one's own roles keeps those outside the caller's scope (another account's, not covered)", async () => {
    // user:page, user:edit at home; role:delete in the other account.
    const homeEditor = await role('home-editor', [210201, 210203]);
    const homeViewer = await role('home-viewer', [210201]);
    const outerStrong = await inOuter(() => role('outer-strong', [210201, 210304]));
    const me = await server.createUser({ name: 'twohat', roles: [homeEditor, homeViewer], licenseAccounts: [home, outer] }, admin);
    await server.db.insert(sysUserRole).values({ userId: me, roleId: outerStrong });
    expect(await rolesOf(me)).toEqual([homeEditor, homeViewer, outerStrong].sort((a, b) => a - b));
    const token = await server.login('twohat', 'Passw0rd!');
    expect((await server.call('GET', '/login/current', { token })).body.resData.licenseAccountId).toBe(home);

    // The form sends the roles it can show: those of the current account.
    expect((await server.call('PUT', '/user', { token, body: { id: me, roles: [homeEditor] } })).body.resCode).toBe('00000');
    expect(await rolesOf(me)).toEqual([homeEditor, outerStrong]);
    // Sending back what was read (a role of the other account included) changes nothing and is no error.
    const read = (await server.call('GET', `/user/${me}`, { token })).body.resData;
    expect(read.roles).toEqual([homeEditor, outerStrong]);
    expect((await server.call('PUT', '/user', { token, body: { id: me, roles: read.roles, licenseAccounts: read.licenseAccounts } })).body.resCode).toBe('00000');
    expect(await rolesOf(me)).toEqual([homeEditor, outerStrong]);
  });

  it("editing another user changes only the links inside the caller's scope", async () => {
    const userEditor = await role('user-editor', [210201, 210203]);
    const viewer = await role('viewer', [210201]);
    const outerViewer = await inOuter(() => role('outer-viewer', [210201]));
    await server.createUser({ name: 'uedit', roles: [userEditor] }, admin);
    const target = await server.createUser({ name: 'target1' }, admin);
    // A role of an account the editor is not in (left from an earlier membership), linked directly.
    await server.db.insert(sysUserRole).values({ userId: target, roleId: outerViewer });
    const token = await server.login('uedit', 'Passw0rd!');

    expect((await server.call('PUT', '/user', { token, body: { id: target, roles: [viewer] } })).body.resCode).toBe('00000');
    expect(await rolesOf(target)).toEqual([viewer, outerViewer].sort((a, b) => a - b));
    expect((await server.call('PUT', '/user', { token, body: { id: target, roles: [] } })).body.resCode).toBe('00000');
    expect(await rolesOf(target)).toEqual([outerViewer]);
    // Accounts: one the editor is not in cannot be added (not visible: 1004); nothing changed.
    const added = await server.call('PUT', '/user', { token, body: { id: target, licenseAccounts: [home, outer] } });
    expect([added.body.resCode, added.body.resData.issues[0].field]).toEqual(['1004', 'licenseAccounts']);
    expect(await server.db.select({ id: relation.licenseAccountId }).from(relation).where(eq(relation.userId, target))).toEqual([{ id: home }]);
  });
});

describe('hole 1 in the console: a 4007 answer from any call', () => {
  it('forces the change-password dialog (through the session) instead of showing a toast', async () => {
    const stored = new Map<string, string>();
    const storage = {
      getItem: (key: string) => stored.get(key) ?? null,
      setItem: (key: string, value: string) => void stored.set(key, value),
      removeItem: (key: string) => void stored.delete(key),
    };
    const session = createSession(storage, { get: () => undefined, set: () => undefined, remove: () => undefined });
    const opened: string[] = [];
    session.onForcedPasswordChange((reason) => opened.push(reason));
    const notify = vi.fn();
    const onForcedLogout = vi.fn();
    const answer = { resCode: '4007', resMsg: 'Please change your password first', resData: { reason: 'passwordExpired' } };
    const http = createHttpClient({
      fetch: async () => new Response(JSON.stringify(answer), { status: 403, headers: { 'content-type': 'application/json' } }),
      session,
      notify,
      translate: (key, values) => translate('en', key, values),
      onForcedLogout,
    });
    await expect(http.post('/user/page', {})).rejects.toMatchObject({ code: '4007', status: 403, message: 'Please change your password first' });
    expect(notify).not.toHaveBeenCalled();
    expect(onForcedLogout).not.toHaveBeenCalled();
    expect([session.getForcedPasswordChange(), opened]).toEqual(['passwordExpired', ['passwordExpired']]);
  });
});
