// The route guard (4003), the seeded permission tree, and the role/permission rules.
import { count, eq, inArray } from 'drizzle-orm';
import { beforeAll, expect, it } from 'vitest';
import { sysPermission, sysUser } from '../../server/db/schema';
import { describeOneBackend } from './helpers';

describeOneBackend('permissions', (server) => {
  let admin: string;
  const role = async (name: string, permissions: number[]) => (await server.call('POST', '/role', { token: admin, body: { name, permissions } })).body.resData.id as number;

  beforeAll(async () => {
    admin = await server.login();
  });

  it('seeds the tree from the menu plus one button per identifier (stable ids)', async () => {
    const rows = await server.db.select().from(sysPermission);
    const byId = new Map(rows.map((row) => [row.id, row]));
    expect(byId.get(21)).toMatchObject({ identifier: 'systemSettings', type: 'directory', parentId: null, name: 'System settings' });
    expect(byId.get(2102)).toMatchObject({ identifier: 'systemSettings:user', type: 'menu', parentId: 21, name: 'User' });
    expect(byId.get(601)).toMatchObject({ identifier: 'service:performance', parentId: 6 });
    expect(byId.get(210201)).toMatchObject({ identifier: 'user:page', type: 'button', parentId: 2102, name: 'User: list' });
    const userButtons = rows.filter((row) => row.parentId === 2102).map((row) => row.identifier);
    expect(userButtons).toEqual(['user:page', 'user:add', 'user:edit', 'user:delete', 'user:export', 'user:resetPassword', 'user:disable']);
    // Re-seeding (a restart) upserts in place.
    const before = (await server.db.select({ n: count() }).from(sysPermission))[0].n;
    await server.db.update(sysPermission).set({ name: 'renamed' }).where(eq(sysPermission.id, 210201));
    await server.anotherInstance();
    expect((await server.db.select({ n: count() }).from(sysPermission))[0].n).toBe(before);
    expect((await server.db.select().from(sysPermission).where(eq(sysPermission.id, 210201)))[0].name).toBe('User: list');
  });

  it('refuses every guarded call to a user without identifiers (4003, HTTP 403)', async () => {
    await server.createUser({ name: 'nobody' }, admin);
    const token = await server.login('nobody', 'Passw0rd!');
    // aimed at a plain user, not the superAdmin (whose own protection would answer 4003 anyway);
    // routeGuard.test.ts sweeps every registered route the same way
    const victim = await server.createUser({ name: 'target' }, admin);
    const calls: Array<[string, string, unknown?]> = [
      ['POST', '/user/page', {}],
      ['GET', `/user/${victim}`],
      ['GET', '/user/list'],
      ['POST', '/user', {}],
      ['PUT', '/user', { id: victim }],
      ['DELETE', `/user?id=${victim}`],
      ['POST', '/user/batchDelete', { ids: [victim] }],
      ['POST', '/user/export', { format: 'csv' }],
      ['POST', '/role/page', {}],
      ['POST', '/permission', {}],
      ['POST', '/license-account/page', {}],
    ];
    for (const [method, path, body] of calls) {
      const answer = await server.call(method, path, { token, body });
      expect([path, answer.status, answer.body.resCode]).toEqual([path, 403, '4003']);
    }
    expect((await server.call('GET', `/user/${victim}`, { token: admin })).body.resData.name).toBe('target');
    // Token-only calls still work.
    expect((await server.call('GET', '/login/current', { token })).body.resCode).toBe('00000');
    expect((await server.call('GET', '/saved-filter', { token })).body.resCode).toBe('00000');
  });

  it('grants exactly the identifiers of the roles, with * wildcards', async () => {
    const viewer = await role('viewer', [210201]);
    await server.createUser({ name: 'viewer', roles: [viewer] }, admin);
    const token = await server.login('viewer', 'Passw0rd!');
    const answer = await server.call('GET', '/login/current', { token });
    expect(answer.body.resData.userInfo.permissions).toEqual([{ id: 210201, identifier: 'user:page' }]);
    expect(answer.body.resData.userInfo.roleIds).toEqual([viewer]);
    expect((await server.call('POST', '/user/page', { token, body: {} })).body.resCode).toBe('00000');
    expect((await server.call('POST', '/user', { token, body: {} })).body.resCode).toBe('4003');

    const wildcard = await server.call('POST', '/permission', {
      token: admin,
      body: { name: 'All user actions', parentId: 2102, type: 'button', identifier: 'user:*', sort: 99 },
    });
    expect(wildcard.body.resData.id).toBeGreaterThanOrEqual(10_000_000);
    const power = await role('user-power', [wildcard.body.resData.id]);
    await server.createUser({ name: 'power', roles: [power] }, admin);
    const powerToken = await server.login('power', 'Passw0rd!');
    expect((await server.call('POST', '/user/export', { token: powerToken, body: { format: 'csv' } })).status).toBe(200);
    expect((await server.call('POST', '/role/page', { token: powerToken, body: {} })).body.resCode).toBe('4003');
  });

  it('does not let a role editor grant identifiers they do not hold', async () => {
    const editor = await role('role-editor', [210301, 210302, 210303]);
    await server.createUser({ name: 'editor', roles: [editor] }, admin);
    const token = await server.login('editor', 'Passw0rd!');
    expect((await server.call('POST', '/role', { token, body: { name: 'mine', permissions: [210301] } })).body.resCode).toBe('00000');
    expect((await server.call('POST', '/role', { token, body: { name: 'escalate', permissions: [210201] } })).body.resCode).toBe('4003');
    // A stronger role can be neither renamed nor otherwise changed by them; their own kind of role can.
    const stronger = await role('stronger-named', [210201, 210301]);
    expect((await server.call('PUT', '/role', { token, body: { id: stronger, name: 'renamed' } })).body.resCode).toBe('4003');
    expect((await server.call('GET', `/role/${stronger}`, { token: admin })).body.resData.name).toBe('stronger-named');
    const weaker = await role('weaker-named', [210301]);
    expect((await server.call('PUT', '/role', { token, body: { id: weaker, name: 'renamed-ok' } })).body.resCode).toBe('00000');
  });

  it('does not let a user editor assign a role carrying identifiers they do not hold', async () => {
    // user:page, user:add, user:edit; and a role with a little less, and one with user:delete.
    const userEditor = await role('user-editor', [210201, 210202, 210203]);
    const lesser = await role('lesser', [210201]);
    const stronger = await role('stronger', [210201, 210204]);
    await server.createUser({ name: 'ueditor', roles: [userEditor] }, admin);
    const token = await server.login('ueditor', 'Passw0rd!');
    const create = (name: string, roles: number[]) =>
      server.call('POST', '/user', { token, body: { realname: name, name, password: 'Passw0rd!', confirmPassword: 'Passw0rd!', roles } });

    expect((await create('okay', [lesser])).body.resCode).toBe('00000');
    const refused = await create('sneaky', [stronger]);
    expect([refused.status, refused.body.resCode]).toEqual([403, '4003']);
    const listed = await server.call('POST', '/user/page', { token: admin, body: { nameLike: 'sneaky' } });
    expect(listed.body.resData.total).toBe(0);

    // Nor by editing: not others, not themselves; the stored roles stay as they were.
    const me = (await server.call('GET', '/login/current', { token })).body.resData.userId as number;
    expect((await server.call('PUT', '/user', { token, body: { id: me, roles: [userEditor, stronger] } })).body.resCode).toBe('4003');
    const stored = await server.call('GET', `/user/${me}`, { token: admin });
    expect(stored.body.resData.roles).toEqual([userEditor]);
  });

  it('refuses deleting a permission with subordinates (5003) or used by a role (5002)', async () => {
    expect((await server.call('DELETE', '/permission?id=2102', { token: admin })).body.resCode).toBe('5003');
    expect((await server.call('DELETE', '/permission?id=210201', { token: admin })).body.resCode).toBe('5002');
    const spare = await server.call('POST', '/permission', { token: admin, body: { name: 'Spare', parentId: 2104, type: 'button', identifier: 'spare:x' } });
    expect((await server.call('DELETE', `/permission?id=${spare.body.resData.id}`, { token: admin })).body.resCode).toBe('00000');
  });

  it('keeps the permission tree a tree and validates enums and patterns', async () => {
    const cycle = await server.call('PUT', '/permission', { token: admin, body: { id: 21, parentId: 2102 } });
    expect([cycle.body.resCode, cycle.body.resData.issues[0].message]).toEqual(['1004', 'An item cannot be placed under itself or one of its subordinates']);
    const badType = await server.call('POST', '/permission', { token: admin, body: { name: 'x', type: 'widget', identifier: 'x' } });
    expect(badType.body.resCode).toBe('1004');
    const badIdentifier = await server.call('POST', '/permission', { token: admin, lang: 'zh', body: { name: 'x', type: 'button', identifier: 'no spaces' } });
    expect(badIdentifier.body.resData.issues[0].message).toBe('只允许字母、数字和 : _ * . -');
    const tree = await server.call('POST', '/permission/page', { token: admin, body: { pageSize: 500, type: 'directory' } });
    expect(tree.body.resData.list.length).toBeGreaterThan(0);
    expect(tree.body.resData.list.every((row: { type: string }) => row.type === 'directory')).toBe(true);
  });

  it('does not count a wildcard target as held: no granting user:* or * with user:page', async () => {
    const add = (name: string, identifier: string) => server.call('POST', '/permission', { token: admin, body: { name, parentId: 2102, type: 'button', identifier, sort: 98 } });
    const userStar = (await add('Every user action (grant test)', 'user:*')).body.resData.id as number;
    const star = (await add('Everything (grant test)', '*')).body.resData.id as number;
    // role:page, role:add, role:edit plus user:page.
    const editor = await role('wild-editor', [210201, 210301, 210302, 210303]);
    await server.createUser({ name: 'wildedit', roles: [editor] }, admin);
    const token = await server.login('wildedit', 'Passw0rd!');
    const create = (name: string, permissions: number[]) => server.call('POST', '/role', { token, body: { name, permissions } });
    expect((await create('fine', [210201])).body.resCode).toBe('00000');
    for (const [name, permission] of [
      ['user-star', userStar],
      ['star', star],
    ] as const) {
      const refused = await create(name, [permission]);
      expect([name, refused.status, refused.body.resCode]).toEqual([name, 403, '4003']);
    }
    const names = (await server.call('POST', '/role/page', { token: admin, body: { pageSize: 500 } })).body.resData.list.map((r: { name: string }) => r.name);
    expect(names).not.toContain('user-star');
    expect(names).not.toContain('star');

    // Nor assigning a role carrying them: a user:page/add/edit holder cannot give user:*.
    const starRole = await role('star-role', [userStar]);
    const userEditor = await role('wild-user-editor', [210201, 210202, 210203]);
    await server.createUser({ name: 'wilduser', roles: [userEditor] }, admin);
    const userToken = await server.login('wilduser', 'Passw0rd!');
    const assign = await server.call('POST', '/user', {
      token: userToken,
      body: { realname: 'x', name: 'wildvict', password: 'Passw0rd!', confirmPassword: 'Passw0rd!', roles: [starRole] },
    });
    expect(assign.body.resCode).toBe('4003');

    // A holder of user:* can grant user:* (the pattern covers itself).
    const power = await role('wild-power', [userStar, 210301, 210302]);
    await server.createUser({ name: 'wildpowr', roles: [power] }, admin);
    const powerToken = await server.login('wildpowr', 'Passw0rd!');
    expect((await server.call('POST', '/role', { token: powerToken, body: { name: 'user-star-ok', permissions: [userStar] } })).body.resCode).toBe('00000');
  });

  it('only a superAdmin creates, edits or deletes permissions (the tree is global)', async () => {
    const ids = await server.db
      .select({ id: sysPermission.id })
      .from(sysPermission)
      .where(inArray(sysPermission.identifier, ['permission:page', 'permission:add', 'permission:edit', 'permission:delete']));
    expect(ids).toHaveLength(4);
    const keeper = await role(
      'perm-keeper',
      ids.map((row) => row.id),
    );
    await server.createUser({ name: 'permkeep', roles: [keeper] }, admin);
    const token = await server.login('permkeep', 'Passw0rd!');
    const spare = (await server.call('POST', '/permission', { token: admin, body: { name: 'Spare2', parentId: 2104, type: 'button', identifier: 'spare:y' } })).body.resData
      .id as number;

    const created = await server.call('POST', '/permission', { token, body: { name: 'Mine', parentId: 2104, type: 'button', identifier: '*' } });
    expect([created.status, created.body.resCode]).toEqual([403, '4003']);
    const edited = await server.call('PUT', '/permission', { token, body: { id: 210201, identifier: '*' } });
    expect([edited.status, edited.body.resCode]).toEqual([403, '4003']);
    const deleted = await server.call('DELETE', `/permission?id=${spare}`, { token });
    expect([deleted.status, deleted.body.resCode]).toEqual([403, '4003']);
    expect((await server.call('POST', '/permission/batchDelete', { token, body: { ids: [spare] } })).body.resCode).toBe('4003');
    expect((await server.db.select().from(sysPermission).where(eq(sysPermission.id, 210201)))[0].identifier).toBe('user:page');
    expect(await server.db.select().from(sysPermission).where(eq(sysPermission.identifier, '*'))).toHaveLength(1); // the grant test's own
    expect((await server.call('POST', '/permission/page', { token, body: {} })).body.resCode).toBe('00000');

    // The superAdmin still can.
    expect((await server.call('PUT', '/permission', { token: admin, body: { id: spare, name: 'Spare two' } })).body.resCode).toBe('00000');
    expect((await server.call('DELETE', `/permission?id=${spare}`, { token: admin })).body.resCode).toBe('00000');
  });

  it('a helpdesk user cannot reset the password of, or edit, a user with more rights or accounts (4003)', async () => {
    // user:page, user:edit, user:resetPassword.
    const helpdesk = await role('helpdesk', [210201, 210203, 210206]);
    const weakRole = await role('weak', [210201]);
    const strongRole = await role('strong', [210201, 210304]); // role:delete
    await server.createUser({ name: 'helpdsk', roles: [helpdesk] }, admin);
    const weak = await server.createUser({ name: 'weaku', roles: [weakRole], email: 'weak@example.com' }, admin);
    const strong = await server.createUser({ name: 'strongu', roles: [strongRole], email: 'strong@example.com' }, admin);
    const defaultAccount = (await server.call('GET', '/login/current', { token: admin })).body.resData.licenseAccountId as number;
    const elsewhere = (await server.call('POST', '/license-account', { token: admin, body: { licenseAccountName: 'Elsewhere' } })).body.resData.id;
    const wider = await server.createUser({ name: 'wideru', roles: [weakRole], licenseAccounts: [defaultAccount, elsewhere] }, admin);
    const token = await server.login('helpdsk', 'Passw0rd!');
    const stored = async (id: number) => (await server.db.select().from(sysUser).where(eq(sysUser.id, id)))[0];

    for (const target of [strong, wider]) {
      const before = await stored(target);
      const reset = await server.call('PUT', '/user/resetPassword', { token, body: { id: target, password: 'Taken#123' } });
      expect([target, reset.status, reset.body.resCode]).toEqual([target, 403, '4003']);
      const edit = await server.call('PUT', '/user', { token, body: { id: target, email: 'attacker@example.com' } });
      expect([target, edit.status, edit.body.resCode]).toEqual([target, 403, '4003']);
      expect(await stored(target)).toEqual(before);
    }
    expect(await server.login('strongu', 'Passw0rd!')).toBeTruthy();

    expect((await server.call('PUT', '/user/resetPassword', { token, body: { id: weak, password: 'Reset#123' } })).body.resCode).toBe('00000');
    expect((await server.call('PUT', '/user', { token, body: { id: weak, email: 'weak2@example.com' } })).body.resCode).toBe('00000');
    expect((await stored(weak)).email).toBe('weak2@example.com');
    // Editing oneself is not taking anyone over.
    const me = (await server.call('GET', '/login/current', { token })).body.resData.userId as number;
    expect((await server.call('PUT', '/user', { token, body: { id: me, realname: 'Help Desk' } })).body.resCode).toBe('00000');
  });
});
