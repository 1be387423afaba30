// The dashboard's arithmetic without a database (issue 29 item 24, mutation testing): computeDashboard over a fake
// `db` that answers the counting passes with rows written here, and usage figures given by hand; periodsOf at the
// edges of local days, months and years; toDays. Each window is tested at its edge: the day before a window, its
// first and last day, and today (which the averages leave out). dashboard.test.ts checks the same on a database.
import { PgDialect } from 'drizzle-orm/pg-core';
import type { SQL } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { RESOURCES } from '../../resources';
import type { Caller } from '../../server/auth/principal';
import { createPasswordHasher } from '../../server/auth/passwords';
import { buildModels } from '../../server/crud/model';
import type { Db } from '../../server/db/client';
import { TABLES } from '../../server/db/registry';
import { computeDashboard, machineConditions, SIDE_PASSES } from '../../server/dashboard/compute';
import { periodsOf } from '../../server/dashboard/periods';
import { toDays, type DayUsage, type UsageFigures } from '../../server/dashboard/usage';
import { fleetsOnly } from '../../server/dashboard/rollup';
import { CARDS_END, CARDS_START, cardsSection, withCardsSection } from '../../server/dashboard/reference';
import { resourceHooks } from '../../server/resources';

const DAY = 86_400_000;
const dialect = new PgDialect();
const model = buildModels(
  RESOURCES.filter((resource) => resource.name === 'machine'),
  TABLES,
  resourceHooks(createPasswordHasher(12)),
).get('machine')!;
const caller = { principal: { licenseAccountId: 5, superAdmin: false } } as unknown as Caller;

// The counted columns: c0..c11 the machine cards in catalogue order, c12..c15 the statuses Up, Offline, Down, Sleep.
const CARD_COLUMNS = [
  'machines',
  'downOverHour',
  'full',
  'offlineOverWeek',
  'profileMismatch',
  'offline',
  'highRejectRate',
  'quarantined',
  'notUsed',
  'needsClean',
  'octopusOffline',
  'alipayOffline',
];

/** A db whose passes answer `main` (the statement with the scope per model) or `side` rows; records what it was asked. */
const fakeDb = (main: Record<string, unknown>[], side: Record<string, unknown>[]) => {
  const statements: string[] = [];
  const db = {
    execute: async (query: SQL) => {
      const { sql: raw, params } = dialect.sqlToQuery(query);
      // parameters written in, from the last (so $1 does not match inside $12)
      const text = params.reduceRight<string>((out, param, index) => out.replaceAll(`$${index + 1}`, JSON.stringify(param)), raw);
      statements.push(text);
      return { rows: text.includes(' as scoped') ? main : side };
    },
  } as unknown as Db;
  return { db, statements };
};

const day = (number: number, values: Partial<DayUsage> = {}): DayUsage => ({ day: number, sessions: 0, items: 0, accepted: 0, rejected: 0, refund: 0, ...values });

describe('periodsOf', () => {
  it('cuts local days at the offset: the last millisecond of a day and the first of the next', () => {
    // 2026-03-01 23:59:59.999 in Hong Kong (UTC+8)
    const last = periodsOf(new Date('2026-03-01T15:59:59.999Z'), 480);
    expect(last.today).toBe(Date.UTC(2026, 2, 1) / DAY);
    expect(last.todayStart.toISOString()).toBe('2026-02-28T16:00:00.000Z');
    expect(last.monthStart.toISOString()).toBe('2026-02-28T16:00:00.000Z');
    expect(last.monthFirstDay).toBe(Date.UTC(2026, 2, 1) / DAY);
    expect(last.lastMonthFirstDay).toBe(Date.UTC(2026, 1, 1) / DAY);
    expect(last.lastMonthStart.toISOString()).toBe('2026-01-31T16:00:00.000Z');
    // 30 days before 1 March is 30 January, earlier than 1 February
    expect(last.earliest.toISOString()).toBe('2026-01-29T16:00:00.000Z');
    expect(last.offsetMinutes).toBe(480);
    expect(last.now.toISOString()).toBe('2026-03-01T15:59:59.999Z');

    const next = periodsOf(new Date('2026-03-01T16:00:00.000Z'), 480);
    expect(next.today).toBe(Date.UTC(2026, 2, 2) / DAY);
    expect(next.todayStart.toISOString()).toBe('2026-03-01T16:00:00.000Z');
    expect(next.monthFirstDay).toBe(Date.UTC(2026, 2, 1) / DAY);
  });

  it("takes the month before January from the year before, and last month's first day when it is the earlier", () => {
    const january = periodsOf(new Date('2026-01-31T12:00:00Z'), -600);
    expect(january.today).toBe(Date.UTC(2026, 0, 31) / DAY);
    expect(january.monthFirstDay).toBe(Date.UTC(2026, 0, 1) / DAY);
    expect(january.lastMonthFirstDay).toBe(Date.UTC(2025, 11, 1) / DAY);
    expect(january.lastMonthStart.toISOString()).toBe('2025-12-01T10:00:00.000Z');
    // 1 December is before 31 January minus 30 days (1 January)
    expect(january.earliest.toISOString()).toBe('2025-12-01T10:00:00.000Z');
    // at UTC the same instant is the same day, the month starts at midnight
    expect(periodsOf(new Date('2026-01-31T12:00:00Z'), 0).monthStart.toISOString()).toBe('2026-01-01T00:00:00.000Z');
  });
});

describe('toDays and fleetsOnly', () => {
  it("reads the database's numbers and texts as numbers, a missing refund as 0", () => {
    expect(
      toDays([
        { day: '20500', sessions: '2', items: 7, accepted: '5', rejected: 2, refund: '0.50' },
        { day: 20501, sessions: 1, items: 1, accepted: 1, rejected: 0, refund: null },
      ]),
    ).toEqual([
      { day: 20500, sessions: 2, items: 7, accepted: 5, rejected: 2, refund: 0.5 },
      { day: 20501, sessions: 1, items: 1, accepted: 1, rejected: 0, refund: 0 },
    ]);
  });

  it('answers the fleet ids of a saved filter that names fleets only', () => {
    expect(fleetsOnly({ fleetId: [3, 4] })).toEqual([3, 4]);
    expect(fleetsOnly({ fleetId: 3 })).toEqual([3]);
    expect(fleetsOnly({ fleetId: [3], termNo: '', currentSts: null, region: undefined, tags: [] })).toEqual([3]);
    expect(fleetsOnly({ fleetId: [3], currentSts: 'Up' })).toBeUndefined();
    expect(fleetsOnly({ currentSts: 'Up' })).toBeUndefined();
    expect(fleetsOnly({ fleetId: [] })).toBeUndefined();
    expect(fleetsOnly({ fleetId: ['3'] })).toBeUndefined();
    expect(fleetsOnly({})).toBeUndefined();
  });
});

describe('computeDashboard', () => {
  // Sunday 2026-03-15 10:00 in Hong Kong
  const periods = periodsOf(new Date('2026-03-15T02:00:00Z'), 480);
  const today = periods.today;
  const main = [
    { term_type: 'H30', scoped: '3', c0: '3', c1: 1, c5: 2, c6: 9, c12: 1, c13: 2, c14: 0 },
    { term_type: 'T9', scoped: 5, c0: 5, c1: 0, c2: 4, c12: 5 },
    { term_type: 'A1', scoped: 5, c0: 5 },
    { term_type: 'Z0', scoped: 0 },
  ];
  const side = [
    { term_type: 'H30', c4: 2, c6: 1 },
    { term_type: 'T9', c4: '1', c6: 0 },
  ];
  const figures: UsageFigures = {
    allTimeAccepted: 987,
    days: [
      // 29 January: before every window (and last month)
      day(today - 45, { sessions: 100, items: 100, accepted: 100, rejected: 100, refund: 100 }),
      // first day of the 30-day reject-rate window
      day(today - 30, { sessions: 1, items: 10, accepted: 6, rejected: 4, refund: 0.6 }),
      // 29 days before: outside the 28-day averages, in last month (February)
      day(today - 29, { sessions: 1, items: 20, accepted: 20, rejected: 0, refund: 2 }),
      // first day of the 4-week averages (15 February)
      day(today - 28, { sessions: 2, items: 8, accepted: 7, rejected: 1, refund: 0.7 }),
      // last day of February
      day(Date.UTC(2026, 1, 28) / DAY, { sessions: 1, items: 1, accepted: 1, rejected: 0, refund: 0.1 }),
      // first day of March: this month; first day of the 7-day curve is today - 7 (8 March)
      day(Date.UTC(2026, 2, 1) / DAY, { sessions: 3, items: 3, accepted: 3, rejected: 0, refund: 0.3 }),
      day(today - 7, { sessions: 1, items: 4, accepted: 3, rejected: 1, refund: 0.3 }),
      // yesterday: the last day of every average window
      day(today - 1, { sessions: 2, items: 6, accepted: 3, rejected: 3, refund: 0.333 }),
      day(today, { sessions: 4, items: 12, accepted: 9, rejected: 3, refund: 1.006 }),
    ],
  };

  const run = async (base: Record<string, unknown> = {}, sidePasses?: ReadonlyArray<readonly string[]>) => {
    const { db, statements } = fakeDb(main, side);
    const asked: Array<SQL | undefined> = [];
    const answer = await computeDashboard({
      db,
      model,
      caller,
      account: 5,
      base,
      periods,
      currency: 'HKD',
      ...(sidePasses ? { sidePasses } : {}),
      usage: async (_db, machines) => {
        asked.push(machines);
        return figures;
      },
    });
    return { answer, statements, asked };
  };
  const cardOf = (answer: Awaited<ReturnType<typeof run>>['answer'], key: string) => answer.cards.find((card) => card.key === key)!;

  it('sums each card over the model rows of its own pass (a missing count is 0), the side pass for the 24-hour reject rate and the profile', async () => {
    const { answer, statements, asked } = await run();
    expect(SIDE_PASSES).toEqual([['highRejectRate', 'profileMismatch']]);
    expect(statements).toHaveLength(2);
    expect(asked).toEqual([undefined]);
    expect(answer.machineCount).toBe(13);
    const values = Object.fromEntries(CARD_COLUMNS.map((key) => [key, cardOf(answer, key).value]));
    expect(values).toEqual({
      machines: 13,
      downOverHour: 1,
      full: 4,
      offlineOverWeek: 0,
      profileMismatch: 3,
      offline: 2,
      highRejectRate: 1,
      quarantined: 0,
      notUsed: 0,
      needsClean: 0,
      octopusOffline: 0,
      alipayOffline: 0,
    });
    expect(answer.charts.statusOverview).toEqual([
      { key: 'Up', value: 6, filter: { currentSts: 'Up' } },
      { key: 'Offline', value: 2, filter: { currentSts: 'Offline' } },
      { key: 'Down', value: 0, filter: { currentSts: 'Down' } },
      { key: 'Sleep', value: 0, filter: { currentSts: 'Sleep' } },
    ]);
    // largest first, a tie by name, a model without machines left out
    expect(answer.charts.typesOverview).toEqual([
      { key: 'A1', value: 5, filter: { termType: 'A1' } },
      { key: 'T9', value: 5, filter: { termType: 'T9' } },
      { key: 'H30', value: 3, filter: { termType: 'H30' } },
    ]);
    expect(answer).toMatchObject({ now: '2026-03-15T02:00:00.000Z', utcOffsetMinutes: 480, currency: 'HKD' });
    // the main pass counts every card but the side pass's; each counted once
    expect(statements[0]).toContain(' as scoped');
    expect(statements[0].match(/ as "c\d+"/g)).toHaveLength(14);
    expect(statements[1].match(/ as "c\d+"/g)).toEqual([' as "c4"', ' as "c6"']);
  });

  it('counts in one pass when no card has a pass of its own', async () => {
    const { answer, statements } = await run({}, []);
    expect(statements).toHaveLength(1);
    expect(statements[0].match(/ as "c\d+"/g)).toHaveLength(16);
    expect(cardOf(answer, 'highRejectRate').value).toBe(9);
    expect(cardOf(answer, 'profileMismatch').value).toBe(0);
  });

  it("gives each machine card the list filter of its machines, relative times ending at the answer's now", async () => {
    const { answer } = await run();
    expect(cardOf(answer, 'machines').filter).toEqual({});
    expect(cardOf(answer, 'downOverHour').filter).toEqual({ downSince: '2026-03-15T01:00:00.000Z' });
    expect(cardOf(answer, 'offlineOverWeek').filter).toEqual({ offlineSince: '2026-03-08T02:00:00.000Z' });
    expect(cardOf(answer, 'notUsed').filter).toEqual({ notUsedSince: '2026-03-14T02:00:00.000Z' });
    expect(cardOf(answer, 'full').filter).toEqual({ full: true });
  });

  it("a saved filter's conditions are in every card filter; a card replaces the one it sets itself", async () => {
    const { answer, asked, statements } = await run({ fleetId: [7], currentSts: 'Down', termNo: '' });
    expect(asked).toHaveLength(1);
    expect(asked[0]).toBeDefined();
    expect(cardOf(answer, 'machines').filter).toEqual({ fleetId: [7], currentSts: 'Down', termNo: '' });
    expect(cardOf(answer, 'offline').filter).toEqual({ fleetId: [7], currentSts: 'Offline', termNo: '' });
    expect(answer.charts.typesOverview[0].filter).toEqual({ fleetId: [7], currentSts: 'Down', termNo: '', termType: 'A1' });
    // the fleet condition selects the rows once (in WHERE, where no card replaces it); the status, which the
    // Offline card and the status overview replace, is in each count that keeps it
    const [main] = statements;
    const where = main.slice(main.lastIndexOf(' from "rvm" where ') + ' from "rvm" where '.length, main.lastIndexOf(' group by 1'));
    expect(where).toContain('"rvm"."fleet_id"');
    expect(where).not.toContain('current_sts');
    const count = (column: string) => {
      const end = main.indexOf(` as "${column}"`);
      return main.slice(main.lastIndexOf('count(*)', end), end);
    };
    // machines (c0): the saved status kept; Offline (c5) and the statuses (c12..) their own instead
    expect(count('c0')).toMatch(/^count\(\*\) filter \(where "rvm"."current_sts" = "Down"\)$/);
    expect(count('c5')).toMatch(/^count\(\*\) filter \(where "rvm"."current_sts" = "Offline"\)$/);
    expect(count('c13')).toMatch(/^count\(\*\) filter \(where "rvm"."current_sts" = "Offline"\)$/);
    // a card of its own condition keeps the saved status beside it
    expect(count('c1')).toContain('Down');
    expect(count('c1')).toContain('status_since');
  });

  it('writes each pass as one select: the scope per model in the main pass, the counts side by side', async () => {
    const { statements } = await run();
    const [main, side] = statements.map((text) => text.replace(/\s+/g, ' '));
    expect(main).toMatch(/^select "rvm"."term_type" as term_type, count\(\*\) as scoped , count\(\*\) as "c0", count\(\*\) filter \(where /);
    expect(main).toMatch(/ as "c15" from "rvm" where "rvm"."license_account_id" = 5 group by 1$/);
    expect(side).toMatch(
      /^select "rvm"."term_type" as term_type , count\(\*\) filter \(where .*\) as "c4", count\(\*\) filter \(where .*\) as "c6" from "rvm" where "rvm"."license_account_id" = 5 group by 1$/,
    );
  });

  it('sums consumer figures over their windows: today, this and last month, 28 and 30 complete days, all time', async () => {
    const { answer } = await run();
    expect(cardOf(answer, 'consumerSessions')).toEqual({ key: 'consumerSessions', value: 4, average: 9 / 28 });
    // 28 days: 0.7 + 0.1 + 0.3 + 0.3 + 0.333 = 1.733, per day 0.0619 → 0.06
    expect(cardOf(answer, 'refundValue')).toEqual({ key: 'refundValue', value: 1.01, average: 0.06 });
    expect(cardOf(answer, 'totalVolume')).toEqual({ key: 'totalVolume', value: 987 });
    // March: 1 March, 8 March, yesterday and today
    expect(cardOf(answer, 'volumeThisMonth')).toEqual({ key: 'volumeThisMonth', value: 3 + 3 + 3 + 9 });
    // February: the 30th and 29th days before today (13 and 14 February), 15 February, 28 February
    expect(cardOf(answer, 'volumeLastMonth')).toEqual({ key: 'volumeLastMonth', value: 6 + 20 + 7 + 1 });
    expect(cardOf(answer, 'todayReport')).toEqual({
      key: 'todayReport',
      value: 9,
      average: 17 / 28,
      report: { sessions: 4, items: 12, accepted: 9, rejected: 3, refund: 1.01, rejectRate: 0.25 },
    });
    expect(cardOf(answer, 'monthlyReport')).toEqual({
      key: 'monthlyReport',
      value: 18,
      report: { sessions: 10, items: 25, accepted: 18, rejected: 7, refund: 1.94, rejectRate: 7 / 25 },
    });
    // 30 complete days: 4 + 0 + 1 + 0 + 0 + 1 + 3 rejected of 10 + 20 + 8 + 1 + 3 + 4 + 6 items
    expect(cardOf(answer, 'rejectRate')).toEqual({ key: 'rejectRate', value: 9 / 52 });
  });

  it('charts the 7 and 28 complete days before today, day by day, empty days as zeros', async () => {
    const { answer } = await run();
    expect(answer.charts.rejectRate).toHaveLength(7);
    expect(answer.charts.rejectRate[0]).toEqual({ day: '2026-03-08', items: 4, rejected: 1, rate: 0.25 });
    expect(answer.charts.rejectRate[1]).toEqual({ day: '2026-03-09', items: 0, rejected: 0, rate: null });
    expect(answer.charts.rejectRate[6]).toEqual({ day: '2026-03-14', items: 6, rejected: 3, rate: 0.5 });
    expect(answer.charts.volumePerDay).toHaveLength(28);
    expect(answer.charts.volumePerDay[0]).toEqual({ day: '2026-02-15', sessions: 2, accepted: 7, rejected: 1, refund: 0.7 });
    expect(answer.charts.volumePerDay[27]).toEqual({ day: '2026-03-14', sessions: 2, accepted: 3, rejected: 3, refund: 0.33 });
  });

  it('answers no reject rate without items, and zeros without figures', async () => {
    const { db } = fakeDb([], []);
    const answer = await computeDashboard({ db, model, caller, account: 5, base: {}, periods, currency: 'EUR', usage: async () => ({ days: [], allTimeAccepted: 0 }) });
    expect(answer.machineCount).toBe(0);
    expect(answer.charts.typesOverview).toEqual([]);
    expect(cardOf(answer as never, 'rejectRate').value).toBeNull();
    expect(cardOf(answer as never, 'todayReport').report).toEqual({ sessions: 0, items: 0, accepted: 0, rejected: 0, refund: 0, rejectRate: null });
    expect(cardOf(answer as never, 'consumerSessions')).toEqual({ key: 'consumerSessions', value: 0, average: 0 });
    expect(answer.currency).toBe('EUR');
  });
});

describe("the document's card table", () => {
  it('replaces the part between its markers, wherever they are, and leaves a document without both markers alone', () => {
    const table = cardsSection();
    expect(table.startsWith(CARDS_START)).toBe(true);
    expect(table.endsWith(CARDS_END)).toBe(true);
    expect(table).toContain('| `downOverHour` | ');
    expect(table).toContain('`downSince: now − 1 h`');
    expect(table).toContain("`currentSts: 'Offline'`");
    expect(table).toContain("the saved filter's body");
    expect(withCardsSection(`${CARDS_START}old${CARDS_END} after`)).toBe(`${table} after`);
    expect(withCardsSection(`before ${CARDS_START}old${CARDS_END}`)).toBe(`before ${table}`);
    for (const partial of ['no markers', `${CARDS_START} no end`, `no start ${CARDS_END}`, `x${CARDS_START} no end`]) expect(withCardsSection(partial)).toBe(partial);
  });
});

describe('machineConditions', () => {
  it("skips blank values, turns a fact into its set or its negation, and other names into the list's filters", () => {
    const render = (conditions: SQL[]) => conditions.map((condition) => dialect.sqlToQuery(condition).sql);
    const now = new Date('2026-03-15T02:00:00Z');
    expect(machineConditions(model, { termNo: '', fleetId: null, currentSts: undefined }, 5, now)).toEqual([]);
    const [full] = render(machineConditions(model, { full: true }, 5, now));
    const [notFull] = render(machineConditions(model, { full: false }, 5, now));
    expect(full).toContain('rvm_bin');
    expect(notFull).toBe(`not ${full}`);
    expect(render(machineConditions(model, { currentSts: 'Up' }, 5, now))[0]).toContain('current_sts');
    // a boolean on a filter that is no fact is the list's own filter
    expect(render(machineConditions(model, { sts: true } as never, 5, now))[0]).toContain('"rvm"."sts"');
  });
});
