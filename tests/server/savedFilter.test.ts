// /saved-filter: personal and public filters, built-in ones read-only (5001), owners only.
import { beforeAll, expect, it } from 'vitest';
import { BARCODE } from './configuredTypesFixture';
import { describeOneBackend } from './helpers';

describeOneBackend('saved filters', (server) => {
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
    expect((await list(bob)).map((filter) => [filter.name, filter.mine])).toEqual([
      ['Enabled users', false],
      ['Shared', false],
    ]);
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

  it('without ?resource lists every visible filter; a change may move it to another resource, and a deleted one is gone', async () => {
    const created = await server.call('POST', '/saved-filter', { token: bob, body: { resource: 'user', name: 'Movable', filter: { nameLike: 'b' }, visibility: 'personal' } });
    const id = created.body.resData.id as number;
    const everything = (await server.call('GET', '/saved-filter', { token: bob })).body.resData as Array<{ id: number; resource: string; builtIn: boolean }>;
    expect(everything.some((filter) => filter.id === id)).toBe(true);
    expect(new Set(everything.filter((filter) => filter.builtIn).map((filter) => filter.resource))).toEqual(new Set(['user', 'machine']));
    // built-in first, then by name
    expect(everything.findIndex((filter) => !filter.builtIn)).toBe(everything.filter((filter) => filter.builtIn).length);

    expect((await server.call('PUT', '/saved-filter', { token: bob, body: { id, resource: 'nope' } })).body.resCode).toBe('1004');
    const moved = await server.call('PUT', '/saved-filter', { token: bob, body: { id, resource: 'role' } });
    expect(moved.body.resData).toEqual({
      id,
      resource: 'role',
      name: 'Movable',
      filter: { nameLike: 'b' },
      visibility: 'personal',
      builtIn: false,
      ownerId: expect.any(Number),
      mine: true,
    });
    expect((await list(bob, 'role')).map((filter) => filter.id)).toEqual([id]);
    expect((await list(bob)).map((filter) => filter.id)).not.toContain(id);

    expect((await server.call('DELETE', `/saved-filter?id=${id}`, { token: bob })).body.resCode).toBe('00000');
    expect(await list(bob, 'role')).toEqual([]);
    expect((await server.call('DELETE', `/saved-filter?id=${id}`, { token: bob })).body.resCode).toBe('2003');
  });

  it('accepts an active configured type as the resource, not a well-formed name of no type (1004)', async () => {
    const admin = await server.login();
    expect((await server.call('POST', '/resource-types', { token: admin, body: BARCODE })).body.resCode).toBe('00000');
    const save = (resource: string) => server.call('POST', '/saved-filter', { token: alice, body: { resource, name: 'Typed', filter: {}, visibility: 'personal' } });
    const saved = await save('barcode');
    expect([saved.body.resCode, saved.body.resData?.resource]).toEqual(['00000', 'barcode']);
    expect((await save('nosuchtype')).body.resCode).toBe('1004');
    expect((await server.call('PUT', '/saved-filter', { token: alice, body: { id: saved.body.resData.id, resource: 'nosuchtype' } })).body.resCode).toBe('1004');
  });

  it('validates the body', async () => {
    const unknownResource = await server.call('POST', '/saved-filter', { token: alice, body: { resource: 'nope', name: 'x', filter: {}, visibility: 'public' } });
    expect(unknownResource.body.resCode).toBe('1004');
    const missing = await server.call('POST', '/saved-filter', { token: alice, body: { resource: 'user', filter: {}, visibility: 'public' } });
    expect(missing.body.resCode).toBe('1001');
    const badType = await server.call('POST', '/saved-filter', { token: alice, body: { resource: 'user', name: 'x', filter: 'a', visibility: 'public' } });
    expect(badType.body.resCode).toBe('1003');
    // names: 1..40 characters, not only spaces
    const named = (name: string) => server.call('POST', '/saved-filter', { token: alice, body: { resource: 'user', name, filter: {}, visibility: 'personal' } });
    expect((await named('x'.repeat(41))).body.resCode).toBe('1002');
    expect((await named('')).body.resCode).toBe('1001'); // empty counts as missing
    expect((await named('   ')).body.resCode).toBe('1004');
    expect((await named('x'.repeat(40))).body.resCode).toBe('00000');
    const [forty] = (await list(alice)).filter((filter) => filter.name === 'x'.repeat(40)) as Array<{ id: number }>;
    expect((await server.call('PUT', '/saved-filter', { token: alice, body: { id: forty.id, name: 'y'.repeat(41) } })).body.resCode).toBe('1002');
    // a change names the filter and something to change; a deletion names the filter
    expect((await server.call('PUT', '/saved-filter', { token: alice, body: { name: 'no id', visibility: 'personal' } })).body.resCode).toBe('1001');
    expect((await server.call('PUT', '/saved-filter', { token: alice, body: { id: forty.id } })).body.resCode).toBe('1004');
    expect((await server.call('PUT', '/saved-filter', { token: alice, body: { id: forty.id, name: 'z', owner: 1 } })).body.resCode).toBe('1004');
    expect(
      (await server.call('POST', '/saved-filter', { token: alice, body: { resource: 'user', name: 'x', filter: {}, visibility: 'personal', builtIn: true } })).body.resCode,
    ).toBe('1004');
    expect((await server.call('DELETE', '/saved-filter', { token: alice })).body.resCode).toBe('1001');
  });

  it("seeds the dashboard cards as built-in machine filters, their times relative to now and the same as the cards'", async () => {
    const admin = await server.login();
    const before = Date.now();
    const filters = await list(alice, 'machine');
    const builtIn = Object.fromEntries(filters.filter((filter) => filter.builtIn).map((filter) => [filter.name, filter.filter as Record<string, unknown>]));
    expect(Object.keys(builtIn).sort()).toEqual(['Down', 'Down more than 1 hour', 'Full', 'Not used in 24 hours', 'Offline more than 1 week']);
    expect(builtIn.Down).toEqual({ currentSts: 'Down' });
    expect(builtIn.Full).toEqual({ full: true });
    const ago = (iso: unknown) => (before - Date.parse(String(iso))) / 3_600_000;
    expect(ago(builtIn['Down more than 1 hour'].downSince)).toBeCloseTo(1, 1);
    expect(ago(builtIn['Offline more than 1 week'].offlineSince)).toBeCloseTo(7 * 24, 1);
    expect(ago(builtIn['Not used in 24 hours'].notUsedSince)).toBeCloseTo(24, 1);
    // the dashboard cards' own filters: same names, same instants (give or take the calls' time)
    const dashboard = await server.call('GET', '/dashboard', { token: admin });
    const cards = Object.fromEntries((dashboard.body.resData.cards as Array<{ key: string; filter?: Record<string, string> }>).map((card) => [card.key, card.filter]));
    expect(Object.keys(cards.offlineOverWeek!)).toEqual(['offlineSince']);
    expect(Math.abs(Date.parse(cards.offlineOverWeek!.offlineSince) - Date.parse(String(builtIn['Offline more than 1 week'].offlineSince)))).toBeLessThan(60_000);
    expect(Math.abs(Date.parse(cards.downOverHour!.downSince) - Date.parse(String(builtIn['Down more than 1 hour'].downSince)))).toBeLessThan(60_000);
    expect(Math.abs(Date.parse(cards.notUsed!.notUsedSince) - Date.parse(String(builtIn['Not used in 24 hours'].notUsedSince)))).toBeLessThan(60_000);
    expect(cards.full).toEqual(builtIn.Full);
    // usable as they are: by the machine list and as the dashboard's scope; not changeable
    for (const filter of filters.filter((one) => one.builtIn) as Array<{ id: number; filter: Record<string, unknown> }>) {
      const page = await server.call('POST', '/rvm/page', { token: admin, body: { pageNum: 1, pageSize: 1, ...filter.filter } });
      expect(page.body.resCode, page.body.resMsg).toBe('00000');
      const scoped = await server.call('GET', `/dashboard?savedFilterId=${filter.id}`, { token: admin });
      expect(scoped.body.resCode, scoped.body.resMsg).toBe('00000');
      expect((await server.call('PUT', '/saved-filter', { token: admin, body: { id: filter.id, name: 'Mine now' } })).body.resCode).toBe('5001');
      expect((await server.call('DELETE', `/saved-filter?id=${filter.id}`, { token: admin })).body.resCode).toBe('5001');
    }
  });
});
