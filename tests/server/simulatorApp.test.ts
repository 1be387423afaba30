// The in-process simulation (`npm start -- --simulate`) against the real app and its embedded
// gateway: the first active machines get secrets, connect over MQTT and come online in the database;
// what they send is stored (nothing quarantined), a command from the API is executed, and stopping
// takes them offline again. The CLI does the same from outside, over the HTTP API.
import { spawn } from 'node:child_process';
import { and, asc, eq, inArray } from 'drizzle-orm';
import { afterAll, expect, it } from 'vitest';
import { rvm } from '../../server/db/schema/fleet';
import { consumerSession } from '../../server/db/schema/fleetActivity';
import { rvmCommand } from '../../server/db/schema/liveFleet';
import { quarantineMessage } from '../../server/db/schema/quarantine';
import { startInProcessSimulation, type InProcessSimulation } from '../../server/simulator/inProcess';
import { seedSmallFleet } from './fleetHarness';
import { embeddedGateway, waitFor } from './gatewayHarness';
import { ADMIN, describeOneBackend } from './helpers';

describeOneBackend(
  'fleet simulator in the server process',
  (server) => {
    let simulation: InProcessSimulation | undefined;
    afterAll(async () => {
      await simulation?.stop();
    });

    it('brings the first active machines online over the gateway, stores what they send, executes commands', async () => {
      const token = await server.login();
      const current = await server.call('GET', '/login/current', { token });
      await seedSmallFleet(server as never, current.body.resData.licenseAccountId, { machines: 4, days: 1 });
      // The demo history may leave machines online: start from offline to see the simulator's effect.
      await server.db.update(rvm).set({ online: false, currentSts: 'Offline' });
      const ids = (await server.db.select({ id: rvm.id }).from(rvm).where(eq(rvm.sts, 'active')).orderBy(asc(rvm.id)).limit(3)).map((row) => row.id);

      const quarantined = async () => (await server.db.select({ id: quarantineMessage.id }).from(quarantineMessage)).length;
      const quarantinedBefore = await quarantined(); // the demo seed quarantines a few messages of its own

      // a closed machine is back 600 simulated seconds later (12 s here): room to see it offline and send a command on a busy machine
      simulation = await startInProcessSimulation(server.app, { machines: 3, speed: 50, seed: 'app-test', failureRate: 0, reopenAfterSeconds: 600 });
      const online = () =>
        server.db
          .select()
          .from(rvm)
          .where(and(inArray(rvm.id, ids), eq(rvm.online, true)));
      const rows = await waitFor(online, (found) => found.length === 3, 'three simulated machines online');
      expect(rows.every((row) => row.currentSts !== 'Offline' && row.lastSeenTime !== null)).toBe(true);
      const others = await server.db.select().from(rvm).where(eq(rvm.online, true));
      expect(others.map((row) => row.id).sort()).toEqual([...ids].sort());

      const first = rows.find((row) => row.id === ids[0])!;
      const machine = simulation.fleet.machines.find((candidate) => candidate.serialNumber === first.serialNumber)!;
      // this session by its id: the autopilot may store sessions of its own meanwhile
      const message = await machine.runSession();
      expect(message?.sessionId).toEqual(expect.any(String));
      await waitFor(
        () =>
          server.db
            .select()
            .from(consumerSession)
            .where(and(eq(consumerSession.rvmId, first.id), eq(consumerSession.externalId, message!.sessionId as string))),
        (sessions) => sessions.length === 1,
        'the simulated session stored',
      );

      const sent = await server.call('POST', '/rvm/command', { token, body: { rvmId: first.id, command: 'uiCounterReset' } });
      expect(sent.body.resCode, sent.body.resMsg).toBe('00000');
      const commandRow = async (id: number) => (await server.db.select().from(rvmCommand).where(eq(rvmCommand.id, id)))[0];
      await waitFor(
        () => commandRow(sent.body.resData.id),
        (command) => command.status === 'executedSuccessfully',
        'the command executed by the virtual machine',
      );

      // close: the machine leaves (goodbye closed); a command sent meanwhile waits and runs when it is back.
      const machineRow = async () => (await server.db.select().from(rvm).where(eq(rvm.id, first.id)))[0];
      const close = await server.call('POST', '/rvm/command', { token, body: { rvmId: first.id, command: 'close' } });
      await waitFor(
        () => commandRow(close.body.resData.id),
        (command) => command.status === 'executedSuccessfully',
        'close executed',
      );
      await waitFor(machineRow, (row) => !row.online, 'closed machine offline');
      const open = await server.call('POST', '/rvm/command', { token, body: { rvmId: first.id, command: 'open' } });
      expect(open.body.resData.status).toBe('notSent');
      await waitFor(
        () => commandRow(open.body.resData.id),
        (command) => command.status === 'executedSuccessfully',
        'open delivered after the machine came back',
      );
      // Up, or Sleep outside its opening hours: no longer Down (closed).
      await waitFor(machineRow, (row) => row.online && row.currentSts !== 'Down' && row.currentSts !== 'Offline', 'reopened machine online, not Down');

      expect(await quarantined()).toBe(quarantinedBefore);

      await simulation.stop();
      simulation = undefined;
      await waitFor(online, (found) => found.length === 0, 'all simulated machines offline after goodbye');
    });

    it('npm run simulate: signs in over HTTP, rotates secrets, prints progress, says goodbye on Ctrl-C', async () => {
      await simulation?.stop(); // when the test above failed half-way
      const online = () => server.db.select({ id: rvm.id }).from(rvm).where(eq(rvm.online, true));
      await waitFor(online, (rows) => rows.length === 0, 'no machine online before the CLI starts');
      const address = await server.app.listen({ port: 0, host: '127.0.0.1' });
      const cli = spawn(
        process.execPath,
        [
          '--import',
          'tsx',
          'server/simulator/cli.ts',
          '--machines',
          '2',
          '--speed',
          '50',
          '--seed',
          'cli',
          '--url',
          address,
          '--user',
          ADMIN.username,
          '--password',
          ADMIN.password,
        ],
        { stdio: ['ignore', 'pipe', 'pipe'] },
      );
      let output = '';
      cli.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
      cli.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
      const exited = new Promise<number | null>((resolve) => cli.once('exit', (code) => resolve(code)));
      try {
        await waitFor(
          async () => output,
          (text) => /connected 2\/2 · [\d.]+ msg\/s · \d+ sent · \d+ commands answered/.test(text),
          'a progress line with both machines connected',
        );
        expect(await online()).toHaveLength(2);
        cli.kill('SIGINT');
        expect(await exited).toBe(0);
        expect(output).toMatch(/Done: \d+ messages sent/);
        await waitFor(online, (rows) => rows.length === 0, 'the CLI machines offline after their goodbye');
      } finally {
        if (cli.exitCode === null) cli.kill('SIGKILL');
      }
    });
  },
  { gateway: embeddedGateway() },
);
