// The machine gateway end to end over real MQTT (docs/machine-protocol.md): every message kind, bad
// messages into the quarantine, idempotency, commands delivered and their status moved by the
// machine's answers, commands waiting for offline machines, enrollment and quarantine retry — on the
// embedded broker (with its ACL) on PGlite and PostgreSQL, and on the external broker (Mosquitto) on one backend.
import { and, count, eq, isNull } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import mqtt from 'mqtt';
import { rvm, rvmBin } from '../../server/db/schema/fleet';
import { consumerSession, rvmDailyUsage, rvmEvent, rvmOnlineHistory, serviceSession } from '../../server/db/schema/fleetActivity';
import { rvmCommand, rvmFile } from '../../server/db/schema/liveFleet';
import { quarantineMessage } from '../../server/db/schema/quarantine';
import { seedSmallFleet } from './fleetHarness';
import { connectMachine, embeddedGateway, externalBrokerAvailable, externalGateway, machineRow, provisionMachine, waitFor, type TestMachine } from './gatewayHarness';
import { backendsFor, startTestServer, type BackendName, type TestServer } from './helpers';

const DATABASE_URL = process.env.DATABASE_URL?.trim() || undefined;
const externalAvailable = await externalBrokerAvailable();

const quarantined = (server: TestServer, serial: string) => server.db.select().from(quarantineMessage).where(eq(quarantineMessage.causedBy, serial));

const suite = (backend: BackendName, broker: 'embedded' | 'external') => {
  describe(`machine gateway [${backend}, ${broker} broker]`, () => {
    let server: TestServer & { close(): Promise<void> };
    let token: string;
    let url: string;
    const machineIds: number[] = [];
    const machines: TestMachine[] = [];

    beforeAll(async () => {
      server = await startTestServer(backend, { gateway: broker === 'embedded' ? embeddedGateway() : externalGateway() });
      token = await server.login();
      const current = await server.call('GET', '/login/current', { token });
      await seedSmallFleet(server, current.body.resData.licenseAccountId, { machines: 4, days: 1 });
      const rows = await server.db.select({ id: rvm.id }).from(rvm).orderBy(rvm.id);
      machineIds.push(...rows.map((row) => row.id));
      url = server.app.services.gateway.machineUrl!;
      expect(url).toMatch(/^mqtt:\/\//);
      await waitFor(async () => server.app.services.gateway.connected, Boolean, 'gateway connected to its broker');
    });
    afterAll(async () => {
      await Promise.all(machines.map((machine) => machine.close().catch(() => undefined)));
      await server?.close();
    });

    const connect = async (id: number) => {
      const { serial, secret } = await provisionMachine(server.db, id);
      // A seeded machine may be "online" from the demo history: start from offline for the transitions.
      await server.db.update(rvm).set({ online: false, currentSts: 'Offline' }).where(eq(rvm.id, id));
      const machine = await connectMachine(url, serial, secret, id);
      machines.push(machine);
      return machine;
    };

    it('hello puts the machine online, goodbye offline, each with a history interval', async () => {
      const machine = await connect(machineIds[0]);
      await machine.send('hello', { softwareVersion: '9.9.9', model: 'H30' });
      const online = await waitFor(
        () => machineRow(server.db, machine.id),
        (row) => row.online,
        'online after hello',
      );
      expect(online.currentSts).toBe('Up');
      expect(online.softwareVersion).toBe('9.9.9');
      expect(online.lastSeenTime).not.toBeNull();
      await machine.send('goodbye', { reason: 'shutdown' });
      const offline = await waitFor(
        () => machineRow(server.db, machine.id),
        (row) => !row.online,
        'offline after goodbye',
      );
      expect(offline.currentSts).toBe('Offline');
      const open = await server.db
        .select()
        .from(rvmOnlineHistory)
        .where(and(eq(rvmOnlineHistory.rvmId, machine.id), isNull(rvmOnlineHistory.endTime)));
      expect(open).toHaveLength(1);
      expect(open[0].online).toBe(false);
    });

    it('status, bins, alarms, sessions and service sessions are stored; a re-sent message or session is stored once', async () => {
      const machine = await connect(machineIds[1]);
      await machine.send('hello', {});
      await waitFor(
        () => machineRow(server.db, machine.id),
        (row) => row.online,
        'online',
      );
      await machine.send('status', { status: 'Down', reason: 'door open' });
      await waitFor(
        () => machineRow(server.db, machine.id),
        (row) => row.currentSts === 'Down',
        'Down',
      );

      const row = await machineRow(server.db, machine.id);
      const height = (row.binFullHeight ?? 20) + 1;
      await machine.send('bins', { bins: [{ binNo: 1, currentHeight: height, itemCount: 321 }] });
      await waitFor(
        async () =>
          (
            await server.db
              .select()
              .from(rvmBin)
              .where(and(eq(rvmBin.rvmId, machine.id), eq(rvmBin.binNo, 1)))
          )[0],
        (bin) => bin?.itemCount === 321,
        'bin level',
      );

      const alarmId = await machine.send('alarm', { code: 'am_code_PK_17', state: 'raised', detail: 'front door' });
      await machine.send('alarm', { code: 'am_code_PK_17', state: 'raised' }, { id: alarmId }); // re-sent: same message id
      const openEvents = () =>
        server.db
          .select()
          .from(rvmEvent)
          .where(and(eq(rvmEvent.rvmId, machine.id), eq(rvmEvent.code, 'am_code_PK_17'), isNull(rvmEvent.clearedTime)));
      await waitFor(openEvents, (rows) => rows.length === 1, 'one open event');
      await machine.send('alarm', { code: 'am_code_PK_17', state: 'cleared' });
      await waitFor(openEvents, (rows) => rows.length === 0, 'event cleared');

      const start = new Date(Date.now() - 60_000).toISOString();
      const session = {
        sessionId: `S-${machine.serial}`,
        startTime: start,
        endTime: new Date().toISOString(),
        payoutMethod: 'octopus',
        totalRefund: 0.3,
        items: [
          { seq: 1, itemType: 'can', barcode: '4891234567890', refund: 0.3 },
          { seq: 2, itemType: 'glass', refund: 0, rejectReason: 6 },
        ],
      };
      await machine.send('session', session);
      await machine.send('session', session); // another message id, same session: stored once
      const sessions = () => server.db.select().from(consumerSession).where(eq(consumerSession.externalId, session.sessionId));
      const [stored] = await waitFor(sessions, (rows) => rows.length === 1, 'session stored');
      expect(stored).toMatchObject({ rvmId: machine.id, itemCount: 2, acceptedCount: 1, rejectedCount: 1, totalRefund: 0.3 });
      await machine.send('heartbeat', {}); // a later message proves the duplicate was processed before it
      await waitFor(
        async () => (await machineRow(server.db, machine.id)).lastSessionTime?.toISOString(),
        (time) => time === session.endTime,
        'last session time',
      );
      expect(await sessions()).toHaveLength(1);
      const [usage] = await server.db
        .select()
        .from(rvmDailyUsage)
        .where(and(eq(rvmDailyUsage.rvmId, machine.id), eq(rvmDailyUsage.day, start.slice(0, 10))));
      expect(usage.sessions).toBeGreaterThanOrEqual(1);

      const service = { serviceId: `V-${machine.serial}`, technician: 'Ada', startTime: start, endTime: new Date().toISOString(), cleaningOutcome: 'completed', binsEmptied: 2 };
      await machine.send('service', service);
      await machine.send('service', service);
      await machine.send('heartbeat', {});
      await waitFor(
        async () => (await server.db.select({ n: count() }).from(serviceSession).where(eq(serviceSession.externalId, service.serviceId)))[0].n,
        (n) => Number(n) === 1,
        'service stored once',
      );
    });

    it('bad messages go to the quarantine with their reason and value', async () => {
      const machine = await connect(machineIds[2]);
      await machine.send('hello', {});
      await waitFor(
        () => machineRow(server.db, machine.id),
        (row) => row.online,
        'online',
      );
      await machine.sendRaw('status', '{"v":1,"id":"x","ts":"2026');
      await machine.send('status', { status: 'Broken' });
      await machine.send('alarm', { code: 'am_code_PK_999', state: 'raised' });
      await machine.send('status', { status: 'Up' }, { ts: new Date(Date.now() + 3_600_000).toISOString() });
      await machine.send('status', { status: 'Sleep' }, { ts: new Date(Date.now() - 86_400_000).toISOString() });
      await machine.send('bins', { bins: [{ binNo: 1, currentHeight: 5000 }] });
      await machine.send('session', {
        sessionId: 'bad',
        startTime: new Date().toISOString(),
        endTime: new Date(Date.now() - 3_600_000).toISOString(),
        payoutMethod: 'receipt',
        totalRefund: 0,
        items: [{ seq: 1, itemType: 'can', refund: 0 }],
      });
      // a voucher valid until before the session ended
      const ended = new Date(Date.now() - 60_000).toISOString();
      await machine.send('session', {
        sessionId: 'expired-voucher',
        startTime: new Date(Date.now() - 120_000).toISOString(),
        endTime: ended,
        payoutMethod: 'receipt',
        totalRefund: 0.1,
        voucherCode: 'R123',
        voucherValidUntil: new Date(Date.parse(ended) - 1000).toISOString(),
        items: [{ seq: 1, itemType: 'can', refund: 0.1 }],
      });
      const rows = await waitFor(
        () => quarantined(server, machine.serial),
        (list) => list.length === 8,
        'eight quarantined',
      );
      expect(rows.map((entry) => [entry.messageType, entry.reason]).sort()).toEqual(
        [
          ['status', 'malformedContent'],
          ['status', 'schemaViolation'],
          ['alarm', 'unknownAlarmCode'],
          ['status', 'invalidTimestamp'],
          ['status', 'outOfOrder'],
          ['bins', 'valueOutOfRange'],
          ['session', 'valueOutOfRange'],
          ['session', 'valueOutOfRange'],
        ].sort(),
      );
      expect(rows.map((entry) => entry.value)).toContainEqual(expect.stringMatching(/^voucherValidUntil /));
      expect(rows.find((entry) => entry.reason === 'unknownAlarmCode')?.value).toBe('am_code_PK_999');
      expect((await machineRow(server.db, machine.id)).currentSts).toBe('Up'); // nothing of the refused statuses applied
    });

    it('a command reaches an online machine at once and follows its ack and result; an offline machine gets it after hello', async () => {
      const machine = await connect(machineIds[3]);
      await machine.send('hello', {});
      await waitFor(
        () => machineRow(server.db, machine.id),
        (row) => row.online,
        'online',
      );
      const sent = await server.call('POST', '/rvm/command', { token, body: { rvmId: machine.id, command: 'restart' } });
      expect(sent.body.resCode).toBe('00000');
      const commandId = sent.body.resData.id as number;
      await waitFor(
        async () => machine.commands.length,
        (n) => n === 1,
        'command received',
      );
      expect(machine.commands[0]).toMatchObject({ v: 1, commandId, command: 'restart' });
      const status = async () => (await server.db.select().from(rvmCommand).where(eq(rvmCommand.id, commandId)))[0].status;
      expect(await status()).toBe('sending');
      await machine.send('commandAck', { commandId, accepted: true });
      await waitFor(status, (value) => value === 'sent', 'sent');
      await machine.send('commandResult', { commandId, success: true, message: 'restarted' });
      await waitFor(status, (value) => value === 'executedSuccessfully', 'executed');

      // Offline: the command waits, and is delivered after the machine's next hello.
      await machine.send('goodbye', { reason: 'closed' });
      await waitFor(
        () => machineRow(server.db, machine.id),
        (row) => !row.online,
        'offline',
      );
      const waiting = await server.call('POST', '/rvm/command', { token, body: { rvmId: machine.id, command: 'remoteDiagnosis' } });
      const waitingId = waiting.body.resData.id as number;
      expect(waiting.body.resData.status).toBe('notSent');
      expect(machine.commands).toHaveLength(1);
      await machine.send('hello', {});
      await waitFor(
        async () => machine.commands.length,
        (n) => n === 2,
        'waiting command delivered after hello',
      );
      expect(machine.commands[1]).toMatchObject({ commandId: waitingId, command: 'remoteDiagnosis' });

      // The diagnosis file arrives with the command id and is linked to the command.
      await machine.send('commandAck', { commandId: waitingId, accepted: true });
      await machine.send('file', { commandId: waitingId, kind: 'diagnosis', name: 'diag.txt', contentType: 'text/plain', data: Buffer.from('all good').toString('base64') });
      await machine.send('commandResult', { commandId: waitingId, success: true });
      const done = await waitFor(
        async () => (await server.db.select().from(rvmCommand).where(eq(rvmCommand.id, waitingId)))[0],
        (row) => row.status === 'executedSuccessfully' && row.fileId !== null,
        'diagnosis done',
      );
      const [file] = await server.db.select().from(rvmFile).where(eq(rvmFile.id, done.fileId!));
      expect(file.content.toString()).toBe('all good');
    });

    it('a machine that fell silent goes offline at the sweep, from the time it was last seen', async () => {
      const [id] = machineIds;
      const lastSeen = new Date(Date.now() - 10 * 60_000);
      await server.db.update(rvm).set({ online: true, currentSts: 'Up', lastSeenTime: lastSeen }).where(eq(rvm.id, id));
      await server.app.services.jobs.runNow('gatewayOfflineSweep');
      const row = await machineRow(server.db, id);
      expect(row.online).toBe(false);
      expect(row.statusSince.toISOString()).toBe(lastSeen.toISOString());
    });

    if (broker === 'embedded') {
      it('refuses a wrong secret, and a machine may neither publish as another nor read its commands (ACL)', async () => {
        const [a, b] = [await provisionMachine(server.db, machineIds[0]), await provisionMachine(server.db, machineIds[1])];
        await expect(mqtt.connectAsync(url, { clientId: a.serial, username: a.serial, password: 'wrong', reconnectPeriod: 0 })).rejects.toThrow();
        await expect(mqtt.connectAsync(url, { clientId: 'someone-else', username: a.serial, password: a.secret, reconnectPeriod: 0 })).rejects.toThrow();
        const machine = await connectMachine(url, a.serial, a.secret, machineIds[0]);
        machines.push(machine);
        // SUBACK 0x80 (refused), which mqtt.js reports as a failed subscription; the connection stays.
        await expect(machine.client.subscribeAsync(`rvm/${b.serial}/down/command`, { qos: 1 })).rejects.toThrow(/Subscribe error/);
        expect(machine.client.connected).toBe(true);
        const before = await machineRow(server.db, machineIds[1]);
        const spoofed = before.currentSts === 'Sleep' ? 'Up' : 'Sleep';
        // Not awaited: the broker closes the connection instead of acknowledging.
        machine.client.publish(`rvm/${b.serial}/up/status`, JSON.stringify({ v: 1, id: 'spoof', ts: new Date().toISOString(), status: spoofed }), { qos: 1 });
        await waitFor(
          async () => machine.client.connected,
          (connected) => !connected,
          'the broker drops a client that publishes as another machine',
        );
        const after = await machineRow(server.db, machineIds[1]);
        expect([after.currentSts, after.statusSince]).toEqual([before.currentSts, before.statusSince]);
      });

      it('an unregistered machine enrolls with the account key, waits in the quarantine, and is processed by retry once it is created', async () => {
        const key = await server.call('POST', '/gateway/enrollment-key', { token });
        expect(key.body.resCode).toBe('00000');
        const serial = `NEW${Date.now().toString(36).toUpperCase()}`;
        const machine = await connectMachine(url, serial, key.body.resData.enrollmentKey);
        machines.push(machine);
        const sessionId = `S-${serial}`;
        await machine.send('session', {
          sessionId,
          startTime: new Date(Date.now() - 30_000).toISOString(),
          endTime: new Date().toISOString(),
          payoutMethod: 'receipt',
          totalRefund: 0.1,
          items: [{ seq: 1, itemType: 'can', refund: 0.1 }],
        });
        const [waiting] = await waitFor(
          () => quarantined(server, serial),
          (rows) => rows.length === 1,
          'quarantined as unknown',
        );
        expect(waiting.reason).toBe('unknownMachine');

        const stillUnknown = await server.call('POST', '/quarantine/retryAll', { token });
        expect(stillUnknown.body.resCode).toBe('00000');
        expect(await quarantined(server, serial)).toHaveLength(1);

        const existing = await machineRow(server.db, machineIds[0]);
        const created = await server.call('POST', '/rvm', { token, body: { termNo: serial, serialNumber: serial, termType: 'H30', fleetId: existing.fleetId } });
        expect(created.body.resCode).toBe('00000');
        const retried = await server.call('POST', '/quarantine/retryAll', { token });
        expect(retried.body.resCode).toBe('00000');
        expect(await quarantined(server, serial)).toHaveLength(0);
        const [stored] = await server.db.select().from(consumerSession).where(eq(consumerSession.externalId, sessionId));
        expect(stored.rvmId).toBe(created.body.resData.id);

        // Registered now, but still on the shared key: it never speaks for the machine, its messages wait.
        await machine.send('status', { status: 'Down' });
        await waitFor(
          () => quarantined(server, serial),
          (rows) => rows.length === 1,
          'enrolled device quarantined after registration',
        );
        expect((await machineRow(server.db, created.body.resData.id)).currentSts).not.toBe('Down');
        // Once the machine has its own secret, the enrollment key no longer connects as it.
        const rotated = await server.call('POST', `/rvm/${created.body.resData.id}/credential`, { token });
        expect(rotated.body.resCode).toBe('00000');
        await expect(mqtt.connectAsync(url, { clientId: serial, username: serial, password: key.body.resData.enrollmentKey, reconnectPeriod: 0 })).rejects.toThrow();
        const own = await connectMachine(url, serial, rotated.body.resData.secret, created.body.resData.id);
        machines.push(own);
        await own.send('hello', {});
        await waitFor(
          () => machineRow(server.db, created.body.resData.id),
          (row) => row.online,
          'online with its own secret',
        );
      });

      it('refuses wildcard serial numbers, and a NUL byte in one message does not fail the others', async () => {
        const key = await server.call('POST', '/gateway/enrollment-key', { token });
        for (const serial of ['+', '#', 'a/b']) {
          await expect(mqtt.connectAsync(url, { clientId: serial, username: serial, password: key.body.resData.enrollmentKey, reconnectPeriod: 0 })).rejects.toThrow();
        }
        const machine = await connect(machineIds[2]);
        await machine.send('hello', {});
        await waitFor(
          () => machineRow(server.db, machine.id),
          (row) => row.online,
          'online',
        );
        const before = (await machineRow(server.db, machine.id)).currentSts;
        const next = before === 'Sleep' ? 'Up' : 'Sleep';
        void machine.sendRaw('status', '{"v":1,\u0000}'); // a raw NUL: never JSON, and PostgreSQL text cannot hold it
        await machine.send('status', { status: next });
        await waitFor(
          () => machineRow(server.db, machine.id),
          (row) => row.currentSts === next,
          'the valid message after the NUL one applied',
        );
        const rows = await quarantined(server, machine.serial);
        expect(rows.some((row) => row.reason === 'malformedContent' && row.content.includes('\\u0000'))).toBe(true);
        // a file's content type becomes a download header: nothing but a plain media type
        await machine.send('file', { kind: 'log', name: 'x.txt', contentType: 'text/html\r\nSet-Cookie: a=b', data: '' });
        await waitFor(
          () => quarantined(server, machine.serial),
          (list) => list.some((row) => row.messageType === 'file' && row.reason === 'schemaViolation'),
          'header injection refused',
        );
      });
    }
  });
};

// The embedded broker on both backends (ingest's transactions, idempotency and quarantine are storage behaviour);
// the external broker is a transport only, so on ONE_BACKEND (docs/test-quality.md "One backend or both").
for (const backend of ['pglite', 'postgres'] as const) {
  for (const broker of ['embedded', 'external'] as const) {
    if (broker === 'external' && !backendsFor('one').includes(backend)) continue;
    const missing =
      backend === 'postgres' && !DATABASE_URL ? 'DATABASE_URL is not set' : broker === 'external' && !externalAvailable ? 'no MQTT broker answers at MQTT_TEST_URL' : null;
    if (!missing) {
      suite(backend, broker);
      continue;
    }
    const title = `machine gateway [${backend}, ${broker} broker]`;
    if (process.env.CI === 'true') describe(title, () => it('runs in CI', () => expect.fail(`${missing}: this suite cannot be skipped in CI`)));
    else {
      console.warn(`\n\u26a0  ${missing}: ${title} is SKIPPED\n`);
      describe.skip(title, () => it('skipped', () => undefined));
    }
  }
}
