// `npm run bench:load [-- --duration 10 --connections 10 --store postgres|pglite --rate-limit 0 --hash-log-n 17]`
// (also the last step of `npm run bench`): the real server in a child process (demo fleet, production
// password hashing), loaded over loopback with autocannon, one call at a time for a bounded time:
// sign-in (operators with their right passwords), the machine list's first page, "who am I", the
// home dashboard when the server has it, and the same JSON answered from memory by a bare Fastify
// process (what the framework and the loopback cost alone). Writes requests/s, p50/p95/p99 and the
// answers that were not 2xx (429 apart) into docs/benchmarks.md between <!-- load:start/end -->.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { adminQuery, DEFAULT_DATABASE_URL, freePort, pgliteStore, postgresStore, ROOT, startChildServer } from '../tests/robust/childServer';
import { httpCall, signIn, signInAdmin } from '../tests/robust/session';

const { values } = parseArgs({
  options: {
    duration: { type: 'string', default: '10' },
    connections: { type: 'string', default: '10' },
    store: { type: 'string', default: 'postgres' },
    /** Requests per minute per address before 4029 (RATE_LIMIT_PER_MINUTE); default: high, so the bench measures the server, not the guard. */
    'rate-limit': { type: 'string', default: '100000000' },
    'hash-log-n': { type: 'string', default: '17' },
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
}

const percentile = (sorted: number[], p: number) => (sorted.length ? sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] : NaN);

/** autocannon for `duration` seconds; every answer's time and status are kept (autocannon's own histogram has no p95). */
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
    `[load] ${row.name.padEnd(44)} ${row.rps.toFixed(1).padStart(8)} req/s  p50 ${row.p50.toFixed(1)} ms  p95 ${row.p95.toFixed(1)} ms  p99 ${row.p99.toFixed(1)} ms` +
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

const loadBefore = loadavg()[0];
const store = values.store === 'pglite' ? pgliteStore() : await postgresStore(baseUrl);
console.log(`[load] starting the server on ${store.kind} (demo fleet, scrypt 2^${values['hash-log-n']}, RATE_LIMIT_PER_MINUTE=${values['rate-limit']}) ...`);
const started = Date.now();
const server = await startChildServer(store, { DEMO_FLEET: '1', PASSWORD_HASH_LOG_N: values['hash-log-n'], RATE_LIMIT_PER_MINUTE: values['rate-limit'], LOG_LEVEL: 'error' }, 600_000);
console.log(`[load] up in ${((Date.now() - started) / 1000).toFixed(0)} s at ${server.url}`);
const results: Measured[] = [];
const notes: string[] = [];
let memory: Awaited<ReturnType<typeof memoryServer>> | undefined;
try {
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

  const dashboard = await call('GET', '/dashboard', { token });
  const cases: Array<{ name: string; call: string; requests: Request[] }> = [
    { name: 'Machine list, first page', call: 'POST /rvm/page', requests: [json('/rvm/page', { pageNum: 1, pageSize: 20 })] },
    { name: 'Who am I', call: 'GET /login/current', requests: [get('/login/current')] },
  ];
  if (dashboard.body.resCode === '00000') cases.push({ name: 'Home dashboard', call: 'GET /dashboard', requests: [get('/dashboard')] });
  else notes.push(`The home dashboard route (GET /dashboard) does not exist yet on this server (${dashboard.body.resCode}): not measured.`);

  for (const benchCase of cases) {
    await load(server.url, benchCase.requests, 2); // warm-up, not recorded
    const result = { name: benchCase.name, call: benchCase.call, ...(await load(server.url, benchCase.requests)) };
    results.push(result);
    print(result);
    // A reading call must not fail under load: a failing run measures nothing.
    if (result.otherNon2xx || result.errors) throw new Error(`${benchCase.call}: ${result.otherNon2xx} answers not 2xx, ${result.errors} errors`);
  }

  // The same JSON from memory: what a call costs without the server's own work.
  const page = await call('POST', '/rvm/page', { token, body: { pageNum: 1, pageSize: 20 } });
  const current = await call('GET', '/login/current', { token });
  memory = await memoryServer({ '/test-api/rvm/page': JSON.stringify(page.body), '/test-api/login/current': JSON.stringify(current.body) });
  for (const [name, source, request] of [
    ['Machine list JSON from memory', 'Machine list, first page', json('/rvm/page', { pageNum: 1, pageSize: 20 })],
    ['Who am I JSON from memory', 'Who am I', get('/login/current')],
  ] as const) {
    await load(memory.url, [request], 2);
    const result = { name, call: `${request.method} (bare Fastify)`, ...(await load(memory.url, [request])) };
    results.push(result);
    const real = results.find((row) => row.name === source);
    if (real) notes.push(`${source}: the server answers ${((real.rps / result.rps) * 100).toFixed(0)} % of the requests/s of the same JSON from memory (${real.rps.toFixed(0)} vs ${result.rps.toFixed(0)}).`);
    print(result);
  }
  // Sign-in last (scrypt keeps the CPU busy until the queue drains), without warm-up: one operator
  // alone, then every operator at once with their right passwords.
  const signInRequests = operators.map(({ username, password }): Request => ({
    method: 'POST', path: '/test-api/login/login', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ username, password }),
  }));
  for (const [name, clients] of [['Sign-in, one operator at a time', 1], [`Sign-in, ${connections} at once (${operators.length} operators)`, connections]] as const) {
    const result = { name, call: 'POST /login/login', ...(await load(server.url, signInRequests, duration, clients)) };
    results.push(result);
    print(result);
    if (result.throttled) notes.push(`${name}: ${result.throttled} answers were 429 (4029: the password-check queue, PASSWORD_CHECK_CONCURRENCY/QUEUE, or a per-address limit), counted apart.`);
    if (result.otherNon2xx) notes.push(`${name}: ${result.otherNon2xx} answers were neither 2xx nor 429.`);
  }

  const version =
    store.kind === 'postgres' ? String((await adminQuery(store.url, 'select version() as v')).rows[0].v).split(' on ')[0] : 'PGlite (embedded, one data folder)';
  const ms = (value: number) => (Number.isFinite(value) ? value.toFixed(1) : '–');
  const section = [
    '<!-- load:start -->',
    '## Load (autocannon over loopback)',
    '',
    `Written by \`npm run bench:load\` (bench/load.ts, also the last step of \`npm run bench\`): the server started as \`npm start\` starts it`,
    `(child process, demo fleet, production scrypt 2^${values['hash-log-n']}), each call loaded for ${duration} s with ${connections} connections after a 2 s warm-up;`,
    `latencies per answer (ms). RATE_LIMIT_PER_MINUTE=${values['rate-limit']}${values['rate-limit'] === '0' ? ' (off)' : ''}; 429 answers are counted apart.`,
    '',
    `- Date: ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC`,
    `- Environment: Node ${process.version}, ${cpus().length} CPU cores (${cpus()[0]?.model ?? 'unknown'}), ${version}; load generator on the same machine; 1-minute load average before the run ${loadBefore.toFixed(1)}`,
    `- Command: \`npm run bench:load -- --duration ${duration} --connections ${connections} --store ${store.kind} --rate-limit ${values['rate-limit']} --hash-log-n ${values['hash-log-n']}\``,
    '',
    '| Call | Case | req/s | p50 | p95 | p99 | 2xx | 429 | other non-2xx | errors |',
    '|---|---|---:|---:|---:|---:|---:|---:|---:|---:|',
    ...results.map((row) => `| \`${row.call}\` | ${row.name} | ${row.rps < 10 ? row.rps.toFixed(1) : row.rps.toFixed(0)} | ${ms(row.p50)} | ${ms(row.p95)} | ${ms(row.p99)} | ${row.ok} | ${row.throttled} | ${row.otherNon2xx} | ${row.errors} |`),
    '',
    ...notes.map((note) => `- ${note}`),
    '<!-- load:end -->',
  ].join('\n');
  const previous = existsSync('docs/benchmarks.md') ? readFileSync('docs/benchmarks.md', 'utf8') : '# Benchmarks\n';
  const next = previous.includes('<!-- load:start -->') ? previous.replace(/<!-- load:start -->[\s\S]*<!-- load:end -->/, section) : `${previous.trimEnd()}\n\n${section}\n`;
  writeFileSync('docs/benchmarks.md', next);
  console.log(`\n${section}`);
} finally {
  memory?.stop();
  await server.stop();
  await store.drop();
  if (store.kind === 'pglite') rmSync(store.dataDir, { recursive: true, force: true });
}
