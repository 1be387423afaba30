// The four reports in the benchmark (bench/cases.ts): POST /report/data over the last 30 local days
// (UTC+8, the demo fleet's) of the whole account. Before measuring, every report's numbers (from the
// report roll-ups, server/reports/query.ts) are checked against a raw scan computing the same numbers
// from the stored sessions and items — the run stops if one differs — and both are timed: the
// figures and their ratio go to docs/benchmarks.md between the `reports` markers.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { asc, sql } from 'drizzle-orm';
import { ITEM_TYPES, REJECT_REASON_CODES } from '../resources/fleetCatalogue';
import { REPORT_KINDS, type ReportKind } from '../resources/reports';
import { rowsOf, type Db } from '../server/db/client';
import { rvm } from '../server/db/schema/fleet';
import { materialColumn, reasonColumn } from '../server/db/schema/reports';
import { COUNT_COLUMNS, itemAggregates } from '../server/reports/rollup';
import { localDays, queryReport, type ReportData, type ReportRange, type ReportScope } from '../server/reports/query';
import type { BenchCase } from './cases';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const OFFSET = 480;
const RUNS = 15;
const PAGE = { pageNum: 1, pageSize: 20 };

type Counts = Record<string, number>;

/** Per machine and per local day sums of every count column, straight from consumer_session + consumer_session_item. */
const rawScan = async (db: Db, scope: ReportScope, range: ReportRange) => {
  const where = sql`s.license_account_id = ${scope.accountId} and s.start_time >= ${range.from.toISOString()}::timestamptz and s.start_time < ${range.to.toISOString()}::timestamptz`;
  const named = (rows: Array<Record<string, unknown>>, key: string) =>
    new Map(rows.map((row) => [String(row[key]), Object.fromEntries(COUNT_COLUMNS.map((column, index) => [column, Number(row[`c${index}`])])) as Counts]));
  const aggregates = sql.raw(
    itemAggregates('i')
      .split(', count')
      .map((part, index) => `${index ? 'count' : ''}${part} as c${index}`)
      .join(', '),
  );
  const [machines, days, firstPage] = await Promise.all([
    db.execute(sql`select s.rvm_id, ${aggregates} from consumer_session s join consumer_session_item i on i.session_id = s.id where ${where} group by 1`),
    db.execute(sql`select to_char((s.start_time at time zone 'UTC') + ${`${range.utcOffsetMinutes} minutes`}::interval, 'YYYY-MM-DD') as day, ${aggregates}
      from consumer_session s join consumer_session_item i on i.session_id = s.id where ${where} group by 1`),
    db.execute(sql`select s.start_time as time, s.rvm_id, i.barcode, i.reject_reason as reason from consumer_session s join consumer_session_item i on i.session_id = s.id
      where ${where} and i.reject_reason is not null order by s.start_time desc, s.id desc, i.seq limit ${PAGE.pageSize}`),
  ]);
  return { machines: named(rowsOf(machines), 'rvm_id'), days: named(rowsOf(days), 'day'), firstPage: rowsOf<Record<string, unknown>>(firstPage) };
};

type Raw = Awaited<ReturnType<typeof rawScan>>;
const zero = (): Counts => Object.fromEntries(COUNT_COLUMNS.map((column) => [column, 0]));
const total = (raw: Raw) => {
  const sum = zero();
  for (const counts of raw.machines.values()) for (const column of COUNT_COLUMNS) sum[column] += counts[column];
  return sum;
};

/** What each report must answer, computed from the raw scan. */
const expected = (report: ReportKind, raw: Raw, range: ReportRange) => {
  const sum = total(raw);
  const reasons = REJECT_REASON_CODES.map((code) => ({ key: String(code), rejected: sum[reasonColumn(code)] })).filter((entry) => entry.rejected > 0);
  const machine = (id: number) => raw.machines.get(String(id)) ?? zero();
  switch (report) {
    case 'volumes':
      return {
        perMachine: (id: number) => [machine(id).accepted, ...ITEM_TYPES.map((type) => machine(id)[materialColumn(type)])],
        total: sum.accepted,
        chart: ITEM_TYPES.map((type) => sum[materialColumn(type)]),
      };
    case 'volumesDaily':
      return {
        days: localDays(range).map((day) => [day, (raw.days.get(day) ?? zero()).accepted, ...ITEM_TYPES.map((type) => (raw.days.get(day) ?? zero())[materialColumn(type)])]),
      };
    case 'acceptedRejects':
      return { perMachine: (id: number) => [machine(id).items, machine(id).accepted, machine(id).rejected], total: [sum.items, sum.accepted, sum.rejected], reasons };
    case 'barcodeRejects':
      return {
        total: sum.rejected,
        reasons,
        firstPage: raw.firstPage.map((row) => [
          (row.time instanceof Date ? row.time : new Date(String(row.time))).toISOString(),
          Number(row.rvm_id),
          row.barcode ?? null,
          Number(row.reason),
        ]),
      };
  }
};

/** The report's numbers in the shape of `expected`. */
const answered = (data: ReportData) => {
  switch (data.report) {
    case 'volumes':
      return {
        rows: new Map(data.rows.map((row) => [Number(row.rvmId), [row.accepted, ...ITEM_TYPES.map((type) => row[`material:${type}`])]])),
        total: data.totals.accepted,
        chart: data.chart.map((entry) => entry.accepted),
      };
    case 'volumesDaily':
      return { days: data.rows.map((row) => [row.day, row.accepted, ...ITEM_TYPES.map((type) => row[`material:${type}`])]) };
    case 'acceptedRejects':
      return {
        rows: new Map(data.rows.map((row) => [Number(row.rvmId), [row.items, row.accepted, row.rejected]])),
        total: [data.totals.items, data.totals.accepted, data.totals.rejected],
        reasons: data.chart,
      };
    case 'barcodeRejects':
      return { total: data.total, reasons: data.chart, firstPage: data.rows.map((row) => [row.time, row.rvmId, row.barcode, row.reason]) };
  }
};

const check = (report: ReportKind, data: ReportData, want: ReturnType<typeof expected>, machineIds: number[]) => {
  const got = answered(data) as Record<string, unknown>;
  const problems: string[] = [];
  const same = (what: string, a: unknown, b: unknown) => {
    if (JSON.stringify(a) !== JSON.stringify(b)) problems.push(`${report} ${what}: report ${JSON.stringify(a).slice(0, 300)}, raw scan ${JSON.stringify(b).slice(0, 300)}`);
  };
  for (const [key, value] of Object.entries(want)) {
    if (key === 'perMachine') {
      const rows = got.rows as Map<number, unknown[]>;
      same('machines', rows.size, machineIds.length);
      for (const id of machineIds) same(`machine ${id}`, rows.get(id), (value as (id: number) => unknown[])(id));
    } else same(key, got[key], value);
  }
  if (problems.length) throw new Error(`The reports disagree with the raw scan:\n${problems.slice(0, 20).join('\n')}`);
};

const timed = async <T>(work: () => Promise<T>): Promise<[T, number]> => {
  const started = performance.now();
  const result = await work();
  return [result, performance.now() - started];
};
const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];

const writeSection = (lines: string[]) => {
  const file = 'docs/benchmarks.md';
  const previous = existsSync(file) ? readFileSync(file, 'utf8') : '';
  const section = ['<!-- reports:start -->', ...lines, '<!-- reports:end -->'].join('\n');
  const pattern = /<!-- reports:start -->[\s\S]*<!-- reports:end -->/;
  writeFileSync(file, pattern.test(previous) ? previous.replace(pattern, section) : `${previous.trimEnd()}\n\n${section}\n`);
};

export const reportCases = async (db: Db): Promise<BenchCase[]> => {
  const [first] = await db.select({ account: rvm.licenseAccountId }).from(rvm).orderBy(asc(rvm.id)).limit(1);
  if (!first) return [];
  const scope: ReportScope = { accountId: first.account };
  const [{ last }] = rowsOf<{ last: string }>(await db.execute(sql`select max(hour) as last from account_hourly_items where license_account_id = ${first.account}`));
  // The 30 local days (UTC+8) before the local day of the data's last session.
  const shift = OFFSET * 60_000;
  const to = new Date(Math.floor((new Date(last).getTime() + shift) / DAY) * DAY - shift);
  const range: ReportRange = { from: new Date(to.getTime() - 30 * DAY), to, utcOffsetMinutes: OFFSET };
  const machineIds = rowsOf<{ id: number }>(await db.execute(sql`select id from rvm where license_account_id = ${first.account}`)).map((row) => Number(row.id));

  const [raw, rawMs] = await timed(() => rawScan(db, scope, range));
  const lines = [
    '## Reports (bench/reports.ts)',
    '',
    `Each report over the 30 local days (UTC+8) ${range.from.toISOString()} – ${range.to.toISOString()} of the whole account (${machineIds.length.toLocaleString('en')} machines),`,
    `computed by \`queryReport\` (what \`POST /report/data\` runs; a page of ${PAGE.pageSize} rows) ${RUNS} times after one warm-up, beside the raw scan of`,
    'consumer_session + consumer_session_item computing the same numbers (three queries side by side, timed once). Both agree on every',
    'number (per machine, per day, per reason, totals and the first page of rejected items) or the run stops.',
    '',
    '| report | p50 (ms) | p95 (ms) | raw scan (ms) | raw ÷ p95 |',
    '|---|---:|---:|---:|---:|',
  ];
  for (const report of REPORT_KINDS) {
    const full = report === 'barcodeRejects' ? await queryReport(db, report, scope, range, PAGE) : await queryReport(db, report, scope, range, null);
    check(report, full, expected(report, raw, range), machineIds);
    const times: number[] = [];
    for (let run = 0; run < RUNS; run++) times.push((await timed(() => queryReport(db, report, scope, range, PAGE)))[1]);
    times.sort((a, b) => a - b);
    const p95 = percentile(times, 95);
    lines.push(`| ${report} | ${percentile(times, 50).toFixed(0)} | ${p95.toFixed(0)} | ${rawMs.toFixed(0)} | ${(rawMs / p95).toFixed(0)}× |`);
    console.log(`[bench] report ${report} agrees with the raw scan; p95 ${p95.toFixed(0)} ms (raw scan ${rawMs.toFixed(0)} ms)`);
  }
  const load = (await import('node:os')).loadavg()[0].toFixed(1);
  lines.push('', `Command: \`npx tsx bench/run.ts\` (reuses \`rvm_bench\`), load average ${load} on ${(await import('node:os')).cpus().length} cores at the end of the check.`);
  writeSection(lines);

  const body = { from: range.from.toISOString(), to: range.to.toISOString(), utcOffsetMinutes: OFFSET, ...PAGE };
  return REPORT_KINDS.map((report) => ({
    name: `Report ${report}, 30 days, whole account`,
    call: 'POST /report/data',
    request: () => ({ method: 'POST' as const, url: '/report/data', body: { ...body, report } }),
  }));
};
