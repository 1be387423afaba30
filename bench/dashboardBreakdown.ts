// `npx tsx bench/dashboardBreakdown.ts [-- --runs 60 --database rvm_bench --variant JSON --explain --dump DIR --write]`:
// where the time of GET /dashboard goes on the benchmark fleet (seeded by `npm run bench`; read only), before and after
// the pass rewrite, in ONE run on the same data: the computation as the route runs it (server/dashboard/compute.ts), as
// it ran before (bench/dashboardBefore.ts) and with another pass layout (--variant, the side passes as JSON; default one
// pass), alternated call by call so all see the same machine load; for each the
// p50/p95 wall time, the CPU per call (the PostgreSQL backends', read from /proc, and this process's: figures the
// machine's load barely moves), and each SQL statement timed alone. --explain prints EXPLAIN (ANALYZE, BUFFERS) of
// every statement, --dump writes them with their parameters, --write puts the summary into docs/benchmarks.md
// (between <!-- dashboard-breakdown:start/end -->, kept by bench/run.ts).
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import { asc, eq, sql, type SQL } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import pg from 'pg';
import { machine } from '../resources/machine';
import type { Caller } from '../server/auth/principal';
import { buildModel } from '../server/crud/model';
import { computeDashboard, type MachineFilter } from '../server/dashboard/compute';
import { periodsOf } from '../server/dashboard/periods';
import { usageOf } from '../server/dashboard/rollup';
import { openDatabase, rowsOf, type Db } from '../server/db/client';
import { TABLES } from '../server/db/registry';
import { savedFilter } from '../server/db/schema';
import { rvm } from '../server/db/schema/fleet';
import { machineHooks } from '../server/resources/machine';
import { computeDashboardBefore } from './dashboardBefore';

const { values } = parseArgs({
  options: {
    runs: { type: 'string', default: '60' },
    explain: { type: 'boolean', default: false },
    dump: { type: 'string' },
    write: { type: 'boolean', default: false },
    database: { type: 'string', default: 'rvm_bench' },
    /** The third variant's side passes (JSON), e.g. '[["highRejectRate"],["profileMismatch"]]'; default none (one pass). */
    variant: { type: 'string', default: '[]' },
  },
});
const runs = Number(values.runs);
const OFFSET = 480;
const APPLICATION = 'dashboard-breakdown';

const url = new URL(process.env.DATABASE_URL?.trim() || 'postgres://postgres@127.0.0.1:5432/test');
url.pathname = `/${values.database}`;
url.searchParams.set('application_name', APPLICATION);
const database = await openDatabase({ databaseUrl: url.toString() });
const db = database.db;
const dialect = new PgDialect();

type Logged = { text: string; params: unknown[]; ms: number };
/** A db (and its transactions) whose execute() records each statement; statements run one at a time. */
const recording = (target: Db, log: Logged[]): Db => {
  let chain: Promise<unknown> = Promise.resolve();
  return new Proxy(target, {
    get(inner, property, receiver) {
      if (property === 'transaction') {
        return (work: (tx: Db) => Promise<unknown>, config?: unknown) =>
          (inner.transaction as (w: (tx: Db) => Promise<unknown>, c?: unknown) => Promise<unknown>)((tx) => work(recording(tx, log)), config);
      }
      if (property !== 'execute') return Reflect.get(inner, property, receiver);
      return (query: SQL) => {
        const next = chain.then(async () => {
          const { sql: text, params } = dialect.sqlToQuery(query);
          const started = performance.now();
          const result = await inner.execute(query);
          log.push({ text, params, ms: performance.now() - started });
          return result;
        });
        chain = next.catch(() => undefined);
        return next;
      };
    },
  });
};

/** CPU time (ms) of this benchmark's PostgreSQL backends so far (same host: /proc). */
const backendCpu = async (): Promise<number> => {
  const pids = rowsOf<{ pid: number }>(await db.execute(sql`select pid from pg_stat_activity where application_name = ${APPLICATION}`));
  let total = 0;
  for (const { pid } of pids) {
    try {
      const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
      total += (Number(fields[11]) + Number(fields[12])) * 10;
    } catch {
      // a backend that just left
    }
  }
  return total;
};

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
const stats = (times: number[]) => {
  const sorted = [...times].sort((a, b) => a - b);
  return { p50: percentile(sorted, 50), p95: percentile(sorted, 95) };
};
const load = () =>
  loadavg()
    .map((value) => value.toFixed(2))
    .join(' ');

interface Side {
  times: number[];
  dbCpu: number;
  nodeCpu: number;
}

try {
  const [first] = await db.select({ account: rvm.licenseAccountId }).from(rvm).orderBy(asc(rvm.id)).limit(1);
  const account = first.account;
  const [saved] = await db.select({ filter: savedFilter.filter }).from(savedFilter).where(eq(savedFilter.name, 'Benchmark: first region'));
  const model = buildModel(machine, TABLES, machineHooks);
  const caller = { principal: { licenseAccountId: account } } as unknown as Caller;
  const cases: Array<[string, MachineFilter]> = [
    ['whole account', {}],
    ['saved filter (a region)', (saved?.filter ?? {}) as MachineFilter],
  ];
  const after = (target: Db, base: MachineFilter, periods = periodsOf(new Date(), OFFSET)) => {
    return computeDashboard({ db: target, model, caller, account, base, periods, currency: 'HKD', usage: (tx, machines) => usageOf(tx, account, periods, machines, base) });
  };
  const variant = (target: Db, base: MachineFilter, periods = periodsOf(new Date(), OFFSET)) =>
    computeDashboard({
      db: target,
      model,
      caller,
      account,
      base,
      periods,
      currency: 'HKD',
      sidePasses: JSON.parse(values.variant),
      usage: (tx, machines) => usageOf(tx, account, periods, machines, base),
    });
  const before = (target: Db, base: MachineFilter, periods = periodsOf(new Date(), OFFSET)) => {
    return computeDashboardBefore({ db: target, model, caller, account, base, periods, currency: 'HKD', usage: (tx, machines) => usageOf(tx, account, periods, machines, base) });
  };
  const loadBefore = load();
  console.log(`load average ${loadBefore}`);
  const rows: string[] = [];
  for (const [name, base] of cases) {
    // Same numbers from both.
    const periods = periodsOf(new Date(), OFFSET);
    const figures = (answer: Awaited<ReturnType<typeof after>>) => JSON.stringify([answer.machineCount, answer.cards, answer.charts]);
    const [was, is] = [await before(db, base, periods), await after(db, base, periods)];
    if (figures(was) !== figures(await variant(db, base, periods))) throw new Error(`${name}: before and variant answers differ`);
    if (figures(was) !== figures(is)) throw new Error(`${name}: before and after answers differ`);
    const sides: Record<'before' | 'after' | 'variant', Side> = {
      before: { times: [], dbCpu: 0, nodeCpu: 0 },
      after: { times: [], dbCpu: 0, nodeCpu: 0 },
      variant: { times: [], dbCpu: 0, nodeCpu: 0 },
    };
    for (let run = -3; run < runs; run++) {
      for (const [label, compute] of [
        ['before', before],
        ['after', after],
        ['variant', variant],
      ] as const) {
        const cpu0 = await backendCpu();
        const node0 = process.cpuUsage();
        const started = performance.now();
        await compute(db, base);
        const elapsed = performance.now() - started;
        const node1 = process.cpuUsage(node0);
        const cpu1 = await backendCpu();
        if (run < 0) continue;
        sides[label].times.push(elapsed);
        sides[label].dbCpu += cpu1 - cpu0;
        sides[label].nodeCpu += (node1.user + node1.system) / 1000;
      }
    }
    const line = (label: keyof typeof sides) => {
      const { p50, p95 } = stats(sides[label].times);
      return { p50, p95, dbCpu: sides[label].dbCpu / runs, nodeCpu: sides[label].nodeCpu / runs };
    };
    const [b, a, o] = [line('before'), line('after'), line('variant')];
    console.log(`\n== ${name} (${runs} runs each, alternated)`);
    for (const [label, item] of [
      ['before', b],
      ['after', a],
      ['variant', o],
    ] as const) {
      console.log(
        `  ${label.padEnd(8)} p50 ${item.p50.toFixed(1)} ms  p95 ${item.p95.toFixed(1)} ms  CPU per call: PostgreSQL ${item.dbCpu.toFixed(1)} ms, node ${item.nodeCpu.toFixed(1)} ms`,
      );
    }
    console.log(`  after/before: p50 ${(a.p50 / b.p50).toFixed(2)}, p95 ${(a.p95 / b.p95).toFixed(2)}, PostgreSQL CPU ${(a.dbCpu / b.dbCpu).toFixed(2)}`);
    rows.push(
      `| ${name} | ${b.p50.toFixed(1)} / ${b.p95.toFixed(1)} | ${a.p50.toFixed(1)} / ${a.p95.toFixed(1)} | ${(a.p95 / b.p95).toFixed(2)} | ` +
        `${b.dbCpu.toFixed(1)} → ${a.dbCpu.toFixed(1)} | ${b.nodeCpu.toFixed(1)} → ${a.nodeCpu.toFixed(1)} |`,
    );

    // Each statement alone (one at a time), for both.
    for (const [label, compute] of [
      ['before', before],
      ['after', after],
    ] as const) {
      const perStatement = new Map<number, { text: string; params: unknown[]; times: number[] }>();
      for (let run = 0; run < Math.max(10, Math.floor(runs / 3)); run++) {
        const log: Logged[] = [];
        await compute(recording(db, log), base);
        log.forEach((entry, index) => {
          const item = perStatement.get(index) ?? { text: entry.text, params: entry.params, times: [] };
          item.times.push(entry.ms);
          perStatement.set(index, item);
        });
      }
      console.log(`  ${label}, statement by statement:`);
      for (const [index, item] of perStatement) {
        const { p50, p95 } = stats(item.times);
        console.log(`    #${index} p50 ${p50.toFixed(1)} ms, p95 ${p95.toFixed(1)} ms  ${item.text.replace(/\s+/g, ' ').slice(0, 110)}`);
      }
      if (values.dump) {
        mkdirSync(values.dump, { recursive: true });
        const literal = (value: unknown): string =>
          Array.isArray(value)
            ? `'{${value.join(',')}}'`
            : value instanceof Date
              ? `'${value.toISOString()}'`
              : typeof value === 'number'
                ? String(value)
                : `'${String(value).replace(/'/g, "''")}'`;
        for (const [index, item] of perStatement) {
          const text = item.text.replace(/\$(\d+)/g, (_, at: string) => literal(item.params[Number(at) - 1]));
          writeFileSync(`${values.dump}/${label}-${name.replace(/\W+/g, '-')}-${index}.sql`, `${text}\n`);
        }
      }
      if (values.explain) {
        const client = new pg.Client({ connectionString: url.toString() });
        await client.connect();
        for (const [index, item] of perStatement) {
          if (/^(begin|commit|set )/i.test(item.text.trim())) continue;
          if (label === 'after') await client.query('set jit = off');
          const plan = await client.query(`explain (analyze, buffers) ${item.text}`, item.params);
          console.log(`\n--- ${label} #${index}\n${plan.rows.map((row) => row['QUERY PLAN']).join('\n')}`);
          await client.query('reset jit');
        }
        await client.end();
      }
    }
  }
  const loadAfter = load();
  console.log(`\nload average ${loadAfter}`);
  if (values.write) {
    const section = [
      '<!-- dashboard-breakdown:start -->',
      '## Home dashboard: before and after the pass rewrite',
      '',
      `Written by \`npx tsx bench/dashboardBreakdown.ts -- --runs ${runs} --database ${values.database} --write\` on the benchmark fleet`,
      '(10,000 machines × 90 days). The computation of `GET /dashboard` (server/dashboard/compute.ts: two passes, the saved',
      "filter's fleets once in WHERE, each pass under jit_above_cost) and the one it replaced (bench/dashboardBefore.ts and its",
      'definitions: three passes, each count repeating the saved filter; it profits from the new index 0015 too) alternated',
      'call by call, so both saw the same load. CPU per call: the',
      "PostgreSQL backends' (/proc) and this process's, which the load of other processes barely changes. Both answers are",
      'checked equal first; `npm run bench` checks them against a raw scan of the stored rows.',
      '',
      `- Date: ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC; ${cpus().length} CPU cores; load average at start ${loadBefore}, at end ${loadAfter}`,
      '',
      '| Case | before p50 / p95 (ms) | after p50 / p95 (ms) | p95 after/before | PostgreSQL CPU per call (ms) | node CPU per call (ms) |',
      '|---|---:|---:|---:|---:|---:|',
      ...rows,
      '<!-- dashboard-breakdown:end -->',
    ].join('\n');
    const previous = existsSync('docs/benchmarks.md') ? readFileSync('docs/benchmarks.md', 'utf8') : '';
    const marked = /<!-- dashboard-breakdown:start -->[\s\S]*?<!-- dashboard-breakdown:end -->/;
    writeFileSync('docs/benchmarks.md', marked.test(previous) ? previous.replace(marked, section) : `${previous.trimEnd()}\n\n${section}\n`);
    console.log('docs/benchmarks.md: dashboard-breakdown section written');
  }
} finally {
  await database.close();
}
