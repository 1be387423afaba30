// `npx tsx bench/profileCall.ts -- --seeded rvm_throughput_10k [--store postgres|pglite] [--path /rvm/page --method POST]
// [--duration 10] [--profile]`: one call of the real server (child process, as bench/load.ts starts it, on a copy of an
// already seeded store) loaded by autocannon (10 connections) after a 2 s warm-up. Prints requests/s and the CPU time per
// answer of the server process and of its PostgreSQL backends (robust to whatever else the machine runs, unlike requests/s);
// with --profile, the CPU profile of the load only (bench/profilerPreload.mjs): self time by package and by function, and
// the time under each function (inclusive). What docs/benchmarks.md "Why POST /rvm/page is still short" was measured with.
import { spawn } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { adminQuery, DEFAULT_DATABASE_URL, freePort, ROOT } from '../tests/robust/childServer';
import { httpCall, signInAdmin } from '../tests/robust/session';

const { values } = parseArgs({
  options: {
    seeded: { type: 'string' },
    store: { type: 'string', default: 'postgres' },
    path: { type: 'string', default: '/rvm/page' },
    method: { type: 'string', default: 'POST' },
    duration: { type: 'string', default: '10' },
    profile: { type: 'boolean', default: false },
  },
});
if (!values.seeded) throw new Error('--seeded: a seeded PostgreSQL database (copied as a template) or PGlite folder (copied)');
const baseUrl = process.env.DATABASE_URL?.trim() || DEFAULT_DATABASE_URL;
const work = mkdtempSync(join(tmpdir(), 'rvm-profile-'));
let databaseUrl = '';
let dataDir = '';
let copyName = '';
if (values.store === 'postgres') {
  copyName = `rvm_profile_${Date.now().toString(36)}`;
  await adminQuery(baseUrl, `create database "${copyName}" template "${values.seeded}"`);
  const url = new URL(baseUrl);
  url.pathname = `/${copyName}`;
  databaseUrl = url.toString();
} else {
  dataDir = join(work, 'data');
  cpSync(values.seeded, dataDir, { recursive: true });
}
const profileFile = join(work, 'load.cpuprofile');
const port = await freePort();
const child = spawn(process.execPath, ['--import', './bench/profilerPreload.mjs', '--import', 'tsx', 'server/server.ts'], {
  cwd: ROOT,
  env: {
    ...process.env,
    PORT: String(port),
    HOST: '127.0.0.1',
    MQTT_PORT: String(await freePort()),
    MQTT_URL: '',
    SIMULATE: '',
    DEMO_FLEET: '0',
    STATIC_DIR: join(work, 'no-console'),
    LOG_LEVEL: 'error',
    PASSWORD_HASH_LOG_N: '12',
    RATE_LIMIT_PER_MINUTE: '0',
    DATABASE_URL: databaseUrl,
    DATA_DIR: dataDir,
    PROFILE_OUT: profileFile,
  },
  stdio: ['ignore', 'inherit', 'inherit'],
});
const exited = new Promise((resolve) => child.once('exit', resolve));
try {
  const base = `http://127.0.0.1:${port}`;
  // the polling interval of a condition (listening yet?), not a sleep standing in for one
  while (
    !(await fetch(`${base}/test-api/docs/json`).then(
      (response) => response.ok,
      () => false,
    ))
  )
    await new Promise((resolve) => setTimeout(resolve, 250));
  const { token } = await signInAdmin(httpCall(base, 60_000));
  const request = {
    method: values.method as 'GET' | 'POST',
    path: `/test-api${values.path}`,
    headers: { 'rvm-token': token, 'content-type': 'application/json' },
    body: values.method === 'POST' ? JSON.stringify({ pageNum: 1, pageSize: 20 }) : undefined,
  };
  const load = (seconds: number) =>
    new Promise<autocannon.Result>((resolve, reject) =>
      autocannon({ url: base, connections: 10, duration: seconds, requests: [request] }, (error, result) => (error ? reject(error) : resolve(result))),
    );
  await load(2);
  /** CPU time (user + system, ms; Linux clock ticks of 10 ms) of one process so far. */
  const cpuMs = (pid: number) => {
    try {
      const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
      return (Number(fields[11]) + Number(fields[12])) * 10;
    } catch {
      return 0;
    }
  };
  const backends = copyName ? (await adminQuery(baseUrl, 'select pid from pg_stat_activity where datname = $1', [copyName])).rows.map((row) => Number(row.pid)) : [];
  const cpu = () => ({ server: cpuMs(child.pid as number), database: backends.reduce((sum, pid) => sum + cpuMs(pid), 0) });
  if (values.profile) child.kill('SIGUSR2');
  const before = cpu();
  const result = await load(Number(values.duration));
  const after = cpu();
  const answers = Math.max(1, result.requests.total);
  console.log(
    `${values.method} ${values.path}: ${result.requests.average} req/s, non-2xx ${result.non2xx}, errors ${result.errors}, p50 ${result.latency.p50} ms, p99 ${result.latency.p99} ms`,
  );
  console.log(
    `CPU per answer: server ${((after.server - before.server) / answers).toFixed(3)} ms` +
      (copyName ? `, PostgreSQL ${((after.database - before.database) / answers).toFixed(3)} ms (${backends.length} backends)` : ' (PGlite worker included)'),
  );
  if (values.profile) {
    child.kill('SIGUSR1');
    // the profile is written by the child: wait until the file is there
    for (let i = 0; i < 100; i++) {
      try {
        readFileSync(profileFile);
        break;
      } catch {
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    }
    if (process.env.KEEP_PROFILE) cpSync(profileFile, process.env.KEEP_PROFILE);
    summarise(JSON.parse(readFileSync(profileFile, 'utf8')) as Profile);
  }
} finally {
  child.kill('SIGINT');
  await exited;
  if (copyName) await adminQuery(baseUrl, `drop database if exists "${copyName}" with (force)`);
  rmSync(work, { recursive: true, force: true });
}

interface Profile {
  nodes: Array<{ id: number; callFrame: { functionName: string; url: string; lineNumber: number }; children?: number[] }>;
  samples: number[];
}

function summarise(profile: Profile) {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const parent = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
  const label = (id: number) => {
    const { functionName, url, lineNumber } = byId.get(id)!.callFrame;
    return `${functionName || '(anonymous)'} ${url.replace(/.*node_modules\//, '').replace(/.*\/work\/[^/]+\//, '')}:${lineNumber}`;
  };
  const packageOf = (id: number) => {
    const { url, functionName } = byId.get(id)!.callFrame;
    if (url.includes('node_modules/')) return url.replace(/.*node_modules\/((@[^/]+\/)?[^/]+).*/, '$1');
    if (url.startsWith('node:')) return 'node';
    return url ? url.replace(/.*\/work\/[^/]+\/([^/]+\/[^/]+).*/, '$1') : functionName;
  };
  const busy = profile.samples.filter((id) => byId.get(id)?.callFrame.functionName !== '(idle)');
  const count = (key: (id: number) => string[]) => {
    const totals = new Map<string, number>();
    for (const id of busy) for (const name of new Set(key(id))) totals.set(name, (totals.get(name) ?? 0) + 1);
    return [...totals].sort((a, b) => b[1] - a[1]);
  };
  const print = (title: string, rows: Array<[string, number]>, limit: number) => {
    console.log(`--- ${title} (% of ${busy.length} busy samples; ${profile.samples.length - busy.length} idle)`);
    for (const [name, n] of rows.slice(0, limit)) console.log(`${((n / busy.length) * 100).toFixed(1).padStart(5)} %  ${name}`);
  };
  print(
    'self time by package',
    count((id) => [packageOf(id)]),
    20,
  );
  print(
    'self time by function',
    count((id) => [label(id)]),
    30,
  );
  print(
    'time under each function (inclusive)',
    count((id) => {
      const names: string[] = [];
      for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) names.push(label(at));
      return names;
    }),
    40,
  );
}
