// `npm run bench:gateway [-- --machines 10000 --seconds 20 --samples 40]`: the machine gateway end to end
// on PostgreSQL (database rvm_bench_gateway next to DATABASE_URL's, re-created each run) with the embedded
// broker. N virtual machines, each its own MQTT connection, publish protocol messages (QoS 1):
// 1. throughput: every machine sends as fast as its PUBACKs come back (a PUBACK is sent only after the
//    message's transaction committed), heartbeats, consumer sessions and bin levels mixed 8:1.5:0.5;
//    messages/s = acknowledged messages / seconds, checked against the committed session rows;
// 2. visibility delay: under realistic load (a heartbeat every 30 s per machine, sessions), a machine
//    publishes a status change and the API (`GET /rvm/{id}`) is polled until it shows it.
// The simulated machines run in the same process as the server: both share the 2 cores.
import { cpus } from 'node:os';
import { parseArgs } from 'node:util';
import { randomUUID } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import pg from 'pg';
import { eq, sql } from 'drizzle-orm';
import mqtt, { type MqttClient } from 'mqtt';
import { buildApp } from '../server/app';
import { rowsOf } from '../server/db/client';
import { rvm } from '../server/db/schema/fleet';
import { consumerSession } from '../server/db/schema/fleetActivity';
import { issueCredential } from '../server/gateway/credentials';
import { DOWN_TOPIC, UP_TOPIC } from '../server/gateway/protocol';
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
const app = await buildApp({ databaseUrl: benchUrl.toString(), config: { passwordHashLogN: 14 }, gateway: { host: '127.0.0.1', port: 0, offlineAfterSeconds: 90, messageIdDays: 7 } });
const db = app.services.db;
const [account] = rowsOf<{ id: number }>(await db.execute(sql`select id from license_account order by id limit 1`));
log(`seeding ${machineCount} machines`);
await seedDemoFleet(db, { machines: machineCount, days: 1, seed: 'bench-gateway', licenseAccountId: account.id });
const rows = await db.select({ id: rvm.id, licenseAccountId: rvm.licenseAccountId, serialNumber: rvm.serialNumber, binCount: rvm.binCount }).from(rvm).orderBy(rvm.id);

interface Virtual { id: number; serial: string; client: MqttClient; sent: number; acked: number }
const url = app.services.gateway.machineUrl!;
const machines: Virtual[] = [];
log(`issuing credentials and connecting ${rows.length} machines to ${url}`);
for (let start = 0; start < rows.length; start += 200) {
  const chunk = rows.slice(start, start + 200);
  machines.push(
    ...(await Promise.all(
      chunk.map(async (row) => {
        const secret = await issueCredential(db, row, null);
        const client = await mqtt.connectAsync(url, { clientId: row.serialNumber, username: row.serialNumber, password: secret, reconnectPeriod: 0, keepalive: 300 });
        await client.subscribeAsync(DOWN_TOPIC(row.serialNumber), { qos: 1 });
        return { id: row.id, serial: row.serialNumber, client, sent: 0, acked: 0 };
      }),
    )),
  );
}

const message = (body: Record<string, unknown>) => JSON.stringify({ v: 1, id: randomUUID(), ts: new Date().toISOString(), ...body });
const sessionBody = () => {
  const items = Array.from({ length: 5 }, (_, index) => ({ seq: index + 1, itemType: 'plasticBottle', barcode: '4891234567890', refund: 0.1 }));
  const end = new Date();
  return { sessionId: randomUUID(), startTime: new Date(end.getTime() - 40_000).toISOString(), endTime: end.toISOString(), payoutMethod: 'octopus', totalRefund: 0.5, items };
};
let sessionsAcked = 0;
const publishOne = async (machine: Virtual, realistic: boolean) => {
  const dice = Math.random();
  const [kind, body] = realistic || dice < 0.8 ? ['heartbeat', {}] : dice < 0.95 ? ['session', sessionBody()] : ['bins', { bins: [{ binNo: 1, currentHeight: 60 }] }];
  machine.sent++;
  await machine.client.publishAsync(UP_TOPIC(machine.serial, kind), message(body), { qos: 1 });
  machine.acked++;
  if (kind === 'session') sessionsAcked++;
};

// Everyone online first (hello), so the run measures steady-state intake.
await Promise.all(machines.map((machine) => machine.client.publishAsync(UP_TOPIC(machine.serial, 'hello'), message({}), { qos: 1 })));
const gatewaySessions = async () => Number((await db.select({ n: sql<string>`count(*)` }).from(consumerSession).where(sql`${consumerSession.externalId} is not null`))[0].n);
const sessionsBefore = await gatewaySessions();

log(`throughput: ${machines.length} machines sending for ${seconds} s`);
const deadline = Date.now() + seconds * 1000;
const started = performance.now();
await Promise.all(machines.map(async (machine) => {
  while (Date.now() < deadline) await publishOne(machine, false);
}));
const elapsed = (performance.now() - started) / 1000;
const acked = machines.reduce((sum, machine) => sum + machine.acked, 0);
const sessionsAfter = await gatewaySessions();
const throughput = acked / elapsed;
log(`${acked} messages acknowledged in ${elapsed.toFixed(1)} s: ${throughput.toFixed(0)} messages/s; sessions committed ${sessionsAfter - sessionsBefore} of ${sessionsAcked} acknowledged`);

// Visibility delay under realistic load: heartbeats every 30 s per machine, spread evenly.
log(`visibility delay: ${samples} status changes under a heartbeat every 30 s per machine`);
let loadRunning = true;
const background = Promise.all(machines.map(async (machine, index) => {
  await new Promise((resolve) => setTimeout(resolve, (index / machines.length) * 30_000));
  while (loadRunning) {
    await publishOne(machine, true);
    await new Promise((resolve) => setTimeout(resolve, 30_000));
  }
}));
const login = await app.inject({ method: 'POST', url: '/test-api/login/login', payload: { username: 'admin', password: 'Admin@123' } });
const token = (login.json() as { resData: { tokenInfo: { tokenValue: string } } }).resData.tokenInfo.tokenValue;
const delays: number[] = [];
for (let sample = 0; sample < samples; sample++) {
  const machine = machines[Math.floor(Math.random() * machines.length)];
  const [row] = await db.select({ status: rvm.currentSts }).from(rvm).where(eq(rvm.id, machine.id));
  const next = row.status === 'Sleep' ? 'Up' : 'Sleep';
  const sent = performance.now();
  void machine.client.publishAsync(UP_TOPIC(machine.serial, 'status'), message({ status: next }), { qos: 1 });
  for (;;) {
    const answer = await app.inject({ method: 'GET', url: `/test-api/rvm/${machine.id}`, headers: { 'rvm-token': token } });
    if ((answer.json() as { resData: { currentSts: string } }).resData.currentSts === next) break;
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  delays.push(performance.now() - sent);
  if (performance.now() - sent > 5000) log(`slow sample: machine ${machine.id} ${row.status} -> ${next}`);
  await new Promise((resolve) => setTimeout(resolve, 250));
}
loadRunning = false;
delays.sort((a, b) => a - b);
const p = (q: number) => delays[Math.min(delays.length - 1, Math.ceil(q * delays.length) - 1)];
log(`delays ${delays.map((d) => d.toFixed(0)).join(' ')}`);
log(`delay p50 ${p(0.5).toFixed(0)} ms, p95 ${p(0.95).toFixed(0)} ms, max ${delays[delays.length - 1].toFixed(0)} ms`);

await Promise.all(machines.map((machine) => machine.client.endAsync(true)));
await Promise.race([background, new Promise((resolve) => setTimeout(resolve, 1000))]);
const version = rowsOf<{ version: string }>(await db.execute(sql`select version()`))[0].version.split(' on ')[0];
await app.close();

const section = [
  '<!-- gateway:start -->',
  '## Machine gateway',
  '',
  `Written by \`npm run bench:gateway -- --machines ${machineCount} --seconds ${seconds} --samples ${samples}\` (bench/gateway.ts): embedded broker, PostgreSQL,`,
  'one MQTT connection per machine, QoS 1; a PUBACK is sent only after the message was committed. The virtual machines',
  'run in the same process as the server, so both share the cores.',
  '',
  `- Date: ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC`,
  `- Environment: ${cpus().length} CPU cores (${cpus()[0]?.model ?? 'unknown'}), Node ${process.version}, ${version}`,
  '',
  '| figure | value | target |',
  '|---|---:|---:|',
  `| machines connected | ${machines.length} | 10,000 |`,
  `| throughput, messages/s (heartbeat 80 %, session with 5 items 15 %, bins 5 %) | ${throughput.toFixed(0)} | ≥ 5,000 |`,
  `| sessions acknowledged / committed | ${sessionsAcked} / ${sessionsAfter - sessionsBefore} | equal |`,
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
