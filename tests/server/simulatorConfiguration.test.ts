// Configuration packages on simulated machines (docs/machine-configuration.md "On the machine"): the real
// server (API, versions, packages, rollout job, embedded gateway, signed download) and one virtual machine.
// A refund version deployed to it changes the refund of its next sessions; an assortment version makes it
// reject every barcode the assortment does not list with reason 2; a sorting moves items to its bins; a group and
// a payout limit its consumers to the methods enabled for its group (a receipt's voucher reports its validity); a main
// config puts it to sleep.
import { and, eq, gt, inArray } from 'drizzle-orm';
import { afterAll, expect, it } from 'vitest';
import { deploymentTarget } from '../../server/db/schema/deployments';
import { fleet, rvm } from '../../server/db/schema/fleet';
import { consumerSession, consumerSessionItem } from '../../server/db/schema/fleetActivity';
import { DEPLOYMENTS_JOB } from '../../server/deployments/rollout';
import { issueCredential } from '../../server/gateway/credentials';
import { PRODUCTS } from '../../server/seed/vocabulary';
import { VirtualMachine } from '../../server/simulator/machine';
import { embeddedGateway, waitFor } from './gatewayHarness';
import { reservePort } from '../robust/childServer';
import { describeOneBackend } from './helpers';

// held until the server listens (reservePort: a port merely found free can be taken meanwhile)
const reserved = await reservePort();
const port = reserved.port;

describeOneBackend(
  'configuration packages on a simulated machine',
  (server) => {
    let machine: VirtualMachine | undefined;
    let token = '';
    let row: typeof rvm.$inferSelect;
    afterAll(async () => {
      await reserved.release();
      await machine?.stop();
    });

    const ok = async (method: 'POST' | 'PUT', path: string, body: Record<string, unknown>) => {
      const answer = await server.call(method, path, { token, body });
      expect(answer.body.resCode, `${path}: ${answer.body.resMsg}`).toBe('00000');
      return answer.body.resData;
    };

    /** The kind's latest version made into a package and deployed to the machine; answers once it is applied. */
    const deployLatest = async (kind: string, apiPath: string) => {
      const versions = (await server.call('GET', `${apiPath}/versions`, { token })).body.resData;
      const version = versions.list[0].version as number;
      const made = await ok('POST', `${apiPath}/versions/${version}/package`, { name: `${kind} ${version}`, adaptedModels: 'H30' });
      const deployment = await ok('POST', '/deployment', { packageId: made.id, targets: { machineIds: [row.id] }, waves: [100] });
      await server.app.services.jobs.runNow(DEPLOYMENTS_JOB);
      await server.app.services.jobs.runNow('gatewayDeliverPackages');
      const [target] = await waitFor(
        () => server.db.select().from(deploymentTarget).where(eq(deploymentTarget.deploymentId, deployment.id)),
        (found) => found.length === 1 && ['applied', 'applyFailed', 'receiveFailed'].includes(found[0].status),
        `${kind} applied`,
      );
      expect([target.status, target.statusReason]).toEqual(['applied', null]);
    };

    /** Runs `count` sessions and answers their items once all are stored. */
    const sessions = async (count: number) => {
      const since = new Date(Date.now() - 1);
      for (let index = 0; index < count; index++) await machine!.runSession();
      const stored = await waitFor(
        () =>
          server.db
            .select({ id: consumerSession.id })
            .from(consumerSession)
            .where(and(eq(consumerSession.rvmId, row.id), gt(consumerSession.endTime, since))),
        (found) => found.length === count,
        'sessions stored',
      );
      return server.db
        .select()
        .from(consumerSessionItem)
        .where(
          inArray(
            consumerSessionItem.sessionId,
            stored.map((session) => session.id),
          ),
        );
    };

    it('carries a deployed refund value in the next sessions', async () => {
      await reserved.release();
      await server.app.listen({ port, host: '127.0.0.1' });
      token = await server.login();
      const account = (await server.call('GET', '/login/current', { token })).body.resData.licenseAccountId;
      const [root] = await server.db.insert(fleet).values({ licenseAccountId: account, name: 'Configured', level: 1 }).returning({ id: fleet.id });
      [row] = await server.db
        .insert(rvm)
        .values({ licenseAccountId: account, fleetId: root.id, termNo: 'CFG1', serialNumber: 'SIMCFG-1', termType: 'H30', binCount: 2, softwareVersion: '5.0.0' })
        .returning();
      const secret = await issueCredential(server.db, row, null);
      machine = new VirtualMachine({
        profile: { serialNumber: row.serialNumber, termType: 'H30', binCount: 2, softwareVersion: '5.0.0', sessionsPerDay: 40, fleetId: root.id },
        credentials: { serialNumber: row.serialNumber, secret, brokerUrl: server.app.services.gateway.machineUrl! },
        seed: 'configuration',
        speed: 1000,
        failureRate: 0,
        autopilot: false,
      });
      machine.start();
      await waitFor(
        async () => (await server.db.select({ online: rvm.online }).from(rvm).where(eq(rvm.id, row.id)))[0],
        (found) => found.online,
        'machine online',
      );

      const before = await sessions(10);
      expect(before.filter((item) => item.itemType === 'plasticBottle' && item.rejectReason === null).every((item) => item.refund === 0.1)).toBe(true);

      await ok('POST', '/configuration/refund', { itemType: 'plasticBottle', value: 0.45, currency: 'HKD', decimals: 2 });
      await ok('POST', '/configuration/refund', { itemType: 'can', value: 0.3, currency: 'HKD', decimals: 2 });
      await deployLatest('refund', '/configuration/refund');

      const after = await sessions(15);
      const accepted = after.filter((item) => item.rejectReason === null);
      const bottles = accepted.filter((item) => item.itemType === 'plasticBottle');
      const cans = accepted.filter((item) => item.itemType === 'can');
      expect(bottles.length).toBeGreaterThan(0);
      expect(new Set(bottles.map((item) => item.refund))).toEqual(new Set([0.45]));
      expect(new Set(cans.map((item) => item.refund))).toEqual(cans.length ? new Set([0.3]) : new Set());
    });

    it('sends every accepted item to the bin a deployed sorting names', async () => {
      for (const itemType of ['plasticBottle', 'can', 'glass', 'plasticCup', 'flat', 'others']) await ok('POST', '/configuration/sorting', { itemType, binNo: 2 });
      await deployLatest('sorting', '/configuration/sorting');
      const before = machine!.bins.map((bin) => bin.count);
      const items = await sessions(10);
      const accepted = items.filter((item) => item.rejectReason === null).length;
      expect(accepted).toBeGreaterThan(0);
      expect(machine!.bins.map((bin, index) => bin.count - before[index])).toEqual([0, accepted]);
    });

    it('rejects a barcode the deployed assortment does not list with reason 2, and accepts the listed one', async () => {
      const listed = PRODUCTS.plasticBottle[0].barcode;
      await ok('POST', '/configuration/assortment', {
        barcode: listed,
        name: 'Listed water',
        itemType: 'plasticBottle',
        material: 'PET',
        volume: 500,
        minWeight: 10,
        maxWeight: 40,
      });
      await deployLatest('assortment', '/configuration/assortment');
      const items = await sessions(20);
      const withBarcode = items.filter((item) => item.barcode !== null && ['plasticBottle', 'can', 'glass', 'plasticCup'].includes(item.itemType));
      expect(withBarcode.length).toBeGreaterThan(0);
      // nothing outside the assortment is accepted; the unknown ones are refused as "not in database"
      expect(withBarcode.filter((item) => item.rejectReason === null && item.barcode !== listed)).toEqual([]);
      expect(withBarcode.filter((item) => item.barcode !== listed).some((item) => item.rejectReason === 2)).toBe(true);
    });

    it('pays only by the methods a deployed payout enables for its machine group', async () => {
      const paidSince = async (since: Date) =>
        new Set(
          (
            await server.db
              .select({ payoutMethod: consumerSession.payoutMethod })
              .from(consumerSession)
              .where(and(eq(consumerSession.rvmId, row.id), gt(consumerSession.endTime, since)))
          ).map((session) => session.payoutMethod),
        );
      // so far every method (octopus the most common)
      expect(await paidSince(new Date(0))).toContain('octopus');
      await ok('POST', '/configuration/group', { name: 'Configured fleet', kind: 'machines', fleets: [row.fleetId] });
      await deployLatest('group', '/configuration/group');
      await ok('POST', '/configuration/payout', { machineGroup: '*', method: 'octopus', enabled: true });
      await ok('POST', '/configuration/payout', { machineGroup: '*', method: 'receipt', enabled: true, validityDays: 30 });
      await ok('POST', '/configuration/payout', { machineGroup: 'Configured fleet', method: 'octopus', enabled: false });
      await ok('POST', '/configuration/payout', { machineGroup: 'Configured fleet', method: 'alipayHK', enabled: true });
      await deployLatest('payout', '/configuration/payout');
      const since = new Date(Date.now() - 1);
      await sessions(20);
      const methods = await paidSince(since);
      // the group's octopus item turns off the * one for this machine (its fleet is in the group)
      expect([...methods].filter((method) => !['receipt', 'alipayHK', 'userCancelledPayment'].includes(method!))).toEqual([]);
      expect(methods.has('receipt') || methods.has('alipayHK')).toBe(true);

      // a receipt's voucher reports the payout item's 30 days of validity from the session's end; nothing else has one
      const stored = await server.db
        .select()
        .from(consumerSession)
        .where(and(eq(consumerSession.rvmId, row.id), gt(consumerSession.endTime, since)));
      const receipts = stored.filter((session) => session.payoutMethod === 'receipt');
      expect(receipts.length).toBeGreaterThan(0);
      for (const session of receipts) {
        expect(session.voucherCode).toMatch(/^R/);
        expect(session.voucherValidUntil!.getTime() - session.endTime.getTime()).toBe(30 * 86_400_000);
      }
      expect(stored.filter((session) => session.payoutMethod !== 'receipt').map((session) => session.voucherValidUntil)).toEqual(
        stored.filter((session) => session.payoutMethod !== 'receipt').map(() => null),
      );
      // the machine page's sessions answer it
      const page = await server.call('POST', '/rvmpage/consumerSessions', { token, body: { id: row.id, payoutMethod: 'receipt', pageSize: 50 } });
      const answered = (page.body.resData.list as Array<{ endTime: string; voucherValidUntil: string }>).filter((session) => Date.parse(session.endTime) > since.getTime());
      expect(answered.length).toBe(receipts.length);
      for (const session of answered) {
        expect(Date.parse(session.voucherValidUntil) - Date.parse(session.endTime)).toBe(30 * 86_400_000);
      }
    });

    it('sleeps outside the on/off times of a deployed main config', async () => {
      // no opening hours so far: up; then a one-minute window on the machine's clock: it goes to sleep
      expect((await server.db.select({ currentSts: rvm.currentSts }).from(rvm).where(eq(rvm.id, row.id)))[0].currentSts).toBe('Up');
      await ok('POST', '/configuration/main', {
        model: 'H30',
        binEmptyHeight: 120,
        binFullHeight: 30,
        almostFullPercent: 80,
        alreadyFullPercent: 95,
        onTime: '00:00',
        offTime: '00:01',
        language: 'en',
        volume: 40,
      });
      await deployLatest('main', '/configuration/main');
      await waitFor(
        async () => (await server.db.select({ currentSts: rvm.currentSts }).from(rvm).where(eq(rvm.id, row.id)))[0],
        (found) => found.currentSts === 'Sleep',
        'machine asleep',
      );
    });
  },
  { gateway: { ...embeddedGateway(), apiBase: `http://127.0.0.1:${port}/test-api` } },
);
