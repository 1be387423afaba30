// License accounts: the caller's list and default switch, account CRUD, and data scoping by the
// caller's current license account (read on every request).
import { count, eq } from 'drizzle-orm';
import { beforeAll, expect, it } from 'vitest';
import { fleet, licenseAccount, rvm, sysUserRole } from '../../server/db/schema';
import { describeOneBackend } from './helpers';

describeOneBackend('license accounts and scoping', (server) => {
  let admin: string;
  let defaultId: number;
  let otherId: number;
  let foreignUser: number;

  beforeAll(async () => {
    admin = await server.login();
    const list = await server.call('GET', '/license-account-user-relation', { token: admin });
    defaultId = list.body.resData[0].id;
    const created = await server.call('POST', '/license-account', { token: admin, body: { licenseAccountName: 'Kowloon', businessUnit: 'HK', contact: 'Ms Lee' } });
    otherId = created.body.resData.id;
    foreignUser = await server.createUser({ name: 'kuser', licenseAccounts: [otherId] }, admin);
  });

  it('lists my accounts with isDefault (the creator is linked to a new account)', async () => {
    const { body } = await server.call('GET', '/license-account-user-relation', { token: admin });
    expect(body.resData).toEqual([
      { id: defaultId, licenseAccountName: 'Default', isDefault: true },
      { id: otherId, licenseAccountName: 'Kowloon', isDefault: false },
    ]);
  });

  it('computes the counts of an account', async () => {
    const { body } = await server.call('GET', `/license-account/${otherId}`, { token: admin });
    expect(body.resData).toMatchObject({ licenseAccountName: 'Kowloon', businessUnit: 'HK', userCount: 2, machineCount: 0, fleetCount: 0 });
    // Real figures: two fleets and three machines of this account, one machine of another that must not count.
    const [east, west] = await server.db
      .insert(fleet)
      .values([
        { licenseAccountId: otherId, name: 'East' },
        { licenseAccountId: otherId, name: 'West' },
      ])
      .returning({ id: fleet.id });
    const [home] = await server.db.insert(fleet).values({ licenseAccountId: defaultId, name: 'Home' }).returning({ id: fleet.id });
    const machine = (account: number, fleetId: number, termNo: string) => ({ licenseAccountId: account, fleetId, termNo, serialNumber: `SN-${termNo}`, termType: 'H30' });
    await server.db.insert(rvm).values([machine(otherId, east.id, 'K1'), machine(otherId, east.id, 'K2'), machine(otherId, west.id, 'K3'), machine(defaultId, home.id, 'D1')]);
    const counted = (await server.call('GET', `/license-account/${otherId}`, { token: admin })).body.resData;
    expect(counted).toMatchObject({ machineCount: 3, fleetCount: 2 });
    const byMachines = await server.call('POST', '/license-account/page', { token: admin, body: { sort: 'machineCount', order: 'DESC' } });
    expect(byMachines.body.resData.list.map((account: { id: number; machineCount: number; fleetCount: number }) => [account.id, account.machineCount, account.fleetCount])).toEqual(
      [
        [otherId, 3, 2],
        [defaultId, 1, 1],
      ],
    );
    const sorted = await server.call('POST', '/license-account/page', { token: admin, body: { sort: 'userCount', order: 'DESC' } });
    expect(sorted.body.resData.list.map((account: { userCount: number }) => account.userCount)).toEqual([2, 1]);
  });

  it('hides users of another license account (2003) until I switch to it', async () => {
    expect((await server.call('GET', `/user/${foreignUser}`, { token: admin })).body.resCode).toBe('2003');
    expect((await server.call('PUT', '/user', { token: admin, body: { id: foreignUser, realname: 'x' } })).body.resCode).toBe('2003');
    expect((await server.call('DELETE', `/user?id=${foreignUser}`, { token: admin })).body.resCode).toBe('2003');
    const names = (await server.call('POST', '/user/page', { token: admin, body: {} })).body.resData.list.map((user: { name: string }) => user.name);
    expect(names).not.toContain('kuser');
    // Pickers too: by id and by name, the other account's user is not offered (the list is not empty for lack of data).
    const picker = async (query: string) => (await server.call('GET', `/user/list?${query}`, { token: admin })).body.resData.map((user: { name: string }) => user.name);
    expect(await picker('nameLike=user')).toEqual([]);
    expect(await picker(`ids=${foreignUser}`)).toEqual([]);
    expect(await picker('nameLike=adm')).toEqual(['admin']);

    const switched = await server.call('PUT', `/license-account-user-relation?id=${otherId}`, { token: admin });
    expect(switched.body.resData).toEqual({ id: otherId, licenseAccountName: 'Kowloon' });
    // The same token now works in the other account: scoping is read per request.
    expect((await server.call('GET', `/user/${foreignUser}`, { token: admin })).body.resData.name).toBe('kuser');
    expect((await server.call('GET', `/user/list?ids=${foreignUser}`, { token: admin })).body.resData).toEqual([{ id: foreignUser, name: 'kuser' }]);
    expect((await server.call('GET', '/login/current', { token: admin })).body.resData.accountName).toBe('Kowloon');
    await server.call('PUT', `/license-account-user-relation?id=${defaultId}`, { token: admin });
  });

  it('refuses to switch to an account I do not belong to', async () => {
    const token = await server.login('kuser', 'Passw0rd!');
    const { status, body } = await server.call('PUT', `/license-account-user-relation?id=${defaultId}`, { token });
    expect([status, body.resCode]).toEqual([404, '2003']);
    expect((await server.call('PUT', '/license-account-user-relation?id=abc', { token })).body.resCode).toBe('1003');
    expect((await server.call('PUT', '/license-account-user-relation', { token })).body.resCode).toBe('1001');
    expect((await server.call('GET', '/license-account-user-relation', { token })).body.resData).toEqual([{ id: otherId, licenseAccountName: 'Kowloon', isDefault: true }]);
  });

  it('scopes roles to the current account and refuses roles of another one', async () => {
    const role = await server.call('POST', '/role', { token: admin, body: { name: 'default-only' } });
    await server.call('PUT', `/license-account-user-relation?id=${otherId}`, { token: admin });
    expect((await server.call('GET', `/role/${role.body.resData.id}`, { token: admin })).body.resCode).toBe('2003');
    const assign = await server.call('PUT', '/user', { token: admin, body: { id: foreignUser, roles: [role.body.resData.id] } });
    expect([assign.body.resCode, assign.body.resData.issues[0].field]).toEqual(['1004', 'roles']);
    await server.call('PUT', `/license-account-user-relation?id=${defaultId}`, { token: admin });
    expect((await server.call('DELETE', `/role?id=${role.body.resData.id}`, { token: admin })).body.resCode).toBe('00000');
  });

  it('an account still in use cannot be deleted (5002); an unused one can', async () => {
    const before = (await server.db.select({ n: count() }).from(licenseAccount))[0].n;
    expect((await server.call('DELETE', `/license-account?id=${otherId}`, { token: admin })).body.resCode).toBe('5002');
    const spare = await server.call('POST', '/license-account', { token: admin, body: { licenseAccountName: 'Spare' } });
    // The creator was linked; unlink, then delete.
    const me = (await server.call('GET', '/login/current', { token: admin })).body.resData.userId;
    await server.call('PUT', '/user', { token: admin, body: { id: me, licenseAccounts: [defaultId, otherId] } });
    expect((await server.call('DELETE', `/license-account?id=${spare.body.resData.id}`, { token: admin })).body.resCode).toBe('00000');
    expect((await server.db.select({ n: count() }).from(licenseAccount))[0].n).toBe(before);
    const duplicate = await server.call('POST', '/license-account', { token: admin, body: { licenseAccountName: 'Kowloon' } });
    expect(duplicate.body.resCode).toBe('2002');
  });

  it('someone who is not superAdmin sees only their own accounts', async () => {
    const role = await server.call('POST', '/role', { token: admin, body: { name: 'acct-viewer', permissions: [210101] } });
    await server.createUser({ name: 'viewer', roles: [role.body.resData.id] }, admin);
    const token = await server.login('viewer', 'Passw0rd!');
    const page = await server.call('POST', '/license-account/page', { token, body: {} });
    expect(page.body.resData.list.map((account: { licenseAccountName: string }) => account.licenseAccountName)).toEqual(['Default']);
    expect((await server.call('GET', `/license-account/${otherId}`, { token })).body.resCode).toBe('2003');
  });

  it('counts only the roles of the current license account (a role elsewhere grants nothing here)', async () => {
    // viewer (user:page) in Default; user:page, user:export and role:page in Kowloon.
    const viewer = (await server.call('POST', '/role', { token: admin, body: { name: 'a-viewer', permissions: [210201] } })).body.resData.id;
    await server.call('PUT', `/license-account-user-relation?id=${otherId}`, { token: admin });
    const strong = (await server.call('POST', '/role', { token: admin, body: { name: 'b-strong', permissions: [210201, 210205, 210301] } })).body.resData.id;
    await server.call('PUT', `/license-account-user-relation?id=${defaultId}`, { token: admin });
    const id = await server.createUser({ name: 'twoacct', roles: [viewer], licenseAccounts: [defaultId, otherId] }, admin);
    // Through the API, as the console's form does it in each account: the form in Kowloon offers Kowloon's
    // roles only, and saving there leaves the user's roles in Default as they are.
    await server.call('PUT', `/license-account-user-relation?id=${otherId}`, { token: admin });
    expect((await server.call('PUT', '/user', { token: admin, body: { id, roles: [strong] } })).body.resCode).toBe('00000');
    await server.call('PUT', `/license-account-user-relation?id=${defaultId}`, { token: admin });
    expect((await server.db.select({ roleId: sysUserRole.roleId }).from(sysUserRole).where(eq(sysUserRole.userId, id))).map((row) => row.roleId).sort()).toEqual(
      [viewer, strong].sort(),
    );
    const token = await server.login('twoacct', 'Passw0rd!');

    const current = (await server.call('GET', '/login/current', { token })).body.resData;
    expect([current.licenseAccountId, current.userInfo.roleIds, current.userInfo.permissions]).toEqual([defaultId, [viewer], [{ id: 210201, identifier: 'user:page' }]]);
    expect((await server.call('POST', '/user/page', { token, body: {} })).body.resCode).toBe('00000');
    expect((await server.call('POST', '/user/export', { token, body: { format: 'csv' } })).body.resCode).toBe('4003');
    expect((await server.call('POST', '/role/page', { token, body: {} })).body.resCode).toBe('4003');

    await server.call('PUT', `/license-account-user-relation?id=${otherId}`, { token });
    expect((await server.call('GET', '/login/current', { token })).body.resData.userInfo.roleIds).toEqual([strong]);
    expect((await server.call('POST', '/user/export', { token, body: { format: 'csv' } })).status).toBe(200);
    expect((await server.call('POST', '/role/page', { token, body: {} })).body.resCode).toBe('00000');
  });
});
