// Lang config and H30 config packages on simulated machines (docs/machine-configuration.md "On the machine",
// docs/machine-protocol.md#configuration-packages): the real server (API, versions, packages, rollout job, embedded
// gateway, signed download) with an H30 and a T9. An H30 config deployed to both caps the items of the H30's next
// consumer sessions at its max. items per session while the T9 applies it and changes nothing; a lang config sets
// what the machine's screen says, in the language its main config picks, as its remote diagnosis file reports.
import { and, eq, gt, inArray } from 'drizzle-orm';
import { afterAll, expect, it } from 'vitest';
import { deploymentTarget } from '../../server/db/schema/deployments';
import { fleet, rvm } from '../../server/db/schema/fleet';
import { consumerSession, consumerSessionItem } from '../../server/db/schema/fleetActivity';
import { DEPLOYMENTS_JOB } from '../../server/deployments/rollout';
import { issueCredential } from '../../server/gateway/credentials';
import { FACTORY_TEXTS } from '../../server/simulator/machineSettings';
import { VirtualMachine } from '../../server/simulator/machine';
import { embeddedGateway, waitFor } from './gatewayHarness';
import { freePort } from '../robust/childServer';
import { describeOneBackend } from './helpers';

const port = await freePort();

interface Simulated {
  machine: VirtualMachine;
  row: typeof rvm.$inferSelect;
}

describeOneBackend(
  'lang and H30 config packages on simulated machines',
  (server) => {
    let token = '';
    let h30: Simulated;
    let t9: Simulated;
    afterAll(async () => {
      await h30?.machine.stop();
      await t9?.machine.stop();
    });

    const ok = async (method: 'POST' | 'PUT', path: string, body: Record<string, unknown>) => {
      const answer = await server.call(method, path, { token, body });
      expect(answer.body.resCode, `${path}: ${answer.body.resMsg}`).toBe('00000');
      return answer.body.resData;
    };

    /** The kind's latest version made into a package for H30 and T9 and deployed to `machines`; answers once every delivery is applied. */
    const deployLatest = async (kind: string, apiPath: string, machines: Simulated[]) => {
      const versions = (await server.call('GET', `${apiPath}/versions`, { token })).body.resData;
      const version = versions.list[0].version as number;
      const made = await ok('POST', `${apiPath}/versions/${version}/package`, { name: `${kind} ${version}`, adaptedModels: 'H30, T9' });
      const deployment = await ok('POST', '/deployment', { packageId: made.id, targets: { machineIds: machines.map(({ row }) => row.id) }, waves: [100] });
      await server.app.services.jobs.runNow(DEPLOYMENTS_JOB);
      await server.app.services.jobs.runNow('gatewayDeliverPackages');
      const targets = await waitFor(
        () => server.db.select().from(deploymentTarget).where(eq(deploymentTarget.deploymentId, deployment.id)),
        (found) => found.length === machines.length && found.every((target) => ['applied', 'applyFailed', 'receiveFailed'].includes(target.status)),
        `${kind} applied`,
      );
      expect(targets.map((target) => [target.status, target.statusReason])).toEqual(machines.map(() => ['applied', null]));
    };

    /** Runs `count` sessions on the machine and answers each stored session's number of items. */
    const itemCounts = async ({ machine, row }: Simulated, count: number) => {
      const since = new Date(Date.now() - 1);
      for (let index = 0; index < count; index++) await machine.runSession();
      const stored = await waitFor(
        () =>
          server.db
            .select({ id: consumerSession.id })
            .from(consumerSession)
            .where(and(eq(consumerSession.rvmId, row.id), gt(consumerSession.endTime, since))),
        (found) => found.length === count,
        'sessions stored',
      );
      const items = await server.db
        .select({ sessionId: consumerSessionItem.sessionId })
        .from(consumerSessionItem)
        .where(
          inArray(
            consumerSessionItem.sessionId,
            stored.map((session) => session.id),
          ),
        );
      return stored.map((session) => items.filter((item) => item.sessionId === session.id).length);
    };

    const diagnosis = (machine: VirtualMachine) => Buffer.from(machine.report('diagnosis', {}).data, 'base64').toString('utf8');

    const simulate = async (account: number, fleetId: number, termType: string, serialNumber: string): Promise<Simulated> => {
      const [row] = await server.db
        .insert(rvm)
        .values({ licenseAccountId: account, fleetId, termNo: serialNumber, serialNumber, termType, binCount: 2, softwareVersion: '5.0.0' })
        .returning();
      const secret = await issueCredential(server.db, row, null);
      const machine = new VirtualMachine({
        profile: { serialNumber, termType, binCount: 2, softwareVersion: '5.0.0', sessionsPerDay: 40 },
        credentials: { serialNumber, secret, brokerUrl: server.app.services.gateway.machineUrl! },
        seed: 'texts-and-h30',
        speed: 1000,
        failureRate: 0,
        autopilot: false,
      });
      machine.start();
      await waitFor(
        async () => (await server.db.select({ online: rvm.online }).from(rvm).where(eq(rvm.id, row.id)))[0],
        (found) => found.online,
        `${serialNumber} online`,
      );
      return { machine, row };
    };

    it('caps an H30 consumer session at the max. items per session of a deployed H30 config; a T9 ignores it', async () => {
      await server.app.listen({ port, host: '127.0.0.1' });
      token = await server.login();
      const account = (await server.call('GET', '/login/current', { token })).body.resData.licenseAccountId;
      const [root] = await server.db.insert(fleet).values({ licenseAccountId: account, name: 'Screens', level: 1 }).returning({ id: fleet.id });
      h30 = await simulate(account, root.id, 'H30', 'SIMTX-H30');
      t9 = await simulate(account, root.id, 'T9', 'SIMTX-T9');

      // factory behaviour: sessions of more than 2 items happen on both
      expect(Math.max(...(await itemCounts(h30, 12)))).toBeGreaterThan(2);
      expect(Math.max(...(await itemCounts(t9, 12)))).toBeGreaterThan(2);

      await ok('POST', '/configuration/h30', { setting: 'maxItemsPerSession', value: '2' });
      await ok('POST', '/configuration/h30', { setting: 'conveyorSpeed', value: '7' });
      await deployLatest('h30', '/configuration/h30', [h30, t9]);

      const capped = await itemCounts(h30, 15);
      expect(Math.max(...capped)).toBeLessThanOrEqual(2);
      expect(capped.filter((count) => count === 2).length).toBeGreaterThan(0);
      expect(h30.machine.settings.h30).toEqual({ conveyorSpeed: '7', maxItemsPerSession: '2' });
      expect(diagnosis(h30.machine)).toContain('H30 settings: conveyorSpeed 7, maxItemsPerSession 2');
      // the T9 reported it applied, keeps no H30 setting and still serves long sessions
      expect(t9.machine.settings.h30).toBeNull();
      expect(Math.max(...(await itemCounts(t9, 12)))).toBeGreaterThan(2);
      expect(diagnosis(t9.machine)).not.toContain('H30 settings');
    });

    it("shows a deployed lang config's texts on the machine's screen, in the language of its main config", async () => {
      expect(h30.machine.screenNow()).toBe(FACTORY_TEXTS.welcome);
      await ok('POST', '/configuration/lang', { textKey: 'welcome', language: 'en', text: 'Hello from the console' });
      await ok('POST', '/configuration/lang', { textKey: 'welcome', language: 'zh', text: '欢迎回收' });
      await ok('POST', '/configuration/lang', { textKey: 'thankYou', language: 'en', text: 'Cheers' });
      await deployLatest('lang', '/configuration/lang', [h30]);
      expect(h30.machine.screenNow()).toBe('Hello from the console');
      expect(h30.machine.settings.screenText('thankYou')).toBe('Cheers');
      expect(h30.machine.settings.screenText('closed')).toBe(FACTORY_TEXTS.closed);
      expect(diagnosis(h30.machine)).toContain('screen (en): "Hello from the console"');

      // a main config in Simplified Chinese (open all day): the Chinese welcome; a key without a Chinese text shows its English one
      await ok('POST', '/configuration/main', {
        model: '*',
        binEmptyHeight: 120,
        binFullHeight: 30,
        almostFullPercent: 80,
        alreadyFullPercent: 95,
        onTime: '00:00',
        offTime: '23:59',
        language: 'zh',
        volume: 40,
      });
      await deployLatest('main', '/configuration/main', [h30]);
      expect(h30.machine.screenNow()).toBe('欢迎回收');
      expect(h30.machine.settings.screenText('thankYou')).toBe('Cheers');
      expect(diagnosis(h30.machine)).toContain('screen (zh): "欢迎回收"');
    });
  },
  { gateway: { ...embeddedGateway(), apiBase: `http://127.0.0.1:${port}/test-api` } },
);
