// The dashboard's computation BEFORE the single-pass rewrite (server/dashboard/compute.ts at commit 6495a74),
// kept only so bench/dashboardBreakdown.ts measures before and after on the same data in one run: three
// passes over the machines side by side on three connections (each repeating the saved filter's
// conditions in every count), the membership sets per pass, JIT left to the server's default.
import { and, sql, type SQL } from 'drizzle-orm';
import { RVM_STATUSES } from '../resources/fleetCatalogue';
import { HOME_LIMITS } from '../resources/machine';
import type { Caller } from '../server/auth/principal';
import type { ResourceModel } from '../server/crud/model';
import { filterConditions, scopeCondition } from '../server/crud/query';
import { FACTS, isMachineFact } from './dashboardBeforeDefinitions';
import { rowsOf, type Db } from '../server/db/client';
import { rvm } from '../server/db/schema/fleet';
import { dayLabel } from '../server/lib/localDays';
import type { Periods } from '../server/dashboard/periods';
import type { DayUsage, UsageFigures } from '../server/dashboard/usage';
import type { Card, CardKey, Dashboard, MachineFilter, Report } from '../resources/dashboard';

/** The machine cards of that commit (the catalogue, resources/dashboard.ts, may have more since). */
type BeforeMachineCard =
  | 'machines'
  | 'downOverHour'
  | 'full'
  | 'offlineOverWeek'
  | 'profileMismatch'
  | 'offline'
  | 'highRejectRate'
  | 'quarantined'
  | 'notUsed'
  | 'needsClean'
  | 'octopusOffline'
  | 'alipayOffline';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

/** The machine conditions of a list body, as POST /rvm/page applies them; facts in their whole-account form. */
const machineConditions = (model: ResourceModel, body: MachineFilter, account: number, now: Date): SQL[] =>
  Object.entries(body).flatMap(([name, value]) => {
    if (value === undefined || value === null || value === '') return [];
    if (isMachineFact(name) && typeof value === 'boolean') {
      const fact = FACTS[name].inAccount(account, now);
      return [value ? fact : sql`not ${fact}`];
    }
    return filterConditions(model, { [name]: value });
  });

/** Cards counted in passes of their own (their sets are the dearest to compute); the rest share pass 0. */
const PASSES: ReadonlyArray<readonly string[]> = [['highRejectRate'], ['profileMismatch', 'full', 'needsClean']];

const cardConditions = (now: Date): Record<BeforeMachineCard, MachineFilter> => ({
  machines: {},
  downOverHour: { downSince: new Date(now.getTime() - HOME_LIMITS.downHours * HOUR).toISOString() },
  full: { full: true },
  offlineOverWeek: { offlineSince: new Date(now.getTime() - HOME_LIMITS.offlineDays * DAY).toISOString() },
  profileMismatch: { profileMismatch: true },
  offline: { currentSts: 'Offline' },
  highRejectRate: { highRejectRate: true },
  quarantined: { quarantined: true },
  notUsed: { notUsedSince: new Date(now.getTime() - HOME_LIMITS.notUsedHours * HOUR).toISOString() },
  needsClean: { needsClean: true },
  octopusOffline: { octopusOffline: true },
  alipayOffline: { alipayOffline: true },
});

const money = (value: number) => Math.round(value * 100) / 100;
const ratio = (part: number, whole: number) => (whole > 0 ? part / whole : null);

const sumDays = (days: readonly DayUsage[]): Report => {
  const total = days.reduce(
    (sum, day) => ({
      sessions: sum.sessions + day.sessions,
      items: sum.items + day.items,
      accepted: sum.accepted + day.accepted,
      rejected: sum.rejected + day.rejected,
      refund: sum.refund + day.refund,
    }),
    { sessions: 0, items: 0, accepted: 0, rejected: 0, refund: 0 },
  );
  return { ...total, refund: money(total.refund), rejectRate: ratio(total.rejected, total.items) };
};

export interface DashboardInput {
  db: Db;
  model: ResourceModel;
  caller: Caller;
  account: number;
  /** The active saved filter's body (machine list filters), {} for the whole account. */
  base: MachineFilter;
  periods: Periods;
  currency: string;
  usage: (db: Db, machines: SQL | undefined) => Promise<UsageFigures>;
}

export const computeDashboardBefore = async ({ db, model, caller, account, base, periods, currency, usage }: DashboardInput): Promise<Dashboard> => {
  const now = periods.now;
  const scope = scopeCondition(model, caller);
  const baseConditions = machineConditions(model, base, account, now);
  const where = (body: MachineFilter) => and(scope, ...machineConditions(model, body, account, now)) ?? sql`true`;
  const composed = (extra: MachineFilter): MachineFilter => ({ ...base, ...extra });

  const cardFilters = Object.entries(cardConditions(periods.now)).map(([key, extra]) => ({ key: key as BeforeMachineCard, filter: composed(extra) }));
  const statusFilters = RVM_STATUSES.map((status) => ({ key: status, filter: composed({ currentSts: status }) }));
  const counted = [...cardFilters, ...statusFilters];

  // Passes over the account's machines, per model: the card and status counts of each model (their
  // sums are the cards) and each model's count in the scope (the types overview). The cards whose
  // sets cost the most are counted in passes of their own, run side by side on other connections.
  const passOf = (item: { key: string }) => PASSES.findIndex((keys) => keys.includes(item.key)) + 1;
  const passes = [0, ...PASSES.map((_, index) => index + 1)].map((pass) => counted.map((item, index) => ({ item, index })).filter(({ item }) => passOf(item) === pass));
  const [figures, ...passRows] = await Promise.all([
    // Without a saved filter (no condition) the whole account's roll-up answers.
    usage(db, baseConditions.length ? and(scope, ...baseConditions) : undefined),
    ...passes.map((items, pass) =>
      db.execute(sql`select ${rvm.termType} as term_type${pass === 0 ? sql`, count(*) filter (where ${and(...baseConditions) ?? sql`true`}) as scoped` : sql``},
          ${sql.join(
            items.map(({ item, index }) => sql`count(*) filter (where ${where(item.filter)}) as ${sql.identifier(`c${index}`)}`),
            sql`, `,
          )}
        from ${rvm} where ${scope ?? sql`true`} group by 1`),
    ),
  ]);
  const rows = passRows.map((result) => rowsOf<Record<string, number | string>>(result));
  const countOf = (index: number) => rows[passOf(counted[index])].reduce((sum, row) => sum + Number(row[`c${index}`] ?? 0), 0);
  const perType = rows[0];
  const typeRows = perType
    .map((row) => ({ termType: String(row.term_type), value: Number(row.scoped) }))
    .filter((row) => row.value > 0)
    .sort((a, b) => b.value - a.value || a.termType.localeCompare(b.termType));

  const byDay = new Map(figures.days.map((day) => [day.day, day]));
  const daysBetween = (from: number, to: number) => {
    const list: DayUsage[] = [];
    for (let day = from; day < to; day++) list.push(byDay.get(day) ?? { day, sessions: 0, items: 0, accepted: 0, rejected: 0, refund: 0 });
    return list;
  };
  const { today } = periods;
  const todayReport = sumDays(daysBetween(today, today + 1));
  const month = sumDays(daysBetween(periods.monthFirstDay, today + 1));
  const lastMonth = sumDays(daysBetween(periods.lastMonthFirstDay, periods.monthFirstDay));
  const averageDays = daysBetween(today - HOME_LIMITS.averageDays, today);
  const average = sumDays(averageDays);
  const rejectWindow = sumDays(daysBetween(today - HOME_LIMITS.rejectRateAverageDays, today));
  const perDay = (value: number) => value / HOME_LIMITS.averageDays;

  const machineCards: Card[] = cardFilters.map((item, index) => ({ key: item.key, value: countOf(index), filter: item.filter }));
  const usageCards: Card[] = [
    { key: 'consumerSessions', value: todayReport.sessions, average: perDay(average.sessions) },
    { key: 'refundValue', value: todayReport.refund, average: money(perDay(average.refund)) },
    { key: 'totalVolume', value: figures.allTimeAccepted },
    { key: 'volumeThisMonth', value: month.accepted },
    { key: 'volumeLastMonth', value: lastMonth.accepted },
    { key: 'todayReport', value: todayReport.accepted, average: perDay(average.accepted), report: todayReport },
    { key: 'monthlyReport', value: month.accepted, report: month },
    { key: 'rejectRate', value: rejectWindow.rejectRate },
  ];
  const order: readonly CardKey[] = [
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
  ];
  const cards = [...machineCards, ...usageCards].sort((a, b) => order.indexOf(a.key) - order.indexOf(b.key));

  return {
    now: periods.now.toISOString(),
    utcOffsetMinutes: periods.offsetMinutes,
    currency,
    machineCount: countOf(0),
    cards,
    charts: {
      statusOverview: statusFilters.map((item, index) => ({ key: item.key, value: countOf(cardFilters.length + index), filter: item.filter })),
      typesOverview: typeRows.map((row) => ({ key: row.termType, value: row.value, filter: composed({ termType: row.termType }) })),
      rejectRate: daysBetween(today - HOME_LIMITS.rejectRateCurveDays, today).map((day) => ({
        day: dayLabel(day.day),
        items: day.items,
        rejected: day.rejected,
        rate: ratio(day.rejected, day.items),
      })),
      volumePerDay: averageDays.map((day) => ({ day: dayLabel(day.day), sessions: day.sessions, accepted: day.accepted, rejected: day.rejected, refund: money(day.refund) })),
    },
  };
};
