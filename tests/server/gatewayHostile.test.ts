// What a hostile or broken device can send to the gateway (issue 29): an oversized MQTT packet closes
// its connection before the body is read; a message larger than any a machine may send is quarantined
// with only its beginning kept, and quarantine pages stay small; the enrollment key never speaks for a
// registered machine, at sign-in or on retry (docs/machine-protocol.md "Identity and access", "Limits").
import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import mqtt from 'mqtt';
import { beforeAll, expect, it } from 'vitest';
import { rvm } from '../../server/db/schema/fleet';
import { consumerSession } from '../../server/db/schema/fleetActivity';
import { quarantineMessage } from '../../server/db/schema/quarantine';
import { ingestBatch, MAX_QUARANTINED_CHARS } from '../../server/gateway/ingest';
import { MAX_MESSAGE_AGE_MS, MAX_MESSAGE_BYTES, MAX_PACKET_BYTES, UP_TOPIC } from '../../server/gateway/protocol';
import { seedSmallFleet } from './fleetHarness';
import { connectMachine, embeddedGateway, provisionMachine, waitFor } from './gatewayHarness';
import { describeOneBackend } from './helpers';

const sessionBody = (sessionId: string) => ({
  v: 1,
  id: randomUUID(),
  ts: new Date().toISOString(),
  sessionId,
  startTime: new Date(Date.now() - 30_000).toISOString(),
  endTime: new Date().toISOString(),
  payoutMethod: 'receipt',
  totalRefund: 99.99,
  items: [{ seq: 1, itemType: 'can', refund: 99.99 }],
});

describeOneBackend(
  'gateway against hostile devices',
  (server) => {
    let token: string;
    let account: number;
    let machineIds: number[];
    let url: string;
    const quarantined = (serial: string) => server.db.select().from(quarantineMessage).where(eq(quarantineMessage.causedBy, serial));

    beforeAll(async () => {
      token = await server.login();
      account = (await server.call('GET', '/login/current', { token })).body.resData.licenseAccountId;
      await seedSmallFleet(server as never, account, { machines: 3, days: 1 });
      machineIds = (await server.db.select({ id: rvm.id }).from(rvm).orderBy(rvm.id)).map((row) => row.id);
      url = server.app.services.gateway.machineUrl!;
    });

    it('closes a connection that announces a packet over the limit, before its body is stored; the largest allowed message passes', async () => {
      const { serial, secret } = await provisionMachine(server.db, machineIds[0]);
      const machine = await connectMachine(url, serial, secret, machineIds[0]);
      // Not JSON, so it is quarantined whole: proof that a message of the largest allowed size gets through.
      const largest = 'x'.repeat(MAX_MESSAGE_BYTES);
      await machine.sendRaw('heartbeat', largest);
      const [kept] = await waitFor(
        () => quarantined(serial),
        (rows) => rows.length === 1,
        'largest message quarantined',
      );
      expect([kept.reason, kept.content.length, kept.contentBytes]).toEqual(['malformedContent', MAX_MESSAGE_BYTES, MAX_MESSAGE_BYTES]);

      const closed = new Promise<void>((resolve) => machine.client.once('close', () => resolve()));
      machine.client.publish(UP_TOPIC(serial, 'heartbeat'), Buffer.alloc(MAX_PACKET_BYTES, 'y'), { qos: 1 });
      await closed;
      await machine.close();
      // Nothing of it was stored, and the server still answers.
      expect(await quarantined(serial)).toHaveLength(1);
      expect((await server.call('GET', '/login/current', { token })).body.resCode).toBe('00000');
    });

    it('lets a machine subscribe and publish on two connections (client ids <serial> and <serial>.<suffix>), and quarantines unknown kinds', async () => {
      const { serial, secret } = await provisionMachine(server.db, machineIds[1]);
      await expect(mqtt.connectAsync(url, { clientId: `${serial}x.pub`, username: serial, password: secret, reconnectPeriod: 0 })).rejects.toThrow();
      await expect(mqtt.connectAsync(url, { clientId: `${serial}.p/b`, username: serial, password: secret, reconnectPeriod: 0 })).rejects.toThrow();
      const subscriber = await connectMachine(url, serial, secret, machineIds[1]);
      const publisher = await mqtt.connectAsync(url, { clientId: `${serial}.pub`, username: serial, password: secret, reconnectPeriod: 0 });
      try {
        const message = (body: Record<string, unknown> = {}) => JSON.stringify({ v: 1, id: randomUUID(), ts: new Date().toISOString(), ...body });
        await publisher.publishAsync(UP_TOPIC(serial, 'hello'), message(), { qos: 1 });
        await waitFor(
          async () => (await server.db.select().from(rvm).where(eq(rvm.id, machineIds[1])))[0],
          (row) => row.online,
          'online through the second connection',
        );
        const created = await server.call('POST', '/rvm/command', { token, body: { rvmId: machineIds[1], command: 'restart' } });
        expect(created.body.resCode).toBe('00000');
        await waitFor(
          async () => subscriber.commands,
          (commands) => commands.some((command) => command.commandId === created.body.resData.id),
          'the command reaches the subscriber',
        );
        await publisher.publishAsync(UP_TOPIC(serial, 'selfie'), message(), { qos: 1 });
        await waitFor(
          () => quarantined(serial),
          (rows) => rows.some((row) => row.messageType === 'unknown'),
          'unknown kind quarantined',
        );
        expect((await quarantined(serial)).find((row) => row.messageType === 'unknown')).toMatchObject({ reason: 'schemaViolation', value: 'kind selfie' });
        expect([subscriber.client.connected, publisher.connected]).toEqual([true, true]);
      } finally {
        await publisher.endAsync(true);
        await subscriber.close();
      }
    });

    it('quarantines a message over the size limit with its beginning and size only, and a page answers previews', async () => {
      const serial = `BIG${Date.now().toString(36).toUpperCase()}`;
      const payload = JSON.stringify({ v: 1, id: 'big', ts: new Date().toISOString(), padding: 'z'.repeat(2 * MAX_MESSAGE_BYTES) });
      const [outcome] = await ingestBatch(server.db, [
        { identity: { rvmId: null, licenseAccountId: account, serialNumber: serial }, kind: 'heartbeat', payload, receivedAt: new Date() },
      ]);
      expect(outcome).toMatchObject({ result: 'quarantined', reason: 'valueOutOfRange', value: `message of ${payload.length} bytes, at most ${MAX_MESSAGE_BYTES}` });
      const [row] = await quarantined(serial);
      expect([row.content.length, row.contentBytes]).toEqual([MAX_QUARANTINED_CHARS, payload.length]);

      const page = await server.call('POST', '/quarantine/page', { token, body: { causedBy: serial } });
      expect(page.body.resData.list).toEqual([expect.objectContaining({ contentBytes: payload.length, viaEnrollmentKey: false })]);
      expect(page.body.resData.list[0].content).toBe(payload.slice(0, 2000));
      expect(page.raw.body.length).toBeLessThan(10_000);
      // Retry leaves a message kept only in part as it is (it cannot be read again).
      expect((await server.call('POST', '/quarantine/retryAll', { token })).body.resCode).toBe('00000');
      expect(await quarantined(serial)).toEqual([expect.objectContaining({ reason: 'valueOutOfRange', retryCount: 0 })]);
    });

    it('quarantines messages dated more than a year before they arrive (a clock reset to 1970), and accepts a day less', async () => {
      const [machine] = await server.db.select().from(rvm).where(eq(rvm.id, machineIds[2]));
      const identity = { rvmId: machine.id, licenseAccountId: account, serialNumber: machine.serialNumber };
      const receivedAt = new Date();
      const dated = (ts: string) => ({ identity, kind: 'heartbeat', payload: JSON.stringify({ v: 1, id: randomUUID(), ts }), receivedAt });
      const outcomes = await ingestBatch(server.db, [
        dated('1970-01-01T00:00:07Z'),
        dated(new Date(receivedAt.getTime() - MAX_MESSAGE_AGE_MS - 1000).toISOString()),
        dated(new Date(receivedAt.getTime() - MAX_MESSAGE_AGE_MS + 86_400_000).toISOString()),
      ]);
      expect(outcomes.map((outcome) => (outcome.result === 'quarantined' ? outcome.reason : outcome.result))).toEqual(['invalidTimestamp', 'invalidTimestamp', 'processed']);
    });

    it('refuses the enrollment key for a registered serial number, even one without a secret of its own', async () => {
      const key = (await server.call('POST', '/gateway/enrollment-key', { token })).body.resData.enrollmentKey;
      const [registered] = await server.db.select({ serial: rvm.serialNumber }).from(rvm).where(eq(rvm.id, machineIds[2]));
      await expect(mqtt.connectAsync(url, { clientId: registered.serial, username: registered.serial, password: key, reconnectPeriod: 0 })).rejects.toThrow();
      const newcomer = await connectMachine(url, `ENR${Date.now().toString(36).toUpperCase()}`, key);
      await newcomer.send('hello', {});
      const [waiting] = await waitFor(
        () => quarantined(newcomer.serial),
        (rows) => rows.length === 1,
        'enrolled device quarantined',
      );
      expect(waiting).toMatchObject({ reason: 'unknownMachine', viaEnrollmentKey: true });
      const page = await server.call('POST', '/quarantine/page', { token, body: { causedBy: newcomer.serial } });
      expect(page.body.resData.list[0].viaEnrollmentKey).toBe(true);
      await newcomer.close();
    });

    it("never retries an enrolled device's message onto a machine that was registered before it arrived", async () => {
      const [machine] = await server.db.select().from(rvm).where(eq(rvm.id, machineIds[1]));
      const sessionId = `S-${randomUUID()}`;
      // As a device on the key sent it before the key was refused for registered serials: after the machine was registered.
      expect(machine.createTime.getTime()).toBeLessThan(Date.now());
      await server.db.insert(quarantineMessage).values({
        licenseAccountId: account,
        causedBy: machine.serialNumber,
        messageType: 'session',
        content: JSON.stringify(sessionBody(sessionId)),
        contentBytes: 1,
        viaEnrollmentKey: true,
        receivedTime: new Date(),
        reason: 'unknownMachine',
      });
      expect((await server.call('POST', '/quarantine/retryAll', { token })).body.resCode).toBe('00000');
      expect(await server.db.select().from(consumerSession).where(eq(consumerSession.externalId, sessionId))).toHaveLength(0);
      const still = (await quarantined(machine.serialNumber)).find((row) => row.content.includes(sessionId));
      expect(still).toMatchObject({ reason: 'unknownMachine', retryCount: 1, value: expect.stringContaining('registered before the message') });
    });
  },
  { gateway: embeddedGateway() },
);
