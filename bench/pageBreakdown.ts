// `npx tsx bench/pageBreakdown.ts [-- --store postgres|pglite --machines 10000 --days 7 --runs 200]`: where the time of one
// `POST /rvm/page` (first page, 20 rows) goes, stage by stage, the way the server did it before (token, user, account and
// permissions one query each; the page with its computed fields over the whole filtered set; page then count) and the way it
// does now (one query for the caller; the page's ids first; page and count at once), measured in ONE run one after the other
// on the same data, so the ratios hold whatever else the machine is doing. Sequential calls (one client), mean of `--runs`
// after 20 warm-up calls. Writes docs/benchmarks.md between <!-- page-breakdown:start/end -->.
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { eq, sql } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import { buildApp, API_PREFIX } from '../server/app';
import { Caller, loadCaller, loadPrincipal, permissionsOf } from '../server/auth/principal';
import { authenticate, issueToken } from '../server/auth/tokens';
import { listingWhere, orderByOf } from '../server/crud/query';
import { countRecords, readRecords } from '../server/crud/records';
import { sysUser } from '../server/db/schema';
import { adminQuery, DEFAULT_DATABASE_URL, postgresStore } from '../tests/robust/childServer';

const { values } = parseArgs({
  options: {
    store: { type: 'string', default: 'postgres' },
    machines: { type: 'string', default: '10000' },
    days: { type: 'string', default: '7' },
    runs: { type: 'string', default: '200' },
    /** Copy an already seeded fleet instead of seeding: a PGlite folder, or a PostgreSQL database (template, nobody connected). */
    seeded: { type: 'string' },
  },
});
const runs = Number(values.runs);
const ROOT = join(import.meta.dirname, '..');

const postgres = values.store === 'postgres' ? await postgresStore(process.env.DATABASE_URL?.trim() || DEFAULT_DATABASE_URL) : undefined;
const dataDir = postgres ? undefined : mkdtempSync(join(tmpdir(), 'rvm-breakdown-'));
const storeEnv = { DATABASE_URL: postgres?.kind === 'postgres' ? postgres.url : '', DATA_DIR: dataDir ?? '' };
if (values.seeded && postgres?.kind === 'postgres') {
  const baseUrl = process.env.DATABASE_URL?.trim() || DEFAULT_DATABASE_URL;
  await adminQuery(baseUrl, `drop database "${postgres.name}"`);
  await adminQuery(baseUrl, `create database "${postgres.name}" template "${values.seeded}"`);
} else if (values.seeded && dataDir) cpSync(values.seeded, dataDir, { recursive: true });
console.log(`[breakdown] ${values.seeded ? `copied ${values.seeded}` : `seeding ${values.machines} machines (${values.store}) ...`}`);
const seeded = values.seeded
  ? { status: 0 }
  : spawnSync(process.execPath, ['--import', 'tsx', 'server/seed/demoCli.ts', '--machines', values.machines, '--days', values.days, '--seed', 'load'], {
      cwd: ROOT,
      env: { ...process.env, ...storeEnv, PASSWORD_HASH_LOG_N: '12' },
      stdio: ['ignore', 'ignore', 'inherit'],
    });
if (seeded.status !== 0) throw new Error(`seeding failed (${seeded.status})`);

const app = await buildApp({ databaseUrl: storeEnv.DATABASE_URL || undefined, dataDir, config: { passwordHashLogN: 12, rateLimitPerMinute: 0 } });
try {
  const { db, config, models } = app.services;
  const model = models.get('machine');
  if (!model) throw new Error('no machine model');
  const [admin] = await db.select({ id: sysUser.id }).from(sysUser).where(eq(sysUser.name, 'admin'));
  await db.update(sysUser).set({ mustChangePassword: false }).where(eq(sysUser.id, admin.id));
  const token = await issueToken(db, config, admin.id);
  const body = { pageNum: 1, pageSize: 20 };
  const tokenRow = await authenticate(db, config, token);
  const principal = await loadPrincipal(db, tokenRow);
  const caller = new Caller(db, config, principal, 'en');
  const where = listingWhere(model, caller, body);
  // The page as it was read before: every field, computed ones included, over the whole filtered set, then LIMIT.
  const selection: Record<string, unknown> = { id: model.id };
  for (const name of model.readable) selection[name] = model.columns[name] ?? model.computed[name];
  const oldPage = () =>
    db
      .select(selection as Record<string, PgColumn>)
      .from(model.table)
      .where(where)
      .orderBy(...orderByOf(model))
      .limit(20);
  const newPage = () => readRecords(db, model, { where, orderBy: orderByOf(model), limit: 20, offset: 0 });
  const inject = () => app.inject({ method: 'POST', url: `${API_PREFIX}/rvm/page`, headers: { 'rvm-token': token }, payload: body });
  const answer = (await inject()).json() as unknown;

  // A page without one computed field: what that field's subqueries cost (readRecords skips a field that is neither column nor computed).
  const pageWithout = (field: string) => () =>
    readRecords(
      db,
      { ...model, computed: Object.fromEntries(Object.entries(model.computed).filter(([name]) => name !== field)) },
      { where, orderBy: orderByOf(model), limit: 20, offset: 0 },
    );
  const withoutStages = Object.keys(model.computed).map((field): [string, string, () => Promise<unknown>] => [
    'after',
    `page query without the computed field "${field}"`,
    pageWithout(field),
  ]);
  const stages: Array<[string, string, () => Promise<unknown>]> = [
    ['before', 'token row (authenticate)', () => authenticate(db, config, token)],
    ['before', 'user + current license account (loadPrincipal, 2 queries)', () => loadPrincipal(db, tokenRow)],
    ['before', 'permissions (a non-superAdmin caller; superAdmin skips it)', () => permissionsOf(db, principal.userId, principal.licenseAccountId)],
    ['after', 'token + user + account + permissions (loadCaller, 1 query)', () => loadCaller(db, config, token)],
    ['both', 'filters and scope to SQL (listingWhere)', async () => listingWhere(model, caller, body)],
    ['before', 'page query, computed fields over the whole set', oldPage],
    ['after', 'page query, ids first (readRecords)', newPage],
    ['both', 'count query (exact)', () => countRecords(db, model, where)],
    ['before', 'page then count', async () => [await oldPage(), await countRecords(db, model, where)]],
    ['after', 'page and count at once', () => Promise.all([newPage(), countRecords(db, model, where)])],
    ['both', 'JSON.stringify of the answer', async () => JSON.stringify(answer)],
    ['after', 'whole request through Fastify (app.inject)', inject],
  ];
  const rows: Array<{ when: string; stage: string; mean: number; p50: number }> = [];
  const measure = async (when: string, stage: string, run: () => Promise<unknown>) => {
    // "before" forms as they were: every statement planned on every call (server/db/namedStatements.ts off).
    process.env.PG_NAMED_STATEMENTS = when === 'before' ? 'off' : 'on';
    for (let i = 0; i < 20; i++) await run();
    const times: number[] = [];
    for (let i = 0; i < runs; i++) {
      const started = performance.now();
      await run();
      times.push(performance.now() - started);
    }
    times.sort((a, b) => a - b);
    const row = { when, stage, mean: times.reduce((sum, t) => sum + t, 0) / runs, p50: times[Math.floor(runs / 2)] };
    rows.push(row);
    console.log(`[breakdown] ${when.padEnd(6)} ${stage.padEnd(62)} mean ${row.mean.toFixed(2)} ms  p50 ${row.p50.toFixed(2)} ms`);
  };
  for (const [when, stage, run] of stages) await measure(when, stage, run);
  // The page query's variants compared with each other: interleaved (each round calls every variant once, in a
  // rotating order), so a load that drifts during the run weighs on all of them alike.
  const variants: Array<[string, string, () => Promise<unknown>]> = [
    ['before', 'page query, ids first (readRecords), planned on every call', newPage],
    ['after', 'page query, ids first (readRecords), as a named statement', newPage],
    ...withoutStages,
  ];
  const times = variants.map(() => [] as number[]);
  for (let round = -20; round < runs; round++) {
    for (let k = 0; k < variants.length; k++) {
      const index = (k + round + 20) % variants.length;
      const [when, , run] = variants[index];
      process.env.PG_NAMED_STATEMENTS = when === 'before' ? 'off' : 'on';
      const started = performance.now();
      await run();
      if (round >= 0) times[index].push(performance.now() - started);
    }
  }
  variants.forEach(([when, stage], index) => {
    const sorted = times[index].sort((a, b) => a - b);
    const row = { when, stage: `${stage} (interleaved)`, mean: sorted.reduce((sum, t) => sum + t, 0) / runs, p50: sorted[Math.floor(runs / 2)] };
    rows.push(row);
    console.log(`[breakdown] ${when.padEnd(6)} ${row.stage.padEnd(62)} mean ${row.mean.toFixed(2)} ms  p50 ${row.p50.toFixed(2)} ms`);
  });
  if (app.services.database.kind === 'postgres') {
    // Without migration 0009's index (dropped inside a transaction that is rolled back): the page as before, on one connection.
    await db
      .transaction(async (tx) => {
        await tx.execute(sql`drop index rvm_account_type_version_idx`);
        const page = () =>
          tx
            .select(selection as Record<string, PgColumn>)
            .from(model.table)
            .where(where)
            .orderBy(...orderByOf(model))
            .limit(20);
        await measure('before', 'page query, computed fields over the whole set, without the version index', page);
        throw new Error('rollback');
      })
      .catch((error: unknown) => {
        if (!(error instanceof Error && error.message === 'rollback')) throw error;
      });
  }
  const mean = (stage: string) => rows.find((row) => row.stage.startsWith(stage))?.mean ?? NaN;
  // Medians by exact stage name: on a shared machine the means carry every pause of the other jobs.
  const median = (stage: string) => rows.find((row) => row.stage === stage)?.p50 ?? NaN;
  // Before: one query after the other, the page as it was (without migration 0009's index when measured so).
  const oldPageMean = rows.find((row) => row.stage.endsWith('without the version index'))?.mean ?? mean('page query, computed fields over the whole set');
  const before = mean('token row') + mean('user + current') + oldPageMean + mean('count query');
  const after = mean('token + user') + mean('page and count at once');
  const marker = `page-breakdown-${values.store}`;
  const section = [
    `<!-- ${marker}:start -->`,
    `## Where one \`POST /rvm/page\` goes (${values.store === 'postgres' ? 'PostgreSQL' : 'PGlite'})`,
    '',
    'Written by `npx tsx bench/pageBreakdown.ts` (bench/pageBreakdown.ts): each stage of the first page of the machine list (20 of',
    `${values.machines} machines, superAdmin caller) called alone, one call at a time, ${runs} times after 20 warm-up calls, the "before" and "after" forms`,
    'one after the other in the same run (ratios hold whatever else the machine does; absolute times do not on a loaded machine).',
    '"before" forms send every statement unnamed (planned on every call); "after" and "both" ones as the server does now (repeated',
    'SELECTs as named statements on PostgreSQL, server/db/namedStatements.ts). "without the computed field X": the same page query',
    'without that one field, so the difference is what the field costs. "(interleaved)" rows were measured round by round, every',
    'variant once per round in a rotating order, so a load that drifts during the run weighs on each alike (compare those with each other).',
    '',
    `- Date: ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC; Node ${process.version}, ${cpus().length} CPU cores; 1-minute load average at the end ${loadavg()[0].toFixed(1)}`,
    `- Command: \`npx tsx bench/pageBreakdown.ts -- --store ${values.store} --machines ${values.machines} --days ${values.days} --runs ${runs}${values.seeded ? ` --seeded ${values.seeded}` : ''}\``,
    '',
    '| Form | Stage | mean ms | p50 ms |',
    '|---|---|---:|---:|',
    ...rows.map((row) => `| ${row.when} | ${row.stage} | ${row.mean.toFixed(2)} | ${row.p50.toFixed(2)} |`),
    '',
    ...Object.keys(model.computed).map((field) => {
      const page = median('page query, ids first (readRecords), as a named statement (interleaved)');
      const saved = page - median(`page query without the computed field "${field}" (interleaved)`);
      return `- Computed field "${field}" (medians): ${saved.toFixed(2)} ms of the ${page.toFixed(2)} ms page query (${((saved / page) * 100).toFixed(0)} %).`;
    }),
    `- Planning (medians): the page query planned on every call ${median('page query, ids first (readRecords), planned on every call (interleaved)').toFixed(2)} ms, as a named statement (server/db/namedStatements.ts, PostgreSQL only) ${median('page query, ids first (readRecords), as a named statement (interleaved)').toFixed(2)} ms.`,
    `- Database time of a superAdmin's request: before ${before.toFixed(1)} ms (token, user + account, the old page query, count, one after the other), after ${after.toFixed(1)} ms (${((after / before) * 100).toFixed(0)} %).`,
    `<!-- ${marker}:end -->`,
  ].join('\n');
  const file = join(ROOT, 'docs', 'benchmarks.md');
  const previous = existsSync(file) ? readFileSync(file, 'utf8') : '# Benchmarks\n';
  const pattern = new RegExp(`<!-- ${marker}:start -->[\\s\\S]*<!-- ${marker}:end -->`);
  writeFileSync(file, pattern.test(previous) ? previous.replace(pattern, () => section) : `${previous.trimEnd()}\n\n${section}\n`);
  console.log(`\n${section}`);
} finally {
  await app.close();
  await postgres?.drop();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
}
