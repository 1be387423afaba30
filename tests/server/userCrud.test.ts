// The user calls (docs/ARCHITECTURE.md#calls) through the generic CRUD engine plus the user hooks.
import { count, eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { sysUser } from '../../server/db/schema';
import { describeOneBackend } from './helpers';

describeOneBackend('user CRUD', (server) => {
  let admin: string;
  const users = async () => (await server.db.select({ n: count() }).from(sysUser))[0].n;
  beforeAll(async () => {
    admin = await server.login();
  });

  it('POST /user creates a user (password hashed, creator and create time set by the server)', async () => {
    const { status, body } = await server.call('POST', '/user', {
      token: admin,
      body: { realname: 'Alice Chan', name: 'alice', password: 'Abc#1234', confirmPassword: 'Abc#1234', email: 'alice@example.com', phone: '+852 1234 5678', localAreaId: 'HK' },
    });
    expect(status).toBe(200);
    expect(body.resCode).toBe('00000');
    const user = body.resData;
    expect(user).toMatchObject({ realname: 'Alice Chan', name: 'alice', enabled: true, roles: [], email: 'alice@example.com' });
    expect(user.licenseAccounts).toHaveLength(1);
    expect(user.password).toBeUndefined();
    expect(user.confirmPassword).toBeUndefined();
    expect(typeof user.sysUserId).toBe('number');
    expect(Date.now() - Date.parse(user.createTime)).toBeLessThan(60_000);
    const [row] = await server.db.select().from(sysUser).where(eq(sysUser.id, user.id));
    expect(row.password.startsWith('scrypt$')).toBe(true);
  });

  it('GET /user/{id}, GET /user/list?nameLike=, POST /user/page', async () => {
    const [alice] = await server.db.select({ id: sysUser.id }).from(sysUser).where(eq(sysUser.name, 'alice'));
    const one = await server.call('GET', `/user/${alice.id}`, { token: admin });
    expect(one.body.resData.name).toBe('alice');
    const list = await server.call('GET', '/user/list?nameLike=LIC', { token: admin });
    expect(list.body.resData).toEqual([{ id: alice.id, name: 'alice' }]);
    const byIds = await server.call('GET', `/user/list?ids=${alice.id},999999`, { token: admin });
    expect(byIds.body.resData).toEqual([{ id: alice.id, name: 'alice' }]);
    const page = await server.call('POST', '/user/page', { token: admin, body: { pageNum: 1, pageSize: 1, sort: 'name', order: 'ASC' } });
    expect(page.body.resData).toMatchObject({ total: 2, pageNum: 1, pageSize: 1, list: [{ name: 'admin' }] });
    const second = await server.call('POST', '/user/page', { token: admin, body: { pageNum: 2, pageSize: 1, sort: 'name', order: 'ASC' } });
    expect(second.body.resData.list[0].name).toBe('alice');
  });

  it('filters in SQL: like (with % and _ taken literally), eq, gte/lte', async () => {
    await server.createUser({ name: 'a_b', realname: '100% real', localAreaId: 'KLN' }, admin);
    const page = (filters: Record<string, unknown>) =>
      server
        .call('POST', '/user/page', { token: admin, body: { pageNum: 1, pageSize: 50, ...filters } })
        .then((answer) => answer.body.resData.list.map((user: { name: string }) => user.name).sort());
    expect(await page({ nameLike: '_' })).toEqual(['a_b']);
    expect(await page({ realnameLike: '%' })).toEqual(['a_b']);
    expect(await page({ localAreaId: 'KLN' })).toEqual(['a_b']);
    expect(await page({ enabled: true, nameLike: 'a' })).toEqual(['a_b', 'admin', 'alice']);
    expect(await page({ createTimeFrom: new Date(Date.now() + 60_000).toISOString() })).toEqual([]);
    expect(await page({ createTimeTo: new Date(Date.now() + 60_000).toISOString(), nameLike: 'ali' })).toEqual(['alice']);
    const badDate = await server.call('POST', '/user/page', { token: admin, body: { createTimeFrom: 'yesterday' } });
    expect(badDate.body.resCode).toBe('1003');
    const badSort = await server.call('POST', '/user/page', { token: admin, body: { sort: 'password' } });
    expect(badSort.body.resCode).toBe('1004');
  });

  it('PUT /user updates present fields only and refuses password fields', async () => {
    const [alice] = await server.db.select({ id: sysUser.id }).from(sysUser).where(eq(sysUser.name, 'alice'));
    const { body } = await server.call('PUT', '/user', { token: admin, body: { id: alice.id, realname: 'Alice C.', phone: null } });
    expect(body.resData).toMatchObject({ realname: 'Alice C.', phone: null, email: 'alice@example.com' });
    const withPassword = await server.call('PUT', '/user', { token: admin, body: { id: alice.id, password: 'Abc#9999' } });
    expect(withPassword.body.resCode).toBe('1004');
    const missing = await server.call('PUT', '/user', { token: admin, body: { id: 999999, realname: 'x' } });
    expect([missing.status, missing.body.resCode]).toEqual([404, '2003']);
  });

  describe('bad input answers catalogue codes and changes nothing', () => {
    const valid = { realname: 'Bad', name: 'baduser', password: 'Abc#1234', confirmPassword: 'Abc#1234' };
    it.each([
      ['missing field', { ...valid, realname: undefined }, '1001', 'realname'],
      ['empty required', { ...valid, realname: '' }, '1001', 'realname'],
      ['wrong type', { ...valid, realname: 42 }, '1003', 'realname'],
      ['wrong type (number as text)', { ...valid, roles: ['1'] }, '1003', 'roles.0'],
      ['overlong', { ...valid, name: 'muchtoolong' }, '1002', 'name'],
      ['unknown field', { ...valid, isAdmin: true }, '1004', 'isAdmin'],
      ['readOnly field', { ...valid, createTime: '2020-01-01T00:00:00Z' }, '1004', 'createTime'],
      ['pattern', { ...valid, name: '用户名' }, '1004', 'name'],
      ['e-mail', { ...valid, email: 'not-an-email' }, '1004', 'email'],
      ['password rule', { ...valid, password: 'abcdefg1', confirmPassword: 'abcdefg1' }, '1004', 'password'],
      ['confirmation', { ...valid, confirmPassword: 'Abc#12345' }, '1004', 'confirmPassword'],
      ['unknown role', { ...valid, roles: [999999] }, '1004', 'roles'],
    ])('%s', async (_label, body, code, field) => {
      const before = await users();
      const answer = await server.call('POST', '/user', { token: admin, body });
      expect(answer.status).toBe(400);
      expect(answer.body.resCode).toBe(code);
      expect(answer.body.resData.issues.map((issue: { field: string }) => issue.field)).toContain(field);
      expect(await users()).toBe(before);
    });

    it('a duplicate user name answers 2002 (HTTP 409)', async () => {
      const before = await users();
      const answer = await server.call('POST', '/user', { token: admin, body: { ...valid, name: 'alice' } });
      expect([answer.status, answer.body.resCode]).toEqual([409, '2002']);
      expect(await users()).toBe(before);
    });

    it('ids beyond the integer range answer 400 (1003 from the database, 1004 from the schema), never 1000', async () => {
      const list = await server.call('GET', '/user/list?ids=99999999999', { token: admin });
      expect([list.status, list.body.resCode]).toEqual([400, '1003']);
      const [alice] = await server.db.select().from(sysUser).where(eq(sysUser.name, 'alice'));
      const put = await server.call('PUT', '/user', { token: admin, body: { id: 3000000000, realname: 'Changed' } });
      expect([put.status, put.body.resCode, put.body.resData.issues[0].field]).toEqual([400, '1004', 'id']);
      const roles = await server.call('PUT', '/user', { token: admin, body: { id: alice.id, roles: [3000000000] } });
      expect([roles.status, roles.body.resCode]).toEqual([400, '1004']);
      expect(await server.db.select().from(sysUser).where(eq(sysUser.name, 'alice'))).toEqual([alice]);
    });

    it('a body over 1 MB is refused', async () => {
      const answer = await server.call('POST', '/user', { token: admin, body: { ...valid, realname: 'x'.repeat(1_100_000) } });
      expect(answer.body.resCode).toBe('1002');
    });
  });

  it('disabling a user revokes their sessions; nobody disables or deletes themselves', async () => {
    const id = await server.createUser({ name: 'dis1', password: 'Abc#1234' }, admin);
    const token = await server.login('dis1', 'Abc#1234');
    expect((await server.call('PUT', '/user', { token: admin, body: { id, enabled: false } })).body.resData.enabled).toBe(false);
    expect((await server.call('GET', '/login/current', { token })).body.resCode).toBe('11015');
    const [self] = await server.db.select({ id: sysUser.id }).from(sysUser).where(eq(sysUser.name, 'admin'));
    expect((await server.call('PUT', '/user', { token: admin, body: { id: self.id, enabled: false } })).body.resCode).toBe('5001');
    expect((await server.call('DELETE', `/user?id=${self.id}`, { token: admin })).body.resCode).toBe('5001');
  });

  it('DELETE /user?id= refuses a user who still has roles (5002), deletes and signs out otherwise', async () => {
    const role = await server.call('POST', '/role', { token: admin, body: { name: 'linked' } });
    const id = await server.createUser({ name: 'del1', password: 'Abc#1234', roles: [role.body.resData.id] }, admin);
    const token = await server.login('del1', 'Abc#1234');
    const refused = await server.call('DELETE', `/user?id=${id}`, { token: admin });
    expect(refused.body.resCode).toBe('5002');
    expect(await server.call('GET', `/user/${id}`, { token: admin }).then((answer) => answer.body.resCode)).toBe('00000');
    // The role cannot go either while the user has it.
    expect((await server.call('DELETE', `/role?id=${role.body.resData.id}`, { token: admin })).body.resCode).toBe('5002');
    await server.call('PUT', '/user', { token: admin, body: { id, roles: [] } });
    expect((await server.call('DELETE', `/user?id=${id}`, { token: admin })).body).toEqual({ resCode: '00000', resMsg: 'Success', resData: null });
    expect((await server.call('GET', `/user/${id}`, { token: admin })).body.resCode).toBe('2003');
    expect((await server.call('GET', '/login/current', { token })).body.resCode).toBe('11015');
    expect((await server.call('DELETE', `/role?id=${role.body.resData.id}`, { token: admin })).body.resCode).toBe('00000');
  });

  it('batchDelete is all or nothing', async () => {
    const a = await server.createUser({ name: 'bat1' }, admin);
    const b = await server.createUser({ name: 'bat2' }, admin);
    const before = await users();
    const partial = await server.call('POST', '/user/batchDelete', { token: admin, body: { ids: [a, b, 999999] } });
    expect(partial.body.resCode).toBe('2003');
    expect(await users()).toBe(before);
    const role = await server.call('POST', '/role', { token: admin, body: { name: 'batchrole' } });
    await server.call('PUT', '/user', { token: admin, body: { id: b, roles: [role.body.resData.id] } });
    expect((await server.call('POST', '/user/batchDelete', { token: admin, body: { ids: [a, b] } })).body.resCode).toBe('5002');
    expect(await users()).toBe(before);
    await server.call('PUT', '/user', { token: admin, body: { id: b, roles: [] } });
    const done = await server.call('POST', '/user/batchDelete', { token: admin, body: { ids: [a, b] } });
    expect(done.body.resData).toEqual({ deleted: 2 });
    expect(await users()).toBe(before - 2);
    expect((await server.call('POST', '/user/batchDelete', { token: admin, body: { ids: [] } })).body.resCode).toBe('1001');
  });
});
