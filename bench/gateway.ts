// `npm run bench:gateway [-- --machines 10000 --seconds 20 --samples 40]`: the machine gateway end to end
// on PostgreSQL (database rvm_bench_gateway next to DATABASE_URL's, re-created each run) with the embedded
// broker. N virtual machines, each its own MQTT connection, publish protocol messages (QoS 1):
// 1. throughput: every machine sends as fast as its PUBACKs come back (a PUBACK is sent only after the
//    message's transaction committed), heartbeats, consumer sessions and bin levels mixed 8:1.5:0.5;
//    messages/s = acknowledged messages / seconds, checked against the committed session rows;
// 2. visibility delay: under realistic load (a heartbeat every 30 s per machine, sessions), a machine
//    publishes a status change and the API (`GET /rvm/{id}`) is polled until it shows it.
// The virtual machines run in child processes (file limits), on the same 2 cores as the server.
import { cpus } from 'node:os';
import { parseArgs } from 'node:util';
import { fork, type ChildProcess } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { eq, sql } from 'drizzle-orm';
import { buildApp } from '../server/app';
import { rowsOf } from '../server/db/client';
import { rvm } from '../server/db/schema/fleet';
import { consumerSession } from '../server/db/schema/fleetActivity';
import { issueCredential } from '../server/gateway/credentials';
import type { ChildMessage, ParentMessage } from './gatewayMachines';
import { seedDemoFleet } from '../server/seed/demoFleet';

const { values } = parseArgs({
  options: {
    machines: { type: 'string', default: '10000' },
    seconds: { type: 'string', default: '20' },
    samples: { type: 'string', default: '40' },
  },
});
const machineCount = Number(values.machines);
const seconds = Number(values.seconds);
const samples = Number(values.samples);
const DATABASE = 'rvm_bench_gateway';
const baseUrl = process.env.DATABASE_URL?.trim() || 'postgres://postgres@127.0.0.1:5432/test';
const benchUrl = new URL(baseUrl);
benchUrl.pathname = `/${DATABASE}`;

const admin = new pg.Client({ connectionString: baseUrl });
await admin.connect();
await admin.query(`drop database if exists "${DATABASE}" with (force)`);
await admin.query(`create database "${DATABASE}"`);
await admin.end();

const log = (line: string) => console.log(`[bench:gateway] ${line}`);
const app = await buildApp({
  databaseUrl: benchUrl.toString(),
  config: { passwordHashLogN: 14 },
  gateway: { host: '127.0.0.1', port: 0, offlineAfterSeconds: 90, messageIdDays: 7 },
});
const db = app.services.db;
const [account] = rowsOf<{ id: number }>(await db.execute(sql`select id from license_account order by id limit 1`));
log(`seeding ${machineCount} machines`);
await seedDemoFleet(db, { machines: machineCount, days: 1, seed: 'bench-gateway', licenseAccountId: account.id });
const rows = await db.select({ id: rvm.id, licenseAccountId: rvm.licenseAccountId, serialNumber: rvm.serialNumber, binCount: rvm.binCount }).from(rvm).orderBy(rvm.id);

// Credentials for every machine, then the virtual machines in child processes of at most 5,000 each.
const credentials: Array<{ id: number; serial: string; secret: string }> = [];
for (let start = 0; start < rows.length; start += 200) {
  const chunk = rows.slice(start, start + 200);
  credentials.push(...(await Promise.all(chunk.map(async (row) => ({ id: row.id, serial: row.serialNumber, secret: await issueCredential(db, row, null) })))));
}
const url = app.services.gateway.machineUrl!;
mkdirSync('.tmp', { recursive: true });
const children = Array.from({ length: Math.ceil(credentials.length / 5000) }, (_, index) => {
  const part = credentials.slice(index * 5000, (index + 1) * 5000);
  const file = `.tmp/bench-gateway-machines-${index}.json`;
  writeFileSync(file, JSON.stringify(part));
  const child = fork(fileURLToPath(new URL('./gatewayMachines.ts', import.meta.url)), [file, url], { execArgv: ['--import', 'tsx'] });
  return { child, offset: index * 5000, size: part.length };
});
const ask = <T extends ChildMessage['type']>(child: ChildProcess, command: ParentMessage, answer: T) =>
  new Promise<Extract<ChildMessage, { type: T }>>((resolve) => {
    const listen = (message: ChildMessage) => {
      if (message.type !== answer) return;
      child.off('message', listen);
      resolve(message as Extract<ChildMessage, { type: T }>);
    };
    child.on('message', listen);
    child.send(command);
  });

log(`connecting ${credentials.length} machines to ${url} from ${children.length} process(es)`);
const connected = (await Promise.all(children.map(({ child }) => ask(child, { type: 'connect' }, 'connected')))).reduce((sum, answer) => sum + answer.count, 0);
// Everyone online first (hello), so the run measures steady-state intake.
await Promise.all(children.map(({ child }) => ask(child, { type: 'hello' }, 'helloDone')));
const gatewaySessions = async () =>
  Number(
    (
      await db
        .select({ n: sql<string>`count(*)` })
        .from(consumerSession)
        .where(sql`${consumerSession.externalId} is not null`)
    )[0].n,
  );
const sessionsBefore = await gatewaySessions();

log(`throughput: ${connected} machines sending for ${seconds} s`);
const serverCpu = process.cpuUsage();
const runs = await Promise.all(children.map(({ child }) => ask(child, { type: 'run', seconds }, 'ran')));
const serverCpuUsed = process.cpuUsage(serverCpu);
const serverCpuSeconds = (serverCpuUsed.user + serverCpuUsed.system) / 1e6;
const machinesCpuSeconds = runs.reduce((sum, run) => sum + run.cpuSeconds, 0);
const acked = runs.reduce((sum, run) => sum + run.acked, 0);
const sessionsAcked = runs.reduce((sum, run) => sum + run.sessions, 0);
const elapsed = Math.max(...runs.map((run) => run.seconds));
const sessionsAfter = await gatewaySessions();
const throughput = acked / elapsed;
log(
  `${acked} messages acknowledged in ${elapsed.toFixed(1)} s: ${throughput.toFixed(0)} messages/s; sessions committed ${sessionsAfter - sessionsBefore} of ${sessionsAcked} acknowledged`,
);
log(
  `CPU during the run: server process ${serverCpuSeconds.toFixed(1)} s, virtual machines ${machinesCpuSeconds.toFixed(1)} s (of ${(elapsed * cpus().length).toFixed(0)} core-seconds)`,
);

log(`visibility delay: ${samples} status changes under a heartbeat every 30 s per machine`);
for (const { child } of children) child.send({ type: 'steady' } satisfies ParentMessage);
// The seeded admin must change the initial password before any other call (4007); this is the bench's own database.
await db.execute(sql`update sys_user set must_change_password = false, password_changed_at = now() where name = 'admin'`);
const login = await app.inject({ method: 'POST', url: '/test-api/login/login', payload: { username: 'admin', password: 'Admin@123' } });
const token = (login.json() as { resData: { tokenInfo: { tokenValue: string } } }).resData.tokenInfo.tokenValue;
const delays: number[] = [];
for (let sample = 0; sample < samples; sample++) {
  const index = Math.floor(Math.random() * credentials.length);
  const owner = children.find((entry) => index >= entry.offset && index < entry.offset + entry.size)!;
  const id = credentials[index].id;
  const [row] = await db.select({ status: rvm.currentSts }).from(rvm).where(eq(rvm.id, id));
  const next = row.status === 'Sleep' ? 'Up' : 'Sleep';
  const sent = performance.now();
  owner.child.send({ type: 'status', index: index - owner.offset, status: next } satisfies ParentMessage);
  for (;;) {
    const answer = await app.inject({ method: 'GET', url: `/test-api/rvm/${id}`, headers: { 'rvm-token': token } });
    if ((answer.json() as { resData: { currentSts: string } }).resData.currentSts === next) break;
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  delays.push(performance.now() - sent);
  await new Promise((resolve) => setTimeout(resolve, 250));
}
delays.sort((a, b) => a - b);
const p = (q: number) => delays[Math.min(delays.length - 1, Math.ceil(q * delays.length) - 1)];
log(`delay p50 ${p(0.5).toFixed(0)} ms, p95 ${p(0.95).toFixed(0)} ms, max ${delays[delays.length - 1].toFixed(0)} ms`);
await Promise.all(children.map(({ child }) => new Promise((resolve) => (child.once('exit', resolve), child.send({ type: 'stop' } satisfies ParentMessage)))));
const machines = { length: connected };
const version = rowsOf<{ version: string }>(await db.execute(sql`select version()`))[0].version.split(' on ')[0];
await app.close();

const section = [
  '<!-- gateway:start -->',
  '## Machine gateway',
  '',
  `Written by \`npm run bench:gateway -- --machines ${machineCount} --seconds ${seconds} --samples ${samples}\` (bench/gateway.ts): embedded broker, PostgreSQL,`,
  'one MQTT connection per machine, QoS 1; a PUBACK is sent only after the message was committed. The virtual machines',
  'run in child processes on the same cores as the server (they take a good part of the CPU themselves).',
  '',
  `- Date: ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC`,
  `- Environment: ${cpus().length} CPU cores (${cpus()[0]?.model ?? 'unknown'}), Node ${process.version}, ${version}`,
  '',
  '| figure | value | target |',
  '|---|---:|---:|',
  `| machines connected | ${machines.length} | 10,000 |`,
  `| throughput, messages/s (heartbeat 80 %, session with 5 items 15 %, bins 5 %) | ${throughput.toFixed(0)} | ≥ 5,000 |`,
  `| sessions acknowledged / committed | ${sessionsAcked} / ${sessionsAfter - sessionsBefore} | equal |`,
  `| CPU during the run: server process / virtual machines / available (core-seconds); PostgreSQL has the rest | ${serverCpuSeconds.toFixed(1)} / ${machinesCpuSeconds.toFixed(1)} / ${(elapsed * cpus().length).toFixed(0)} | |`,
  `| server process CPU per 1,000 messages (ms) | ${((serverCpuSeconds * 1e6) / acked).toFixed(0)} | |`,
  `| publish → visible through \`GET /rvm/{id}\`, p50 / p95 / max (ms), ${samples} samples | ${p(0.5).toFixed(0)} / ${p(0.95).toFixed(0)} / ${delays[delays.length - 1].toFixed(0)} | p95 < 1,000 |`,
  '<!-- gateway:end -->',
].join('\n');
const current = readFileSync('docs/benchmarks.md', 'utf8');
const replaced = current.includes('<!-- gateway:start -->')
  ? current.replace(/<!-- gateway:start -->[\s\S]*<!-- gateway:end -->/, section)
  : `${current.trimEnd()}\n\n${section}\n`;
writeFileSync('docs/benchmarks.md', replaced);
console.log(`\n${section}`);
process.exit(0);
