// Generated config files (packages of type `config`) on simulated machines (docs/machine-configuration.md "On the
// machine", docs/machine-protocol.md#generated-config-files). Through the real server (template store, generate,
// package, rollout job, embedded gateway, signed download): an H30 applies the file's refund and H30 sections, so its
// next sessions pay the file's refund and stop at its max. items; a T9 the file's template is not for refuses it with
// a reason (applyFailed) and keeps its factory refund. Then, without a server: an unreadable file, an unknown
// section, and a file with one section the machine refuses all change nothing.
import { and, eq, gt, inArray } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { deploymentTarget } from '../../server/db/schema/deployments';
import { fleet, rvm } from '../../server/db/schema/fleet';
import { consumerSession, consumerSessionItem } from '../../server/db/schema/fleetActivity';
import { DEPLOYMENTS_JOB } from '../../server/deployments/rollout';
import { issueCredential } from '../../server/gateway/credentials';
import { VirtualMachine } from '../../server/simulator/machine';
import { MachineSettings } from '../../server/simulator/machineSettings';
import { embeddedGateway, waitFor } from './gatewayHarness';
import { reservePort } from '../robust/childServer';
import { describeOneBackend } from './helpers';

// held until the server listens (reservePort: a port merely found free can be taken meanwhile)
const reserved = await reservePort();
const port = reserved.port;

interface Simulated {
  machine: VirtualMachine;
  row: typeof rvm.$inferSelect;
}

describeOneBackend(
  'generated config files on simulated machines',
  (server) => {
    let token = '';
    const machines: Simulated[] = [];
    afterAll(async () => {
      await reserved.release();
      for (const { machine } of machines) await machine.stop();
    });

    const ok = async (method: 'POST' | 'PUT', path: string, body: Record<string, unknown>) => {
      const answer = await server.call(method, path, { token, body });
      expect(answer.body.resCode, `${path}: ${answer.body.resMsg}`).toBe('00000');
      return answer.body.resData;
    };

    const simulate = async (account: number, fleetId: number, termType: string, serialNumber: string): Promise<Simulated> => {
      const [row] = await server.db
        .insert(rvm)
        .values({ licenseAccountId: account, fleetId, termNo: serialNumber, serialNumber, termType, binCount: 2, softwareVersion: '5.0.0' })
        .returning();
      const secret = await issueCredential(server.db, row, null);
      const machine = new VirtualMachine({
        profile: { serialNumber, termType, binCount: 2, softwareVersion: '5.0.0', sessionsPerDay: 40 },
        credentials: { serialNumber, secret, brokerUrl: server.app.services.gateway.machineUrl! },
        seed: 'config-file',
        speed: 1000,
        failureRate: 0,
        autopilot: false,
      });
      machine.start();
      machines.push({ machine, row });
      await waitFor(
        async () => (await server.db.select({ online: rvm.online }).from(rvm).where(eq(rvm.id, row.id)))[0],
        (found) => found.online,
        `${serialNumber} online`,
      );
      return { machine, row };
    };

    /** Runs `count` sessions; answers each stored session's items. */
    const sessions = async ({ machine, row }: Simulated, count: number) => {
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
        .select()
        .from(consumerSessionItem)
        .where(
          inArray(
            consumerSessionItem.sessionId,
            stored.map((session) => session.id),
          ),
        );
      return stored.map((session) => items.filter((item) => item.sessionId === session.id));
    };

    const bottleRefunds = (found: Array<Array<typeof consumerSessionItem.$inferSelect>>) =>
      new Set(
        found
          .flat()
          .filter((item) => item.itemType === 'plasticBottle' && item.rejectReason === null)
          .map((item) => item.refund),
      );

    const diagnosis = (machine: VirtualMachine) => Buffer.from(machine.report('diagnosis', {}).data, 'base64').toString('utf8');

    it("applies a generated file's sections on the model its template is for; another model refuses it with a reason", async () => {
      await reserved.release();
      await server.app.listen({ port, host: '127.0.0.1' });
      token = await server.login();
      const account = (await server.call('GET', '/login/current', { token })).body.resData.licenseAccountId;
      const [root] = await server.db.insert(fleet).values({ licenseAccountId: account, name: 'Config files', level: 1 }).returning({ id: fleet.id });
      const h30 = await simulate(account, root.id, 'H30', 'SIMCF-H30');
      const t9 = await simulate(account, root.id, 'T9', 'SIMCF-T9');
      expect(bottleRefunds(await sessions(h30, 8))).toEqual(new Set([0.1]));

      await ok('POST', '/configuration/refund', { itemType: 'plasticBottle', value: 0.55, currency: 'HKD', decimals: 2 });
      await ok('POST', '/configuration/h30', { setting: 'maxItemsPerSession', value: '2' });
      const template = await ok('POST', '/configuration/template', { name: 'H30 main file', targetModels: 'H30' });
      await ok('POST', '/configuration/template-content', { templateId: template.id, contentId: 'header', body: '# RVM config' });
      const made = await ok('POST', '/configuration/template/generate/package', {
        templateId: template.id,
        kinds: ['refund', 'h30config'],
        name: 'H30 main file 1',
        version: 'v1',
        adaptedModels: 'H30, T9',
      });
      const deployment = await ok('POST', '/deployment', { packageId: made.id, targets: { machineIds: [h30.row.id, t9.row.id] }, waves: [100] });
      await server.app.services.jobs.runNow(DEPLOYMENTS_JOB);
      await server.app.services.jobs.runNow('gatewayDeliverPackages');
      const targets = await waitFor(
        () => server.db.select().from(deploymentTarget).where(eq(deploymentTarget.deploymentId, deployment.id)),
        (found) => found.length === 2 && found.every((target) => ['applied', 'applyFailed', 'receiveFailed'].includes(target.status)),
        'config file delivered',
      );
      const byMachine = new Map(targets.map((target) => [target.rvmId, [target.status, target.statusReason]]));
      expect(byMachine.get(h30.row.id)).toEqual(['applied', null]);
      expect(byMachine.get(t9.row.id)).toEqual(['applyFailed', 'Config file for H30, not for model T9']);

      // the H30 pays the file's refund and takes at most 2 items a session; the T9 kept its factory refund and long sessions
      const served = await sessions(h30, 15);
      expect(bottleRefunds(served)).toEqual(new Set([0.55]));
      expect(Math.max(...served.map((items) => items.length))).toBeLessThanOrEqual(2);
      expect(diagnosis(h30.machine)).toContain('config file: H30 main file; contents header; configurations refund v1, h30config v1');
      const refused = await sessions(t9, 12);
      expect(bottleRefunds(refused)).toEqual(new Set([0.1]));
      expect(Math.max(...refused.map((items) => items.length))).toBeGreaterThan(2);
      expect(diagnosis(t9.machine)).not.toContain('config file:');
    });
  },
  { gateway: { ...embeddedGateway(), apiBase: `http://127.0.0.1:${port}/test-api` } },
);

describe('a machine reading a config file', () => {
  const file = (configurations: unknown[], extra: Record<string, unknown> = {}) =>
    Buffer.from(JSON.stringify({ format: 'rvm-config-file', v: 1, template: { name: 'File', targetModels: 'H30, T9' }, contents: [], configurations, ...extra }));
  const refund = { kind: 'refund', resourceType: 'refund', version: 3, items: [{ itemType: 'can', barcode: null, value: 0.4, currency: 'HKD', decimals: 2 }] };

  it('refuses what it cannot read with a reason and keeps what it had', () => {
    const settings = new MachineSettings('T9');
    expect(settings.apply('config', Buffer.from('{ not json'))).toBe('Config file unreadable: not JSON');
    expect(settings.apply('config', file([refund], { format: 'rvm-configuration' }))).toBe('Config file unreadable: format is not rvm-config-file');
    expect(settings.apply('config', file([refund], { v: 2 }))).toBe('Config file unreadable: unsupported version 2');
    expect(settings.apply('config', file([{ ...refund, resourceType: 'firmware' }]))).toBe('Config file unreadable: unknown configuration firmware');
    expect(settings.apply('config', file([refund, refund]))).toBe('Config file unreadable: refund twice');
    expect(settings.apply('config', file([{ ...refund, items: [1] }]))).toBe('Config file unreadable: refund section');
    expect(settings.refundOf('can', undefined)).toBeUndefined();
    expect(settings.configFileSummary()).toBeNull();
  });

  it('applies all its sections or none: a main section without a row for its model changes nothing', () => {
    const settings = new MachineSettings('T9');
    const main = { kind: 'mainConfig', resourceType: 'main', version: 1, items: [{ model: 'H30', onTime: '08:00', offTime: '20:00' }] };
    expect(settings.apply('config', file([refund, main]))).toBe('Config file section main: No main config for model T9');
    expect(settings.refundOf('can', undefined)).toBeUndefined();
    expect(settings.apply('config', file([refund]))).toBeNull();
    expect(settings.refundOf('can', undefined)).toBe(0.4);
    expect(settings.configFileSummary()).toBe('File; contents none; configurations refund v3');
  });
});
