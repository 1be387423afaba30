// `npm run bench:deployments [-- --machines 10000 --runs 30 --creates 5 --only pglite,postgres]` (also a step of
// `npm run bench`): one package to every machine of a fleet (docs/deployments.md).
// - Creating the deployment: `POST /deployment` for every machine (selection by model), `--creates` times, each
//   with a new package so nothing is excluded: the whole call (classification, waves, the targets' insert, audit).
//   Goal: ≤ 1 s for 10,000 machines on PGlite.
// - The status screen's calls while statuses change: a writer moves 100 targets every 50 ms to their next status
//   (issued, inProcess, applied, failures) as machines' reports would, while the detail, its targets (paged, by status, by wave)
//   and the list are measured (3 warm-up calls, then --runs runs each). Goal: p95 ≤ 50 ms.
// - One run of the rollout job over the deployment (10,000 targets).
// Stores: PGlite in memory and PostgreSQL (database rvm_bench_deploy next to DATABASE_URL's, machines seeded the
// first time). Writes docs/benchmarks.md between <!-- deployments:start --> and <!-- deployments:end -->.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { sql } from 'drizzle-orm';
import { rowsOf, type Db } from '../server/db/client';
import { DEPLOYMENTS_JOB } from '../server/deployments/rollout';
import { seedDemoFleet } from '../server/seed/demoFleet';
import { buildFleetApp } from './fleetApp';

const { values } = parseArgs({
  options: {
    machines: { type: 'string', default: '10000' },
    runs: { type: 'string', default: '30' },
    creates: { type: 'string', default: '5' },
    only: { type: 'string', default: 'pglite,postgres' },
    database: { type: 'string', default: 'rvm_bench_deploy' },
    dry: { type: 'boolean', default: false },
  },
});
const machines = Number(values.machines);
const runs = Number(values.runs);
const creates = Number(values.creates);
const only = new Set(values.only.split(','));
const STEP = 100;
const STEP_MS = 50;

type FleetApp = Awaited<ReturnType<typeof buildFleetApp>>;
interface Timing {
  p50: number;
  p95: number;
  max: number;
}
interface StoreResult {
  label: string;
  machines: number;
  targets: number;
  create: Timing;
  job: number;
  changesPerSecond: number;
  calls: Array<{ name: string; call: string; timing: Timing }>;
}

const baseUrl = process.env.DATABASE_URL?.trim() || 'postgres://postgres@127.0.0.1:5432/test';
const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
const timingOf = (times: number[]): Timing => {
  const sorted = [...times].sort((a, b) => a - b);
  return { p50: percentile(sorted, 50), p95: percentile(sorted, 95), max: sorted[sorted.length - 1] };
};

const call = async (app: FleetApp, token: string, method: 'GET' | 'POST', url: string, body?: unknown) => {
  const answer = await app.inject({ method, url, headers: { 'rvm-token': token }, ...(body === undefined ? {} : { payload: body as Record<string, unknown> }) });
  const envelope = answer.json() as { resCode: string; resMsg: string; resData: { id: number; total: number } };
  if (envelope.resCode !== '00000') throw new Error(`${method} ${url}: ${envelope.resCode} ${envelope.resMsg}`);
  return envelope.resData;
};

const signIn = async (app: FleetApp) => {
  const answer = await app.inject({ method: 'POST', url: '/login/login', payload: { username: 'admin', password: 'Admin@123' } });
  return (answer.json() as { resData: { tokenInfo: { tokenValue: string } } }).resData.tokenInfo.tokenValue;
};

/** Machines without sessions into the first license account (once), and the admin let off the first-login change. */
const prepare = async (db: Db) => {
  const [{ n }] = rowsOf<{ n: string }>(await db.execute(sql`select count(*) as n from rvm`));
  const [account] = rowsOf<{ id: number }>(await db.execute(sql`select id from license_account order by id limit 1`));
  if (Number(n) === 0) {
    console.log(`[bench:deployments] seeding ${machines} machines ...`);
    await seedDemoFleet(db, { machines, days: 0, seed: 'bench-deploy', licenseAccountId: account.id });
  }
  await db.execute(sql`update sys_user set must_change_password = false, password_changed_at = now() where name = 'admin'`);
  // the fleet's machines are all active and may all take the package
  await db.execute(sql`update rvm set sts = 'active' where license_account_id = ${account.id}`);
  const models = rowsOf<{ term_type: string }>(await db.execute(sql`select distinct term_type from rvm where license_account_id = ${account.id}`)).map((row) => row.term_type);
  return { account: account.id, models };
};

/** A package of every model with a stored file's row (the bytes are not needed to create deployments). */
const newPackage = async (db: Db, account: number, models: string[]) => {
  const tag = `${Date.now()}-${Math.random().toString(36).slice(2, 8)}`;
  const [file] = rowsOf<{ id: number }>(
    await db.execute(sql`insert into uploaded_file (license_account_id, name, mime_type, size, sha256, storage_key)
      values (${account}, ${`bench-${tag}.zip`}, 'application/zip', 1, ${'0'.repeat(64)}, ${`bench/${tag}`}) returning id`),
  );
  const [row] = rowsOf<{ id: number }>(
    await db.execute(sql`insert into deployment_package (license_account_id, name, resource_type, version, adapted_models, file_id)
      values (${account}, ${`bench ${tag}`}, 'software', '9.9.9', ${models.join(',')}, ${file.id}) returning id`),
  );
  return row.id;
};

const STATUSES = ['issued', 'inProcess', 'applied', 'applyFailed', 'receiveFailed', 'toBeIssued'];
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Moves STEP targets every STEP_MS (in id order, round and round, each round to the next status) until
 * stopped, as machines' reports would: short statements, so the calls measured wait for at most one.
 * Answers how many changes it made.
 */
const moveStatuses = (db: Db, deploymentId: number) => {
  let stopped = false;
  let changes = 0;
  const done = (async () => {
    let cursor = 0;
    let round = 0;
    while (!stopped) {
      const status = STATUSES[round % STATUSES.length];
      const moved = rowsOf<{ id: number }>(
        await db.execute(sql`update deployment_target set status = ${status}, updated_time = now(),
            finished_time = case when ${status} in ('applied', 'applyFailed', 'receiveFailed') then now() end
          where id in (select id from deployment_target where deployment_id = ${deploymentId} and id > ${cursor} order by id limit ${STEP}) returning id`),
      );
      changes += moved.length;
      if (moved.length < STEP) {
        cursor = 0;
        round++;
      } else cursor = Math.max(...moved.map((row) => Number(row.id)));
      await pause(STEP_MS);
    }
  })();
  return { stop: async () => ((stopped = true), await done, changes) };
};

const measureStore = async (label: string, app: FleetApp): Promise<StoreResult> => {
  const db = app.app.services.db;
  const { account, models } = await prepare(db);
  const token = await signIn(app);
  const creation: number[] = [];
  const packages: number[] = [];
  let deploymentId = 0;
  let targets = 0;
  for (let run = 0; run < creates; run++) {
    const packageId = await newPackage(db, account, models);
    packages.push(packageId);
    const started = performance.now();
    const created = await call(app, token, 'POST', '/deployment', { packageId, targets: { models }, waves: [1, 10, 50, 100] });
    creation.push(performance.now() - started);
    deploymentId = created.id;
    targets = created.total;
    console.log(`[bench:deployments] ${label}: created deployment ${created.id} for ${created.total} machines in ${creation.at(-1)!.toFixed(0)} ms`);
  }
  const jobStarted = performance.now();
  await app.app.services.jobs.runNow(DEPLOYMENTS_JOB);
  const job = performance.now() - jobStarted;

  const cases = [
    { name: 'Deployment detail (counts per status and wave, gate, reason)', call: `GET /deployment/:id`, request: () => ['GET', `/deployment/${deploymentId}`] as const },
    { name: 'Targets, page 1', call: 'POST /deployment/:id/targets', request: () => ['POST', `/deployment/${deploymentId}/targets`, { pageNum: 1, pageSize: 20 }] as const },
    { name: 'Targets, page 100', call: 'POST /deployment/:id/targets', request: () => ['POST', `/deployment/${deploymentId}/targets`, { pageNum: 100, pageSize: 20 }] as const },
    {
      name: 'Targets, failed ones',
      call: 'POST /deployment/:id/targets',
      request: () => ['POST', `/deployment/${deploymentId}/targets`, { pageNum: 1, pageSize: 20, status: ['applyFailed', 'receiveFailed'] }] as const,
    },
    {
      name: 'Targets of wave 4',
      call: 'POST /deployment/:id/targets',
      request: () => ['POST', `/deployment/${deploymentId}/targets`, { pageNum: 1, pageSize: 20, wave: 4 }] as const,
    },
    { name: 'Deployment list (counts per row)', call: 'POST /deployment/page', request: () => ['POST', '/deployment/page', { pageNum: 1, pageSize: 20 }] as const },
    // What any authenticated call costs on this machine at this moment (token, permissions, envelope).
    { name: 'Reference: who am I', call: 'GET /login/current', request: () => ['GET', '/login/current'] as const },
  ];
  const mover = moveStatuses(db, deploymentId);
  const moveStarted = performance.now();
  const calls: StoreResult['calls'] = [];
  let changes = 0;
  try {
    for (const benchCase of cases) {
      const times: number[] = [];
      for (let run = -3; run < runs; run++) {
        const [method, url, body] = benchCase.request();
        const started = performance.now();
        await call(app, token, method, url, body);
        if (run >= 0) times.push(performance.now() - started);
      }
      calls.push({ name: benchCase.name, call: benchCase.call, timing: timingOf(times) });
      const timing = calls.at(-1)!.timing;
      console.log(`[bench:deployments] ${label}: ${benchCase.name.padEnd(62)} p50 ${timing.p50.toFixed(1).padStart(6)}  p95 ${timing.p95.toFixed(1).padStart(6)} ms`);
    }
  } finally {
    changes = await mover.stop();
  }
  const changesPerSecond = changes / ((performance.now() - moveStarted) / 1000);
  const [{ n }] = rowsOf<{ n: string }>(await db.execute(sql`select count(*) as n from rvm`));
  // What this run made goes again (targets and rollout rows with their deployments): the next run starts alike.
  await db.execute(sql`delete from deployment where package_id = any(${sql.param(packages)}::int4[])`);
  await db.execute(sql`with gone as (delete from deployment_package where id = any(${sql.param(packages)}::int4[]) returning file_id)
    delete from uploaded_file where id in (select file_id from gone)`);
  return { label, machines: Number(n), targets, create: timingOf(creation), job, changesPerSecond, calls };
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

const config = { passwordHashLogN: 12 };
const results: StoreResult[] = [];
const loadBefore = loadavg()[0];
if (only.has('pglite')) {
  const app = await buildFleetApp({ config });
  try {
    results.push(await measureStore('PGlite (in memory)', app));
  } finally {
    await app.close();
  }
}
let postgresVersion = '';
if (only.has('postgres')) {
  await ensureDatabase(values.database);
  const url = new URL(baseUrl);
  url.pathname = `/${values.database}`;
  const app = await buildFleetApp({ databaseUrl: url.toString(), config });
  try {
    results.push(await measureStore(`PostgreSQL, ${values.database}`, app));
    postgresVersion = `, ${String(rowsOf<{ v: string }>(await app.app.services.db.execute(sql`select version() as v`))[0].v).split(' on ')[0]}`;
  } finally {
    await app.close();
  }
}

const ms = (value: number) => value.toFixed(1);
const environment = `${cpus().length} CPU cores (${cpus()[0]?.model ?? 'unknown'}), Node ${process.version}${postgresVersion}; 1-minute load average ${loadBefore.toFixed(1)} before the run, ${loadavg()[0].toFixed(1)} after it (other work on the machine)`;
const section = [
  '<!-- deployments:start -->',
  '## Deployments (bench/deployments.ts)',
  '',
  `Written by \`npm run bench:deployments -- --machines ${machines} --runs ${runs} --creates ${creates}\` (a step of \`npm run bench\`): server-side latency`,
  `(\`app.inject\`). A deployment of one package to every machine (selection by model, waves 1/10/50/100 %), created ${creates} times with a new`,
  `package each; then, while a writer moves ${STEP} targets every ${STEP_MS} ms to their next status (as machines' reports would), 3 warm-up calls and ${runs} runs`,
  'of each status call. Goals: creating ≤ 1 s for 10,000 machines on PGlite; status calls p95 ≤ 50 ms.',
  '',
  `- Date: ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC`,
  `- Environment: ${environment}`,
  '',
  ...results.flatMap((store) => [
    `### ${store.label}: ${store.machines.toLocaleString('en')} machines, ${store.targets.toLocaleString('en')} targets per deployment`,
    '',
    `Create (\`POST /deployment\`): p50 ${ms(store.create.p50)} ms, max ${ms(store.create.max)} ms over ${creates}. One rollout job run: ${ms(store.job)} ms. ` +
      `Status changes during the calls: ${Math.round(store.changesPerSecond).toLocaleString('en')}/s.`,
    '',
    '| Case | Call | p50 (ms) | p95 (ms) | max (ms) |',
    '|---|---|---:|---:|---:|',
    ...store.calls.map((row) => `| ${row.name} | \`${row.call}\` | ${ms(row.timing.p50)} | ${ms(row.timing.p95)} | ${ms(row.timing.max)} |`),
    '',
  ]),
  '<!-- deployments:end -->',
].join('\n');
console.log(`\n${section}`);
if (!values.dry) {
  const previous = existsSync('docs/benchmarks.md') ? readFileSync('docs/benchmarks.md', 'utf8') : '# Benchmarks\n';
  const next = previous.includes('<!-- deployments:start -->')
    ? previous.replace(/<!-- deployments:start -->[\s\S]*<!-- deployments:end -->/, section)
    : `${previous.trimEnd()}\n\n${section}\n`;
  writeFileSync('docs/benchmarks.md', next);
}
