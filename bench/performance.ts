// The performance screen in the benchmark (docs/performance.md): MCBE and the errors ranking for the
// whole account over the three months it may ask for, a region over 30 days and one machine. Before
// measuring, each answer from the fleet roll-ups is checked against the raw scan of the sessions and
// events computing the same numbers (sources.ts): the benchmark refuses to run if one differs.
//
// `npm run bench` measures the cases (bench/cases.ts); `npx tsx bench/performance.ts` measures them
// alone beside the raw scan, with the ratio, into docs/benchmarks.md (section "performance").
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { pathToFileURL } from 'node:url';
import { sql } from 'drizzle-orm';
import { rowsOf, type Db } from '../server/db/client';
import { dayLabel } from '../server/lib/localDays';
import { computeErrors, computeMcbe } from '../server/performance/compute';
import { earliestDayOf, resolveRange, todayOf } from '../server/performance/range';
import { resolveScope } from '../server/performance/scope';
import { rawSource, rollupSource, type PerformanceSource } from '../server/performance/sources';
import type { BenchCase } from './cases';

/** The demo fleet lives in Hong Kong. */
const OFFSET = 480;

interface Scenario {
  name: string;
  body: { from: string; to: string; utcOffsetMinutes: number; fleetId?: number; rvmId?: number };
}

const scenarios = async (db: Db): Promise<Scenario[]> => {
  const rows = async <T>(query: ReturnType<typeof sql>) => rowsOf<T>(await db.execute(query));
  const [first] = await rows<{ account: number }>(sql`select license_account_id as account from rvm order by id limit 1`);
  if (!first) return [];
  const [region] = await rows<{ id: number }>(sql`select id from fleet where parent_id is null and license_account_id = ${first.account} order by name limit 1`);
  const [busiest] = await rows<{ id: number }>(
    sql`select rvm_id as id from rvm_daily_usage where license_account_id = ${first.account} group by 1 order by sum(sessions) desc limit 1`,
  );
  const today = todayOf(new Date(), OFFSET);
  const threeMonths = { from: dayLabel(earliestDayOf(today)), to: dayLabel(today), utcOffsetMinutes: OFFSET };
  const month = { from: dayLabel(today - 29), to: dayLabel(today), utcOffsetMinutes: OFFSET };
  return [
    { name: 'whole account, 3 months (per week)', body: threeMonths },
    { name: 'a region with its districts, 30 days (per day)', body: { ...month, fleetId: region.id } },
    { name: 'busiest machine, 3 months', body: { ...threeMonths, rvmId: busiest.id } },
  ];
};

const accountOf = async (db: Db) => Number(rowsOf<{ account: number }>(await db.execute(sql`select license_account_id as account from rvm order by id limit 1`))[0].account);

/** One scenario's answers from a source, with the time each call took (ms). */
const answersOf = async (db: Db, source: PerformanceSource, account: number, scenario: Scenario, now: Date) => {
  const range = resolveRange(scenario.body, OFFSET, now);
  const scope = await resolveScope(db, account, scenario.body);
  let started = performance.now();
  const mcbe = await computeMcbe(db, source, scope, range);
  const mcbeMs = performance.now() - started;
  started = performance.now();
  const errors = await computeErrors(db, source, scope, range, 'downtime', 'en');
  return { answers: { mcbe, errors }, mcbeMs, errorsMs: performance.now() - started };
};

export interface PerformanceTiming {
  name: string;
  raw: { mcbeMs: number; errorsMs: number };
}

/** Every scenario's answers from the roll-ups equal the raw scan's; answers the raw scan's times. */
export const checkPerformance = async (db: Db): Promise<PerformanceTiming[]> => {
  const account = await accountOf(db);
  const timings: PerformanceTiming[] = [];
  for (const scenario of await scenarios(db)) {
    const now = new Date();
    const rolled = await answersOf(db, rollupSource, account, scenario, now);
    const raw = await answersOf(db, rawSource, account, scenario, now);
    if (JSON.stringify(rolled.answers) !== JSON.stringify(raw.answers)) {
      throw new Error(`Performance, ${scenario.name}: the roll-ups disagree with the raw scan\n${JSON.stringify(rolled.answers)}\n${JSON.stringify(raw.answers)}`);
    }
    timings.push({ name: scenario.name, raw: { mcbeMs: raw.mcbeMs, errorsMs: raw.errorsMs } });
    const { mcbe, errors } = rolled.answers;
    console.log(
      `[bench] performance ${scenario.name}: roll-ups = raw scan (${mcbe.total.items} items, ${mcbe.total.errors} errors, ${errors.list.length} codes); ` +
        `roll-ups ${rolled.mcbeMs.toFixed(0)} + ${rolled.errorsMs.toFixed(0)} ms, raw scan ${raw.mcbeMs.toFixed(0)} + ${raw.errorsMs.toFixed(0)} ms`,
    );
  }
  return timings;
};

const casesOf = async (db: Db): Promise<BenchCase[]> =>
  (await scenarios(db)).flatMap((scenario): BenchCase[] => [
    { name: `Performance MCBE, ${scenario.name}`, call: 'POST /performance/mcbe', request: () => ({ method: 'POST', url: '/performance/mcbe', body: scenario.body }) },
    {
      name: `Performance errors, ${scenario.name}`,
      call: 'POST /performance/errors',
      request: () => ({ method: 'POST', url: '/performance/errors', body: { ...scenario.body, sort: 'downtime' } }),
    },
  ]);

export const performanceCases = async (db: Db): Promise<BenchCase[]> => {
  await checkPerformance(db);
  return casesOf(db);
};

// Standalone: measure the cases and the raw scan on the benchmark database, write the section.
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const { buildFleetApp } = await import('./fleetApp');
  const runs = Number(process.env.RUNS ?? 30);
  const baseUrl = new URL(process.env.DATABASE_URL?.trim() || 'postgres://postgres@127.0.0.1:5432/test');
  baseUrl.pathname = '/rvm_bench';
  const fleetApp = await buildFleetApp({ databaseUrl: baseUrl.toString(), config: { passwordHashLogN: 14 } });
  try {
    const db = fleetApp.app.services.db;
    await db.execute(sql`update sys_user set must_change_password = false, password_changed_at = now() where name = 'admin'`);
    const login = await fleetApp.inject({ method: 'POST', url: '/login/login', payload: { username: 'admin', password: 'Admin@123' } });
    const token = (login.json() as { resData: { tokenInfo: { tokenValue: string } } }).resData.tokenInfo.tokenValue;
    const load = loadavg()[0];
    const timings = await checkPerformance(db);
    const cases = await casesOf(db);
    const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
    const lines: string[] = [];
    for (const benchCase of cases) {
      const times: number[] = [];
      for (let run = -3; run < runs; run++) {
        const request = benchCase.request(run);
        const started = performance.now();
        const answer = await fleetApp.inject({ method: request.method, url: request.url, headers: { 'rvm-token': token }, payload: request.body });
        if (run >= 0) times.push(performance.now() - started);
        const body = answer.json() as { resCode: string; resMsg: string };
        if (body.resCode !== '00000') throw new Error(`${benchCase.name}: ${body.resCode} ${body.resMsg}`);
      }
      times.sort((a, b) => a - b);
      const timing = timings.find((item) => benchCase.name.endsWith(item.name))!;
      const rawMs = benchCase.call.endsWith('mcbe') ? timing.raw.mcbeMs : timing.raw.errorsMs;
      const line = `| \`${benchCase.call}\` | ${benchCase.name} | ${percentile(times, 50).toFixed(1)} | ${percentile(times, 95).toFixed(1)} | ${rawMs.toFixed(0)} | ${(rawMs / percentile(times, 50)).toFixed(1)}× |`;
      lines.push(line);
      console.log(line);
    }
    const version = rowsOf<{ version: string }>(await db.execute(sql`select version()`))[0].version.split(' on ')[0];
    const section = [
      '<!-- performance:start -->',
      '## Performance screen (service › performance)',
      '',
      `Written by \`npx tsx bench/performance.ts\` (RUNS=${runs}): \`app.inject\` on the rvm_bench fleet, ${runs} runs after 3 warm-up calls each. Before`,
      "measuring, each scenario's MCBE and errors answers from the fleet roll-ups are checked equal to a raw scan of the stored sessions and",
      'events (server/performance/sources.ts `rawSource`, one run each, same code path otherwise); ratio = raw scan ÷ p50. Target: p95 < 200 ms.',
      '',
      `- Date: ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC; load average at start ${load.toFixed(1)} (2 cores shared with other work)`,
      `- Environment: ${cpus().length} CPU cores (${cpus()[0]?.model ?? 'unknown'}), Node ${process.version}, ${version}`,
      '',
      '| Call | Case | p50 (ms) | p95 (ms) | raw scan (ms) | ratio |',
      '|---|---|---:|---:|---:|---:|',
      ...lines,
      '<!-- performance:end -->',
    ].join('\n');
    const previous = existsSync('docs/benchmarks.md') ? readFileSync('docs/benchmarks.md', 'utf8') : '';
    const marked = /<!-- performance:start -->[\s\S]*<!-- performance:end -->/;
    writeFileSync('docs/benchmarks.md', marked.test(previous) ? previous.replace(marked, section) : `${previous.trimEnd()}\n\n${section}\n`);
  } finally {
    await fleetApp.close();
  }
}
