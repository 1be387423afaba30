// Vendor connect (docs/api-hookups.md "Vendor connect"): a machine, with its gateway credentials, asks the
// vendorConnect app bound to it; the app's answer comes back, signed requests verify with `standardwebhooks`,
// and a failing app (500, no answer within 3 s, none bound) answers 9000 and shows on the notification list.
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { rvm } from '../../server/db/schema';
import { issueCredential } from '../../server/gateway/credentials';
import { VENDOR_TIMEOUT_MS } from '../../server/hookups/vendor';
import { addFleet } from './eventsHarness';
import { describeBackends } from './helpers';
import { startReceiver, type Receiver } from './hookupsHarness';

describeBackends('API hookups: vendor connect', (server) => {
  let admin: string;
  let receiver: Receiver;
  let basic = '';
  let machineId = 0;
  let appId = 0;

  beforeAll(async () => {
    admin = await server.login();
    const account = (await server.call('GET', '/login/current', { token: admin })).body.resData.licenseAccountId;
    const fleet = await addFleet(server.db, account, 'VC Fleet');
    const serial = `VC${Math.random().toString(36).slice(2, 10)}`;
    const [row] = await server.db.insert(rvm).values({ licenseAccountId: account, fleetId: fleet, termNo: 'VC1', serialNumber: serial, termType: 'H30' }).returning();
    machineId = row.id;
    const secret = await issueCredential(server.db, row, null);
    basic = `Basic ${Buffer.from(`${serial}:${secret}`).toString('base64')}`;
    receiver = await startReceiver();
    appId = (await server.call('POST', '/hookup/cs/app', { token: admin, body: { name: 'Loyalty check', url: receiver.url, apiType: 'vendorConnect', fleets: [fleet] } })).body
      .resData.id;
    receiver.secret = (await server.call('POST', `/hookup/cs/app/secret/reveal?id=${appId}`, { token: admin })).body.resData.secret;
  });
  afterAll(async () => {
    await receiver?.close();
  });

  const ask = (authorization: string, lang?: string) =>
    server.call('POST', '/gateway/vendor-connect', { headers: { authorization }, lang, body: { requestType: 'loyaltyAccount', sessionId: 'S-1', payload: { account: '4711' } } });

  it('asks the bound app and answers its answer; the app verified the signature', async () => {
    const answer = await ask(basic);
    expect(answer.body.resCode).toBe('00000');
    expect(answer.body.resData).toMatchObject({ appId, status: 200, body: { ok: true } });
    expect(receiver.received.at(-1)).toMatchObject({
      type: 'vendorConnect.request',
      data: { rvmId: machineId, termNo: 'VC1', requestType: 'loyaltyAccount', payload: { account: '4711' } },
    });
  });

  it('answers 9000 when the app fails or does not answer in time, and lists the failure', async () => {
    receiver.mode = 'error500';
    const failed = await ask(basic, 'en');
    expect([failed.body.resCode, failed.body.resMsg]).toEqual(['9000', 'Third-party API error']);
    receiver.mode = 'hang';
    const started = Date.now();
    expect((await ask(basic)).body.resCode).toBe('9000');
    expect(Date.now() - started).toBeGreaterThanOrEqual(VENDOR_TIMEOUT_MS - 50);
    expect(Date.now() - started).toBeLessThan(VENDOR_TIMEOUT_MS + 3_000);
    const list = await server.call('POST', '/hookup/notification/page', { token: admin, body: { pageNum: 1, pageSize: 10, channel: 'vendorConnect' } });
    expect(list.body.resData.list.map((row: { status: string }) => row.status)).toEqual(['fail', 'fail', 'success']);
    expect(list.body.resData.list[0].detail).toMatch(/timeout/);
    receiver.mode = 'ok';
  });

  it('refuses wrong credentials (11012) and answers 9000 when no app is bound', async () => {
    expect((await ask(`Basic ${Buffer.from('nobody:wrong').toString('base64')}`)).body.resCode).toBe('11012');
    expect((await ask('')).body.resCode).toBe('11012');
    await server.call('PUT', '/hookup/cs/app', { token: admin, body: { id: appId, enabled: false } });
    expect((await ask(basic)).body.resCode).toBe('9000');
    await server.call('PUT', '/hookup/cs/app', { token: admin, body: { id: appId, enabled: true } });
    expect((await server.db.select().from(rvm).where(eq(rvm.id, machineId))).length).toBe(1);
  });
});
