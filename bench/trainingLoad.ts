// The machine list while a model trains (docs/benchmarks.md "AI training": issue 28 asks that the list's p95 stay
// within 2× its idle value). `npx tsx bench/trainingLoad.ts [--samples 2000] [--epochs 12] [--duration 20] [--connections 4] [--rate 40]`
// The server runs as `npm start` runs it (child process, PGlite, its in-process trainer on a thread of its own) on a
// fresh data folder with the demo fleet and N labelled pictures of the six item classes drawn as the simulator draws
// them (written before it starts: PGlite is one process's database). autocannon loads `POST /rvm/page` first with
// nothing training (idle), then while one training task is in progress, then once more idle, each time in two ways:
// saturated (`--connections` each sending its next request as soon as the last is answered: what the server can
// do, so any CPU the trainer takes shows as time), and paced (`--rate` requests a second over 2 connections: many
// operators' consoles at once, well under what the server can do). The task's status is printed after its windows.
import { loadavg, cpus } from 'node:os';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { sql } from 'drizzle-orm';
import { AI_TASK_ACTIVE, type AiTaskStatus } from '../resources/aiTraining';
import { ITEM_TYPES } from '../resources/fleetCatalogue';
import { storePicture } from '../server/ai/pictures';
import { buildApp } from '../server/app';
import { settingsFromEnv } from '../server/config';
import { rowsOf } from '../server/db/client';
import { Random } from '../server/seed/random';
import { drawItemPicture } from '../server/simulator/itemPicture';
import { pgliteStore, startChildServer } from '../tests/robust/childServer';
import { httpCall, signInAdmin } from '../tests/robust/session';

const { values } = parseArgs({
  options: {
    samples: { type: 'string', default: '2000' },
    epochs: { type: 'string', default: '12' },
    duration: { type: 'string', default: '20' },
    connections: { type: 'string', default: '4' },
    rate: { type: 'string', default: '40' },
  },
});
const duration = Number(values.duration);

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];

interface Window {
  rps: number;
  p50: number;
  p95: number;
  p99: number;
  failed: number;
}

/** autocannon on one request for `duration` seconds, saturated or at `rate` a second: every answer's time kept (its histogram has no p95). */
const measureOne = (url: string, token: string, rate?: number) =>
  new Promise<Window>((resolve, reject) => {
    const times: number[] = [];
    let failed = 0;
    const body = JSON.stringify({ pageNum: 1, pageSize: 20 });
    const instance = autocannon(
      {
        url,
        connections: rate ? 2 : Number(values.connections),
        ...(rate ? { overallRate: rate } : {}),
        duration,
        timeout: 30,
        requests: [{ method: 'POST', path: '/test-api/rvm/page', headers: { 'rvm-token': token, 'content-type': 'application/json' }, body }],
      },
      (error, result) => {
        if (error) return reject(error);
        times.sort((a, b) => a - b);
        const at = (p: number) => Math.round(percentile(times, p) * 10) / 10;
        resolve({ rps: times.length / result.duration, p50: at(50), p95: at(95), p99: at(99), failed: failed + result.errors + result.timeouts });
      },
    );
    instance.on('response', (_client, status, _bytes, ms) => (status === 200 ? times.push(ms) : failed++));
  });

const measure = async (url: string, token: string) => ({ saturated: await measureOne(url, token), paced: await measureOne(url, token, Number(values.rate)) });
const describe = (name: string, load: { saturated: Window; paced: Window }, extra: string) => {
  for (const [way, window] of Object.entries(load))
    console.log(
      `[training-load] ${name}, ${way}: p50 ${window.p50} ms p95 ${window.p95} ms p99 ${window.p99} ms, ${window.rps.toFixed(0)} req/s, ${window.failed} failed (${extra})`,
    );
};

const store = pgliteStore();
const settings = settingsFromEnv({ ...process.env, DATA_DIR: store.dataDir, DATABASE_URL: '' }, []);
const started = Date.now();
{
  // the pictures and their labels, written with the server's own code before the server starts
  const app = await buildApp({ dataDir: store.dataDir, config: settings.config, demoFleet: true });
  const { db, fileStorage } = app.services;
  const [machine] = rowsOf<{ id: number; account: number }>(await db.execute(sql`select id, license_account_id as account from rvm order by id limit 1`));
  const random = new Random('bench-training-load');
  for (let index = 0; index < Number(values.samples); index++) {
    const itemType = ITEM_TYPES[index % ITEM_TYPES.length];
    const meta = { sessionId: `bench${index}`, seq: 1, itemType, ts: new Date().toISOString() };
    await storePicture(db, fileStorage!, { rvmId: machine.id, licenseAccountId: machine.account }, meta, await drawItemPicture(() => random.next(), itemType));
  }
  await db.execute(sql`insert into ai_sample (license_account_id, picture_id, label, labelled_time)
    select license_account_id, id, item_type, now() from ai_picture`);
  await app.close();
}
console.log(`[training-load] demo fleet and ${values.samples} labelled pictures written in ${((Date.now() - started) / 1000).toFixed(0)} s`);

const server = await startChildServer(store, { DEMO_FLEET: '1', LOG_LEVEL: 'warn' });
try {
  const call = httpCall(server.url);
  const { token } = await signInAdmin(call);
  const machines = await call('POST', '/rvm/page', { token, body: { pageNum: 1, pageSize: 20 } });
  console.log(`[training-load] the list answers ${machines.body.resData.total} machines, 20 a page; ${values.connections} connections, ${duration} s a window`);
  const load = () => `load ${loadavg()[0].toFixed(2)}`;
  await measureOne(server.url, token); // warm-up: the first answers compile queries and fill caches
  const idleBefore = await measure(server.url, token);
  describe('idle', idleBefore, load());

  const created = await call('POST', '/ai/training-task', {
    token,
    body: { basicModel: 'none', newModelName: 'bench_load', taskType: 'classification', epochs: Number(values.epochs) },
  });
  const taskId = created.body.resData.id as number;
  const status = async () => (await call('GET', `/ai/training-task/${taskId}`, { token })).body.resData as { status: AiTaskStatus; progress: unknown[] };
  // wait for the trainer to claim it and finish its first epoch (decoding the pictures is behind it then)
  const deadline = Date.now() + 600_000;
  for (let task = await status(); task.status !== 'inProgress' || task.progress.length === 0; task = await status()) {
    if (Date.now() > deadline || !AI_TASK_ACTIVE.includes(task.status)) throw new Error(`the task did not start training: ${task.status}`);
    await new Promise((resolve) => setTimeout(resolve, 500)); // a poll interval, not a stand-in for a condition
  }
  const training = await measure(server.url, token);
  const after = await status();
  describe('training', training, `${load()}; the task ${after.status} at epoch ${after.progress.length}/${values.epochs} when the windows ended`);
  if (after.status !== 'inProgress') console.log('[training-load] the task ended inside the windows: use more epochs');
  const trainingStarted = Date.now();
  let ended = after;
  while (ended.status === 'inProgress') {
    await new Promise((resolve) => setTimeout(resolve, 1000));
    ended = await status();
  }
  console.log(`[training-load] the task ended ${ended.status} ${((Date.now() - trainingStarted) / 1000).toFixed(0)} s after the training windows`);
  const idleAfter = await measure(server.url, token);
  describe('idle again', idleAfter, load());
  for (const way of ['saturated', 'paced'] as const) {
    const strictest = Math.min(idleBefore[way].p95, idleAfter[way].p95);
    console.log(
      `[training-load] ${way}: p95 while training / idle ${(training[way].p95 / idleBefore[way].p95).toFixed(2)} (before), ${(training[way].p95 / idleAfter[way].p95).toFixed(2)} (after): ` +
        `goal ≤ 2 ${training[way].p95 <= 2 * strictest ? 'met' : 'not met'}`,
    );
  }
  console.log(`[training-load] ${cpus().length} cores (${cpus()[0]?.model}), Node ${process.version}`);
} finally {
  await server.stop();
  await store.drop();
}
