// `npm run bench:search [-- --runs 30 --large 100000 --pglite 10000]` (also a step of `npm run bench`):
// search (`GET /search`) and the machine list's "address contains" at three sizes. On the databases this
// bench owns (100k, PGlite) each case runs twice on the same data and code: with the trigram indexes and
// after dropping them (re-created afterwards); both answers must be identical. bench/search-before.json
// holds the figures measured once before the indexes existed (`--record-before`), shown beside.
// - rvm_bench: the 10,000-machine fleet `npm run bench` seeds (reused; this bench never seeds it and
//   writes nothing there but the migrations and its sign-in);
// - rvm_bench_100k: 100,000 machines without consumer sessions, seeded here the first time;
// - PGlite in memory: --pglite machines (default 10,000), no sessions.
// Writes docs/benchmarks.md between <!-- search:start --> and <!-- search:end -->.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { isDeepStrictEqual, parseArgs } from 'node:util';
import pg from 'pg';
import { sql } from 'drizzle-orm';
import { rowsOf, type Db } from '../server/db/client';
import { seedDemoFleet } from '../server/seed/demoFleet';
import { buildFleetApp } from './fleetApp';

const { values } = parseArgs({
  options: {
    runs: { type: 'string', default: '30' },
    large: { type: 'string', default: '100000' },
    pglite: { type: 'string', default: '10000' },
    /** Only these stores (comma-separated: 10k,100k,pglite). */
    only: { type: 'string', default: '10k,100k,pglite' },
    /** Skip measuring without the trigram indexes (dropped and re-created; only on the databases this bench owns). */
    'skip-compare': { type: 'boolean', default: false },
    /** Write the figures to bench/search-before.json (run once, before the indexes existed). */
    'record-before': { type: 'boolean', default: false },
    /** Print only; docs/benchmarks.md unchanged. */
    dry: { type: 'boolean', default: false },
  },
});
const runs = Number(values.runs);
const largeMachines = Number(values.large);
const pgliteMachines = Number(values.pglite);
const only = new Set(values.only.split(','));
const GOALS = { '10k': 10, '100k': 30, pglite: 10 } as const;

const baseUrl = process.env.DATABASE_URL?.trim() || 'postgres://postgres@127.0.0.1:5432/test';
const urlOf = (database: string) => {
  const url = new URL(baseUrl);
  url.pathname = `/${database}`;
  return url.toString();
};
const BEFORE_FILE = 'bench/search-before.json';

type FleetApp = Awaited<ReturnType<typeof buildFleetApp>>;
interface Case {
  name: string;
  request(run: number): { method: 'GET' | 'POST'; url: string; body?: Record<string, unknown> };
}
interface Timing {
  p50: number;
  p95: number;
}
interface Row {
  name: string;
  hits: number;
  indexed: Timing;
  unindexed?: Timing;
}
interface StoreResult {
  key: keyof typeof GOALS;
  label: string;
  machines: number;
  sessions: number;
  rows: Row[];
}

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
const count = async (db: Db, table: string) => Number(rowsOf<{ n: string }>(await db.execute(sql.raw(`select count(*) as n from ${table}`)))[0].n);

const signIn = async (app: FleetApp) => {
  const answer = await app.inject({ method: 'POST', url: '/login/login', payload: { username: 'admin', password: 'Admin@123' } });
  const body = answer.json() as { resCode: string; resMsg: string; resData: { tokenInfo: { tokenValue: string } } };
  if (body.resCode !== '00000') throw new Error(`sign-in: ${body.resCode} ${body.resMsg} (run \`npm run bench\` first: it prepares rvm_bench)`);
  return body.resData.tokenInfo.tokenValue;
};

const call = async (app: FleetApp, token: string, request: ReturnType<Case['request']>) => {
  const answer = await app.inject({ method: request.method, url: request.url, headers: { 'rvm-token': token }, ...(request.body ? { payload: request.body } : {}) });
  const body = answer.json() as { resCode: string; resMsg: string; resData: unknown };
  if (body.resCode !== '00000') throw new Error(`${request.url}: ${body.resCode} ${body.resMsg}`);
  return body.resData;
};

const time = async (app: FleetApp, token: string, benchCase: Case): Promise<Timing> => {
  const times: number[] = [];
  for (let run = -3; run < runs; run++) {
    const started = performance.now();
    await call(app, token, benchCase.request(run));
    if (run >= 0) times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  return { p50: percentile(times, 50), p95: percentile(times, 95) };
};

/** The cases, with search terms taken from the data (a voucher-shaped term where there are no sessions). */
const casesOf = async (db: Db): Promise<Case[]> => {
  const serials = rowsOf<{ serial: string }>(await db.execute(sql`select serial_number as serial from rvm where serial_number is not null order by id`)).map((row) => row.serial);
  const sample = serials.filter((_, index) => index % Math.max(1, Math.floor(serials.length / 40)) === 0);
  const [session] = rowsOf<{ voucher: string; userId: string }>(
    await db.execute(
      sql`select voucher_code as voucher, user_id as "userId" from consumer_session where voucher_code is not null and user_id is not null order by id desc limit 1`,
    ),
  );
  const voucher = session?.voucher ?? 'RC0A1B00C742';
  const userId = session?.userId ?? 'L000734952';
  const search = (q: string) => ({ method: 'GET' as const, url: `/search?q=${encodeURIComponent(q)}` });
  const list = (addressLike: string, pageNum: number) => ({ method: 'POST' as const, url: '/rvm/page', body: { pageNum, pageSize: 20, addressLike } });
  return [
    { name: 'Search: serial number', request: (run) => search(sample[(run + 7) % sample.length]) },
    { name: 'Search: voucher code', request: () => search(voucher) },
    { name: 'Search: user ID', request: () => search(userId) },
    { name: 'Search: address word ("Library")', request: () => search('Library') },
    { name: 'Search: common address word ("Road")', request: () => search('Road') },
    { name: 'Search: 2 characters ("Po")', request: () => search('Po') },
    { name: 'Machine list, address contains "Nathan", page 5', request: () => list('Nathan', 5) },
    { name: 'Machine list, address contains "Po" (2 characters)', request: () => list('Po', 1) },
    // What any authenticated call costs on this machine at this moment (token, permissions, envelope).
    { name: 'Reference: who am I (`GET /login/current`)', request: () => ({ method: 'GET', url: '/login/current' }) },
  ];
};

const hitsOf = (answer: unknown) => {
  const data = answer as { hits?: unknown[]; total?: number };
  return data.total ?? data.hits?.length ?? 0;
};

/** The trigram indexes of the machine table, dropped; answers the statements that re-create them. */
const dropTrigramIndexes = async (db: Db) => {
  const indexes = rowsOf<{ name: string; definition: string }>(
    await db.execute(sql`select indexname as name, indexdef as definition from pg_indexes where tablename = 'rvm' and indexdef like '%gin_trgm_ops%'`),
  );
  for (const index of indexes) await db.execute(sql.raw(`drop index "${index.name}"`));
  return indexes.map((index) => index.definition);
};

/**
 * Every case; with `compare`, again without the trigram indexes and without the lower-case copies (the models compare
 * `lower(column)` as before the copies existed, server/db/foldedColumns.ts): the answers must be the same.
 */
const measureStore = async (db: Db, app: FleetApp, label: string, compare: boolean): Promise<Row[]> => {
  const cases = await casesOf(db);
  const token = await signIn(app);
  const rows: Row[] = [];
  for (const benchCase of cases) {
    const row: Row = { name: benchCase.name, hits: hitsOf(await call(app, token, benchCase.request(0))), indexed: await time(app, token, benchCase) };
    rows.push(row);
    console.log(`[bench:search] ${label.padEnd(8)} ${benchCase.name.padEnd(52)} p50 ${row.indexed.p50.toFixed(1).padStart(6)}  p95 ${row.indexed.p95.toFixed(1).padStart(6)} ms`);
  }
  if (!compare) return rows;
  const expected = await Promise.all(cases.map((benchCase) => call(app, token, benchCase.request(0))));
  const definitions = await dropTrigramIndexes(db);
  const models = [...app.app.services.models.values()];
  const copies = models.map((model) => model.shortContains);
  for (const model of models) model.shortContains = {};
  try {
    for (const [index, benchCase] of cases.entries()) {
      if (!isDeepStrictEqual(await call(app, token, benchCase.request(0)), expected[index])) {
        throw new Error(`${label} ${benchCase.name}: the answers with and without the trigram indexes and copies differ`);
      }
      rows[index].unindexed = await time(app, token, benchCase);
      console.log(
        `[bench:search] ${label.padEnd(8)} ${benchCase.name.padEnd(52)} without indexes and copies: p50 ${rows[index].unindexed.p50.toFixed(1).padStart(6)}  p95 ${rows[index].unindexed.p95.toFixed(1).padStart(6)} ms`,
      );
    }
  } finally {
    for (const definition of definitions) await db.execute(sql.raw(definition));
    for (const [index, model] of models.entries()) model.shortContains = copies[index];
  }
  return rows;
};

const ensureDatabase = async (name: string) => {
  const admin = new pg.Client({ connectionString: baseUrl });
  await admin.connect();
  try {
    const exists = await admin.query('select 1 from pg_database where datname = $1', [name]);
    if (!exists.rowCount) await admin.query(`create database "${name}"`);
  } finally {
    await admin.end();
  }
};

/** Machines only (days 0: no consumer sessions), into the first license account; the admin may sign in at once. */
const seedMachines = async (db: Db, machines: number, label: string) => {
  if ((await count(db, 'rvm')) === 0) {
    const [account] = rowsOf<{ id: number }>(await db.execute(sql`select id from license_account order by id limit 1`));
    console.log(`[bench:search] seeding ${machines} machines (no sessions) into ${label} ...`);
    const summary = await seedDemoFleet(db, { machines, days: 0, seed: 'bench', licenseAccountId: account.id });
    console.log(`[bench:search]   seeded in ${(summary.elapsedMs / 1000).toFixed(0)} s`);
  }
  await db.execute(sql`update sys_user set must_change_password = false, password_changed_at = now() where name = 'admin'`);
};

const results: StoreResult[] = [];
const config = { passwordHashLogN: 12 };

const measurePostgres = async (key: '10k' | '100k', database: string, seed: number | null) => {
  if (seed !== null) await ensureDatabase(database);
  const app = await buildFleetApp({ databaseUrl: urlOf(database), config });
  try {
    const db = app.app.services.db;
    if (seed !== null) await seedMachines(db, seed, database);
    const machines = await count(db, 'rvm');
    if (machines === 0) throw new Error(`${database} has no machines: run \`npm run bench\` first`);
    // rvm_bench belongs to `npm run bench`: nothing is dropped there.
    const rows = await measureStore(db, app, key, !values['skip-compare'] && seed !== null);
    results.push({ key, label: `PostgreSQL, ${database}`, machines, sessions: await count(db, 'consumer_session'), rows });
  } finally {
    await app.close();
  }
};

const measurePglite = async () => {
  const app = await buildFleetApp({ config });
  try {
    const db = app.app.services.db;
    await seedMachines(db, pgliteMachines, 'PGlite (in memory)');
    const rows = await measureStore(db, app, 'pglite', !values['skip-compare']);
    results.push({ key: 'pglite', label: 'PGlite (in memory)', machines: await count(db, 'rvm'), sessions: 0, rows });
  } finally {
    await app.close();
  }
};

const loadBefore = loadavg()[0];
if (only.has('10k')) await measurePostgres('10k', 'rvm_bench', null);
if (only.has('100k')) await measurePostgres('100k', 'rvm_bench_100k', largeMachines);
if (only.has('pglite')) await measurePglite();

const ms = (value: number | undefined) => (value === undefined ? '–' : value.toFixed(1));
const admin = new pg.Client({ connectionString: baseUrl });
await admin.connect();
const postgresVersion = String((await admin.query('select version() as v')).rows[0].v).split(' on ')[0];
await admin.end();
const environment = `${cpus().length} CPU cores (${cpus()[0]?.model ?? 'unknown'}), Node ${process.version}, ${postgresVersion}; 1-minute load average before the run ${loadBefore.toFixed(1)} (other work on the machine)`;

interface BeforeFile {
  date: string;
  environment: string;
  stores: Partial<Record<StoreResult['key'], Row[]>>;
}
if (values['record-before']) {
  const recorded: BeforeFile = {
    date: new Date().toISOString().slice(0, 16).replace('T', ' '),
    environment,
    stores: Object.fromEntries(results.map((store) => [store.key, store.rows])),
  };
  writeFileSync(BEFORE_FILE, `${JSON.stringify(recorded, null, 2)}\n`);
}
const before: BeforeFile | null = existsSync(BEFORE_FILE) ? JSON.parse(readFileSync(BEFORE_FILE, 'utf8')) : null;
const beforeOf = (store: StoreResult, row: Row) => before?.stores[store.key]?.find((candidate) => candidate.name === row.name)?.indexed;
const times = (a: Timing | undefined, b: Timing) => (a ? `${(a.p95 / b.p95).toFixed(1)}×` : '–');

const section = [
  '<!-- search:start -->',
  '## Search and contains-filters at scale',
  '',
  `Written by \`npm run bench:search -- --runs ${runs} --large ${largeMachines} --pglite ${pgliteMachines}\` (bench/search.ts, a step of \`npm run bench\`):`,
  `server-side latency (\`app.inject\`, no network), 3 warm-up calls then ${runs} runs. "Without indexes and copies" is measured in the same run on the`,
  'same data after dropping the trigram indexes (databases this bench owns only; re-created afterwards) and with the models comparing `lower(column)` instead of the lower-case copies (server/db/foldedColumns.ts), the answers checked identical;',
  `"before" was measured once before the indexes existed (${BEFORE_FILE}${before ? `, ${before.date} UTC` : ': absent'}). Goal: p95 under 10 ms at 10,000 machines, under 30 ms at 100,000.`,
  '',
  `- Date: ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC`,
  `- Environment: ${environment}`,
  ...(before ? [`- Before: ${before.environment}`] : []),
  '',
  ...results.flatMap((store) => [
    `### ${store.label}: ${store.machines.toLocaleString('en')} machines, ${store.sessions.toLocaleString('en')} consumer sessions (goal p95 < ${GOALS[store.key]} ms)`,
    '',
    '| Case | hits | p50 (ms) | p95 (ms) | without indexes and copies: p50 / p95 | ratio | before: p50 / p95 | ratio |',
    '|---|---:|---:|---:|---:|---:|---:|---:|',
    ...store.rows.map((row) => {
      const recorded = beforeOf(store, row);
      return `| ${row.name} | ${row.hits} | ${ms(row.indexed.p50)} | ${ms(row.indexed.p95)} | ${row.unindexed ? `${ms(row.unindexed.p50)} / ${ms(row.unindexed.p95)}` : '–'} | ${times(row.unindexed, row.indexed)} | ${recorded ? `${ms(recorded.p50)} / ${ms(recorded.p95)}` : '–'} | ${times(recorded, row.indexed)} |`;
    }),
    '',
  ]),
  '<!-- search:end -->',
].join('\n');
console.log(`\n${section}`);
if (!values.dry) {
  const previous = existsSync('docs/benchmarks.md') ? readFileSync('docs/benchmarks.md', 'utf8') : '# Benchmarks\n';
  const next = previous.includes('<!-- search:start -->') ? previous.replace(/<!-- search:start -->[\s\S]*<!-- search:end -->/, section) : `${previous.trimEnd()}\n\n${section}\n`;
  writeFileSync('docs/benchmarks.md', next);
}
