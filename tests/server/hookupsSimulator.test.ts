// Vendor connect from the in-process simulation (docs/api-hookups.md "Simulator"): a virtual machine whose fleet
// has a vendorConnect app asks it during its consumer sessions through POST /test-api/gateway/vendor-connect with
// its gateway credentials; the app receives signed requests (verified with `standardwebhooks`) and every call is
// on the notification list. A machine of a fleet without such an app asks nothing.
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { rvm } from '../../server/db/schema';
import { hookupMessage } from '../../server/db/schema/hookups';
import { startInProcessSimulation, type InProcessSimulation } from '../../server/simulator/inProcess';
import { vendorRequestOf } from '../../server/simulator/vendorConnect';
import { addFleet } from './eventsHarness';
import { embeddedGateway, waitFor } from './gatewayHarness';
import { describeOneBackend } from './helpers';
import { startReceiver, type Receiver } from './hookupsHarness';

describeOneBackend(
  'API hookups: vendor connect from simulated machines',
  (server) => {
    let admin: string;
    let receiver: Receiver;
    let simulation: InProcessSimulation | undefined;
    const machines = { scheme: { id: 0, serial: '' }, plain: { id: 0, serial: '' } };

    beforeAll(async () => {
      admin = await server.login();
      const account = (await server.call('GET', '/login/current', { token: admin })).body.resData.licenseAccountId;
      const schemeFleet = await addFleet(server.db, account, 'VC scheme');
      const plainFleet = await addFleet(server.db, account, 'VC plain');
      for (const [key, fleetId] of [
        ['scheme', schemeFleet],
        ['plain', plainFleet],
      ] as const) {
        const serial = `VS${key}${Math.random().toString(36).slice(2, 8)}`;
        const [row] = await server.db
          .insert(rvm)
          .values({ licenseAccountId: account, fleetId, termNo: `VS-${key}`, serialNumber: serial, termType: 'H30', binCount: 2, binEmptyHeight: 120, binFullHeight: 20 })
          .returning({ id: rvm.id });
        machines[key] = { id: row.id, serial };
      }
      receiver = await startReceiver();
      const app = await server.call('POST', '/hookup/cs/app', {
        token: admin,
        body: { name: 'Deposit scheme', url: receiver.url, apiType: 'vendorConnect', fleets: [schemeFleet] },
      });
      expect(app.body.resCode, JSON.stringify(app.body)).toBe('00000');
      receiver.secret = (await server.call('POST', `/hookup/cs/app/secret/reveal?id=${app.body.resData.id}`, { token: admin })).body.resData.secret;
    });
    afterAll(async () => {
      await simulation?.stop();
      await receiver?.close();
    });

    const requestsOf = (rvmId: number) => receiver.received.filter((request) => request.type === 'vendorConnect.request' && request.data.rvmId === rvmId);
    const vendorRows = (rvmId: number) =>
      server.db
        .select()
        .from(hookupMessage)
        .where(and(eq(hookupMessage.rvmId, rvmId), eq(hookupMessage.family, 'vendor')));

    it("a machine of the scheme's fleet asks its app during a session; the call is signed and listed; the other machine asks nothing", async () => {
      const active = (await server.db.select({ id: rvm.id }).from(rvm).where(eq(rvm.sts, 'active'))).length;
      simulation = await startInProcessSimulation(server.app, { machines: active, speed: 1, seed: 'vendor-connect', failureRate: 0 });
      const virtual = async (serial: string) =>
        waitFor(async () => simulation!.fleet.machines.find((machine) => machine.serialNumber === serial && machine.connected), Boolean, `${serial} connected`);
      const scheme = (await virtual(machines.scheme.serial))!;
      const plain = (await virtual(machines.plain.serial))!;

      // a session asks when it has something to ask (a loyalty account, or accepted containers' codes)
      for (let tries = 0; tries < 10 && requestsOf(machines.scheme.id).length === 0; tries++) await scheme.runSession();
      const [request] = requestsOf(machines.scheme.id);
      expect(request, 'a vendor-connect request from the scheme machine').toBeDefined();
      expect(request.data).toMatchObject({ termNo: 'VS-scheme', requestType: expect.stringMatching(/^(loyaltyAccount|tracingCodes)$/), sessionId: expect.any(String) });
      expect(receiver.refused).toBe(0); // the receiver verified every signature
      const listed = await waitFor(
        () => vendorRows(machines.scheme.id),
        (rows) => rows.length >= 1,
        'the call recorded',
      );
      expect(listed[0]).toMatchObject({ status: 'success', attempts: 1 });
      const notifications = await server.call('POST', '/hookup/notification/page', { token: admin, body: { pageNum: 1, pageSize: 50, channel: 'vendorConnect' } });
      expect(notifications.body.resData.list.some((row: { target: string; status: string }) => row.target === 'Deposit scheme' && row.status === 'success')).toBe(true);
      expect(simulation.vendorConnect.stats.answered).toBeGreaterThanOrEqual(1);

      for (let session = 0; session < 5; session++) await plain.runSession();
      expect(requestsOf(machines.plain.id)).toEqual([]);
      expect(await vendorRows(machines.plain.id)).toEqual([]);
    });

    it("asks for a loyalty account, else for the accepted containers' tracing codes, else nothing", () => {
      const items = [
        { seq: 1, itemType: 'can' as const, barcode: '4890008100309', category: 'drinks', refund: 0.1, picture: 'can/1' },
        { seq: 2, itemType: 'can' as const, barcode: '4890008100316', category: 'drinks', refund: 0, rejectReason: 6, picture: 'can/2' },
      ];
      expect(vendorRequestOf('S1', { payoutMethod: 'loyaltyAccount', userId: 'L123', items })).toEqual({
        requestType: 'loyaltyAccount',
        sessionId: 'S1',
        payload: { account: 'L123' },
      });
      expect(vendorRequestOf('S2', { payoutMethod: 'receipt', items })).toEqual({ requestType: 'tracingCodes', sessionId: 'S2', payload: { codes: ['4890008100309'] } });
      expect(vendorRequestOf('S3', { payoutMethod: 'receipt', items: [items[1]] })).toBeNull();
    });
  },
  { gateway: embeddedGateway() },
);
