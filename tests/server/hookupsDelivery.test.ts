// Delivery under faults (docs/api-hookups.md "Delivery"): a receiver that answers 500, never answers, answers
// slowly, drops the connection or is down for hours (simulated clock) still gets every message once it is
// back, in order per machine; tampered and replayed requests are refused by the `standardwebhooks` library; two
// instances on one database never send the same attempt twice; a claim of an instance that died is taken over.
import { eq, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { openDatabase, rowsOf, type Database } from '../../server/db/client';
import { rvm } from '../../server/db/schema';
import { hookupMessage } from '../../server/db/schema/hookups';
import { deliverDue, LEASE_MS, type DeliveryOptions } from '../../server/hookups/delivery';
import { addFleet } from './eventsHarness';
import { describeBackends } from './helpers';
import { ingest, sessionMessage, startReceiver, type MachineRef, type Receiver } from './hookupsHarness';

const OPTIONS: DeliveryOptions = { batchSize: 200, concurrency: 32, lanes: 1, timeoutMs: 500 };
const HOUR = 3_600_000;

describeBackends('API hookup delivery under faults', (server) => {
  let admin: string;
  let account: number;
  let receiver: Receiver;
  let appId: number;
  const machines: MachineRef[] = [];

  beforeAll(async () => {
    admin = await server.login();
    account = (await server.call('GET', '/login/current', { token: admin })).body.resData.licenseAccountId;
    const fleet = await addFleet(server.db, account, 'HD Fleet');
    for (let index = 0; index < 6; index++) {
      const serial = `HD${index}${Math.random().toString(36).slice(2, 8)}`;
      const [row] = await server.db
        .insert(rvm)
        .values({ licenseAccountId: account, fleetId: fleet, termNo: `HD${index}`, serialNumber: serial, termType: 'H30' })
        .returning({ id: rvm.id });
      machines.push({ id: row.id, serial, licenseAccountId: account });
    }
    receiver = await startReceiver();
    const app = await server.call('POST', '/hookup/cs/app', { token: admin, body: { name: 'Faults', url: receiver.url, apiType: 'consumerSession', fleets: [fleet] } });
    appId = app.body.resData.id;
    receiver.secret = (await server.call('POST', `/hookup/cs/app/secret/reveal?id=${appId}`, { token: admin })).body.resData.secret;
    await server.call('POST', '/hookup/cs/subscription', { token: admin, body: { appId, events: 'consumerSession.completed' } });
  });
  afterAll(async () => {
    await receiver?.close();
  });

  /** `perMachine` sessions for every machine, a second apart, after `from`. */
  const sessions = async (perMachine: number, from = Date.now() + 1000) => {
    const batch = [];
    for (let n = 0; n < perMachine; n++) for (const machine of machines) batch.push(sessionMessage(machine, new Date(from + n * 1000)));
    await ingest(server.db, batch);
  };
  const pending = async () =>
    rowsOf<{ n: number }>(await server.db.execute(sql`select count(*)::int as n from hookup_message where app_id = ${appId} and status <> 'success'`))[0].n;
  /** Each machine's received sessions are in the order of their end times. */
  const inMachineOrder = (received: Receiver['received']) =>
    machines.every((machine) => {
      const times = received.filter((r) => r.data.rvmId === machine.id).map((r) => Date.parse(r.data.endTime));
      return times.every((time, index) => index === 0 || time > times[index - 1]);
    });

  it('answers 500, times out, drops the connection, is down for hours: everything arrives once it is back, once each, in order per machine', async () => {
    await sessions(3);
    // attempts 1-3 on the schedule (at once, 5 s, 5 min): a 500, no answer within the timeout, a dropped connection
    let clock = Date.now() + 5_000;
    for (const [mode, delay] of [
      ['error500', 0],
      ['hang', 5_000],
      ['close', 5 * 60_000],
    ] as const) {
      receiver.mode = mode;
      clock += delay;
      await deliverDue(server.db, new Date(clock), OPTIONS);
    }
    const rows = await server.db.select().from(hookupMessage).where(eq(hookupMessage.appId, appId));
    const heads = rows.filter((row) => row.attempts > 0);
    // one head per machine tried three times, the others waiting behind it
    expect(heads.length).toBe(machines.length);
    expect(heads.every((row) => row.attempts === 3 && row.status === 'notSent')).toBe(true);
    expect(heads.map((row) => row.lastResponseExcerpt).every((text) => /ECONNRESET|socket|closed|terminated|other side/i.test(text ?? ''))).toBe(true);
    // down for hours: refused connections, attempts 4-6 (30 min, 2 h, 5 h)
    await receiver.stop();
    for (const step of [30 * 60_000, 2 * HOUR, 5 * HOUR]) {
      clock += step;
      await deliverDue(server.db, new Date(clock), OPTIONS);
    }
    const down = (await server.db.select().from(hookupMessage).where(eq(hookupMessage.appId, appId))).filter((row) => row.attempts === 6);
    expect(down.length).toBe(machines.length);
    expect(down.every((row) => /ECONNREFUSED/.test(row.lastResponseExcerpt ?? ''))).toBe(true);
    expect(receiver.received.length).toBe(0);
    // back (slow, within the timeout): the 7th attempt (10 h) delivers all, machine by machine in order
    await receiver.start();
    receiver.mode = 'slow';
    receiver.slowMs = 100;
    clock += 10 * HOUR;
    for (let round = 0; round < 5 && (await pending()) > 0; round++) await deliverDue(server.db, new Date(clock), OPTIONS);
    expect(await pending()).toBe(0);
    expect(receiver.received.length).toBe(machines.length * 3);
    expect(new Set(receiver.received.map((r) => r.id)).size).toBe(machines.length * 3);
    expect(inMachineOrder(receiver.received)).toBe(true);
    expect(receiver.refused).toBe(0);
  });

  it('a tampered or replayed request does not verify (standardwebhooks)', async () => {
    const [sample] = receiver.received;
    const verifier = new Webhook(receiver.secret);
    expect(() => verifier.verify(sample.body, sample.headers)).not.toThrow();
    expect(() => verifier.verify(sample.body.replace('"receipt"', '"octopus"'), sample.headers)).toThrow(/signature/i);
    const old = { ...sample.headers, 'webhook-timestamp': String(Math.floor(Date.now() / 1000) - 3600) };
    expect(() => verifier.verify(sample.body, old)).toThrow(/too old/i);
    expect(() => new Webhook('whsec_' + Buffer.from('another secret of 24 byt').toString('base64')).verify(sample.body, sample.headers)).toThrow();
  });

  it('takes over the claim of an instance that died mid-delivery (at least once)', async () => {
    receiver.mode = 'ok';
    await sessions(1);
    const [row] = await server.db
      .select()
      .from(hookupMessage)
      .where(sql`${hookupMessage.appId} = ${appId} and ${hookupMessage.status} = 'notSent'`)
      .orderBy(hookupMessage.id)
      .limit(1);
    // as the claim of an instance killed before it wrote the outcome
    const now = Date.now() + 2_000;
    await server.db
      .update(hookupMessage)
      .set({ attempts: row.attempts + 1, scheduleStep: row.scheduleStep + 1, claimedUntil: new Date(now + LEASE_MS) })
      .where(eq(hookupMessage.id, row.id));
    await deliverDue(server.db, new Date(now), OPTIONS);
    expect((await server.db.select().from(hookupMessage).where(eq(hookupMessage.id, row.id)))[0].status).toBe('notSent');
    await deliverDue(server.db, new Date(now + LEASE_MS), OPTIONS);
    const [after] = await server.db.select().from(hookupMessage).where(eq(hookupMessage.id, row.id));
    expect([after.status, after.attempts]).toEqual(['success', row.attempts + 2]);
  });

  it('two instances on one database share the work and never send the same attempt twice', async () => {
    const otherDatabase: Database | undefined = server.backend === 'postgres' ? await openDatabase({ databaseUrl: server.databaseUrl }) : undefined;
    const other: FastifyInstance = await server.anotherInstance(otherDatabase ? { database: otherDatabase } : {});
    try {
      receiver.received.length = 0;
      receiver.mode = 'ok';
      const [{ last }] = rowsOf<{ last: number }>(await server.db.execute(sql`select coalesce(max(id), 0)::int as last from hookup_message`));
      await sessions(25);
      const now = new Date(Date.now() + 40_000);
      const small = { ...OPTIONS, batchSize: 20 };
      const run = async (app: FastifyInstance) => {
        let sent = 0;
        // rounds until nothing is left (a round may find every head claimed by the other instance)
        for (let round = 0; round < 400 && (await pending()) > 0; round++) sent += await deliverDue(app.services.db, now, small, 1);
        return sent;
      };
      const [one, two] = await Promise.all([run(server.app), run(other)]);
      expect(one + two).toBe(machines.length * 25);
      if (server.backend === 'postgres') expect(Math.min(one, two)).toBeGreaterThan(0);
      expect(receiver.received.length).toBe(machines.length * 25);
      expect(new Set(receiver.received.map((r) => r.id)).size).toBe(machines.length * 25);
      expect(inMachineOrder(receiver.received)).toBe(true);
      const attempts = rowsOf<{ n: number }>(
        await server.db.execute(sql`select count(*)::int as n from hookup_message where app_id = ${appId} and id > ${last} and attempts <> 1`),
      );
      expect(attempts[0].n).toBe(0);
    } finally {
      await other.close();
      await otherDatabase?.close();
    }
  });
});
