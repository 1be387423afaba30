// `npm run bench:hookups [-- --machines 500 --messages 20000]`: webhook delivery throughput on PostgreSQL
// (database rvm_bench_hookups next to DATABASE_URL's, re-created each run) to a local receiver that verifies
// every signature with the `standardwebhooks` library and answers 200. The messages are written through the
// outbox's own path (writeMessages, as the gateway's batches do), then the delivery rounds run until none is
// left; messages/s = messages / delivery seconds. Checked: every message arrived, none twice, all `success`.
// The receiver runs in a child process (bench/hookupsReceiver.ts), on the same 2 cores as the server and PostgreSQL.
import { cpus, loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import { fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { readFileSync, writeFileSync } from 'node:fs';
import pg from 'pg';
import { sql } from 'drizzle-orm';
import { buildApp } from '../server/app';
import { rowsOf } from '../server/db/client';
import { fleet, rvm } from '../server/db/schema/fleet';
import { hookupApp, hookupAppFleet, hookupSubscription } from '../server/db/schema/hookups';
import { deliverDue, DELIVERY_DEFAULTS } from '../server/hookups/delivery';
import { writeMessages, type HookupEvent } from '../server/hookups/outbox';
import { newSecret } from '../server/hookups/signing';

const { values } = parseArgs({ options: { machines: { type: 'string', default: '500' }, messages: { type: 'string', default: '20000' } } });
const machineCount = Number(values.machines);
const messageCount = Number(values.messages);
const DATABASE = 'rvm_bench_hookups';
const baseUrl = process.env.DATABASE_URL?.trim() || 'postgres://postgres@127.0.0.1:5432/test';
const benchUrl = new URL(baseUrl);
benchUrl.pathname = `/${DATABASE}`;
const log = (line: string) => console.log(`[bench:hookups] ${line}`);

const admin = new pg.Client({ connectionString: baseUrl });
await admin.connect();
await admin.query(`drop database if exists "${DATABASE}" with (force)`);
await admin.query(`create database "${DATABASE}"`);
await admin.end();

const app = await buildApp({ databaseUrl: benchUrl.toString(), config: { passwordHashLogN: 14 } });
const db = app.services.db;
const [account] = rowsOf<{ id: number }>(await db.execute(sql`select id from license_account order by id limit 1`));

// the receiver: its own process, verifying every signature and counting every message id
const secret = newSecret();
const receiverProcess = fork(fileURLToPath(new URL('./hookupsReceiver.ts', import.meta.url)), [secret], { execArgv: ['--import', 'tsx'] });
const { port } = await new Promise<{ port: number }>((resolve) => receiverProcess.once('message', (message) => resolve(message as { port: number })));
const url = `http://127.0.0.1:${port}/hook`;

log(`${machineCount} machines, an app subscribed to their sessions`);
const [bench] = await db.insert(fleet).values({ licenseAccountId: account.id, name: 'Bench fleet' }).returning({ id: fleet.id });
const machines = await db
  .insert(rvm)
  .values(
    Array.from({ length: machineCount }, (_, index) => ({ licenseAccountId: account.id, fleetId: bench.id, termNo: `B${index}`, serialNumber: `BENCH${index}`, termType: 'H30' })),
  )
  .returning({ id: rvm.id });
const [receiverApp] = await db
  .insert(hookupApp)
  .values({ licenseAccountId: account.id, name: 'Bench receiver', url, apiType: 'consumerSession', secret, dockingTime: new Date(Date.now() - 3_600_000) })
  .returning({ id: hookupApp.id });
await db.insert(hookupAppFleet).values({ appId: receiverApp.id, fleetId: bench.id });
await db.insert(hookupSubscription).values({ licenseAccountId: account.id, family: 'cs', appId: receiverApp.id, events: 'consumerSession.completed' });

log(`writing ${messageCount} messages through the outbox`);
const start = Date.now() - 600_000;
const writeStarted = performance.now();
for (let offset = 0; offset < messageCount; offset += 1000) {
  const events: HookupEvent[] = [];
  for (let index = offset; index < Math.min(messageCount, offset + 1000); index++) {
    const machine = machines[index % machines.length];
    events.push({
      rvmId: machine.id,
      licenseAccountId: account.id,
      family: 'cs',
      eventType: 'consumerSession.completed',
      eventTime: new Date(start + index),
      data: {
        sessionId: `S${index}`,
        payoutMethod: 'receipt',
        totalRefund: 0.5,
        items: [
          { seq: 1, itemType: 'can', refund: 0.1 },
          { seq: 2, itemType: 'plasticBottle', refund: 0.4 },
        ],
      },
    });
  }
  await db.transaction((tx) => writeMessages(tx, events));
}
const writeSeconds = (performance.now() - writeStarted) / 1000;

log('delivering');
const loadBefore = loadavg()[0];
const cpuBefore = process.cpuUsage();
const deliveryStarted = performance.now();
let rounds = 0;
for (;;) {
  const tried = await deliverDue(db, new Date(), DELIVERY_DEFAULTS, 1);
  rounds++;
  if (tried === 0) break;
}
const deliverySeconds = (performance.now() - deliveryStarted) / 1000;
const cpu = process.cpuUsage(cpuBefore);
const loadAfter = loadavg()[0];
const [counts] = rowsOf<{ success: number; other: number }>(
  await db.execute(sql`select count(*) filter (where status = 'success')::int as success, count(*) filter (where status <> 'success')::int as other from hookup_message`),
);
const { received, twice, refused } = await new Promise<{ received: number; twice: number; refused: number }>((resolve) => {
  receiverProcess.once('message', (message) => resolve(message as { received: number; twice: number; refused: number }));
  receiverProcess.send('report');
});
const throughput = messageCount / deliverySeconds;
const version = rowsOf<{ version: string }>(await db.execute(sql`select version()`))[0].version.split(' on ')[0];
log(`${throughput.toFixed(0)} messages/s, ${rounds} rounds, received ${received}, twice ${twice}, refused ${refused}`);
await app.close();

const section = [
  '<!-- hookups:start -->',
  '## Webhook delivery (API hookups)',
  '',
  `Written by \`npm run bench:hookups -- --machines ${machineCount} --messages ${messageCount}\` (bench/hookups.ts): PostgreSQL, one app`,
  'subscribed to the sessions of every machine, a local receiver (its own process, same 2 cores) verifying every signature with',
  '`standardwebhooks` and answering 200; the delivery rounds of docs/api-hookups.md (claim, signed POSTs, outcomes) until none is due.',
  `${DELIVERY_DEFAULTS.lanes} lanes of rounds of ${DELIVERY_DEFAULTS.batchSize} messages, ${DELIVERY_DEFAULTS.concurrency} requests in flight per lane; one message per machine in flight (order per machine).`,
  '',
  `- Date: ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC`,
  `- Environment: ${cpus().length} CPU cores (${cpus()[0]?.model ?? 'unknown'}), Node ${process.version}, ${version}; 1-minute load average ${loadBefore.toFixed(1)} before the delivery, ${loadAfter.toFixed(1)} after (other work on the machine shows here)`,
  '',
  '| figure | value | target |',
  '|---|---:|---:|',
  `| messages written through the outbox, messages/s | ${(messageCount / writeSeconds).toFixed(0)} | |`,
  `| delivery throughput, messages/s (${machineCount} machines, ${messageCount} messages, ${rounds} rounds) | ${throughput.toFixed(0)} | ≥ 1,000 |`,
  `| received / written; delivered twice; refused signatures | ${received} / ${messageCount}; ${twice}; ${refused} | all; 0; 0 |`,
  `| messages left not \`success\` | ${counts.other} | 0 |`,
  `| server process CPU per 1,000 messages (ms) | ${((cpu.user + cpu.system) / 1000 / (messageCount / 1000)).toFixed(0)} | |`,
  '<!-- hookups:end -->',
].join('\n');
const current = readFileSync('docs/benchmarks.md', 'utf8');
writeFileSync(
  'docs/benchmarks.md',
  current.includes('<!-- hookups:start -->') ? current.replace(/<!-- hookups:start -->[\s\S]*<!-- hookups:end -->/, section) : `${current.trimEnd()}\n\n${section}\n`,
);
console.log(`\n${section}`);
process.exit(twice === 0 && refused === 0 && counts.other === 0 && received === messageCount ? 0 : 1);
