// The performance screen's calls (docs/performance.md) on a small fleet of known items and events sent
// through the gateway's write path: exact MCBE per day, fleet and machine, the errors ranking by count
// and by downtime; no errors (MCBE null); an event raised before the range and one spanning its end;
// the roll-up answers equal the raw scan's (also at UTC+5:30); a machine moving fleet or deleted moves
// its share; the three-month refusal (9340), 4003, and another account's fleet and machine. PGlite and PostgreSQL.
import { eq } from 'drizzle-orm';
import { expect, it } from 'vitest';
import { fleet, rvm } from '../../server/db/schema/fleet';
import { sysPermission, sysRole, sysRolePermission, sysUserRole } from '../../server/db/schema/system';
import { ingestBatch, type IncomingMessage } from '../../server/gateway/ingest';
import { computeErrors, computeMcbe } from '../../server/performance/compute';
import { earliestDayOf, resolveRange } from '../../server/performance/range';
import { resolveScope } from '../../server/performance/scope';
import { rawSource, rollupSource } from '../../server/performance/sources';
import { dayLabel } from '../../server/lib/localDays';
import { accountNamed } from './fleetHarness';
import { describeFleet, type FleetContext } from './fleetSuite';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
/** Hong Kong: local days start at 16:00 UTC. */
const OFFSET = 480;

const state = {
  today: 0,
  ids: new Map<string, number>(),
  fleets: new Map<string, number>(),
  other: { account: 0, fleet: 0, machine: 0 },
  seq: 0,
};

const localDay = (time: number) => Math.floor((time + OFFSET * MINUTE) / DAY);
/** An instant at `hours` local time on local day `day`. */
const localAt = (day: number, hours: number) => day * DAY - OFFSET * MINUTE + hours * HOUR;
const d1 = () => state.today - 10;
const d2 = () => state.today - 9;

const message = (account: number, machine: string, kind: string, ts: number, body: Record<string, unknown>): IncomingMessage => {
  const id = `perf-${++state.seq}`;
  return {
    identity: { rvmId: state.ids.get(machine)!, licenseAccountId: account, serialNumber: `SN-${machine}` },
    kind,
    receivedAt: new Date(),
    payload: JSON.stringify({ v: 1, id, ts: new Date(ts).toISOString(), ...body }),
  };
};

const session = (account: number, machine: string, start: number, items: number): IncomingMessage => {
  const id = `perf-s-${++state.seq}`;
  return message(account, machine, 'session', start + MINUTE, {
    sessionId: id,
    startTime: new Date(start).toISOString(),
    endTime: new Date(start + 30_000).toISOString(),
    payoutMethod: 'octopus',
    totalRefund: items / 10,
    items: Array.from({ length: items }, (_, index) => ({ seq: index + 1, itemType: 'can', refund: 0.1 })),
  });
};

const alarm = (account: number, machine: string, code: number, state_: 'raised' | 'cleared', at: number) =>
  message(account, machine, 'alarm', at, { code: `am_code_PK_${code}`, state: state_ });

const ingest = async (context: FleetContext, messages: IncomingMessage[]) => {
  // One batch per message in time order: alarms clear only what an earlier batch raised.
  for (const item of messages) {
    const [outcome] = await ingestBatch(context.server.db, [item]);
    expect(outcome.result, JSON.stringify(outcome)).toBe('processed');
  }
};

const setup = async (context: FleetContext) => {
  const { server, accountId } = context;
  state.today = localDay(Date.now());
  const addFleet = async (account: number, name: string, parentId: number | null) => {
    const [row] = await server.db
      .insert(fleet)
      .values({ licenseAccountId: account, name, parentId, level: parentId ? 2 : 1 })
      .returning({ id: fleet.id });
    state.fleets.set(name, row.id);
    return row.id;
  };
  const addMachine = async (account: number, termNo: string, fleetName: string) => {
    const [row] = await server.db
      .insert(rvm)
      .values({ licenseAccountId: account, fleetId: state.fleets.get(fleetName)!, termNo, serialNumber: `SN-${termNo}`, termType: 'H30', currentSts: 'Up', online: true })
      .returning({ id: rvm.id });
    state.ids.set(termNo, row.id);
    return row.id;
  };
  const region = await addFleet(accountId, 'Region', null);
  await addFleet(accountId, 'District A', region);
  await addFleet(accountId, 'District B', region);
  await addFleet(accountId, 'Solo', null);
  await addMachine(accountId, 'M1', 'District A');
  await addMachine(accountId, 'M2', 'District B');
  await addMachine(accountId, 'M3', 'Region');
  await addMachine(accountId, 'M4', 'Solo');
  // Another license account with the same days full of items and errors: none of it may count.
  state.other.account = await accountNamed(server, 'Performance neighbour');
  state.other.fleet = await addFleet(state.other.account, 'Elsewhere', null);
  state.other.machine = await addMachine(state.other.account, 'X1', 'Elsewhere');

  const a = accountId;
  await ingest(context, [
    // Before the range: an error raised the evening before D1 (cleared on D1) counts nowhere in [D1, D2].
    alarm(a, 'M1', 22, 'raised', localAt(d1() - 1, 23)),
    alarm(a, 'M1', 22, 'cleared', localAt(d1(), 1)),
    session(a, 'M2', localAt(d1(), 0.25), 12), // 00:15 local on D1: in D1 (16:15 UTC the day before)
    session(a, 'M1', localAt(d1(), 9), 30),
    session(a, 'M4', localAt(d1(), 11), 10),
    alarm(a, 'M1', 17, 'raised', localAt(d1(), 10)), // door, error, blocking: open 2 h
    alarm(a, 'M1', 20, 'raised', localAt(d1(), 10)), // a warning: no error
    alarm(a, 'M1', 17, 'cleared', localAt(d1(), 12)),
    session(a, 'M1', localAt(d2(), 8), 20),
    alarm(a, 'M1', 7, 'raised', localAt(d2(), 9)), // printer out of paper, error, not blocking: open 30 min
    alarm(a, 'M1', 7, 'cleared', localAt(d2(), 9.5)),
    session(a, 'M3', localAt(d2(), 14), 8),
    alarm(a, 'M4', 44, 'raised', localAt(d2(), 20)), // conveyor, error, blocking: still open
    alarm(a, 'M3', 17, 'raised', localAt(d2(), 23.5)), // spans the range's end: counted with its whole 2 h
    alarm(a, 'M3', 17, 'cleared', localAt(d2() + 1, 1.5)),
    session(a, 'M2', localAt(d2() + 1, 0.5), 99), // 00:30 on the day after D2: outside
    session(state.other.account, 'X1', localAt(d1(), 9), 500),
    alarm(state.other.account, 'X1', 17, 'raised', localAt(d1(), 9)),
    alarm(state.other.account, 'X1', 44, 'raised', localAt(d2(), 9)),
  ]);
};

const body = (extra: Record<string, unknown> = {}) => ({ from: dayLabel(d1()), to: dayLabel(d2()), utcOffsetMinutes: OFFSET, ...extra });

describeFleet(
  'performance',
  (context) => {
    const post = (path: string, payload: Record<string, unknown>, token = context.token, lang?: string) => context.server.call('POST', path, { token, body: payload, lang });

    it('MCBE of the whole account: items ÷ error events per local day, and in total', async () => {
      const answer = await post('/performance/mcbe', body());
      expect(answer.body.resCode, answer.body.resMsg).toBe('00000');
      const data = answer.body.resData;
      expect(data.granularity).toBe('day');
      // D1: 12 + 30 + 10 items, one error (PK_17); D2: 20 + 8 items, three errors (PK_7, PK_44 open, PK_17 of M3).
      expect(data.series).toEqual([
        { start: dayLabel(d1()), end: dayLabel(d1()), items: 52, errors: 1, mcbe: 52 },
        { start: dayLabel(d2()), end: dayLabel(d2()), items: 28, errors: 3, mcbe: 28 / 3 },
      ]);
      expect(data.total).toEqual({ items: 80, errors: 4, mcbe: 20 });
      expect(data.fleets).toEqual([
        { id: state.fleets.get('Region'), name: 'Region', own: false, items: 70, errors: 3, mcbe: 70 / 3 },
        { id: state.fleets.get('Solo'), name: 'Solo', own: false, items: 10, errors: 1, mcbe: 10 },
      ]);
    });

    it('a fleet counts its sub-fleets; a fleet or machine without errors has no MCBE (null)', async () => {
      const region = (await post('/performance/mcbe', body({ fleetId: state.fleets.get('Region') }))).body.resData;
      expect(region.total).toEqual({ items: 70, errors: 3, mcbe: 70 / 3 });
      expect(region.fleet).toEqual({ id: state.fleets.get('Region'), name: 'Region' });
      expect(region.fleets).toEqual([
        { id: state.fleets.get('Region'), name: 'Region', own: true, items: 8, errors: 1, mcbe: 8 },
        { id: state.fleets.get('District A'), name: 'District A', own: false, items: 50, errors: 2, mcbe: 25 },
        { id: state.fleets.get('District B'), name: 'District B', own: false, items: 12, errors: 0, mcbe: null },
      ]);
      const quiet = (await post('/performance/mcbe', body({ fleetId: state.fleets.get('District B') }))).body.resData;
      expect(quiet.total).toEqual({ items: 12, errors: 0, mcbe: null });
      const machine = (await post('/performance/mcbe', body({ rvmId: state.ids.get('M1') }))).body.resData;
      expect(machine.machine).toEqual({ id: state.ids.get('M1'), termNo: 'M1' });
      expect(machine.total).toEqual({ items: 50, errors: 2, mcbe: 25 });
      expect(machine.fleets).toEqual([]);
    });

    it("ranks error codes by count and by downtime caused (blocking alarms' open time), with their texts", async () => {
      const before = Date.now();
      const byCount = await post('/performance/errors', body());
      const after = Date.now();
      expect(byCount.body.resCode, byCount.body.resMsg).toBe('00000');
      const list = byCount.body.resData.list as Array<Record<string, unknown>>;
      expect(list.map((row) => [row.code, row.count])).toEqual([
        ['am_code_PK_17', 2],
        ['am_code_PK_44', 1],
        ['am_code_PK_7', 1],
      ]);
      expect(list[0]).toMatchObject({ text: 'Front door open', blocking: true, cleared: 2, openSeconds: 4 * 3600, downtimeSeconds: 4 * 3600 });
      expect(list[2]).toMatchObject({ blocking: false, cleared: 1, openSeconds: 1800, downtimeSeconds: 0 });
      // Still open: open until now.
      const raised = localAt(d2(), 20);
      expect(list[1].cleared).toBe(0);
      expect(list[1].downtimeSeconds as number).toBeGreaterThanOrEqual(Math.round((before - raised) / 1000) - 1);
      expect(list[1].downtimeSeconds as number).toBeLessThanOrEqual(Math.round((after - raised) / 1000) + 1);
      const byDowntime = await post('/performance/errors', body({ sort: 'downtime' }), context.token, 'zh');
      expect(byDowntime.body.resData.list.map((row: { code: string }) => row.code)).toEqual(['am_code_PK_44', 'am_code_PK_17', 'am_code_PK_7']);
      expect(byDowntime.body.resData.list[1].text).toBe('前门打开');
      const quiet = await post('/performance/errors', body({ fleetId: state.fleets.get('District B') }));
      expect(quiet.body.resData.list).toEqual([]);
    });

    it('the roll-ups answer what the raw scan of sessions and events answers (every scope, also at UTC+5:30 and per week)', async () => {
      const account = context.accountId;
      for (const offset of [OFFSET, 330, 0]) {
        for (const request of [{}, { fleetId: state.fleets.get('Region') }, { fleetId: state.fleets.get('District A') }, { rvmId: state.ids.get('M3') }]) {
          for (const extra of [{}, { from: dayLabel(state.today - 40), granularity: 'week' as const }]) {
            const resolved = resolveRange({ ...body(), ...extra }, offset);
            const scope = await resolveScope(context.server.db, account, request);
            const label = JSON.stringify({ offset, request, extra });
            expect(await computeMcbe(context.server.db, rollupSource, scope, resolved), label).toEqual(await computeMcbe(context.server.db, rawSource, scope, resolved));
            const errors = (source: typeof rawSource) => computeErrors(context.server.db, source, scope, resolved, 'count', 'en');
            expect(await errors(rollupSource), label).toEqual(await errors(rawSource));
          }
        }
      }
    });

    it('weeks: a range longer than 31 days is charted per ISO week, the first and last clipped to the range', async () => {
      const from = state.today - 40;
      const answer = (await post('/performance/mcbe', body({ from: dayLabel(from), to: dayLabel(state.today) }))).body.resData;
      expect(answer.granularity).toBe('week');
      expect(answer.series[0].start).toBe(dayLabel(from));
      expect(answer.series.at(-1).end).toBe(dayLabel(state.today));
      for (const point of answer.series.slice(1)) expect(new Date(`${point.start}T00:00:00Z`).getUTCDay()).toBe(1);
      // Now also the day after D2 (99 items) and the evening before D1 (an error).
      expect(answer.total).toEqual({ items: 80 + 99, errors: 5, mcbe: (80 + 99) / 5 });
    });

    it('refuses a range older than three months (9340, both languages), a day after today and an end before the start', async () => {
      const earliest = earliestDayOf(state.today);
      expect((await post('/performance/mcbe', body({ from: dayLabel(earliest) }))).body.resCode).toBe('00000');
      const refused = await post('/performance/mcbe', body({ from: dayLabel(earliest - 1) }));
      expect([refused.status, refused.body.resCode]).toEqual([400, '9340']);
      expect(refused.body.resMsg).toContain('three months');
      expect(refused.body.resData).toEqual({ earliestDay: dayLabel(earliest), today: dayLabel(state.today) });
      const zh = await post('/performance/errors', body({ from: dayLabel(earliest - 30) }), context.token, 'zh');
      expect([zh.body.resCode, zh.body.resMsg]).toEqual(['9340', '仅提供最近三个月的性能数据：请选择更晚的开始日期']);
      expect((await post('/performance/mcbe', body({ to: dayLabel(state.today + 1) }))).body.resCode).toBe('1004');
      expect((await post('/performance/mcbe', body({ from: dayLabel(d2()), to: dayLabel(d1()) }))).body.resCode).toBe('1004');
      expect((await post('/performance/mcbe', body({ from: '2026-02-30' }))).body.resCode).toBe('1003');
      expect((await post('/performance/mcbe', body({ extra: 1 }))).body.resCode).toBe('1004');
      const options = await context.server.call('GET', `/performance/options?utcOffsetMinutes=${OFFSET}`, { token: context.token });
      expect(options.body.resData).toMatchObject({ today: dayLabel(state.today), earliestDay: dayLabel(earliest) });
    });

    it("sees only the caller's license account: another account's fleet 2003, machine 6001, none of its events", async () => {
      expect((await post('/performance/mcbe', body({ fleetId: state.other.fleet }))).body.resCode).toBe('2003');
      expect((await post('/performance/errors', body({ fleetId: state.other.fleet }))).body.resCode).toBe('2003');
      expect((await post('/performance/mcbe', body({ rvmId: state.other.machine }))).body.resCode).toBe('6001');
      expect((await post('/performance/errors', body({ rvmId: state.other.machine }))).body.resCode).toBe('6001');
      const machines = await context.server.call('GET', '/performance/machines?q=1', { token: context.token });
      expect(machines.body.resData.map((row: { termNo: string }) => row.termNo)).toEqual(['M1']);
      expect((await context.server.call('GET', `/performance/machines?fleetId=${state.other.fleet}`, { token: context.token })).body.resCode).toBe('2003');
      const options = await context.server.call('GET', '/performance/options', { token: context.token });
      expect(options.body.resData.fleets.map((row: { name: string }) => row.name)).not.toContain('Elsewhere');
    });

    it('needs the performance permission (4003); a role holding it may call', async () => {
      await context.server.createUser({ name: 'noperf' }, context.token);
      const token = await context.server.login('noperf', 'Passw0rd!');
      for (const [method, path] of [
        ['POST', '/performance/mcbe'],
        ['POST', '/performance/errors'],
        ['GET', '/performance/options'],
        ['GET', '/performance/machines'],
      ] as const) {
        const refused = await context.server.call(method, path, { token, body: method === 'POST' ? body() : undefined });
        expect([path, refused.status, refused.body.resCode]).toEqual([path, 403, '4003']);
      }
      const [permission] = await context.server.db.select({ id: sysPermission.id }).from(sysPermission).where(eq(sysPermission.identifier, 'service:performance'));
      const [role] = await context.server.db.insert(sysRole).values({ licenseAccountId: context.accountId, name: 'performance' }).returning({ id: sysRole.id });
      await context.server.db.insert(sysRolePermission).values({ roleId: role.id, permissionId: permission.id });
      const user = await context.server.createUser({ name: 'perf' }, context.token);
      await context.server.db.insert(sysUserRole).values({ userId: user, roleId: role.id });
      const allowed = await post('/performance/mcbe', body(), await context.server.login('perf', 'Passw0rd!'));
      expect(allowed.body.resData.total).toEqual({ items: 80, errors: 4, mcbe: 20 });
    });

    it('a machine moving to another fleet takes its items and errors along; a deleted machine takes them away', async () => {
      const region = () => post('/performance/mcbe', body({ fleetId: state.fleets.get('Region') }));
      const solo = () => post('/performance/mcbe', body({ fleetId: state.fleets.get('Solo') }));
      await context.server.db
        .update(rvm)
        .set({ fleetId: state.fleets.get('Solo')! })
        .where(eq(rvm.id, state.ids.get('M1')!));
      expect((await region()).body.resData.total).toEqual({ items: 20, errors: 1, mcbe: 20 });
      expect((await solo()).body.resData.total).toEqual({ items: 60, errors: 3, mcbe: 20 });
      const soloErrors = (await post('/performance/errors', body({ fleetId: state.fleets.get('Solo') }))).body.resData.list;
      expect(soloErrors.map((row: { code: string; count: number }) => [row.code, row.count])).toEqual([
        ['am_code_PK_44', 1],
        ['am_code_PK_17', 1],
        ['am_code_PK_7', 1],
      ]);
      await context.server.db
        .update(rvm)
        .set({ fleetId: state.fleets.get('District A')! })
        .where(eq(rvm.id, state.ids.get('M1')!));
      expect((await region()).body.resData.total).toEqual({ items: 70, errors: 3, mcbe: 70 / 3 });
      const deleted = await context.server.call('DELETE', `/rvm?id=${state.ids.get('M4')}`, { token: context.token });
      expect(deleted.body.resCode, deleted.body.resMsg).toBe('00000');
      expect((await solo()).body.resData.total).toEqual({ items: 0, errors: 0, mcbe: null });
      const account = (await post('/performance/mcbe', body())).body.resData.total;
      expect(account).toEqual({ items: 70, errors: 3, mcbe: 70 / 3 });
    });
  },
  setup,
);
