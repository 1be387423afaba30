// Service › events: the read-only alarm event list derived from resources/event.ts, with its
// filters (fleet with sub-fleets, machine, code, category, severity, open, raised between), sorting,
// export, permissions and license-account scoping.
import { beforeAll, expect, it } from 'vitest';
import { accountNamed } from './fleetHarness';
import { describeFleetOneBackend } from './fleetSuite';
import { addEvent, buildWorld, HOUR, MINUTE, type EventsWorld } from './eventsHarness';

const DOOR = 'am_code_PK_17'; // door, error
const BIN = 'am_code_PK_5'; // bin, error
const OCTOPUS = 'am_code_PK_48'; // paymentReader, error
const PAPER = 'am_code_PK_8'; // printer, info

describeFleetOneBackend('events list', (context) => {
  const now = Date.now();
  const world = {} as EventsWorld;
  const ids = { e1: 0, e2: 0, e3: 0, e4: 0, foreign: 0 };
  const page = async (filters: Record<string, unknown> = {}, token = context.token) =>
    context.server.call('POST', '/event/page', { token, body: { pageNum: 1, pageSize: 50, ...filters } });
  const listed = async (filters: Record<string, unknown> = {}) => {
    const answer = await page(filters);
    expect(answer.body.resCode, answer.body.resMsg).toBe('00000');
    return (answer.body.resData.list as Array<{ id: number }>).map((row) => row.id);
  };

  beforeAll(async () => {
    const { db } = context.server;
    const other = await accountNamed(context.server, 'Events elsewhere');
    Object.assign(world, await buildWorld(db, context.accountId, other, 'EV'));
    const { m1, m2, m3, x1 } = world.machines;
    ids.e1 = await addEvent(db, context.accountId, m1, DOOR, new Date(now - 3 * HOUR), new Date(now - 2 * HOUR), 'front door');
    ids.e2 = await addEvent(db, context.accountId, m2, BIN, new Date(now - HOUR));
    ids.e3 = await addEvent(db, context.accountId, m3, OCTOPUS, new Date(now - 30 * MINUTE));
    ids.e4 = await addEvent(db, context.accountId, m3, PAPER, new Date(now - 5 * HOUR), new Date(now - 4 * HOUR - 30 * MINUTE));
    ids.foreign = await addEvent(db, other, x1, DOOR, new Date(now - 10 * MINUTE));
  });

  it("lists the account's events newest first, with the machine, code, duration and open flag", async () => {
    const answer = await page();
    expect(answer.body.resData.total).toBe(4);
    const list = answer.body.resData.list;
    expect(list.map((row: { id: number }) => row.id)).toEqual([ids.e3, ids.e2, ids.e1, ids.e4]);
    expect(list[2]).toMatchObject({
      termNo: 'EVM1',
      rvmId: world.machines.m1,
      fleetId: world.fleets.north,
      code: DOOR,
      category: 'door',
      severity: 'error',
      duration: 3600,
      open: false,
      detail: 'front door',
      raisedTime: new Date(now - 3 * HOUR).toISOString(),
      clearedTime: new Date(now - 2 * HOUR).toISOString(),
    });
    // an open alarm's duration runs until now
    expect(list[1]).toMatchObject({ open: true, clearedTime: null });
    expect(list[1].duration).toBeGreaterThanOrEqual(3600);
  });

  it('filters by alarm code, category and severity', async () => {
    expect(await listed({ code: [DOOR] })).toEqual([ids.e1]); // not the other account's door alarm
    expect(await listed({ code: [DOOR, BIN] })).toEqual([ids.e2, ids.e1]);
    expect(await listed({ category: 'paymentReader' })).toEqual([ids.e3]);
    expect(await listed({ severity: 'info' })).toEqual([ids.e4]);
  });

  it('filters by fleet including its sub-fleets, and by machine', async () => {
    expect(await listed({ fleetId: [world.fleets.north] })).toEqual([ids.e2, ids.e1]);
    expect(await listed({ fleetId: [world.fleets.northEast] })).toEqual([ids.e2]);
    expect(await listed({ fleetId: [world.fleets.south] })).toEqual([ids.e3, ids.e4]);
    expect(await listed({ fleetId: [world.fleets.other] })).toEqual([]);
    expect(await listed({ rvmId: world.machines.m3 })).toEqual([ids.e3, ids.e4]);
    expect(await listed({ rvmId: world.machines.x1 })).toEqual([]);
  });

  it('filters open (or cleared) alarms and a raised time range', async () => {
    expect(await listed({ open: true })).toEqual([ids.e3, ids.e2]);
    expect(await listed({ open: false })).toEqual([ids.e1, ids.e4]);
    const at = (ms: number) => new Date(now - ms).toISOString();
    expect(await listed({ raisedFrom: at(90 * MINUTE) })).toEqual([ids.e3, ids.e2]);
    expect(await listed({ raisedTo: at(90 * MINUTE) })).toEqual([ids.e1, ids.e4]);
    expect(await listed({ raisedFrom: at(4 * HOUR), raisedTo: at(45 * MINUTE) })).toEqual([ids.e2, ids.e1]);
    expect((await page({ raisedFrom: 'yesterday' })).body.resCode).toBe('1003');
  });

  it('sorts by machine number and duration', async () => {
    expect(await listed({ sort: 'termNo', order: 'ASC', open: false })).toEqual([ids.e1, ids.e4]);
    expect(await listed({ sort: 'duration', order: 'ASC', open: false })).toEqual([ids.e4, ids.e1]);
  });

  it("shows one event of the account; another account's answers 2003", async () => {
    expect((await context.server.call('GET', `/event/${ids.e1}`, { token: context.token })).body.resData).toMatchObject({ id: ids.e1, termNo: 'EVM1' });
    expect((await context.server.call('GET', `/event/${ids.foreign}`, { token: context.token })).body.resCode).toBe('2003');
  });

  it('is read-only: no create, update or delete route', async () => {
    for (const [method, path] of [
      ['POST', '/event'],
      ['PUT', '/event'],
      ['DELETE', `/event?id=${ids.e1}`],
      ['POST', '/event/batchDelete'],
    ] as const) {
      expect((await context.server.call(method, path, { token: context.token, body: method === 'DELETE' ? undefined : {} })).body.resCode).toBe('4004');
    }
  });

  it("exports the filtered list with the alarm text, labels and duration in the caller's language", async () => {
    const csv = async (lang: string) => {
      const answer = await context.server.call('POST', '/event/export', { token: context.token, lang, body: { format: 'csv', code: [DOOR], utcOffsetMinutes: 0 } });
      expect(answer.status).toBe(200);
      return answer.raw.body.split('\r\n');
    };
    const [header, row, end] = await csv('en');
    expect(header).toBe('\uFEFFRVM number,Alarm,Category,Severity,Raised,Cleared,Duration,Detail');
    expect(row).toMatch(/^EVM1,am_code_PK_17 – .+,Door,Error,\d{4}-\d\d-\d\d \d\d:\d\d:\d\d,\d{4}-.+,1:00:00,front door$/);
    expect(end).toBe('');
    const [zhHeader, zhRow] = await csv('zh');
    expect(zhHeader).toContain('持续时间');
    expect(zhRow).toContain('错误');
  });

  it('needs event:page to list (4003) and event:export to export', async () => {
    const admin = context.token;
    await context.server.createUser({ name: 'evnone' }, admin);
    const none = await context.server.login('evnone', 'Passw0rd!');
    expect((await page({}, none)).body.resCode).toBe('4003');
    expect((await page({}, none)).status).toBe(403);

    const role = await context.server.call('POST', '/role', { token: admin, body: { name: 'event viewer', permissions: [60201] } });
    expect(role.body.resCode, role.body.resMsg).toBe('00000');
    await context.server.createUser({ name: 'evview', roles: [role.body.resData.id] }, admin);
    const viewer = await context.server.login('evview', 'Passw0rd!');
    expect((await page({}, viewer)).body.resData.total).toBe(4);
    expect((await context.server.call('POST', '/event/export', { token: viewer, body: { format: 'csv' } })).body.resCode).toBe('4003');
  });
});
