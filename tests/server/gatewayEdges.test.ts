// The gateway's limits at their edges (issue 29 item 24: "a limit tested only far from its edge does not pin the
// edge"), docs/machine-protocol.md "Limits": `ts` ahead of the server's clock by exactly the allowed skew and by one
// millisecond more; `ts` exactly a year before the message arrived and one millisecond earlier; a status older
// than the machine's current one by exactly the skew and by a millisecond more; a message of the largest size and
// one byte more; the machine's last bin and the one after it. The other tests use an hour, a day or twice the size.
import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { beforeAll, expect, it } from 'vitest';
import { rvm } from '../../server/db/schema/fleet';
import { ingestBatch, type IncomingMessage } from '../../server/gateway/ingest';
import { MAX_CLOCK_SKEW_MS, MAX_MESSAGE_AGE_MS, MAX_MESSAGE_BYTES } from '../../server/gateway/protocol';
import { seedSmallFleet } from './fleetHarness';
import { describeOneBackend } from './helpers';

describeOneBackend('gateway limits at their edges', (server) => {
  let machine: typeof rvm.$inferSelect;
  const identity = () => ({ rvmId: machine.id, licenseAccountId: machine.licenseAccountId!, serialNumber: machine.serialNumber });
  const message = (kind: string, body: Record<string, unknown>, ts: Date, receivedAt: Date): IncomingMessage =>
    ({ identity: identity(), kind, receivedAt, payload: JSON.stringify({ v: 1, id: randomUUID(), ts: ts.toISOString(), ...body }) }) as IncomingMessage;
  const outcomes = async (messages: IncomingMessage[]) =>
    (await ingestBatch(server.db, messages)).map((outcome) => (outcome.result === 'quarantined' ? `${outcome.reason}` : outcome.result));

  beforeAll(async () => {
    const token = await server.login();
    const account = (await server.call('GET', '/login/current', { token })).body.resData.licenseAccountId;
    await seedSmallFleet(server as never, account, { machines: 1, days: 1 });
    [machine] = await server.db.select().from(rvm).limit(1);
  });

  it('accepts `ts` up to exactly the allowed skew ahead of the clock, refuses a millisecond more', async () => {
    const receivedAt = new Date();
    expect(MAX_CLOCK_SKEW_MS).toBe(10 * 60_000);
    expect(
      await outcomes([
        message('heartbeat', {}, new Date(receivedAt.getTime() + MAX_CLOCK_SKEW_MS), receivedAt),
        message('heartbeat', {}, new Date(receivedAt.getTime() + MAX_CLOCK_SKEW_MS + 1), receivedAt),
      ]),
    ).toEqual(['processed', 'invalidTimestamp']);
  });

  it('accepts `ts` exactly a year before the message arrived, refuses a millisecond earlier', async () => {
    const receivedAt = new Date();
    expect(MAX_MESSAGE_AGE_MS).toBe(365 * 86_400_000);
    expect(
      await outcomes([
        message('heartbeat', {}, new Date(receivedAt.getTime() - MAX_MESSAGE_AGE_MS), receivedAt),
        message('heartbeat', {}, new Date(receivedAt.getTime() - MAX_MESSAGE_AGE_MS - 1), receivedAt),
      ]),
    ).toEqual(['processed', 'invalidTimestamp']);
  });

  it('takes a status older than the current one by up to the skew, refuses one a millisecond older (outOfOrder)', async () => {
    const receivedAt = new Date();
    // the machine goes Up now: its status is dated by this message
    expect(await outcomes([message('status', { status: 'Up' }, receivedAt, receivedAt)])).toEqual(['processed']);
    const [row] = await server.db.select({ since: rvm.statusSince }).from(rvm).where(eq(rvm.id, machine.id));
    const since = row.since.getTime();
    expect(await outcomes([message('status', { status: 'Down' }, new Date(since - MAX_CLOCK_SKEW_MS - 1), receivedAt)])).toEqual(['outOfOrder']);
    expect(await outcomes([message('status', { status: 'Down' }, new Date(since - MAX_CLOCK_SKEW_MS), receivedAt)])).toEqual(['processed']);
    const [after] = await server.db.select({ status: rvm.currentSts, since: rvm.statusSince }).from(rvm).where(eq(rvm.id, machine.id));
    // never dated earlier than the status it replaces
    expect([after.status, after.since.getTime()]).toEqual(['Down', since]);
  });

  it('reads a message of exactly the largest size, refuses one byte more before reading it', async () => {
    const receivedAt = new Date();
    const sized = (bytes: number) => {
      const base = message('heartbeat', { padding: '' }, receivedAt, receivedAt);
      const padding = 'p'.repeat(bytes - Buffer.byteLength(base.payload));
      return { ...base, payload: base.payload.replace('"padding":""', `"padding":"${padding}"`) };
    };
    const [largest, over] = [sized(MAX_MESSAGE_BYTES), sized(MAX_MESSAGE_BYTES + 1)];
    expect([Buffer.byteLength(largest.payload), Buffer.byteLength(over.payload)]).toEqual([MAX_MESSAGE_BYTES, MAX_MESSAGE_BYTES + 1]);
    const answers = await ingestBatch(server.db, [largest, over]);
    // the largest is read: its unknown property is a schema problem, not its size
    expect(answers[0]).toMatchObject({ result: 'quarantined', reason: 'schemaViolation' });
    expect(answers[1]).toMatchObject({ result: 'quarantined', reason: 'valueOutOfRange', value: `message of ${MAX_MESSAGE_BYTES + 1} bytes, at most ${MAX_MESSAGE_BYTES}` });
  });

  it("takes the machine's last bin, refuses the bin after it", async () => {
    const receivedAt = new Date();
    const last = machine.binCount;
    expect(last).toBeLessThan(8);
    expect(
      await outcomes([
        message('bins', { bins: [{ binNo: last, currentHeight: 50 }] }, receivedAt, receivedAt),
        message('bins', { bins: [{ binNo: last + 1, currentHeight: 50 }] }, receivedAt, receivedAt),
      ]),
    ).toEqual(['processed', 'valueOutOfRange']);
  });
});
