// `npm run bench [-- --machines 10000 --days 90 --runs 30 --reseed]`: seeds (or reuses) a demo fleet
// in a dedicated PostgreSQL database (rvm_bench, created next to DATABASE_URL's, default
// postgres://postgres@127.0.0.1:5432/test), then measures the server-side latency (app.inject, p50/p95)
// of the machine list, every machine page tab, search and the quarantine list; prints the table and
// writes docs/benchmarks.md. Target: every call under 100 ms.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { sql } from 'drizzle-orm';
import { rowsOf } from '../server/db/client';
import { seedDemoFleet, type SeedSummary } from '../server/seed/demoFleet';
import { buildFleetApp } from './fleetApp';
import { benchCases, type BenchCase } from './cases';
import { renderReport, type Measured } from './report';

const { values } = parseArgs({
  options: {
    machines: { type: 'string', default: '10000' },
    days: { type: 'string', default: '90' },
    seed: { type: 'string', default: 'bench' },
    runs: { type: 'string', default: '30' },
    database: { type: 'string', default: 'rvm_bench' },
    reseed: { type: 'boolean', default: false },
  },
});
const machines = Number(values.machines);
const days = Number(values.days);
const runs = Number(values.runs);
const SEED_FILE = '.tmp/bench-seed.json';

const baseUrl = process.env.DATABASE_URL?.trim() || 'postgres://postgres@127.0.0.1:5432/test';
const benchUrl = new URL(baseUrl);
benchUrl.pathname = `/${values.database}`;

/** Creates (or with --reseed re-creates) the benchmark database. */
const prepareDatabase = async () => {
  const admin = new pg.Client({ connectionString: baseUrl });
  await admin.connect();
  try {
    if (values.reseed) await admin.query(`drop database if exists "${values.database}" with (force)`);
    const exists = await admin.query('select 1 from pg_database where datname = $1', [values.database]);
    if (!exists.rowCount) await admin.query(`create database "${values.database}"`);
  } finally {
    await admin.end();
  }
};

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];

const measure = async (inject: Awaited<ReturnType<typeof buildFleetApp>>['inject'], token: string, benchCase: BenchCase): Promise<Measured> => {
  const times: number[] = [];
  for (let run = -3; run < runs; run++) {
    const request = benchCase.request(run);
    const started = performance.now();
    const answer = await inject({ method: request.method, url: request.url, headers: { 'rvm-token': token }, ...(request.body ? { payload: request.body } : {}) });
    const elapsed = performance.now() - started;
    const body = answer.json() as { resCode: string; resMsg: string };
    if (body.resCode !== '00000') throw new Error(`${benchCase.name}: ${body.resCode} ${body.resMsg}`);
    if (run >= 0) times.push(elapsed);
  }
  times.sort((a, b) => a - b);
  return { name: benchCase.name, call: benchCase.call, p50: percentile(times, 50), p95: percentile(times, 95), max: times[times.length - 1] };
};

await prepareDatabase();
const fleetApp = await buildFleetApp({ databaseUrl: benchUrl.toString(), config: { passwordHashLogN: 14 } });
try {
  const db = fleetApp.app.services.db;
  const count = async (table: string) => Number(rowsOf<{ n: string }>(await db.execute(sql.raw(`select count(*) as n from ${table}`)))[0].n);
  let seeded: (SeedSummary & { machinesRequested: number; days: number }) | null = null;
  if ((await count('rvm')) === 0) {
    const [account] = rowsOf<{ id: number }>(await db.execute(sql`select id from license_account order by id limit 1`));
    console.log(`[bench] seeding ${machines} machines over ${days} days into ${benchUrl.pathname.slice(1)} ...`);
    let last = 0;
    const summary = await seedDemoFleet(db, {
      machines,
      days,
      seed: values.seed,
      licenseAccountId: account.id,
      onProgress: (p) => {
        if (p.phase === 'machines' && Date.now() - last < 10_000) return;
        last = Date.now();
        console.log(`[bench]   ${p.phase} ${p.machinesDone}/${p.machines} machines, ${p.sessions} sessions, ${p.items} items, ${(p.elapsedMs / 1000).toFixed(0)} s`);
      },
    });
    seeded = { ...summary, machinesRequested: machines, days };
    mkdirSync('.tmp', { recursive: true });
    writeFileSync(SEED_FILE, JSON.stringify(seeded, null, 2));
  } else {
    console.log('[bench] reusing the seeded fleet (pass --reseed to seed again)');
    if (existsSync(SEED_FILE)) seeded = JSON.parse(readFileSync(SEED_FILE, 'utf8'));
  }
  // The seeded admin must change the initial password before any other call (4007); this is the bench's own database.
  await db.execute(sql`update sys_user set must_change_password = false, password_changed_at = now() where name = 'admin'`);
  const login = await fleetApp.inject({ method: 'POST', url: '/login/login', payload: { username: 'admin', password: 'Admin@123' } });
  const token = (login.json() as { resData: { tokenInfo: { tokenValue: string } } }).resData.tokenInfo.tokenValue;
  const sizes = Object.fromEntries(
    await Promise.all(
      ['rvm', 'fleet', 'consumer_session', 'consumer_session_item', 'rvm_status_history', 'rvm_online_history', 'rvm_event', 'service_session', 'quarantine_message'].map(
        async (table) => [table, await count(table)] as const,
      ),
    ),
  );
  const databaseSize = rowsOf<{ size: string }>(await db.execute(sql`select pg_size_pretty(pg_database_size(current_database())) as size`))[0].size;
  // The machine may be shared: the load average says how much the figures are inflated.
  const loadAtStart = loadavg()[0].toFixed(1);
  const cases = await benchCases(db);
  const results: Measured[] = [];
  for (const benchCase of cases) {
    const result = await measure(fleetApp.inject, token, benchCase);
    results.push(result);
    console.log(`[bench] ${result.name.padEnd(46)} p50 ${result.p50.toFixed(1).padStart(7)} ms   p95 ${result.p95.toFixed(1).padStart(7)} ms`);
  }
  const version = rowsOf<{ version: string }>(await db.execute(sql`select version()`))[0].version.split(' on ')[0];
  const report = renderReport({
    results,
    runs,
    sizes,
    databaseSize,
    seeded,
    environment: `${cpus().length} CPU cores (${cpus()[0]?.model ?? 'unknown'}), Node ${process.version}, ${version}; 1-minute load average ${loadAtStart} at the start of the measurements, ${loadavg()[0].toFixed(1)} at the end`,
  });
  mkdirSync('docs', { recursive: true });
  // Keep every section the other benches write (`<!-- name:start -->` ... `<!-- name:end -->`), in order.
  const previous = existsSync('docs/benchmarks.md') ? readFileSync('docs/benchmarks.md', 'utf8') : '';
  const kept = [...previous.matchAll(/<!-- ([\w-]+):start -->[\s\S]*?<!-- \1:end -->/g)].map((match) => match[0]);
  writeFileSync('docs/benchmarks.md', kept.length ? `${[report.trimEnd(), ...kept].join('\n\n')}\n` : report);
  console.log(`\n${report}`);
} finally {
  await fleetApp.close();
}
