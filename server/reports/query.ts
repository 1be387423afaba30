// The four reports' figures (definitions: docs/reports.md) from the report roll-ups: whole UTC weeks
// from `rvm_weekly_items`, whole days around them from `rvm_daily_items`, the hours around those from `rvm_hourly_items`, local days and reasons of a
// whole account from `account_hourly_items`. Ranges are [from, to) in whole hours.
import { sql, type SQL } from 'drizzle-orm';
import { REJECT_REASONS, MATERIALS, type ReportKind } from '../../resources/reports';
import { rowsOf, type Db } from '../db/client';
import { materialColumn, reasonColumn } from '../db/schema/reports';
import { AppError } from '../lib/errors';
import { REPORT_LIMITS } from '../../resources/reports';

const HOUR = 3_600_000;
const DAY = 86_400_000;

export interface ReportScope {
  accountId: number;
  fleetIds?: readonly number[];
  machineIds?: readonly number[];
}

export interface ReportRange {
  from: Date;
  to: Date;
  /** Local days (Volumes_Daily) are cut at this offset, in whole hours. */
  utcOffsetMinutes: number;
}

export interface ReportPage {
  pageNum: number;
  pageSize: number;
  sort?: string;
}

export type Row = Record<string, string | number | null>;

export interface ReportData {
  report: ReportKind;
  rows: Row[];
  total: number;
  /** Sums over the whole selection and range (not only the page). */
  totals: Record<string, number | null>;
  /** Chart series: per material (volumes), per day (volumesDaily), per reason (acceptedRejects, barcodeRejects). */
  chart: Row[];
}

/** 9300 / 9301 when the range cannot be a report's (docs/reports.md "Ranges"). */
export const checkRange = (range: ReportRange): void => {
  const from = range.from.getTime();
  const to = range.to.getTime();
  if (!Number.isFinite(from) || !Number.isFinite(to) || to <= from || to - from > REPORT_LIMITS.maxRangeDays * DAY) throw new AppError('9300');
  if (from % HOUR !== 0 || to % HOUR !== 0 || range.utcOffsetMinutes % 60 !== 0) throw new AppError('9301');
};

const scopeCondition = (scope: ReportScope, column: SQL): SQL => {
  const parts: SQL[] = [];
  if (scope.fleetIds?.length) {
    parts.push(sql`${column} in (select r.id from rvm r where r.license_account_id = ${scope.accountId} and r.fleet_id in (
      with recursive subtree(id) as (
        select f.id from fleet f where f.id = any(${sql.param([...scope.fleetIds])}::int4[]) and f.license_account_id = ${scope.accountId}
        union select child.id from fleet child join subtree on child.parent_id = subtree.id
      ) select id from subtree))`);
  }
  if (scope.machineIds?.length) parts.push(sql`${column} = any(${sql.param([...scope.machineIds])}::int4[])`);
  return parts.length ? sql.join(parts, sql` and `) : sql`true`;
};
const isWholeAccount = (scope: ReportScope) => !scope.fleetIds?.length && !scope.machineIds?.length;

const iso = (ms: number) => new Date(ms).toISOString();
const dayText = (ms: number) => iso(ms).slice(0, 10);

/** The range as whole UTC days [firstDay, endDay) plus the hours before and after them. */
const split = (range: ReportRange) => {
  const from = range.from.getTime();
  const to = range.to.getTime();
  const firstDay = Math.ceil(from / DAY) * DAY;
  const endDay = Math.floor(to / DAY) * DAY;
  return endDay > firstDay ? { from, to, firstDay, endDay } : { from, to, firstDay: to, endDay: to };
};

const list = (columns: readonly string[], prefix = '') => sql.raw(columns.map((column) => `${prefix}${column}`).join(', '));
const sums = (columns: readonly string[]) => sql.raw(columns.map((column) => `sum(${column})::int8 as ${column}`).join(', '));

/** Mondays (UTC) at or after / at or before a day. */
const WEEK = 7 * DAY;
// 1970-01-05 was a Monday: weeks are counted from it.
const MONDAY = 4 * DAY;
const weekCeil = (ms: number) => Math.ceil((ms - MONDAY) / WEEK) * WEEK + MONDAY;
const weekFloor = (ms: number) => Math.floor((ms - MONDAY) / WEEK) * WEEK + MONDAY;

/** Per machine sums of `columns` over the range (a derived table `rvm_id, <columns>`): whole weeks, then days, then hours. */
const perMachine = (scope: ReportScope, range: ReportRange, columns: readonly string[]): SQL => {
  const { from, to, firstDay, endDay } = split(range);
  let firstWeek = weekCeil(firstDay);
  let endWeek = weekFloor(endDay);
  if (endWeek <= firstWeek) firstWeek = endWeek = endDay;
  const machines = scopeCondition(scope, sql`rvm_id`);
  const between = (column: string, start: number, end: number, text: (ms: number) => string, cast: string) =>
    sql`${sql.raw(column)} >= ${text(start)}::${sql.raw(cast)} and ${sql.raw(column)} < ${text(end)}::${sql.raw(cast)}`;
  return sql`(select rvm_id, ${sums(columns)} from (
      select rvm_id, ${list(columns)} from rvm_weekly_items where license_account_id = ${scope.accountId}
        and ${between('week', firstWeek, endWeek, dayText, 'date')} and ${machines}
      union all
      select rvm_id, ${list(columns)} from rvm_daily_items where license_account_id = ${scope.accountId}
        and ((${between('day', firstDay, firstWeek, dayText, 'date')}) or (${between('day', endWeek, endDay, dayText, 'date')})) and ${machines}
      union all
      select rvm_id, ${list(columns)} from rvm_hourly_items where license_account_id = ${scope.accountId}
        and ((${between('hour', from, firstDay, iso, 'timestamptz')}) or (${between('hour', endDay, to, iso, 'timestamptz')})) and ${machines}
    ) parts group by rvm_id)`;
};

/** Sums of `columns` per local day (`day` text) over the whole selection, from hours. */
const perLocalDay = async (db: Db, scope: ReportScope, range: ReportRange, columns: readonly string[]) => {
  const offset = `${range.utcOffsetMinutes} minutes`;
  const day = sql`to_char((hour at time zone 'UTC') + ${offset}::interval, 'YYYY-MM-DD')`;
  const window = sql`hour >= ${range.from.toISOString()}::timestamptz and hour < ${range.to.toISOString()}::timestamptz`;
  const rows = isWholeAccount(scope)
    ? await db.execute(sql`select ${day} as day, ${sums(columns)} from account_hourly_items
        where license_account_id = ${scope.accountId} and ${window} group by 1`)
    : await db.execute(sql`select ${day} as day, ${sums(columns)} from rvm_hourly_items
        where license_account_id = ${scope.accountId} and ${window} and ${scopeCondition(scope, sql`rvm_id`)} group by 1`);
  return new Map(rowsOf<Row>(rows).map((row) => [String(row.day), row]));
};

/** Sums of `columns` over the whole selection and range. */
const overall = async (db: Db, scope: ReportScope, range: ReportRange, columns: readonly string[]): Promise<Row> => {
  const rows = isWholeAccount(scope)
    ? await db.execute(sql`select ${sums(columns)} from account_hourly_items where license_account_id = ${scope.accountId}
        and hour >= ${range.from.toISOString()}::timestamptz and hour < ${range.to.toISOString()}::timestamptz`)
    : await db.execute(sql`select ${sums(columns)} from ${perMachine(scope, range, columns)} m`);
  return rowsOf<Row>(rows)[0] ?? {};
};

const num = (value: unknown) => Number(value ?? 0);
const toIso = (value: unknown) =>
  (value instanceof Date
    ? value
    : new Date(
        String(value)
          .replace(' ', 'T')
          .replace(/([+-]\d\d)$/, '$1:00'),
      )
  ).toISOString();
const rate = (rejected: number, items: number) => (items > 0 ? rejected / items : null);
const MATERIAL_COLUMNS = MATERIALS.map(materialColumn);
const REASON_COLUMNS = REJECT_REASONS.map(reasonColumn);
const materialsOf = (row: Row) => Object.fromEntries(MATERIALS.map((type) => [`material:${type}`, num(row[materialColumn(type)])]));

/** The local days of the range (at its offset), oldest first. */
export const localDays = (range: ReportRange): string[] => {
  const shift = range.utcOffsetMinutes * 60_000;
  const days: string[] = [];
  for (let day = Math.floor((range.from.getTime() + shift) / DAY) * DAY; day < range.to.getTime() + shift; day += DAY) days.push(dayText(day));
  return days;
};

const machineRows = async (db: Db, scope: ReportScope, range: ReportRange, columns: readonly string[], order: string, page: ReportPage | null) => {
  const limit = page ? sql`limit ${page.pageSize} offset ${(page.pageNum - 1) * page.pageSize}` : sql``;
  const rows = await db.execute(sql`
    select r.id as "rvmId", r.term_no as "termNo", f.name as "fleetName", ${list(columns.map((column) => `coalesce(m.${column}, 0)::int8 as ${column}`))},
      count(*) over () as total
    from rvm r join fleet f on f.id = r.fleet_id left join ${perMachine(scope, range, columns)} m on m.rvm_id = r.id
    where r.license_account_id = ${scope.accountId} and ${scopeCondition(scope, sql`r.id`)}
    order by ${sql.raw(order)}, r.term_no, r.id ${limit}`);
  const list_ = rowsOf<Row>(rows);
  return { rows: list_, total: num(list_[0]?.total) };
};

const VOLUME_SORTS: Record<string, string> = { accepted: 'accepted desc', termNo: 'r.term_no' };
const REJECT_SORTS: Record<string, string> = {
  rejected: 'rejected desc',
  accepted: 'accepted desc',
  items: 'items desc',
  termNo: 'r.term_no',
  rejectRate: '(case when coalesce(m.items, 0) = 0 then null else m.rejected::float8 / m.items end) desc nulls last',
};

const volumes = async (db: Db, scope: ReportScope, range: ReportRange, page: ReportPage | null): Promise<ReportData> => {
  const columns = ['accepted', ...MATERIAL_COLUMNS];
  const [machines, sum] = await Promise.all([
    machineRows(db, scope, range, columns, VOLUME_SORTS[page?.sort ?? 'accepted'] ?? VOLUME_SORTS.accepted, page),
    overall(db, scope, range, columns),
  ]);
  return {
    report: 'volumes',
    total: machines.total,
    rows: machines.rows.map((row) => ({ rvmId: num(row.rvmId), termNo: row.termNo, fleetName: row.fleetName, accepted: num(row.accepted), ...materialsOf(row) })),
    totals: { accepted: num(sum.accepted), ...materialsOf(sum) },
    chart: MATERIALS.map((type) => ({ key: type, accepted: num(sum[materialColumn(type)]) })),
  };
};

const volumesDaily = async (db: Db, scope: ReportScope, range: ReportRange): Promise<ReportData> => {
  const columns = ['accepted', ...MATERIAL_COLUMNS];
  const byDay = await perLocalDay(db, scope, range, columns);
  const rows = localDays(range).map((day) => {
    const row = byDay.get(day) ?? {};
    return { day, accepted: num(row.accepted), ...materialsOf(row) };
  });
  const totals: Record<string, number> = { accepted: 0, ...Object.fromEntries(MATERIALS.map((type) => [`material:${type}`, 0])) };
  for (const row of rows) for (const key of Object.keys(totals)) totals[key] += num(row[key as keyof typeof row]);
  return { report: 'volumesDaily', total: rows.length, rows, totals, chart: rows };
};

const reasonChart = (sum: Row) => REJECT_REASONS.map((code) => ({ key: String(code), rejected: num(sum[reasonColumn(code)]) })).filter((entry) => entry.rejected > 0);

const acceptedRejects = async (db: Db, scope: ReportScope, range: ReportRange, page: ReportPage | null): Promise<ReportData> => {
  const columns = ['items', 'accepted', 'rejected'];
  const [machines, sum] = await Promise.all([
    machineRows(db, scope, range, columns, REJECT_SORTS[page?.sort ?? 'rejected'] ?? REJECT_SORTS.rejected, page),
    overall(db, scope, range, [...columns, ...REASON_COLUMNS]),
  ]);
  return {
    report: 'acceptedRejects',
    total: machines.total,
    rows: machines.rows.map((row) => ({
      rvmId: num(row.rvmId),
      termNo: row.termNo,
      fleetName: row.fleetName,
      items: num(row.items),
      accepted: num(row.accepted),
      rejected: num(row.rejected),
      rejectRate: rate(num(row.rejected), num(row.items)),
    })),
    totals: { items: num(sum.items), accepted: num(sum.accepted), rejected: num(sum.rejected), rejectRate: rate(num(sum.rejected), num(sum.items)) },
    chart: reasonChart(sum),
  };
};

const barcodeRejects = async (db: Db, scope: ReportScope, range: ReportRange, page: ReportPage | null): Promise<ReportData> => {
  const sum = await overall(db, scope, range, ['rejected', ...REASON_COLUMNS]);
  const total = num(sum.rejected);
  if (!page && total > REPORT_LIMITS.maxFileRows) throw new AppError('9302');
  const limit = page ? sql`limit ${page.pageSize} offset ${(page.pageNum - 1) * page.pageSize}` : sql``;
  // Newest first: the account's sessions by start time (index), their rejected items by key.
  const rows = await db.execute(sql`
    select s.start_time as time, r.id as "rvmId", r.term_no as "termNo", f.name as "fleetName", i.barcode, i.item_type as "itemType", i.reject_reason as reason
    from consumer_session s join consumer_session_item i on i.session_id = s.id and i.reject_reason is not null
      join rvm r on r.id = s.rvm_id join fleet f on f.id = r.fleet_id
    where s.license_account_id = ${scope.accountId} and s.start_time >= ${range.from.toISOString()}::timestamptz
      and s.start_time < ${range.to.toISOString()}::timestamptz and ${scopeCondition(scope, sql`s.rvm_id`)}
    order by s.start_time desc, s.id desc, i.seq ${limit}`);
  return {
    report: 'barcodeRejects',
    total,
    rows: rowsOf<Row>(rows).map((row) => ({
      time: toIso(row.time as unknown),
      rvmId: num(row.rvmId),
      termNo: row.termNo,
      fleetName: row.fleetName,
      barcode: row.barcode ?? null,
      itemType: row.itemType,
      reason: num(row.reason),
    })),
    totals: { rejected: total },
    chart: reasonChart(sum),
  };
};

/** One report's figures; `page` null = every row (files). */
export const queryReport = (db: Db, report: ReportKind, scope: ReportScope, range: ReportRange, page: ReportPage | null): Promise<ReportData> => {
  checkRange(range);
  switch (report) {
    case 'volumes':
      return volumes(db, scope, range, page);
    case 'volumesDaily':
      return volumesDaily(db, scope, range);
    case 'acceptedRejects':
      return acceptedRejects(db, scope, range, page);
    case 'barcodeRejects':
      return barcodeRejects(db, scope, range, page);
  }
};
