// GET /dashboard's answer: every card of the catalogue (resources/dashboard.ts DASHBOARD_CARDS,
// with the definitions of docs/dashboard.md#card-definitions), in its order. Machine cards count the machines of the scope (the active saved filter of the machine list, else
// every machine of the license account) in two passes over the scope's machines, side by side; each
// carries the exact POST /rvm/page body listing those machines. Consumer figures come from rollup.ts.
import { and, sql, type SQL } from 'drizzle-orm';
import { RVM_STATUSES } from '../../resources/fleetCatalogue';
import { HOME_LIMITS } from '../../resources/machine';
import type { Caller } from '../auth/principal';
import type { ResourceModel } from '../crud/model';
import { filterConditions, scopeCondition } from '../crud/query';
import { rowsOf, type Db } from '../db/client';
import { rvm } from '../db/schema/fleet';
import { resolveRelativeTimes } from '../savedFilters/relativeTimes';
import { FACTS, isMachineFact } from './definitions';
import { dayLabel } from '../lib/localDays';
import { periodsOf, type Periods } from './periods';
import type { DayUsage, UsageFigures } from './usage';
import {
  DASHBOARD_CARDS,
  MACHINE_CARD_DEFINITIONS,
  type Card,
  type CardKey,
  type Dashboard,
  type MachineFilter,
  type Report,
  type UsageCardDefinition,
  type UsageFigure,
} from '../../resources/dashboard';

export type { Card, MachineFilter };

/**
 * The machine conditions of a list body, as POST /rvm/page applies them; facts in their whole-account form
 * (`within`: a condition every machine counted meets, which the facts' sets may use to read less).
 */
export const machineConditions = (model: ResourceModel, body: MachineFilter, account: number, now: Date, within?: SQL): SQL[] =>
  Object.entries(body).flatMap(([name, value]) => {
    if (value === undefined || value === null || value === '') return [];
    if (isMachineFact(name) && typeof value === 'boolean') {
      const fact = FACTS[name].inAccount(account, now, within);
      return [value ? fact : sql`not ${fact}`];
    }
    return filterConditions(model, { [name]: value });
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
  /** The consumer figures of the scope (`machines` undefined: the whole account), read through `db`. */
  usage: (db: Db, machines: SQL | undefined) => Promise<UsageFigures>;
  /** Cards counted in passes of their own (default SIDE_PASSES; the benchmark compares layouts). */
  sidePasses?: ReadonlyArray<readonly string[]>;
}

/**
 * Cards counted by a second pass beside the main one (see computeDashboard): the 24-hour reject-rate set
 * is half the CPU of all the sets; the profile versions most of the rest.
 */
export const SIDE_PASSES: ReadonlyArray<readonly string[]> = [['highRejectRate', 'profileMismatch']];

const isBlank = (value: unknown) => value === undefined || value === null || value === '';

export const computeDashboard = async (input: DashboardInput): Promise<Dashboard> => {
  const { db, model, caller, account, base, periods, currency, usage } = input;
  const now = periods.now;
  const scope = scopeCondition(model, caller);
  const baseConditions = machineConditions(model, base, account, now);
  const composed = (extra: MachineFilter): MachineFilter => ({ ...base, ...extra });

  const cardExtras = MACHINE_CARD_DEFINITIONS.map((card) => ({ key: card.key, extra: resolveRelativeTimes(card.filter, now) }));
  const statusExtras = RVM_STATUSES.map((status) => ({ key: status, extra: { currentSts: status } as MachineFilter }));
  const counted = [...cardExtras, ...statusExtras];

  // Passes over the scope's machines count every card and status per model (their sums are the
  // cards; the per-model count of the scope is the types overview). A card's list filter is the
  // saved filter with the card's own condition added, replacing the saved one of the same name
  // (docs/dashboard.md): the saved filter's conditions no card replaces (typically its fleets)
  // select the rows once, in WHERE (and bound the dearest set, `within`); the few a card may
  // replace are repeated per card.
  const replaceable = new Set(counted.flatMap(({ extra }) => Object.keys(extra)));
  const used = Object.entries(base).filter(([, value]) => !isBlank(value));
  const common = Object.fromEntries(used.filter(([name]) => !replaceable.has(name)));
  const replaced = Object.fromEntries(used.filter(([name]) => replaceable.has(name)));
  const commonConditions = machineConditions(model, common, account, now);
  const where = and(scope, ...commonConditions) ?? sql`true`;
  const counter = (extra: MachineFilter) => {
    const kept = Object.fromEntries(Object.entries(replaced).filter(([name]) => !(name in extra)));
    const conditions = machineConditions(model, { ...kept, ...extra }, account, now, commonConditions.length ? where : undefined);
    return conditions.length ? sql`count(*) filter (where ${and(...conditions)})` : sql`count(*)`;
  };

  // The cards of `sidePasses` are counted by passes of their own, on other connections at the same
  // time; the rest, the statuses and the scope per model share the main pass. Two passes also keep
  // each statement's cost estimate well under PostgreSQL's jit_above_cost (100,000 by default; about
  // 40,000 for the side pass at 10,000 machines): compiling a pass costs more CPU than running it.
  const sidePasses = input.sidePasses ?? SIDE_PASSES;
  const passOf = (key: string) => sidePasses.findIndex((keys) => keys.includes(key)) + 1;
  const passQuery = (pass: number) => sql`select ${rvm.termType} as term_type${pass === 0 ? sql`, ${counter({})} as scoped` : sql``}
      ${sql.join(
        counted.flatMap(({ key, extra }, index) => (passOf(key) === pass ? [sql`, ${counter(extra)} as ${sql.identifier(`c${index}`)}`] : [])),
        sql``,
      )}
    from ${rvm} where ${where} group by 1`;
  const [figures, ...passResults] = await Promise.all([
    // Without a saved filter (no condition) the whole account's roll-up answers.
    usage(db, baseConditions.length ? and(scope, ...baseConditions) : undefined),
    ...[0, ...sidePasses.map((_, index) => index + 1)].map((pass) => db.execute(passQuery(pass))),
  ]);
  const passRows = passResults.map((result) => rowsOf<Record<string, number | string>>(result));
  const perType = passRows[0];
  const countOf = (index: number) => passRows[passOf(counted[index].key)].reduce((sum, row) => sum + Number(row[`c${index}`] ?? 0), 0);
  const typeRows = perType
    .map((row) => ({ termType: String(row.term_type), value: Number(row.scoped) }))
    .filter((row) => row.value > 0)
    .sort((a, b) => b.value - a.value || a.termType.localeCompare(b.termType));
  const cardFilters = cardExtras.map(({ key, extra }) => ({ key, filter: composed(extra) }));
  const statusFilters = statusExtras.map(({ key, extra }) => ({ key, filter: composed(extra) }));

  const byDay = new Map(figures.days.map((day) => [day.day, day]));
  const daysBetween = (from: number, to: number) => {
    const list: DayUsage[] = [];
    for (let day = from; day < to; day++) list.push(byDay.get(day) ?? { day, sessions: 0, items: 0, accepted: 0, rejected: 0, refund: 0 });
    return list;
  };
  const { today } = periods;
  // The windows a usage card may read (UsageFigure), each summed once.
  const periodReports: Record<Exclude<UsageFigure['period'], 'allTime'>, Report> = {
    today: sumDays(daysBetween(today, today + 1)),
    thisMonth: sumDays(daysBetween(periods.monthFirstDay, today + 1)),
    lastMonth: sumDays(daysBetween(periods.lastMonthFirstDay, periods.monthFirstDay)),
    rejectRateDays: sumDays(daysBetween(today - HOME_LIMITS.rejectRateAverageDays, today)),
  };
  const averageDays = daysBetween(today - HOME_LIMITS.averageDays, today);
  const average = sumDays(averageDays);
  const perDay = (value: number) => value / HOME_LIMITS.averageDays;

  const usageCard = ({ key, section, figure }: UsageCardDefinition<CardKey>): Card => {
    if (figure.period === 'allTime') return { key, value: figures.allTimeAccepted };
    const report = periodReports[figure.period];
    const card: Card = { key, value: report[figure.measure] };
    if ('averagePerDay' in figure && figure.averagePerDay) {
      const daily = perDay(average[figure.measure]);
      card.average = figure.measure === 'refund' ? money(daily) : daily;
    }
    if (section === 'reports') card.report = report;
    return card;
  };
  const machineCard = (key: CardKey): Card => {
    const index = cardFilters.findIndex((item) => item.key === key);
    return { key, value: countOf(index), filter: cardFilters[index].filter };
  };
  const cards = DASHBOARD_CARDS.map((definition) => (definition.section === 'machines' ? machineCard(definition.key) : usageCard(definition)));

  return {
    now: periods.now.toISOString(),
    utcOffsetMinutes: periods.offsetMinutes,
    currency,
    machineCount: perType.reduce((sum, row) => sum + Number(row.scoped), 0),
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

export { periodsOf };
