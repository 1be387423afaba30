// `npm run bench:load [-- --store postgres|pglite --machines 10000 --days 7 --label after --duration 10 --connections 10]`
// (also the last step of `npm run bench`): the real server in a child process on a throw-away store
// seeded with a deterministic fleet (`npm run seed`, 10,000 machines by default), loaded over loopback
// with autocannon, one call at a time for a bounded time: the machine list's first page, "who am I",
// the home dashboard, then light calls (a static page, "who am I") WHILE the list is loaded, the same
// JSON answered from memory by a bare Fastify process (what the framework and the loopback cost alone),
// and sign-in. Each run is kept in .tmp/load-runs.json under `<store>/<label>`, and every kept run is
// written into docs/benchmarks.md between <!-- load:start/end --> (before/after, PostgreSQL and PGlite).
import { spawn } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { adminQuery, DEFAULT_DATABASE_URL, freePort, pgliteStore, postgresStore, ROOT, startChildServer, type Store } from '../tests/robust/childServer';
import { httpCall, signIn, signInAdmin } from '../tests/robust/session';

const { values } = parseArgs({
  options: {
    duration: { type: 'string', default: '10' },
    connections: { type: 'string', default: '10' },
    store: { type: 'string', default: 'postgres' },
    machines: { type: 'string', default: '10000' },
    days: { type: 'string', default: '7' },
    /** Name of this run in the kept results (e.g. before / after a change). */
    label: { type: 'string', default: 'latest' },
    /** Where runs are kept (absolute path: a checkout of an older version can write into this one's). */
    runs: { type: 'string', default: join(process.cwd(), '.tmp', 'load-runs.json') },
    /** Requests per minute per address before 4029 (RATE_LIMIT_PER_MINUTE); default: high, so the bench measures the server, not the guard. */
    'rate-limit': { type: 'string', default: '100000000' },
    'hash-log-n': { type: 'string', default: '17' },
    /** Copy an already seeded fleet instead of seeding: a PGlite folder, or a PostgreSQL database name (used as a template, nobody connected). */
    seeded: { type: 'string' },
    /** Only kept runs into docs/benchmarks.md, no measuring. */
    'write-only': { type: 'boolean', default: false },
  },
});
const duration = Number(values.duration);
const connections = Number(values.connections);
const baseUrl = process.env.DATABASE_URL?.trim() || DEFAULT_DATABASE_URL;

interface Request {
  method: 'GET' | 'POST';
  path: string;
  headers?: Record<string, string>;
  body?: string;
}

interface Measured {
  name: string;
  call: string;
  rps: number;
  p50: number;
  p95: number;
  p99: number;
  ok: number;
  throttled: number;
  otherNon2xx: number;
  errors: number;
  /** CPU time (user + system) per answer, ms: the server process (PGlite's worker thread included) and its PostgreSQL backends. */
  cpuServerMs?: number;
  cpuDatabaseMs?: number;
}

interface Run {
  store: string;
  label: string;
  date: string;
  environment: string;
  command: string;
  seed: string;
  rows: Measured[];
  notes: string[];
}

/** CPU time (user + system, ms) a process has used so far (Linux /proc; clock ticks of 10 ms), 0 when unreadable. */
const cpuMsOf = (pid: number | undefined) => {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return 0;
  }
};

const percentile = (sorted: number[], p: number) => (sorted.length ? sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] : NaN);

/** autocannon for `seconds`; every answer's time and status are kept (autocannon's own histogram has no p95). */
const load = (url: string, requests: Request[], seconds = duration, clients = connections) =>
  new Promise<Omit<Measured, 'name' | 'call'>>((resolve, reject) => {
    const times: number[] = [];
    const statuses = new Map<number, number>();
    const instance = autocannon({ url, connections: clients, duration: seconds, requests, timeout: 30 }, (error, result) => {
      if (error) return reject(error);
      times.sort((a, b) => a - b);
      const count = (predicate: (status: number) => boolean) => [...statuses].filter(([status]) => predicate(status)).reduce((sum, [, n]) => sum + n, 0);
      resolve({
        rps: times.length / result.duration,
        p50: percentile(times, 50),
        p95: percentile(times, 95),
        p99: percentile(times, 99),
        ok: count((status) => status >= 200 && status < 300),
        throttled: count((status) => status === 429),
        otherNon2xx: count((status) => (status < 200 || status >= 300) && status !== 429),
        errors: result.errors + result.timeouts,
      });
    });
    instance.on('response', (_client, statusCode, _bytes, responseTime) => {
      times.push(responseTime);
      statuses.set(statusCode, (statuses.get(statusCode) ?? 0) + 1);
    });
  });

const print = (row: Measured) =>
  console.log(
    `[load] ${row.name.padEnd(52)} ${row.rps.toFixed(1).padStart(8)} req/s  p50 ${row.p50.toFixed(1)} ms  p95 ${row.p95.toFixed(1)} ms  p99 ${row.p99.toFixed(1)} ms` +
      `  2xx ${row.ok}  429 ${row.throttled}  other ${row.otherNon2xx}  errors ${row.errors}`,
  );

/** A bare Fastify process answering each path with a fixed body from memory. */
const memoryServer = async (bodies: Record<string, string>) => {
  const port = await freePort();
  const file = join(mkdtempSync(join(tmpdir(), 'rvm-load-')), 'bodies.json');
  writeFileSync(file, JSON.stringify(bodies));
  const code = `
    const app = require('fastify')({ logger: false });
    const bodies = JSON.parse(require('fs').readFileSync(process.env.BODIES, 'utf8'));
    app.all('/*', async (request, reply) => reply.type('application/json; charset=utf-8').send(bodies[request.url.split('?')[0]] ?? '{}'));
    app.listen({ port: Number(process.env.PORT), host: '127.0.0.1' }).then(() => console.log('ready'));`;
  const child = spawn(process.execPath, ['-e', code], { cwd: ROOT, env: { ...process.env, PORT: String(port), BODIES: file }, stdio: ['ignore', 'pipe', 'inherit'] });
  await new Promise<void>((resolve, reject) => {
    child.stdout?.on('data', (chunk: Buffer) => chunk.toString().includes('ready') && resolve());
    child.once('exit', (code) => reject(new Error(`the memory server exited (${code})`)));
  });
  return { url: `http://127.0.0.1:${port}`, stop: () => child.kill('SIGKILL') };
};

/** `npm run seed` into the store (the same deterministic fleet for every run), before the server starts. */
const seedStore = (store: Store) =>
  new Promise<string>((resolve, reject) => {
    const started = Date.now();
    const args = ['--import', 'tsx', 'server/seed/demoCli.ts', '--machines', values.machines, '--days', values.days, '--seed', 'load'];
    const env = { ...process.env, DATABASE_URL: store.kind === 'postgres' ? store.url : '', DATA_DIR: store.kind === 'pglite' ? store.dataDir : '', PASSWORD_HASH_LOG_N: '12' };
    const child = spawn(process.execPath, args, { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'inherit'] });
    let last = '';
    child.stdout?.on('data', (chunk: Buffer) => (last = chunk.toString().trim().split('\n').pop() ?? last));
    child.once('exit', (code) =>
      code === 0
        ? resolve(`${values.machines} machines over ${values.days} days (seed "load", ${((Date.now() - started) / 1000).toFixed(0)} s)`)
        : reject(new Error(`seeding failed (${code}): ${last}`)),
    );
  });

/** A copy of an already seeded store (`--seeded`), the original left untouched. */
const copySeeded = async (store: Store, source: string) => {
  if (store.kind === 'pglite') cpSync(source, store.dataDir, { recursive: true });
  else {
    await adminQuery(baseUrl, `drop database "${store.name}"`);
    await adminQuery(baseUrl, `create database "${store.name}" template "${source}"`);
  }
  return `copy of ${source} (seeded earlier by \`npm run seed -- --machines ${values.machines} --days ${values.days} --seed load\`)`;
};

const readRuns = (): Record<string, Run> => (existsSync(values.runs) ? (JSON.parse(readFileSync(values.runs, 'utf8')) as Record<string, Run>) : {});

const rate = (rps: number) => (rps < 10 ? rps.toFixed(1) : rps.toFixed(0));
const ms = (value: number | undefined) => (value !== undefined && Number.isFinite(value) ? value.toFixed(1) : 'none answered');

/** Requests/s the first page must reach at 10,000 machines (issue 8). */
const PAGE_GOAL: Record<string, number> = { postgres: 1000, pglite: 400 };

const cpuCell = (row: Measured | undefined) =>
  row?.cpuServerMs === undefined ? '–' : row.cpuDatabaseMs === undefined ? row.cpuServerMs.toFixed(2) : `${row.cpuServerMs.toFixed(2)} + ${row.cpuDatabaseMs.toFixed(2)}`;

const renderSection = (runs: Record<string, Run>) => {
  const list = Object.values(runs).sort((a, b) => a.store.localeCompare(b.store) || a.date.localeCompare(b.date));
  const find = (run: Run, name: string) => run.rows.find((row) => row.name === name);
  return [
    '<!-- load:start -->',
    '## Load (autocannon over loopback)',
    '',
    'Written by `npm run bench:load` (bench/load.ts, also the last step of `npm run bench`): the server started as `npm start` starts it',
    '(child process, production scrypt) on a throw-away store seeded by `npm run seed` with 10,000 machines, each call loaded with',
    'autocannon after a 2 s warm-up; latencies per answer (ms); 429 answers are counted apart. Each run below is kept by its label',
    '(`--label`, in .tmp/load-runs.json); "before" runs were made with a copy of the code before the change and this bench.',
    '"While the list loads": a light call on 1 connection during the list\'s load on 10 connections (PGlite blocking the event loop shows here).',
    'The load generator shares the machine: read each run with the 1-minute load average of its environment line (other jobs running',
    'at the same time lower every figure of that run, the from-memory one too, which is why the ratio is given).',
    '',
    '"CPU per answer": CPU time (user + system) of the server process (PGlite\'s worker included) + its PostgreSQL backends during the',
    'load, divided by the answers: what one answer costs the machine whatever else runs on it (older runs did not measure it).',
    '',
    '| Store | Run | `POST /rvm/page` req/s (goal) | same JSON from memory req/s | ratio | page CPU per answer, server + database (ms) | `GET /login/current` req/s | who am I CPU per answer (ms) | static page p99 (ms) while the list loads | who am I p99 (ms) while the list loads |',
    '|---|---|---:|---:|---:|---:|---:|---:|---:|---:|',
    ...list.map((run) => {
      const page = find(run, 'Machine list, first page');
      const memory = find(run, 'Machine list JSON from memory');
      const goal = PAGE_GOAL[run.store] ?? NaN;
      const whoAmI = find(run, 'Who am I');
      return `| ${run.store} | ${run.label} (${run.date}) | ${page ? rate(page.rps) : '–'} (${goal}: ${page && page.rps >= goal ? 'met' : 'not met'}) | ${memory ? rate(memory.rps) : '–'} | ${page && memory ? `${((page.rps / memory.rps) * 100).toFixed(1)} %` : '–'} | ${cpuCell(page)} | ${rate(whoAmI?.rps ?? NaN)} | ${cpuCell(whoAmI)} | ${ms(find(run, 'Static page while the list loads')?.p99)} | ${ms(find(run, 'Who am I while the list loads')?.p99)} |`;
    }),
    '',
    ...list.flatMap((run) => [
      `### ${run.store}, ${run.label}`,
      '',
      `- Date: ${run.date} UTC; ${run.environment}`,
      `- Data: ${run.seed}`,
      `- Command: \`${run.command}\``,
      '',
      '| Call | Case | req/s | p50 | p95 | p99 | 2xx | 429 | other non-2xx | errors |',
      '|---|---|---:|---:|---:|---:|---:|---:|---:|---:|',
      ...run.rows.map(
        (row) =>
          `| \`${row.call}\` | ${row.name} | ${rate(row.rps)} | ${ms(row.p50)} | ${ms(row.p95)} | ${ms(row.p99)} | ${row.ok} | ${row.throttled} | ${row.otherNon2xx} | ${row.errors} |`,
      ),
      '',
      ...run.notes.map((note) => `- ${note}`),
      '',
    ]),
    '<!-- load:end -->',
  ].join('\n');
};

const writeSection = (runs: Record<string, Run>) => {
  const section = renderSection(runs);
  const previous = existsSync('docs/benchmarks.md') ? readFileSync('docs/benchmarks.md', 'utf8') : '# Benchmarks\n';
  const next = previous.includes('<!-- load:start -->') ? previous.replace(/<!-- load:start -->[\s\S]*<!-- load:end -->/, () => section) : `${previous.trimEnd()}\n\n${section}\n`;
  writeFileSync('docs/benchmarks.md', next);
  console.log(`\n${section}`);
};

if (values['write-only']) {
  writeSection(readRuns());
  process.exit(0);
}

const loadBefore = loadavg()[0];
const store = values.store === 'pglite' ? pgliteStore() : await postgresStore(baseUrl);
const staticDir = mkdtempSync(join(tmpdir(), 'rvm-load-static-'));
writeFileSync(join(staticDir, 'index.html'), '<!doctype html><title>RVM Console</title><div id="root"></div>');
let server: Awaited<ReturnType<typeof startChildServer>> | undefined;
let memory: Awaited<ReturnType<typeof memoryServer>> | undefined;
try {
  console.log(`[load] ${values.seeded ? `copying ${values.seeded}` : `seeding ${values.machines} machines`} into a throw-away ${store.kind} store ...`);
  const seed = values.seeded ? await copySeeded(store, values.seeded) : await seedStore(store);
  console.log(`[load] ${seed}; starting the server (scrypt 2^${values['hash-log-n']}, RATE_LIMIT_PER_MINUTE=${values['rate-limit']}) ...`);
  server = await startChildServer(
    store,
    { DEMO_FLEET: '0', STATIC_DIR: staticDir, PASSWORD_HASH_LOG_N: values['hash-log-n'], RATE_LIMIT_PER_MINUTE: values['rate-limit'], LOG_LEVEL: 'error' },
    600_000,
  );
  const results: Measured[] = [];
  const notes: string[] = [];
  const call = httpCall(server.url, 120_000);
  const admin = await signInAdmin(call);
  // Operators with their own passwords (changed at their first sign-in, as the server requires).
  const operators: Array<{ username: string; password: string }> = [];
  for (let i = 1; i <= 4; i++) {
    const name = `op${i}`;
    const created = await call('POST', '/user', { token: admin.token, body: { realname: `Operator ${i}`, name, password: 'Start@123', confirmPassword: 'Start@123' } });
    if (created.body.resCode !== '00000') throw new Error(`creating ${name}: ${created.body.resCode} ${created.body.resMsg}`);
    operators.push({ username: name, password: (await signIn(call, name, ['Start@123'], `Oper@${i}${i}${i}`)).password });
  }
  // The reading calls use the admin's session; the sign-in load signs in the operators only (their
  // sessions supersede each other, MAX_SESSIONS_PER_USER, not the admin's).
  const token = (await signInAdmin(call)).token;
  const auth = { 'rvm-token': token, 'content-type': 'application/json' };
  const json = (path: string, body: unknown): Request => ({ method: 'POST', path: `/test-api${path}`, headers: auth, body: JSON.stringify(body) });
  const get = (path: string): Request => ({ method: 'GET', path: `/test-api${path}`, headers: { 'rvm-token': token } });
  const firstPage = json('/rvm/page', { pageNum: 1, pageSize: 20 });
  const record = (result: Measured) => {
    results.push(result);
    print(result);
    return result;
  };
  // Requests a load left queued (PGlite on the event loop answers long after autocannon stopped) must
  // not be counted against the next case: wait until the server answers again.
  const settle = () => call('GET', '/login/current', { token });
  const mustSucceed = (result: Measured) => {
    // A reading call must not fail under load: a failing run measures nothing.
    if (result.otherNon2xx || result.errors) throw new Error(`${result.call}: ${result.otherNon2xx} answers not 2xx, ${result.errors} errors`);
  };

  const dashboard = await call('GET', '/dashboard', { token });
  const cases: Array<{ name: string; call: string; requests: Request[] }> = [
    { name: 'Machine list, first page', call: 'POST /rvm/page', requests: [firstPage] },
    { name: 'Who am I', call: 'GET /login/current', requests: [get('/login/current')] },
  ];
  if (dashboard.body.resCode === '00000') cases.push({ name: 'Home dashboard', call: 'GET /dashboard', requests: [get('/dashboard')] });
  else notes.push(`The home dashboard route (GET /dashboard) does not exist yet on this server (${dashboard.body.resCode}): not measured.`);
  // What one answer costs the machine, robust to whatever else runs on it (requests/s are not): the server's
  // CPU time and its PostgreSQL backends' (the pool's connections, alive through a load: listed after the warm-up).
  const backendPids = async () =>
    store.kind === 'postgres' ? (await adminQuery(baseUrl, 'select pid from pg_stat_activity where datname = $1', [store.name])).rows.map((row) => Number(row.pid)) : [];
  for (const benchCase of cases) {
    await load(server.url, benchCase.requests, 2); // warm-up, not recorded
    const pids = await backendPids();
    const cpu = () => ({ server: cpuMsOf(server?.child.pid), database: pids.reduce((sum, pid) => sum + cpuMsOf(pid), 0) });
    const before = cpu();
    const result = await load(server.url, benchCase.requests);
    const after = cpu();
    const answers = Math.max(1, result.ok + result.throttled + result.otherNon2xx);
    const cpuServerMs = (after.server - before.server) / answers;
    const cpuDatabaseMs = store.kind === 'postgres' ? (after.database - before.database) / answers : undefined;
    mustSucceed(record({ name: benchCase.name, call: benchCase.call, ...result, cpuServerMs, cpuDatabaseMs }));
    notes.push(
      `${benchCase.name}: CPU per answer ${cpuServerMs.toFixed(2)} ms in the server process${cpuDatabaseMs === undefined ? " (PGlite's worker thread included)" : ` + ${cpuDatabaseMs.toFixed(2)} ms in PostgreSQL (${pids.length} backends)`}.`,
    );
    await settle();
  }

  // Light calls while the list is loaded: does one heavy call hold up everything else?
  const [listed, staticPage, whoAmI] = await Promise.all([
    load(server.url, [firstPage]),
    load(server.url, [{ method: 'GET', path: '/' }], duration, 1),
    load(server.url, [get('/login/current')], duration, 1),
  ]);
  record({ name: `Machine list, first page (with the 2 light calls beside)`, call: 'POST /rvm/page', ...listed });
  mustSucceed(record({ name: 'Static page while the list loads', call: 'GET / (index.html)', ...staticPage }));
  mustSucceed(record({ name: 'Who am I while the list loads', call: 'GET /login/current', ...whoAmI }));
  for (const [name, result] of [
    ['static page', staticPage],
    ['who am I', whoAmI],
  ] as const) {
    if (result.ok === 0) notes.push(`While the list loads, the ${name} got no answer at all within ${duration} s (the event loop was busy).`);
  }
  await settle();

  // The same JSON from memory: what a call costs without the server's own work.
  const page = await call('POST', '/rvm/page', { token, body: { pageNum: 1, pageSize: 20 } });
  const current = await call('GET', '/login/current', { token });
  memory = await memoryServer({ '/test-api/rvm/page': JSON.stringify(page.body), '/test-api/login/current': JSON.stringify(current.body) });
  for (const [name, source, request] of [
    ['Machine list JSON from memory', 'Machine list, first page', firstPage],
    ['Who am I JSON from memory', 'Who am I', get('/login/current')],
  ] as const) {
    await load(memory.url, [request], 2);
    const result = record({ name, call: `${request.method} (bare Fastify)`, ...(await load(memory.url, [request])) });
    const real = results.find((row) => row.name === source);
    if (real)
      notes.push(
        `${source}: the server answers ${((real.rps / result.rps) * 100).toFixed(1)} % of the requests/s of the same JSON from memory (${real.rps.toFixed(0)} vs ${result.rps.toFixed(0)}).`,
      );
  }
  // Sign-in last (scrypt keeps the CPU busy until the queue drains), without warm-up: one operator
  // alone, then every operator at once with their right passwords.
  const signInRequests = operators.map(({ username, password }): Request => ({
    method: 'POST',
    path: '/test-api/login/login',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username, password }),
  }));
  for (const [name, clients] of [
    ['Sign-in, one operator at a time', 1],
    [`Sign-in, ${connections} at once (${operators.length} operators)`, connections],
  ] as const) {
    const result = record({ name, call: 'POST /login/login', ...(await load(server.url, signInRequests, duration, clients)) });
    if (result.throttled)
      notes.push(`${name}: ${result.throttled} answers were 429 (4029: the password-check queue, PASSWORD_CHECK_CONCURRENCY/QUEUE, or a per-address limit), counted apart.`);
    if (result.otherNon2xx) notes.push(`${name}: ${result.otherNon2xx} answers were neither 2xx nor 429.`);
  }

  const version = store.kind === 'postgres' ? String((await adminQuery(store.url, 'select version() as v')).rows[0].v).split(' on ')[0] : 'PGlite (embedded, one data folder)';
  const run: Run = {
    store: store.kind,
    label: values.label,
    date: new Date().toISOString().slice(0, 16).replace('T', ' '),
    environment: `Node ${process.version}, ${cpus().length} CPU cores (${cpus()[0]?.model ?? 'unknown'}), ${version}; load generator on the same machine; 1-minute load average before the run ${loadBefore.toFixed(1)}`,
    command: `npm run bench:load -- --store ${store.kind} --label ${values.label} --machines ${values.machines} --days ${values.days} --duration ${duration} --connections ${connections} --rate-limit ${values['rate-limit']} --hash-log-n ${values['hash-log-n']}`,
    seed,
    rows: results,
    notes,
  };
  const runs = { ...readRuns(), [`${run.store}/${run.label}`]: run };
  mkdirSync(join(values.runs, '..'), { recursive: true });
  writeFileSync(values.runs, JSON.stringify(runs, null, 1));
  writeSection(runs);
} finally {
  memory?.stop();
  await server?.stop();
  await store.drop();
  rmSync(staticDir, { recursive: true, force: true });
}
