// GET /dashboard (docs/dashboard.md) on a small fleet built with the edge cases of every
// definition (docs/dashboard.md#card-definitions): each card has the expected value and its filter, sent to POST /rvm/page, lists exactly
// the same machines; consumer figures follow local days, months and the 4-week / 30-day / 7-day
// windows; a saved filter scopes everything; a new consumer session shows at once. PGlite and PostgreSQL.
import { eq, sql } from 'drizzle-orm';
import { expect, it } from 'vitest';
import { KNOWN_ALARMS } from '../../resources/fleetCatalogue';
import { fleet, rvm, rvmBin } from '../../server/db/schema/fleet';
import { rvmEvent } from '../../server/db/schema/fleetActivity';
import { quarantineMessage } from '../../server/db/schema/quarantine';
import { sysPermission, sysRole, sysRolePermission, sysUserRole } from '../../server/db/schema/system';
import { ingestBatch, type IncomingMessage } from '../../server/gateway/ingest';
import { AccountUsageBatch } from '../../server/dashboard/rollup';
import { rowsOf } from '../../server/db/client';
import { accountNamed, seedSmallFleet } from './fleetHarness';
import { describeFleet, type FleetContext } from './fleetSuite';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
/** Hong Kong: local days start at 16:00 UTC. */
const OFFSET = 480;

interface MachineSpec {
  termNo: string;
  termType?: string;
  softwareVersion?: string | null;
  currentSts?: 'Up' | 'Down' | 'Offline' | 'Sleep';
  statusAgo?: number;
  lastSessionAgo?: number | null;
  binAlreadyFull?: number | null;
  fills?: number[];
  sts?: 'active' | 'inactive';
  south?: boolean;
  /** Completed cleanings (start, ms ago); default one a day ago. */
  cleanings?: number[];
  abortedCleanings?: number[];
}

/** The fleet of the edge cases (one machine per case) plus ordinary ones. */
const MACHINES: MachineSpec[] = [
  { termNo: 'DOWN59', currentSts: 'Down', statusAgo: 59 * MINUTE },
  { termNo: 'DOWN61', currentSts: 'Down', statusAgo: 61 * MINUTE },
  { termNo: 'OFF6D23H', currentSts: 'Offline', statusAgo: 6 * DAY + 23 * HOUR },
  { termNo: 'OFF7D1H', currentSts: 'Offline', statusAgo: 7 * DAY + HOUR, lastSessionAgo: null },
  { termNo: 'REJ10', south: true },
  { termNo: 'REJ40' },
  { termNo: 'REJ11', south: true },
  { termNo: 'CLEANIN', cleanings: [7 * DAY - MINUTE] },
  { termNo: 'CLEANOUT', cleanings: [7 * DAY + MINUTE], abortedCleanings: [DAY] },
  { termNo: 'FULL95', binAlreadyFull: 95, fills: [40, 95] },
  { termNo: 'FULL94', binAlreadyFull: 95, fills: [94, 10] },
  { termNo: 'FULLNULL', binAlreadyFull: null, fills: [100] },
  { termNo: 'OLDSW', softwareVersion: '3.1.4' },
  { termNo: 'NOSW', softwareVersion: null },
  { termNo: 'T9A', termType: 'T9', softwareVersion: '5.0.1' },
  { termNo: 'T9B', termType: 'T9', softwareVersion: '5.1.0' },
  { termNo: 'QSERIAL' },
  { termNo: 'QTERMNO' },
  { termNo: 'UNUSED25', lastSessionAgo: 25 * HOUR },
  { termNo: 'UNUSEDNEVER', lastSessionAgo: null },
  { termNo: 'USED23', lastSessionAgo: 23 * HOUR },
  { termNo: 'ALIPAY' },
  { termNo: 'USAGE' },
  { termNo: 'INACTIVE', sts: 'inactive', currentSts: 'Sleep', south: true },
];

/** What each machine card must count (termNos), for the whole account. */
const EXPECTED: Record<string, string[]> = {
  machines: MACHINES.map((machine) => machine.termNo),
  downOverHour: ['DOWN61'],
  full: ['FULL95', 'FULLNULL'],
  offlineOverWeek: ['OFF7D1H'],
  // H30 machines mostly run 3.2.2; of T9's 5.0.1 and 5.1.0 (a tie) the greater version is the profile.
  profileMismatch: ['OLDSW', 'T9A'],
  offline: ['OFF6D23H', 'OFF7D1H'],
  // REJ10: exactly 10 items (and an older all-rejected session); REJ40: exactly 40 %.
  highRejectRate: ['REJ11'],
  quarantined: ['QSERIAL', 'QTERMNO'],
  notUsed: ['OFF7D1H', 'UNUSED25', 'UNUSEDNEVER'],
  // CLEANIN's only completed cleaning started 7 days minus a minute ago; CLEANOUT's plus a minute (its recent one aborted).
  needsClean: ['CLEANOUT'],
  octopusOffline: ['DOWN59'],
  alipayOffline: ['ALIPAY'],
};

interface SessionSpec {
  machine: string;
  start: number;
  items: number;
  rejected: number;
}

const state = {
  now: 0,
  todayStart: 0,
  ids: new Map<string, number>(),
  north: 0,
  south: 0,
  sessions: [] as SessionSpec[],
  messageSeq: 0,
};

const localDay = (time: number) => Math.floor((time + OFFSET * MINUTE) / DAY);
const dayStartOf = (day: number) => day * DAY - OFFSET * MINUTE;

const sessionMessage = (context: FleetContext, spec: SessionSpec, receivedAt = new Date()): IncomingMessage => {
  const id = `dash-${++state.messageSeq}`;
  const items = Array.from({ length: spec.items }, (_, index) => ({
    seq: index + 1,
    itemType: 'plasticBottle',
    refund: index < spec.items - spec.rejected ? 0.1 : 0,
    ...(index < spec.items - spec.rejected ? {} : { rejectReason: 2 }),
  }));
  const accepted = spec.items - spec.rejected;
  return {
    identity: { rvmId: state.ids.get(spec.machine)!, licenseAccountId: context.accountId, serialNumber: `SN-${spec.machine}` },
    kind: 'session',
    receivedAt,
    payload: JSON.stringify({
      v: 1,
      id,
      ts: new Date(spec.start + MINUTE).toISOString(),
      sessionId: id,
      startTime: new Date(spec.start).toISOString(),
      endTime: new Date(spec.start + 30_000).toISOString(),
      payoutMethod: 'octopus',
      totalRefund: Math.round(accepted * 10) / 100,
      items,
    }),
  };
};

const serviceMessage = (context: FleetContext, machine: string, start: number, outcome: string): IncomingMessage => {
  const id = `svc-${++state.messageSeq}`;
  return {
    identity: { rvmId: state.ids.get(machine)!, licenseAccountId: context.accountId, serialNumber: `SN-${machine}` },
    kind: 'service',
    receivedAt: new Date(),
    payload: JSON.stringify({
      v: 1,
      id,
      ts: new Date(start + 30 * MINUTE).toISOString(),
      serviceId: id,
      technician: 'Chan Tai Man',
      startTime: new Date(start).toISOString(),
      endTime: new Date(start + 20 * MINUTE).toISOString(),
      cleaningOutcome: outcome,
      binsEmptied: 1,
    }),
  };
};

const ingest = async (context: FleetContext, messages: IncomingMessage[]) => {
  const outcomes = await ingestBatch(context.server.db, messages);
  for (const outcome of outcomes) expect(outcome.result).toBe('processed');
};

const setup = async (context: FleetContext) => {
  const { server, accountId } = context;
  const now = Date.now();
  state.now = now;
  state.todayStart = dayStartOf(localDay(now));
  const [north] = await server.db.insert(fleet).values({ licenseAccountId: accountId, name: 'North' }).returning({ id: fleet.id });
  const [south] = await server.db.insert(fleet).values({ licenseAccountId: accountId, name: 'South' }).returning({ id: fleet.id });
  state.north = north.id;
  state.south = south.id;
  for (const spec of MACHINES) {
    const [row] = await server.db
      .insert(rvm)
      .values({
        licenseAccountId: accountId,
        fleetId: spec.south ? south.id : north.id,
        termNo: spec.termNo,
        serialNumber: `SN-${spec.termNo}`,
        termType: spec.termType ?? 'H30',
        softwareVersion: spec.softwareVersion === undefined ? '3.2.2' : spec.softwareVersion,
        sts: spec.sts ?? 'active',
        currentSts: spec.currentSts ?? 'Up',
        online: spec.currentSts !== 'Offline',
        statusSince: new Date(now - (spec.statusAgo ?? 10 * HOUR)),
        lastSessionTime: spec.lastSessionAgo === null ? null : new Date(now - (spec.lastSessionAgo ?? HOUR)),
        binCount: Math.max(1, spec.fills?.length ?? 1),
        binEmptyHeight: 120,
        binFullHeight: 20,
        binAlmostFull: 80,
        binAlreadyFull: spec.binAlreadyFull === undefined ? 100 : spec.binAlreadyFull,
      })
      .returning({ id: rvm.id });
    state.ids.set(spec.termNo, row.id);
    if (spec.fills) {
      await server.db.insert(rvmBin).values(
        spec.fills.map((fill, index) => ({
          rvmId: row.id,
          binNo: index + 1,
          licenseAccountId: accountId,
          itemType: 'plasticBottle',
          currentHeight: 120 - fill,
          fillPercent: fill,
        })),
      );
    }
  }
  // Cleanings through the gateway's write path.
  await ingest(
    context,
    MACHINES.flatMap((spec) => [
      ...(spec.cleanings ?? [DAY]).map((ago) => serviceMessage(context, spec.termNo, now - ago, 'completed')),
      ...(spec.abortedCleanings ?? []).map((ago) => serviceMessage(context, spec.termNo, now - ago, 'aborted')),
    ]),
  );

  // Alarms: an open octopus alarm, a cleared one, an open alipay alarm.
  const alarm = (machine: string, code: string, cleared: boolean) => ({
    licenseAccountId: accountId,
    rvmId: state.ids.get(machine)!,
    code,
    category: 'paymentReader',
    severity: 'error',
    raisedTime: new Date(now - 3 * HOUR),
    clearedTime: cleared ? new Date(now - HOUR) : null,
  });
  await server.db
    .insert(rvmEvent)
    .values([alarm('DOWN59', KNOWN_ALARMS.octopusOffline, false), alarm('DOWN61', KNOWN_ALARMS.octopusOffline, true), alarm('ALIPAY', KNOWN_ALARMS.alipayOffline, false)]);
  const quarantined = (causedBy: string, licenseAccountId = accountId) => ({
    licenseAccountId,
    causedBy,
    messageType: 'bins',
    content: '{}',
    receivedTime: new Date(now - HOUR),
    reason: 'valueOutOfRange',
  });
  await server.db.insert(quarantineMessage).values([quarantined('SN-QSERIAL'), quarantined('QTERMNO'), quarantined('SN-NOBODY')]);

  // Consumer sessions: the reject-rate edge cases (last 24 hours), and days around every window's edges.
  const today = state.todayStart;
  state.sessions = [
    { machine: 'REJ10', start: now - 2 * HOUR, items: 10, rejected: 5 },
    { machine: 'REJ10', start: now - 25 * HOUR, items: 20, rejected: 20 },
    { machine: 'REJ40', start: now - 3 * HOUR, items: 10, rejected: 4 },
    { machine: 'REJ40', start: now - 4 * HOUR, items: 10, rejected: 4 },
    { machine: 'REJ11', start: now - 5 * HOUR, items: 11, rejected: 5 },
    { machine: 'USAGE', start: today, items: 3, rejected: 1 },
    { machine: 'USAGE', start: today - 1000, items: 4, rejected: 0 },
    { machine: 'USAGE', start: today - 6 * DAY, items: 5, rejected: 2 },
    { machine: 'USAGE', start: today - 7 * DAY, items: 6, rejected: 1 },
    { machine: 'USAGE', start: today - 7 * DAY - 1000, items: 7, rejected: 3 },
    { machine: 'USAGE', start: today - 28 * DAY, items: 8, rejected: 0 },
    { machine: 'USAGE', start: today - 28 * DAY - 1000, items: 9, rejected: 9 },
    { machine: 'USAGE', start: today - 30 * DAY, items: 2, rejected: 1 },
    { machine: 'USAGE', start: today - 30 * DAY - 1000, items: 12, rejected: 1 },
    { machine: 'USAGE', start: today - 70 * DAY, items: 13, rejected: 2 },
    { machine: 'INACTIVE', start: today - 2 * DAY, items: 6, rejected: 3 },
  ];
  await ingest(
    context,
    state.sessions.map((spec) => sessionMessage(context, spec)),
  );
  // The session write path moved the machines' last session times; put the fixture's back.
  for (const spec of MACHINES) {
    await server.db
      .update(rvm)
      .set({ lastSessionTime: spec.lastSessionAgo === null ? null : new Date(now - (spec.lastSessionAgo ?? HOUR)) })
      .where(eq(rvm.id, state.ids.get(spec.termNo)!));
  }

  // Another license account with the same names, all of it in every bad state: none of it may count.
  const other = await accountNamed(server, 'Dashboard neighbour');
  const [otherFleet] = await server.db.insert(fleet).values({ licenseAccountId: other, name: 'Elsewhere' }).returning({ id: fleet.id });
  for (const termNo of ['DOWN61', 'QSERIAL', 'FULL95', 'OLDSW']) {
    const [row] = await server.db
      .insert(rvm)
      .values({
        licenseAccountId: other,
        fleetId: otherFleet.id,
        termNo,
        serialNumber: `SN-${termNo}`,
        termType: 'H30',
        softwareVersion: '3.1.4',
        currentSts: 'Down',
        statusSince: new Date(now - 5 * HOUR),
        lastSessionTime: null,
        binAlreadyFull: 90,
      })
      .returning({ id: rvm.id });
    await server.db.insert(rvmBin).values({ rvmId: row.id, binNo: 1, licenseAccountId: other, itemType: 'can', currentHeight: 20, fillPercent: 100 });
    await server.db.insert(rvmEvent).values({ ...alarm('DOWN59', KNOWN_ALARMS.octopusOffline, false), licenseAccountId: other, rvmId: row.id });
  }
  await server.db.insert(quarantineMessage).values(quarantined('SN-QSERIAL', other));
};

interface Usage {
  sessions: number;
  items: number;
  accepted: number;
  rejected: number;
  refund: number;
}

/** The consumer figures of the fixture's sessions whose machine passes `keep`, started in [from, to]. */
const usageBetween = (from: number, to: number, keep: (machine: string) => boolean = () => true): Usage =>
  state.sessions
    .filter((spec) => keep(spec.machine) && spec.start >= from && spec.start <= to)
    .reduce(
      (sum, spec) => ({
        sessions: sum.sessions + 1,
        items: sum.items + spec.items,
        accepted: sum.accepted + spec.items - spec.rejected,
        rejected: sum.rejected + spec.rejected,
        refund: Math.round((sum.refund + (spec.items - spec.rejected) * 0.1) * 100) / 100,
      }),
      { sessions: 0, items: 0, accepted: 0, rejected: 0, refund: 0 },
    );

describeFleet(
  'home dashboard',
  (context) => {
    const dashboard = async (query = '') => {
      const answer = await context.server.call('GET', `/dashboard?utcOffsetMinutes=${OFFSET}${query}`, { token: context.token });
      expect(answer.body.resCode, answer.body.resMsg).toBe('00000');
      return answer.body.resData;
    };
    const page = async (filter: Record<string, unknown>) => {
      const answer = await context.server.call('POST', '/rvm/page', { token: context.token, body: { pageNum: 1, pageSize: 500, ...filter } });
      expect(answer.body.resCode, answer.body.resMsg).toBe('00000');
      return { total: answer.body.resData.total as number, termNos: (answer.body.resData.list as Array<{ termNo: string }>).map((row) => row.termNo).sort() };
    };
    const card = (data: any, key: string) => {
      const found = data.cards.find((item: { key: string }) => item.key === key);
      expect(found, key).toBeTruthy();
      return found;
    };

    it('counts every machine card by its definition, and each card filter lists exactly those machines', async () => {
      const data = await dashboard();
      for (const [key, termNos] of Object.entries(EXPECTED)) {
        const found = card(data, key);
        expect({ key, value: found.value }).toEqual({ key, value: termNos.length });
        const listed = await page(found.filter);
        expect({ key, total: listed.total, termNos: listed.termNos }).toEqual({ key, total: found.value, termNos: [...termNos].sort() });
      }
      expect(data.machineCount).toBe(MACHINES.length);
      expect(card(data, 'downOverHour').filter).toEqual({ downSince: new Date(Date.parse(data.now) - HOUR).toISOString() });
      expect(card(data, 'offline').filter).toEqual({ currentSts: 'Offline' });
    });

    it("answers every home card, in the catalogue's order", async () => {
      const data = await dashboard();
      expect(data.cards.map((item: { key: string }) => item.key)).toEqual([
        'machines',
        'downOverHour',
        'full',
        'offlineOverWeek',
        'profileMismatch',
        'offline',
        'highRejectRate',
        'quarantined',
        'notUsed',
        'consumerSessions',
        'refundValue',
        'totalVolume',
        'volumeThisMonth',
        'volumeLastMonth',
        'todayReport',
        'monthlyReport',
        'needsClean',
        'octopusOffline',
        'alipayOffline',
        'rejectRate',
      ]);
      expect(data.currency).toBe('HKD');
    });

    it('status and types overview: counts with their machine-list filters', async () => {
      const data = await dashboard();
      const statuses = Object.fromEntries(data.charts.statusOverview.map((segment: { key: string; value: number }) => [segment.key, segment.value]));
      expect(statuses).toEqual({ Up: 19, Offline: 2, Down: 2, Sleep: 1 });
      const types = Object.fromEntries(data.charts.typesOverview.map((segment: { key: string; value: number }) => [segment.key, segment.value]));
      expect(types).toEqual({ H30: MACHINES.length - 2, T9: 2 });
      for (const segment of [...data.charts.statusOverview, ...data.charts.typesOverview]) {
        expect((await page(segment.filter)).total, segment.key).toBe(segment.value);
      }
    });

    it('consumer figures: today, months, all time, 4-week averages, 30-day reject rate, 7-day curve, in local days', async () => {
      const data = await dashboard();
      const now = Date.parse(data.now);
      const today = state.todayStart;
      const todays = usageBetween(today, now);
      const local = new Date(localDay(now) * DAY);
      const monthStart = Date.UTC(local.getUTCFullYear(), local.getUTCMonth(), 1) - OFFSET * MINUTE;
      const lastMonthStart = Date.UTC(local.getUTCFullYear(), local.getUTCMonth() - 1, 1) - OFFSET * MINUTE;
      const fourWeeks = usageBetween(today - 28 * DAY, today - 1);
      const thirtyDays = usageBetween(today - 30 * DAY, today - 1);

      expect(card(data, 'consumerSessions')).toEqual({ key: 'consumerSessions', value: todays.sessions, average: fourWeeks.sessions / 28 });
      expect(card(data, 'refundValue')).toEqual({ key: 'refundValue', value: todays.refund, average: Math.round((fourWeeks.refund / 28) * 100) / 100 });
      expect(card(data, 'totalVolume').value).toBe(usageBetween(0, now).accepted);
      expect(card(data, 'volumeThisMonth').value).toBe(usageBetween(monthStart, now).accepted);
      expect(card(data, 'volumeLastMonth').value).toBe(usageBetween(lastMonthStart, monthStart - 1).accepted);
      expect(card(data, 'todayReport')).toEqual({
        key: 'todayReport',
        value: todays.accepted,
        average: fourWeeks.accepted / 28,
        report: { ...todays, rejectRate: todays.rejected / todays.items },
      });
      const month = usageBetween(monthStart, now);
      expect(card(data, 'monthlyReport').report).toEqual({ ...month, rejectRate: month.items ? month.rejected / month.items : null });
      expect(card(data, 'rejectRate').value).toBeCloseTo(thirtyDays.rejected / thirtyDays.items, 12);
      expect(todays.sessions).toBeGreaterThan(0);
      expect(fourWeeks.sessions).toBeGreaterThan(0);

      expect(data.charts.volumePerDay).toHaveLength(28);
      expect(data.charts.rejectRate).toHaveLength(7);
      data.charts.volumePerDay.forEach((point: { day: string; sessions: number; accepted: number; rejected: number }, index: number) => {
        const start = today - (28 - index) * DAY;
        const expected = usageBetween(start, start + DAY - 1);
        expect(point.day).toBe(new Date(start + OFFSET * MINUTE).toISOString().slice(0, 10));
        expect({ sessions: point.sessions, accepted: point.accepted, rejected: point.rejected }).toEqual({
          sessions: expected.sessions,
          accepted: expected.accepted,
          rejected: expected.rejected,
        });
      });
      data.charts.rejectRate.forEach((point: { items: number; rejected: number; rate: number | null }, index: number) => {
        const start = today - (7 - index) * DAY;
        const expected = usageBetween(start, start + DAY - 1);
        expect(point).toMatchObject({ items: expected.items, rejected: expected.rejected, rate: expected.items ? expected.rejected / expected.items : null });
      });
    });

    it('a saved filter of the machine list scopes every card, chart and figure', async () => {
      const saved = await context.server.call('POST', '/saved-filter', {
        token: context.token,
        body: { resource: 'machine', name: 'North only', filter: { fleetId: [state.north] }, visibility: 'personal' },
      });
      const data = await dashboard(`&savedFilterId=${saved.body.resData.id}`);
      expect(data.savedFilter).toEqual({ id: saved.body.resData.id, name: 'North only' });
      const south = new Set(MACHINES.filter((machine) => machine.south).map((machine) => machine.termNo));
      for (const [key, termNos] of Object.entries(EXPECTED)) {
        const found = card(data, key);
        const expected = termNos.filter((termNo) => !south.has(termNo));
        expect({ key, value: found.value }).toEqual({ key, value: expected.length });
        expect(found.filter.fleetId).toEqual([state.north]);
        expect(await page(found.filter)).toEqual({ total: expected.length, termNos: expected.sort() });
      }
      const now = Date.parse(data.now);
      const northUsage = usageBetween(state.todayStart - 28 * DAY, state.todayStart - 1, (machine) => !south.has(machine));
      expect(card(data, 'consumerSessions').average).toBe(northUsage.sessions / 28);
      expect(card(data, 'totalVolume').value).toBe(usageBetween(0, now, (machine) => !south.has(machine)).accepted);
    });

    it('a saved filter naming what a card sets: the card replaces it, and its list agrees', async () => {
      // Status Down and North: the machine cards count Down machines of North, except the cards that set the status
      // themselves (Offline, the status overview), which replace it; "offline more than a week" sets offlineSince, not the status.
      const saved = await context.server.call('POST', '/saved-filter', {
        token: context.token,
        body: { resource: 'machine', name: 'Down in North', filter: { currentSts: 'Down', fleetId: [state.north] }, visibility: 'personal' },
      });
      const data = await dashboard(`&savedFilterId=${saved.body.resData.id}`);
      const expected: Record<string, string[]> = {
        machines: ['DOWN59', 'DOWN61'],
        downOverHour: ['DOWN61'],
        offline: ['OFF6D23H', 'OFF7D1H'],
        offlineOverWeek: [],
        octopusOffline: ['DOWN59'],
        notUsed: [],
      };
      for (const [key, termNos] of Object.entries(expected)) {
        const found = card(data, key);
        expect({ key, value: found.value }).toEqual({ key, value: termNos.length });
        expect({ key, ...(await page(found.filter)) }).toEqual({ key, total: termNos.length, termNos: [...termNos].sort() });
      }
      const statuses = Object.fromEntries(data.charts.statusOverview.map((segment: { key: string; value: number }) => [segment.key, segment.value]));
      // South holds INACTIVE (Sleep) and REJ10/REJ11 (Up).
      expect(statuses).toEqual({ Up: MACHINES.filter((machine) => !machine.south && (machine.currentSts ?? 'Up') === 'Up').length, Offline: 2, Down: 2, Sleep: 0 });
      expect(data.machineCount).toBe(2);
    });

    const figures = (data: any) => ({
      cards: data.cards.map(({ key, value, average, report }: any) => ({ key, value, average, report })),
      rejectRate: data.charts.rejectRate,
      volumePerDay: data.charts.volumePerDay,
    });
    /** The whole account (its 15-minute roll-up) against all its machines through a saved filter (hourly roll-up, or sessions at UTC+5:30). */
    const compareSources = async () => {
      const saved = await context.server.call('POST', '/saved-filter', {
        token: context.token,
        body: { resource: 'machine', name: `Both fleets ${state.messageSeq++}`, filter: { fleetId: [state.north, state.south] }, visibility: 'public' },
      });
      for (const offset of [OFFSET, 330, -600]) {
        const get = async (query: string) => {
          const answer = await context.server.call('GET', `/dashboard?utcOffsetMinutes=${offset}${query}`, { token: context.token });
          expect(answer.body.resCode, answer.body.resMsg).toBe('00000');
          return answer.body.resData;
        };
        const [whole, filtered] = await Promise.all([get(''), get(`&savedFilterId=${saved.body.resData.id}`)]);
        expect({ offset, ...figures(filtered) }).toEqual({ offset, ...figures(whole) });
      }
    };

    it('the whole account through a saved filter (machine by machine, or session by session) gives the roll-up figures of the whole account', compareSources);

    it('a new consumer session shows in the cards at once', async () => {
      const before = await dashboard();
      await ingest(context, [sessionMessage(context, { machine: 'USED23', start: Date.now() - MINUTE, items: 12, rejected: 6 })]);
      const after = await dashboard();
      expect(card(after, 'consumerSessions').value).toBe(card(before, 'consumerSessions').value + 1);
      expect(card(after, 'todayReport').report.items).toBe(card(before, 'todayReport').report.items + 12);
      expect(card(after, 'refundValue').value).toBeCloseTo(card(before, 'refundValue').value + 0.6, 2);
      expect(card(after, 'totalVolume').value).toBe(card(before, 'totalVolume').value + 6);
      // USED23 now has 12 items, 50 % rejected, in the last 24 hours.
      expect(card(after, 'highRejectRate').value).toBe(2);
      expect((await page(card(after, 'highRejectRate').filter)).termNos).toEqual(['REJ11', 'USED23']);
    });

    it('a deleted machine leaves the account roll-up with its sessions', async () => {
      const before = await dashboard();
      const gone = await context.server.call('DELETE', `/rvm?id=${state.ids.get('REJ10')}`, { token: context.token });
      expect(gone.body.resCode, gone.body.resMsg).toBe('00000');
      const after = await dashboard();
      // REJ10's two sessions accepted 5 and 0 containers.
      expect(card(after, 'totalVolume').value).toBe(card(before, 'totalVolume').value - 5);
      await compareSources();
    });

    it("refuses unknown saved filters and other resources' filters (2003), needs the home or machine-list permission (4003)", async () => {
      const own = await context.server.call('POST', '/saved-filter', {
        token: context.token,
        body: { resource: 'user', name: 'Users', filter: {}, visibility: 'public' },
      });
      expect((await context.server.call('GET', `/dashboard?savedFilterId=${own.body.resData.id}`, { token: context.token })).body.resCode).toBe('2003');
      expect((await context.server.call('GET', '/dashboard?savedFilterId=999999', { token: context.token })).body.resCode).toBe('2003');
      // Another user's personal machine-list filter is not theirs to use; a public one is.
      const machinePage = await context.server.db.select({ id: sysPermission.id }).from(sysPermission).where(eq(sysPermission.identifier, 'machine:page'));
      const lister = (await context.server.call('POST', '/role', { token: context.token, body: { name: 'machine lister', permissions: machinePage.map((row) => row.id) } })).body
        .resData.id;
      await context.server.createUser({ name: 'peeker', roles: [lister] }, context.token);
      const peeker = await context.server.login('peeker', 'Passw0rd!');
      const filterOf = async (visibility: string) =>
        (await context.server.call('POST', '/saved-filter', { token: context.token, body: { resource: 'machine', name: `Mine ${visibility}`, filter: {}, visibility } })).body
          .resData.id;
      const [personal, shared] = [await filterOf('personal'), await filterOf('public')];
      expect((await context.server.call('GET', `/dashboard?savedFilterId=${personal}`, { token: context.token })).body.resCode).toBe('00000');
      expect((await context.server.call('GET', `/dashboard?savedFilterId=${personal}`, { token: peeker })).body.resCode).toBe('2003');
      expect((await context.server.call('GET', `/dashboard?savedFilterId=${shared}`, { token: peeker })).body.resCode).toBe('00000');
      await context.server.createUser({ name: 'nohome' }, context.token);
      const token = await context.server.login('nohome', 'Passw0rd!');
      const refused = await context.server.call('GET', '/dashboard', { token });
      expect([refused.status, refused.body.resCode]).toEqual([403, '4003']);
    });

    it('the demo seed fills the roll-ups with the sums of what it wrote', async () => {
      const account = await accountNamed(context.server, 'Dashboard seeded');
      await seedSmallFleet(context.server, account);
      const rows = async (query: ReturnType<typeof sql>) => rowsOf<Record<string, unknown>>(await context.server.db.execute(query));
      const quarter = sql`to_timestamp(floor(extract(epoch from start_time) / 900) * 900)`;
      const hour = sql`to_timestamp(floor(extract(epoch from start_time) / 3600) * 3600)`;
      const sessions = (bucket: ReturnType<typeof sql>, by: ReturnType<typeof sql>) => sql`
        select ${by} ${bucket} as b, count(*)::int as sessions, sum(item_count)::int as items, sum(accepted_count)::int as accepted,
          sum(rejected_count)::int as rejected, sum(total_refund)::numeric(14,2)::text as refund
        from consumer_session where license_account_id = ${account} group by ${by} b order by ${by} b`;
      const [written] = await rows(sql`select count(*)::int as n from consumer_session where license_account_id = ${account}`);
      expect(Number(written.n)).toBeGreaterThan(100);
      expect(
        await rows(sql`select bucket as b, sessions, items, accepted, rejected, refund::text as refund from account_usage_15m
        where license_account_id = ${account} order by 1`),
      ).toEqual(await rows(sessions(quarter, sql``)));
      expect(
        await rows(sql`select rvm_id, hour as b, sessions, items, accepted, rejected, refund::text as refund from rvm_hourly_usage
        where license_account_id = ${account} order by 1, 2`),
      ).toEqual(await rows(sessions(hour, sql`rvm_id,`)));
      expect(await rows(sql`select rvm_id, last_completed_time as t from rvm_cleaning_state where license_account_id = ${account} order by 1`)).toEqual(
        await rows(sql`select rvm_id, max(start_time) as t from service_session where license_account_id = ${account} and cleaning_outcome = 'completed'
          group by 1 order by 1`),
      );
    });

    it("a gateway batch's sessions go into the account roll-up by account and quarter hour, once, and into their fleet's hourly roll-up", async () => {
      const { db } = context.server;
      const machineOf = async (name: string) => {
        const account = await accountNamed(context.server, name);
        const [home] = await db.insert(fleet).values({ licenseAccountId: account, name }).returning({ id: fleet.id });
        const [machine] = await db
          .insert(rvm)
          .values({ licenseAccountId: account, fleetId: home.id, termNo: `RU${account}`, serialNumber: `SN-RU${account}`, termType: 'H30' })
          .returning({ id: rvm.id });
        return { account, fleetId: home.id, rvmId: machine.id };
      };
      const [one, two] = [await machineOf('Roll-up one'), await machineOf('Roll-up two')];
      const quarter = Date.UTC(2026, 0, 5, 10, 0);
      const session = (machine: typeof one, startOffset: number, items: number, accepted: number, rejected: number, refund: number) => ({
        licenseAccountId: machine.account,
        rvmId: machine.rvmId,
        startTime: new Date(quarter + startOffset),
        items,
        accepted,
        rejected,
        refund,
      });
      const batch = new AccountUsageBatch();
      batch.add(session(two, MINUTE, 4, 3, 1, 0.3));
      batch.add(session(one, 15 * MINUTE - 1, 5, 2, 3, 0.2));
      batch.add(session(one, 15 * MINUTE, 7, 7, 0, 0.7));
      batch.add(session(one, 0, 2, 1, 1, 0.1));
      await db.transaction((tx) => batch.flush(tx));
      // flushed: a second flush adds nothing
      await db.transaction((tx) => batch.flush(tx));
      const accounts = sql.param([one.account, two.account]);
      expect(
        rowsOf(
          await db.execute(sql`select license_account_id as account, (extract(epoch from bucket) * 1000)::float8 as bucket, sessions, items, accepted, rejected,
            refund::numeric(14,2)::text as refund from account_usage_15m where license_account_id = any(${accounts}::int[]) order by 1, 2`),
        ),
      ).toEqual([
        { account: one.account, bucket: quarter, sessions: 2, items: 7, accepted: 3, rejected: 4, refund: '0.30' },
        { account: one.account, bucket: quarter + 15 * MINUTE, sessions: 1, items: 7, accepted: 7, rejected: 0, refund: '0.70' },
        { account: two.account, bucket: quarter, sessions: 1, items: 4, accepted: 3, rejected: 1, refund: '0.30' },
      ]);
      expect(
        rowsOf(
          await db.execute(sql`select fleet_id as fleet, sessions, items, accepted, rejected, refund::numeric(14,2)::text as refund from fleet_hourly_usage
            where license_account_id = any(${accounts}::int[]) order by 1`),
        ),
      ).toEqual([
        { fleet: one.fleetId, sessions: 3, items: 14, accepted: 10, rejected: 4, refund: '1.00' },
        { fleet: two.fleetId, sessions: 1, items: 4, accepted: 3, rejected: 1, refund: '0.30' },
      ]);
    });

    it('an account without machines answers zeros', async () => {
      const empty = await accountNamed(context.server, 'Dashboard empty');
      const [machinePage] = await context.server.db.select({ id: sysPermission.id }).from(sysPermission).where(eq(sysPermission.identifier, 'machine:page'));
      // A role of that account (roles belong to one license account) with the machine list permission.
      const [role] = await context.server.db.insert(sysRole).values({ licenseAccountId: empty, name: 'machine list' }).returning({ id: sysRole.id });
      await context.server.db.insert(sysRolePermission).values({ roleId: role.id, permissionId: machinePage.id });
      const user = await context.server.createUser({ name: 'emptyacc', licenseAccounts: [empty] }, context.token);
      await context.server.db.insert(sysUserRole).values({ userId: user, roleId: role.id });
      const token = await context.server.login('emptyacc', 'Passw0rd!');
      const answer = await context.server.call('GET', '/dashboard', { token });
      expect(answer.body.resCode, answer.body.resMsg).toBe('00000');
      expect(answer.body.resData.machineCount).toBe(0);
      for (const item of answer.body.resData.cards) expect([item.key, item.value ?? 0]).toEqual([item.key, 0]);
      expect(answer.body.resData.charts.typesOverview).toEqual([]);
    });
  },
  setup,
);
