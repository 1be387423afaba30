import { and, count, desc, eq, gte, isNull } from 'drizzle-orm';
import { expect, it } from 'vitest';
import { translate } from '../../i18n';
import { PROFILE_FIELDS } from '../../resources/machine';
import { rvm } from '../../server/db/schema/fleet';
import { consumerSession, rvmEvent, serviceSession } from '../../server/db/schema/fleetActivity';
import { accountNamed, seedSmallFleet } from './fleetHarness';
import { describeFleet, type FleetContext } from './fleetSuite';

const HOUR = 3_600_000;
const state: { busy: number; foreign: number; foreignSession: number; from: string; to: string } = { busy: 0, foreign: 0, foreignSession: 0, from: '', to: '' };

const setup = async ({ server, accountId }: FleetContext) => {
  const now = Math.floor(Date.now() / HOUR) * HOUR;
  await seedSmallFleet(server, accountId, { now });
  const other = await accountNamed(server, 'Other operator');
  await seedSmallFleet(server, other, { now });
  const [busy] = await server.db
    .select({ id: consumerSession.rvmId, sessions: count() })
    .from(consumerSession)
    .where(eq(consumerSession.licenseAccountId, accountId))
    .groupBy(consumerSession.rvmId)
    .orderBy(desc(count()))
    .limit(1);
  const [foreign] = await server.db
    .select({ id: consumerSession.id, rvmId: consumerSession.rvmId })
    .from(consumerSession)
    .where(eq(consumerSession.licenseAccountId, other))
    .limit(1);
  Object.assign(state, { busy: busy.id, foreign: foreign.rvmId, foreignSession: foreign.id, from: new Date(now - 5 * 24 * HOUR).toISOString(), to: new Date(now).toISOString() });
};

describeFleet(
  'machine page',
  (context) => {
    const call = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', path: string, body?: unknown, token = context.token) => context.server.call(method, path, { token, body });
    const range = () => ({ id: state.busy, from: state.from, to: state.to });

    it("answers 6001 for an unknown machine and for another license account's machine, on every tab", async () => {
      for (const id of [999_999, state.foreign]) {
        const answers = await Promise.all([
          call('GET', `/rvmpage/overview?id=${id}`),
          call('GET', `/rvmpage/profile?id=${id}`),
          call('PUT', '/rvmpage/profile', { id, note: 'x' }),
          call('POST', '/rvmpage/statusHistory', { id }),
          call('POST', '/rvmpage/onlineOfflineHistory', { id }),
          call('POST', '/rvmpage/serviceSessions', { id }),
          call('POST', '/rvmpage/eventHistory', { id }),
          call('POST', '/rvmpage/consumerSessions', { id }),
          // The generic machine routes answer the declaration's notFoundCode too.
          call('GET', `/rvm/${id}`),
          call('PUT', '/rvm', { id, note: 'x' }),
          call('DELETE', `/rvm?id=${id}`),
        ]);
        for (const answer of answers) expect(answer.body).toMatchObject({ resCode: '6001', resMsg: 'The RVM does not exist' });
        expect(answers[0].status).toBe(404);
      }
      expect((await call('GET', `/rvmpage/consumerSessionDetails?id=${state.foreignSession}`)).body.resCode).toBe('2003');
    });

    it('Overview: identity, bins, today, open alarms and last events', async () => {
      // One open and one cleared alarm on the machine, like a seeded one: open alarms must list the first only.
      const [sample] = await context.server.db.select().from(rvmEvent).where(eq(rvmEvent.licenseAccountId, context.accountId)).limit(1);
      const alarm = { licenseAccountId: context.accountId, rvmId: state.busy, code: sample.code, category: sample.category, severity: sample.severity };
      const [open] = await context.server.db
        .insert(rvmEvent)
        .values({ ...alarm, raisedTime: new Date(Date.now() - 2 * HOUR), clearedTime: null, detail: 'overview open' })
        .returning();
      const [cleared] = await context.server.db
        .insert(rvmEvent)
        .values({ ...alarm, raisedTime: new Date(Date.now() - 3 * HOUR), clearedTime: new Date(Date.now() - HOUR), detail: 'overview cleared' })
        .returning();
      const dayStart = new Date(Date.now() - 24 * HOUR);
      const answer = await call('GET', `/rvmpage/overview?id=${state.busy}&dayStart=${encodeURIComponent(dayStart.toISOString())}`);
      expect(answer.body.resCode).toBe('00000');
      const { machine, bins, today, openAlarms, lastEvents } = answer.body.resData;
      expect(machine).toMatchObject({ id: state.busy, termNo: expect.stringMatching(/^RVM\d{5}$/) });
      expect(machine.fleetPath.map((node: { level: number }) => node.level)).toEqual([1, 2]);
      expect(bins.length).toBeGreaterThan(0);
      for (const bin of bins) expect(['ok', 'almostFull', 'full']).toContain(bin.state);
      const [{ sessions }] = await context.server.db
        .select({ sessions: count() })
        .from(consumerSession)
        .where(and(eq(consumerSession.rvmId, state.busy), gte(consumerSession.startTime, dayStart)));
      expect(today.sessions).toBe(sessions);
      expect(openAlarms.map((event: { id: number }) => Number(event.id))).toContain(Number(open.id)); // not an .every over nothing
      expect(openAlarms.map((event: { id: number }) => Number(event.id))).not.toContain(Number(cleared.id));
      expect(openAlarms.every((event: { clearedTime: string | null }) => event.clearedTime === null)).toBe(true);
      expect(lastEvents.length).toBeLessThanOrEqual(10);
      const times = lastEvents.map((event: { raisedTime: string }) => event.raisedTime);
      expect([...times].sort().reverse()).toEqual(times);
    });

    it('ProfileSetting: reads and saves the profile, refusing validation rule violations with nothing changed', async () => {
      const read = await call('GET', `/rvmpage/profile?id=${state.busy}`);
      expect(read.body.resCode).toBe('00000');
      for (const field of PROFILE_FIELDS) expect(read.body.resData).toHaveProperty(field);
      const before = (await context.server.db.select().from(rvm).where(eq(rvm.id, state.busy)))[0];
      const refusals = [
        [{ binFullHeight: (before.binEmptyHeight ?? 100) + 1 }, '1004', 'binEmptyHeight', 'fleet.validation.binEmptyAboveFull'],
        [{ binEmptyHeight: 40, binFullHeight: 40 }, '1004', 'binEmptyHeight', 'fleet.validation.binEmptyHeight'],
        [{ binAlmostFull: 100, binAlreadyFull: 90 }, '1004', 'binAlmostFull', 'fleet.validation.almostFullNotAboveFull'],
        [{ binAlmostFull: (before.binAlreadyFull ?? 95) + 1 }, '1004', 'binAlmostFull', 'fleet.validation.almostFullNotAboveFull'],
        [{ onTime: '22:00', offTime: '06:00' }, '1004', 'offTime', 'validation.endAfterStart'],
        [{ offTime: '00:30' }, '1004', 'offTime', 'validation.endAfterStart'],
        [{ binEmptyHeight: 150 }, '1004', 'binEmptyHeight', 'validation.max'],
        [{ binFullHeight: 10 }, '1004', 'binFullHeight', 'validation.min'],
        [{ binFullHeight: 20.5 }, '1003', 'binFullHeight', 'validation.integer'],
        [{ onTime: '7:00' }, '1004', 'onTime', 'fleet.validation.timeOfDay'],
      ] as const;
      for (const [change, code, field, message] of refusals) {
        const answer = await call('PUT', '/rvmpage/profile', { id: state.busy, address: 'Changed address', ...change });
        expect(answer.body.resCode, JSON.stringify(change)).toBe(code);
        const expected = message === 'fleet.validation.binEmptyHeight' ? 'fleet.validation.binEmptyAboveFull' : message;
        expect(answer.body.resData.issues, JSON.stringify(change)).toContainEqual({ field, message: translate('en', expected, { min: 11, max: 149 }) });
      }
      expect((await context.server.db.select().from(rvm).where(eq(rvm.id, state.busy)))[0]).toEqual(before);

      const saved = await call('PUT', '/rvmpage/profile', { id: state.busy, address: 'Shop 3, 1 Nathan Road', binEmptyHeight: 125, binFullHeight: 25, offTime: '23:30' });
      expect(saved.body.resCode).toBe('00000');
      expect(saved.body.resData).toMatchObject({ address: 'Shop 3, 1 Nathan Road', binEmptyHeight: 125, binFullHeight: 25, offTime: '23:30' });
      expect((await call('PUT', '/rvmpage/profile', { id: state.busy, currentSts: 'Up' })).body.resCode).toBe('1004');
    });

    it('StatusHistory and OnlineOfflineHistory: intervals, paging and a gap-free timeline', async () => {
      for (const [path, key] of [
        ['/rvmpage/statusHistory', 'status'],
        ['/rvmpage/onlineOfflineHistory', 'online'],
      ] as const) {
        const answer = await call('POST', path, { ...range(), pageNum: 1, pageSize: 2 });
        expect(answer.body.resCode).toBe('00000');
        const data = answer.body.resData;
        expect(data.list.length).toBeLessThanOrEqual(2);
        expect(data.total).toBeGreaterThanOrEqual(data.list.length);
        expect(data.list[0]).toHaveProperty(key);
        expect(data.timeline[0].startTime).toBe(state.from);
        for (let i = 1; i < data.timeline.length; i++) expect(data.timeline[i].startTime).toBe(data.timeline[i - 1].endTime);
        const covered = Object.values(data.secondsBy as Record<string, number>).reduce((sum, seconds) => sum + seconds, 0);
        expect(Math.abs(covered - (Date.parse(data.timeline.at(-1).endTime) - Date.parse(state.from)) / 1000)).toBeLessThan(2);
      }
      const up = await call('POST', '/rvmpage/statusHistory', { ...range(), status: 'Up' });
      expect(up.body.resData.list.length).toBeGreaterThan(0);
      expect(up.body.resData.list.every((row: { status: string }) => row.status === 'Up')).toBe(true);
      expect((await call('POST', '/rvmpage/statusHistory', { ...range(), from: state.to, to: state.from })).body.resCode).toBe('1004');
    });

    it('ServiceSessions and EventHistory: in the range, newest first, filterable', async () => {
      const service = await call('POST', '/rvmpage/serviceSessions', { ...range(), pageSize: 100 });
      const [{ visits }] = await context.server.db
        .select({ visits: count() })
        .from(serviceSession)
        .where(and(eq(serviceSession.rvmId, state.busy), gte(serviceSession.startTime, new Date(state.from))));
      expect(service.body.resData.total).toBe(visits);
      expect(Object.values(service.body.resData.byOutcome as Record<string, number>).reduce((a, b) => a + b, 0)).toBe(visits);

      const events = await call('POST', '/rvmpage/eventHistory', { ...range(), pageSize: 500 });
      const [{ raised }] = await context.server.db
        .select({ raised: count() })
        .from(rvmEvent)
        .where(and(eq(rvmEvent.rvmId, state.busy), gte(rvmEvent.raisedTime, new Date(state.from))));
      expect(events.body.resData.total).toBe(raised);
      const open = await call('POST', '/rvmpage/eventHistory', { ...range(), openOnly: true });
      const [{ stillOpen }] = await context.server.db
        .select({ stillOpen: count() })
        .from(rvmEvent)
        .where(and(eq(rvmEvent.rvmId, state.busy), gte(rvmEvent.raisedTime, new Date(state.from)), isNull(rvmEvent.clearedTime)));
      expect(open.body.resData.total).toBe(stillOpen);
    });

    it('ConsumerSessions and their details with reject reasons and pictures', async () => {
      const page = await call('POST', '/rvmpage/consumerSessions', { ...range(), pageSize: 5 });
      expect(page.body.resCode).toBe('00000');
      const { list, total } = page.body.resData;
      expect(list).toHaveLength(5);
      expect(total).toBeGreaterThan(5);
      const starts = list.map((row: { startTime: string }) => row.startTime);
      expect([...starts].sort().reverse()).toEqual(starts);
      const byRefund = await call('POST', '/rvmpage/consumerSessions', { ...range(), sort: 'totalRefund', order: 'DESC', pageSize: 500 });
      const refunds = byRefund.body.resData.list.map((row: { totalRefund: number }) => row.totalRefund);
      expect([...refunds].sort((a, b) => b - a)).toEqual(refunds);
      const octopus = await call('POST', '/rvmpage/consumerSessions', { ...range(), payoutMethod: 'octopus', pageSize: 500 });
      expect(octopus.body.resData.list.length).toBeGreaterThan(0);
      expect(octopus.body.resData.list.every((row: { payoutMethod: string }) => row.payoutMethod === 'octopus')).toBe(true);

      const withRejects = byRefund.body.resData.list.find((row: { rejectedCount: number }) => row.rejectedCount > 0) ?? list[0];
      const details = await call('GET', `/rvmpage/consumerSessionDetails?id=${withRejects.id}`);
      expect(details.body.resCode).toBe('00000');
      const { session, items } = details.body.resData;
      expect(session).toMatchObject({ id: withRejects.id, rvmId: state.busy, termNo: expect.any(String) });
      expect(items).toHaveLength(session.itemCount);
      expect(items.filter((item: { accepted: boolean }) => !item.accepted)).toHaveLength(session.rejectedCount);
      const picture = await context.server.call('GET', items[0].pictureUrl.replace('/test-api', ''));
      expect(picture.status).toBe(200);
      expect(picture.raw.headers['content-type']).toContain('image/svg+xml');
      expect(picture.raw.body).toContain('<svg');
    });

    it('needs the tab permissions (4003 for a user without them)', async () => {
      await context.server.createUser({ name: 'noperm', password: 'Passw0rd!' }, context.token);
      const token = await context.server.login('noperm', 'Passw0rd!');
      expect((await call('GET', `/rvmpage/overview?id=${state.busy}`, undefined, token)).body.resCode).toBe('4003');
      expect((await call('POST', '/rvm/page', { pageNum: 1, pageSize: 10 }, token)).body.resCode).toBe('4003');
    });
  },
  setup,
);
