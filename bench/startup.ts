// `npm run bench:startup [-- --fresh 2 --restarts 3]` (also a step of `npm run bench`): how long the real
// server takes from process start until `GET /test-api/login/current` answers, on a new empty DATA_DIR
// (first start: schema, admin, demo fleet) and again on the same folder (restart), and how big the PGlite
// data folder is afterwards. Two ways of starting, measured in the same run:
//   before: what `npm start` did until now: `vite build`, then `tsx server/server.ts`, PGlite's own initdb
//   after:  `npm start` now: the build stamp check, then the bundle `dist-server/server.js` (built once here)
// Writes docs/benchmarks.md between <!-- startup:start --> and <!-- startup:end -->.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, lstatSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { freePort, ROOT } from '../tests/robust/childServer';

const { values } = parseArgs({
  options: {
    fresh: { type: 'string', default: '2' },
    restarts: { type: 'string', default: '3' },
  },
});
const freshRuns = Number(values.fresh);
const restartRuns = Number(values.restarts);
const START_LIMIT_MS = 300_000;

/** Servers still running: stopped if the bench itself is interrupted. */
const running = new Set<ChildProcess>();
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    for (const child of running) child.kill('SIGKILL');
    process.exit(130);
  });
}

interface Mode {
  name: string;
  /** Work `npm start` does before the server runs; answers the wall and CPU milliseconds it counts for in each start. */
  beforeServer(): { ms: number; cpuMs: number };
  args: string[];
  env: Record<string, string>;
}

const folderBytes = (path: string): number =>
  lstatSync(path).isDirectory() ? readdirSync(path).reduce((sum, name) => sum + folderBytes(join(path, name)), 0) : lstatSync(path).size;

const megabytes = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(0)} MB`;
const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
const median = (list: number[]) => [...list].sort((a, b) => a - b)[Math.floor((list.length - 1) / 2)];

const run = (command: string, args: string[]) => {
  const result = spawnSync(command, args, { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'] });
  if (result.status !== 0) throw new Error(`${command} ${args.join(' ')} failed (${result.status})`);
  return result.stdout.toString();
};

/** Wall and CPU milliseconds `command` takes (CPU: user + system of it and its children, GNU time). */
const timed = (command: string, args: string[]) => {
  const started = performance.now();
  const result = spawnSync('/usr/bin/time', ['-f', 'cpu %U %S', command, ...args], { cwd: ROOT, stdio: ['ignore', 'ignore', 'pipe'] });
  if (result.status !== 0) throw new Error(`${command} ${args.join(' ')} failed (${result.status}):\n${result.stderr.toString()}`);
  const [user, system] = /cpu ([\d.]+) ([\d.]+)/.exec(result.stderr.toString())!.slice(1).map(Number);
  return { ms: performance.now() - started, cpuMs: (user + system) * 1000 };
};

/** CPU time (user + system, every thread: the PGlite worker too) a running process has used, from /proc (Linux). */
const cpuMsOf = (pid: number): number => {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  // utime and stime are fields 14 and 15 of the line, in clock ticks (100 a second on Linux)
  return (Number(fields[11]) + Number(fields[12])) * 10;
};

/**
 * scripts/start.mjs's own work before it imports the bundle: the stamp check, timed inside a child (the
 * check runs in the server's process there, so no extra process start is counted).
 */
const STAMP_CHECK = `const t = performance.now(); const { staleReason } = await import('./scripts/buildStamp.mjs'); const reason = staleReason(); console.log(JSON.stringify({ ms: performance.now() - t, reason }));`;

interface Start {
  ms: number;
  /** CPU time until ready: on a busy machine wall time stretches, CPU time much less. */
  cpuMs: number;
  phases: { modulesMs: number; appMs: number; listenMs: number } | null;
}

/** One start on `dataDir`: until the API answers (a condition polled every 25 ms), then a clean stop. */
const startOnce = async (mode: Mode, dataDir: string): Promise<Start> => {
  const port = await freePort();
  const mqttPort = await freePort();
  const before = mode.beforeServer();
  const started = performance.now() - before.ms;
  let output = '';
  const child = spawn(process.execPath, mode.args, {
    cwd: ROOT,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      MQTT_PORT: String(mqttPort),
      MQTT_URL: '',
      DATABASE_URL: '',
      DATA_DIR: dataDir,
      DEMO_FLEET: '',
      SIMULATE: '',
      LOG_LEVEL: 'info',
      ...mode.env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  running.add(child);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  try {
    for (;;) {
      if (child.exitCode !== null) throw new Error(`the server exited while starting:\n${output}`);
      const answered = await fetch(`http://127.0.0.1:${port}/test-api/login/current`, { signal: AbortSignal.timeout(5_000) }).then(
        async (response) => typeof ((await response.json()) as { resCode?: string }).resCode === 'string',
        () => false,
      );
      if (answered) break;
      if (performance.now() - started > START_LIMIT_MS) throw new Error(`no answer within ${START_LIMIT_MS} ms:\n${output}`);
      // polling interval of a condition (is it answering yet?), not a sleep standing in for one
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    const ms = performance.now() - started;
    const cpuMs = before.cpuMs + cpuMsOf(child.pid!);
    const line = output.split('\n').find((text) => text.includes('"startup"'));
    const phases = line ? (JSON.parse(line) as { startup: Start['phases'] }).startup : null;
    return { ms, cpuMs, phases };
  } finally {
    child.kill('SIGINT');
    const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
    await exited;
    clearTimeout(timer);
    running.delete(child);
  }
};

interface ModeResult {
  mode: Mode;
  fresh: Start[];
  restarts: Start[];
  folder: number;
  wal: number;
}

const measure = async (mode: Mode): Promise<ModeResult> => {
  const fresh: Start[] = [];
  const restarts: Start[] = [];
  let folder = 0;
  let wal = 0;
  for (let index = 0; index < freshRuns; index++) {
    const dataDir = join(mkdtempSync(join(tmpdir(), 'rvm-bench-startup-')), 'data');
    try {
      fresh.push(await startOnce(mode, dataDir));
      console.log(`[startup] ${mode.name}: fresh ${seconds(fresh.at(-1)!.ms)} (CPU ${seconds(fresh.at(-1)!.cpuMs)})`);
      if (index === 0) {
        folder = folderBytes(dataDir);
        wal = folderBytes(join(dataDir, 'pg_wal'));
        for (let restart = 0; restart < restartRuns; restart++) {
          restarts.push(await startOnce(mode, dataDir));
          console.log(`[startup] ${mode.name}: restart ${seconds(restarts.at(-1)!.ms)} (CPU ${seconds(restarts.at(-1)!.cpuMs)})`);
        }
      }
    } finally {
      rmSync(join(dataDir, '..'), { recursive: true, force: true });
    }
  }
  return { mode, fresh, restarts, folder, wal };
};

const consoleScratch = mkdtempSync(join(tmpdir(), 'rvm-bench-console-'));
const loadBefore = loadavg()[0];
const buildStarted = performance.now();
run(process.execPath, [join(ROOT, 'scripts', 'build.mjs')]);
const buildMs = performance.now() - buildStarted;

const before: Mode = {
  name: 'before',
  // the old `npm start` rebuilt the console on every start (here into a scratch folder, leaving dist/ alone)
  beforeServer: () => timed('npx', ['vite', 'build', '--logLevel', 'error', '--outDir', consoleScratch, '--emptyOutDir']),
  args: ['--import', 'tsx', 'server/server.ts'],
  env: { STATIC_DIR: consoleScratch, PGLITE_TEMPLATE_DIR: join(consoleScratch, 'no-template') },
};
let rebuilds = 0;
const after: Mode = {
  name: 'after',
  // `npm start` (scripts/start.mjs): the stamp check, then the bundle with source maps on. When the sources changed
  // since the last build (others editing this checkout during the run) the rebuild start.mjs would do is done first,
  // outside the timing, and counted in the report: it measures a start of an up-to-date build.
  beforeServer: () => {
    const check = () => JSON.parse(run(process.execPath, ['--input-type=module', '-e', STAMP_CHECK])) as { ms: number; reason: string | null };
    let result = check();
    if (result.reason) {
      rebuilds++;
      run(process.execPath, [join(ROOT, 'scripts', 'build.mjs')]);
      result = check();
    }
    return { ms: result.ms, cpuMs: result.ms };
  },
  args: ['--enable-source-maps', 'dist-server/server.js'],
  env: {},
};

try {
  const results = [await measure(before), await measure(after)];
  const [old, now] = results;
  const row = (label: string, pick: (result: ModeResult) => string) => `| ${label} | ${pick(old)} | ${pick(now)} |`;
  const times = (starts: Start[]) => `${seconds(median(starts.map((start) => start.ms)))} (${starts.map((start) => seconds(start.ms)).join(', ')})`;
  const phases = (starts: Start[]) => {
    const known = starts.map((start) => start.phases).filter((phase) => phase !== null);
    if (!known.length) return '–';
    const pick = (key: 'modulesMs' | 'appMs' | 'listenMs') => seconds(median(known.map((phase) => phase[key])));
    return `${pick('modulesMs')} / ${pick('appMs')} / ${pick('listenMs')}`;
  };
  const ratio = (pick: (result: ModeResult) => Start[]) => (median(pick(old).map((start) => start.ms)) / median(pick(now).map((start) => start.ms))).toFixed(1);
  const version = JSON.parse(readFileSync(join(ROOT, 'node_modules', '@electric-sql', 'pglite', 'package.json'), 'utf8')).version as string;
  const section = [
    '<!-- startup:start -->',
    '## Start-up',
    '',
    'Written by `npm run bench:startup` (bench/startup.ts): the real server in a child process on free ports and a new',
    'temporary PGlite DATA_DIR, timed from launch until `GET /test-api/login/current` answers (polled every 25 ms), then',
    'stopped with SIGINT; "fresh" is a new empty folder (schema, admin, the 200-machine demo fleet), "restart" the same folder',
    'again. **before**: `npm start` as it was (`vite build` of the console on every start, then `tsx server/server.ts`, PGlite',
    'creating the cluster itself). **after**: `npm start` now (`scripts/start.mjs`: build stamp check, then the bundle',
    "`dist-server/server.js`; a new folder is copied from the build's PGlite template, initialised and migrated, and checkpointed after the demo fleet).",
    '',
    `- Date: ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC`,
    `- Environment: Node ${process.version}, ${cpus().length} CPU cores (${cpus()[0]?.model ?? 'unknown'}), PGlite ${version}; 1-minute load average before the run ${loadBefore.toFixed(1)}`,
    `- Command: \`npm run bench:startup -- --fresh ${freshRuns} --restarts ${restartRuns}\`; the one-off \`npm run build\` took ${seconds(buildMs)}`,
    '',
    '| | before | after |',
    '|---|---:|---:|',
    row('fresh start with demo fleet, median (each run)', (result) => times(result.fresh)),
    row('restart, median (each run)', (result) => times(result.restarts)),
    row('fresh start, CPU time (user + system), median', (result) => seconds(median(result.fresh.map((start) => start.cpuMs)))),
    row('restart, CPU time (user + system), median', (result) => seconds(median(result.restarts.map((start) => start.cpuMs)))),
    row('fresh: modules / database and app / listen', (result) => phases(result.fresh)),
    row('restart: modules / database and app / listen', (result) => phases(result.restarts)),
    row('data folder after the first start (of it write-ahead log)', (result) => `${megabytes(result.folder)} (${megabytes(result.wal)})`),
    '',
    `Ratios before/after in this run: fresh ${ratio((result) => result.fresh)}×, restart ${ratio((result) => result.restarts)}×. Targets: restart ≤ 2 s, fresh ≤ 8 s.`,
    `"after" includes the build stamp check; sources changed by others during the run forced ${rebuilds} rebuild(s), done before and not counted in those starts.`,
    '"modules" is process start until server.ts runs (in "before" the console build is not in it); "database and app"',
    'opens PGlite, migrates, seeds and builds the Fastify app. CPU time is what the start costs the machine (the vite build',
    'included in "before"); on a busy machine wall time grows with the load average, CPU time much less.',
    '<!-- startup:end -->',
  ].join('\n');
  const file = join(ROOT, 'docs', 'benchmarks.md');
  const previous = existsSync(file) ? readFileSync(file, 'utf8') : '# Benchmarks\n';
  const next = previous.includes('<!-- startup:start -->')
    ? previous.replace(/<!-- startup:start -->[\s\S]*<!-- startup:end -->/, section)
    : `${previous.trimEnd()}\n\n${section}\n`;
  writeFileSync(file, next);
  console.log(`\n${section}`);
} finally {
  rmSync(consoleScratch, { recursive: true, force: true });
}
