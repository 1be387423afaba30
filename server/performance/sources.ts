// Where the performance figures come from (docs/performance.md), in two forms that give the same numbers:
// - `rawSource`: the stored consumer sessions and alarm events themselves (a machine's are a few
//   hundred rows; a fleet's or an account's millions: the benchmark's reference);
// - `rollupSource`: the fleet roll-ups kept by the gateway (server/performance/rollup.ts), with the part
//   days at a range's edges and the still-open events read from the events.
// Items count by their session's start time, error events by their raised time; an error event is an
// alarm of severity "error" (resources/fleetCatalogue.ts).
import { sql, type SQL } from 'drizzle-orm';
import { rowsOf, type Db } from '../db/client';
import { DAY_MS } from '../lib/localDays';
import type { PerformanceRange } from './range';
import type { PerformanceScope } from './scope';

/** Items and error events of one fleet's machines on one local day. */
export interface FleetDay {
  fleetId: number;
  day: number;
  items: number;
  errors: number;
}

/** Error events of one alarm code raised in the range: how many, how many cleared, how long all were open (ms; open ones until now). */
export interface CodeFigures {
  code: string;
  raised: number;
  cleared: number;
  openMs: number;
}

export interface PerformanceSource {
  usage(db: Db, scope: PerformanceScope, range: PerformanceRange): Promise<FleetDay[]>;
  errors(db: Db, scope: PerformanceScope, range: PerformanceRange): Promise<CodeFigures[]>;
}

const at = (time: Date) => sql`${time.toISOString()}::timestamptz`;
// date_part (double precision) rather than extract (numeric): half the time over the tens of thousands of roll-up rows.
const localDay = (time: SQL, range: PerformanceRange) => sql`floor((date_part('epoch', ${time}) + ${range.offsetMinutes * 60}) / 86400)::int`;
const ms = (interval: SQL) => sql`round(extract(epoch from (${interval})) * 1000)`;
const num = (value: unknown) => Number(value ?? 0);

/** The scope's machines as a condition on a table's rvm_id column. */
const machinesOf = (scope: PerformanceScope, column: SQL): SQL => {
  if (scope.machine) return sql`${column} = ${scope.machine.id}`;
  if (scope.fleetIds) {
    return sql`${column} in (select r.id from rvm r where r.license_account_id = ${scope.account} and r.fleet_id = any(${sql.param(scope.fleetIds)}::int4[]))`;
  }
  return sql`true`;
};

const toFleetDays = (rows: Array<Record<string, unknown>>): FleetDay[] =>
  rows.map((row) => ({ fleetId: num(row.fleet_id), day: num(row.day), items: num(row.items), errors: num(row.errors) }));

const toCodes = (rows: Array<Record<string, unknown>>): CodeFigures[] =>
  rows.map((row) => ({ code: String(row.code), raised: num(row.raised), cleared: num(row.cleared), openMs: num(row.open_ms) }));

/** Error events raised in [from, to) of the scope, per code, from the events. */
const eventsPerCode = async (db: Db, scope: PerformanceScope, range: PerformanceRange, windows: Array<[Date, Date]>): Promise<CodeFigures[]> => {
  if (!windows.length) return [];
  const inWindows = sql.join(
    windows.map(([from, to]) => sql`(e.raised_time >= ${at(from)} and e.raised_time < ${at(to)})`),
    sql` or `,
  );
  return toCodes(
    rowsOf(
      await db.execute(sql`
    select e.code, count(*) as raised, count(e.cleared_time) as cleared,
      coalesce(sum(case when e.cleared_time is null then ${ms(sql`${at(range.now)} - e.raised_time`)} else ${ms(sql`e.cleared_time - e.raised_time`)} end), 0) as open_ms
    from rvm_event e
    where e.license_account_id = ${scope.account} and e.severity = 'error' and (${inWindows}) and ${machinesOf(scope, sql`e.rvm_id`)}
    group by e.code`),
    ),
  );
};

export const rawSource: PerformanceSource = {
  async usage(db, scope, range) {
    const machines = (column: SQL) => machinesOf(scope, column);
    // One machine: its fleet is known (no join over the machines).
    const fleetOf = scope.machine ? sql`${scope.machine.fleetId}::int4` : sql`r.fleet_id`;
    const join = scope.machine ? sql`` : sql`join rvm r on r.id = x.rvm_id`;
    const rows = await db.execute(sql`
      select ${fleetOf} as fleet_id, x.day, sum(x.items) as items, sum(x.errors) as errors
      from (
        select cs.rvm_id, ${localDay(sql`cs.start_time`, range)} as day, sum(cs.item_count) as items, 0 as errors
        from consumer_session cs
        where cs.license_account_id = ${scope.account} and cs.start_time >= ${at(range.start)} and cs.start_time < ${at(range.end)}
          and ${machines(sql`cs.rvm_id`)}
        group by 1, 2
        union all
        select e.rvm_id, ${localDay(sql`e.raised_time`, range)}, 0, count(*)
        from rvm_event e
        where e.license_account_id = ${scope.account} and e.severity = 'error' and e.raised_time >= ${at(range.start)} and e.raised_time < ${at(range.end)}
          and ${machines(sql`e.rvm_id`)}
        group by 1, 2
      ) x ${join}
      group by 1, 2`);
    return toFleetDays(rowsOf(rows));
  },
  errors: (db, scope, range) => eventsPerCode(db, scope, range, [[range.start, range.end]]),
};

export const rollupSource: PerformanceSource = {
  async usage(db, scope, range) {
    // A machine's own rows are few; local days cut inside an hour (offsets such as UTC+5:30) need the rows too.
    if (scope.machine || range.offsetMinutes % 60 !== 0) return rawSource.usage(db, scope, range);
    const fleets = scope.fleetIds ? sql`and fleet_id = any(${sql.param(scope.fleetIds)}::int4[])` : sql``;
    const rows = await db.execute(sql`
      select fleet_id, ${localDay(sql`hour`, range)} as day, sum(items) as items, sum(errors) as errors
      from fleet_hourly_usage
      where license_account_id = ${scope.account} ${fleets} and hour >= ${at(range.start)} and hour < ${at(range.end)}
      group by 1, 2`);
    return toFleetDays(rowsOf(rows));
  },
  async errors(db, scope, range) {
    if (scope.machine) return rawSource.errors(db, scope, range);
    // Whole UTC days from the roll-up; the part days at the range's edges from the events.
    const firstWhole = new Date(Math.ceil(range.start.getTime() / DAY_MS) * DAY_MS);
    const endWhole = new Date(Math.floor(range.end.getTime() / DAY_MS) * DAY_MS);
    if (firstWhole >= endWhole) return rawSource.errors(db, scope, range);
    const fleets = scope.fleetIds ? sql`and d.fleet_id = any(${sql.param(scope.fleetIds)}::int4[])` : sql``;
    const edges: Array<[Date, Date]> = [];
    if (range.start < firstWhole) edges.push([range.start, firstWhole]);
    if (endWhole < range.end) edges.push([endWhole, range.end]);
    const day = (time: Date) => time.toISOString().slice(0, 10);
    const [whole, open, edgeCodes] = await Promise.all([
      db.execute(sql`
        select d.code, sum(d.raised) as raised, sum(d.cleared) as cleared, sum(d.cleared_ms) as open_ms
        from fleet_daily_errors d
        where d.license_account_id = ${scope.account} ${fleets} and d.day >= ${day(firstWhole)}::date and d.day < ${day(endWhole)}::date
        group by 1`),
      // Still open: from the partial index of open alarms (a few hundred in a fleet of 10,000).
      db.execute(sql`
        select e.code, coalesce(sum(${ms(sql`${at(range.now)} - e.raised_time`)}), 0) as open_ms
        from rvm_event e
        where e.license_account_id = ${scope.account} and e.cleared_time is null and e.severity = 'error'
          and e.raised_time >= ${at(firstWhole)} and e.raised_time < ${at(endWhole)} and ${machinesOf(scope, sql`e.rvm_id`)}
        group by 1`),
      eventsPerCode(db, scope, range, edges),
    ]);
    const byCode = new Map<string, CodeFigures>();
    const merge = (row: CodeFigures) => {
      const sum = byCode.get(row.code) ?? { code: row.code, raised: 0, cleared: 0, openMs: 0 };
      byCode.set(row.code, { code: row.code, raised: sum.raised + row.raised, cleared: sum.cleared + row.cleared, openMs: sum.openMs + row.openMs });
    };
    toCodes(rowsOf(whole)).forEach(merge);
    rowsOf<{ code: string; open_ms: unknown }>(open).forEach((row) => merge({ code: row.code, raised: 0, cleared: 0, openMs: num(row.open_ms) }));
    edgeCodes.forEach(merge);
    return [...byCode.values()].filter((row) => row.raised > 0);
  },
};
