// /saved-filter: personal and public filters, built-in ones read-only (5001), owners only.
import { beforeAll, expect, it } from 'vitest';
import { describeBackends } from './helpers';

describeBackends('saved filters', (server) => {
  let alice: string;
  let bob: string;
  let outsider: string;
  beforeAll(async () => {
    const admin = await server.login();
    await server.createUser({ name: 'alice' }, admin);
    await server.createUser({ name: 'bob' }, admin);
    const other = await server.call('POST', '/license-account', { token: admin, body: { licenseAccountName: 'Other' } });
    await server.createUser({ name: 'outsider', licenseAccounts: [other.body.resData.id] }, admin);
    [alice, bob, outsider] = [await server.login('alice', 'Passw0rd!'), await server.login('bob', 'Passw0rd!'), await server.login('outsider', 'Passw0rd!')];
  });

  const list = async (token: string, resource = 'user') =>
    (await server.call('GET', `/saved-filter?resource=${resource}`, { token })).body.resData as Array<Record<string, unknown>>;

  it('lists the built-in filters to everyone', async () => {
    const filters = await list(alice);
    expect(filters).toEqual([
      { id: expect.any(Number), resource: 'user', name: 'Enabled users', filter: { enabled: true }, visibility: 'public', builtIn: true, ownerId: null, mine: false },
    ]);
  });

  it('keeps personal filters personal and shows public ones within the license account', async () => {
    const personal = await server.call('POST', '/saved-filter', { token: alice, body: { resource: 'user', name: 'Mine', filter: { nameLike: 'a' }, visibility: 'personal' } });
    expect(personal.body.resData).toMatchObject({ name: 'Mine', mine: true, builtIn: false, visibility: 'personal' });
    await server.call('POST', '/saved-filter', { token: alice, body: { resource: 'user', name: 'Shared', filter: { enabled: false }, visibility: 'public' } });
    expect((await list(alice)).map((filter) => filter.name)).toEqual(['Enabled users', 'Mine', 'Shared']);
    expect((await list(bob)).map((filter) => [filter.name, filter.mine])).toEqual([['Enabled users', false], ['Shared', false]]);
    expect((await list(outsider)).map((filter) => filter.name)).toEqual(['Enabled users']);
    expect(await list(alice, 'role')).toEqual([]);
  });

  it('lets only the owner change or delete a filter; built-in ones answer 5001', async () => {
    const shared = (await list(bob)).find((filter) => filter.name === 'Shared') as { id: number };
    const builtIn = (await list(bob)).find((filter) => filter.builtIn) as { id: number };
    expect((await server.call('PUT', '/saved-filter', { token: bob, body: { id: shared.id, name: 'Taken' } })).body.resCode).toBe('4003');
    expect((await server.call('DELETE', `/saved-filter?id=${shared.id}`, { token: bob })).body.resCode).toBe('4003');
    expect((await server.call('PUT', '/saved-filter', { token: alice, body: { id: builtIn.id, name: 'x' } })).body.resCode).toBe('5001');
    expect((await server.call('DELETE', `/saved-filter?id=${builtIn.id}`, { token: alice })).body.resCode).toBe('5001');
    const mine = (await list(alice)).find((filter) => filter.name === 'Mine') as { id: number };
    expect((await server.call('DELETE', `/saved-filter?id=${mine.id}`, { token: bob })).body.resCode).toBe('2003');
    const renamed = await server.call('PUT', '/saved-filter', { token: alice, body: { id: shared.id, name: 'Renamed', visibility: 'personal' } });
    expect(renamed.body.resData).toMatchObject({ name: 'Renamed', visibility: 'personal', filter: { enabled: false } });
    expect((await list(bob)).map((filter) => filter.name)).toEqual(['Enabled users']);
    expect((await server.call('DELETE', `/saved-filter?id=${mine.id}`, { token: alice })).body.resCode).toBe('00000');
  });

  it('validates the body', async () => {
    const unknownResource = await server.call('POST', '/saved-filter', { token: alice, body: { resource: 'nope', name: 'x', filter: {}, visibility: 'public' } });
    expect(unknownResource.body.resCode).toBe('1004');
    const missing = await server.call('POST', '/saved-filter', { token: alice, body: { resource: 'user', filter: {}, visibility: 'public' } });
    expect(missing.body.resCode).toBe('1001');
    const badType = await server.call('POST', '/saved-filter', { token: alice, body: { resource: 'user', name: 'x', filter: 'a', visibility: 'public' } });
    expect(badType.body.resCode).toBe('1003');
  });
});
