// API hookups (docs/api-hookups.md): apps per family with their secret (revealed once, rotated with a grace
// period), 9001 while machines are bound, subscriptions, events becoming signed messages in the event's
// transaction, delivery to a real receiver that verifies with the `standardwebhooks` library, the retry
// schedule to the dead letter on a simulated clock, order per machine, resend and replay, failing apps
// switched off with a mail, the read-only lists, permissions and license accounts.
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { rowsOf } from '../../server/db/client';
import { mailOutbox, rvm } from '../../server/db/schema';
import { hookupApp, hookupMessage } from '../../server/db/schema/hookups';
import { deliverDue, RETRY_SCHEDULE_MS, type DeliveryOptions } from '../../server/hookups/delivery';
import { disableFailingApps, DISABLE_AFTER_DAYS } from '../../server/hookups/failing';
import { silentLog } from '../../server/lib/logger';
import { addFleet } from './eventsHarness';
import { describeBackends } from './helpers';
import { binsMessage, ingest, sessionMessage, startReceiver, statusMessage, type MachineRef, type Receiver } from './hookupsHarness';

const FAST: DeliveryOptions = { batchSize: 100, concurrency: 16, lanes: 1, timeoutMs: 2_000 };

describeBackends('API hookups', (server) => {
  let admin: string;
  let account: number;
  let receiver: Receiver;
  const fleets = { north: 0, northEast: 0, south: 0 };
  const machines: Record<'m1' | 'm2' | 'm3', MachineRef> = {} as never;

  const addMachine = async (fleetId: number, termNo: string): Promise<MachineRef> => {
    const serial = `HK${termNo}${Math.random().toString(36).slice(2, 8)}`;
    const [row] = await server.db
      .insert(rvm)
      .values({ licenseAccountId: account, fleetId, termNo, serialNumber: serial, termType: 'H30', binCount: 2, binEmptyHeight: 120, binFullHeight: 20 })
      .returning({ id: rvm.id });
    return { id: row.id, serial, licenseAccountId: account };
  };

  const createApp = async (family: 'cs' | 'ci' | 'status', body: Record<string, unknown>) => {
    const answer = await server.call('POST', `/hookup/${family}/app`, { token: admin, body });
    expect(answer.body.resCode, JSON.stringify(answer.body)).toBe('00000');
    return answer.body.resData.id as number;
  };
  const reveal = async (family: string, id: number) => (await server.call('POST', `/hookup/${family}/app/secret/reveal?id=${id}`, { token: admin })).body;
  const subscribe = async (family: string, body: Record<string, unknown>) => {
    const answer = await server.call('POST', `/hookup/${family}/subscription`, { token: admin, body });
    expect(answer.body.resCode, JSON.stringify(answer.body)).toBe('00000');
    return answer.body.resData.id as number;
  };
  const messagesOf = (appId: number) => server.db.select().from(hookupMessage).where(eq(hookupMessage.appId, appId)).orderBy(hookupMessage.id);

  beforeAll(async () => {
    admin = await server.login();
    account = (await server.call('GET', '/login/current', { token: admin })).body.resData.licenseAccountId;
    fleets.north = await addFleet(server.db, account, 'HK North');
    fleets.northEast = await addFleet(server.db, account, 'HK North-East', fleets.north, 2);
    fleets.south = await addFleet(server.db, account, 'HK South');
    machines.m1 = await addMachine(fleets.north, 'HK1');
    machines.m2 = await addMachine(fleets.northEast, 'HK2');
    machines.m3 = await addMachine(fleets.south, 'HK3');
    receiver = await startReceiver();
  });
  afterAll(async () => {
    await receiver?.close();
  });

  it("an app lives on its family's screens; its secret is shown once, and a rotation keeps the old one signing for the grace period", async () => {
    const id = await createApp('cs', { name: 'Loyalty', url: 'https://loyalty.example/hook', apiType: 'consumerSession', fleets: [fleets.south] });
    const shown = await server.call('GET', `/hookup/cs/app/${id}`, { token: admin });
    expect(shown.body.resData).toMatchObject({ name: 'Loyalty', apiType: 'consumerSession', enabled: true, fleets: [fleets.south], secretPending: true });
    expect(JSON.stringify(shown.body.resData)).not.toMatch(/whsec_/);
    // another family's screen does not hold it
    expect((await server.call('GET', `/hookup/ci/app/${id}`, { token: admin })).body.resCode).toBe('2003');
    const first = await reveal('cs', id);
    expect(first.resData.secret).toMatch(/^whsec_[A-Za-z0-9+/=]{32}$/);
    expect((await reveal('cs', id)).resCode).toBe('5001');
    const rotated = await server.call('POST', `/hookup/cs/app/secret/rotate?id=${id}`, { token: admin });
    expect(rotated.body.resData.secret).not.toBe(first.resData.secret);
    const [row] = await server.db.select().from(hookupApp).where(eq(hookupApp.id, id));
    expect([row.previousSecret, row.secret]).toEqual([first.resData.secret, rotated.body.resData.secret]);
    expect(row.previousSecretUntil!.getTime() - Date.now()).toBeGreaterThan(23 * 3_600_000);
    // a standard app shows on all three app screens
    const standard = await createApp('status', { name: 'Back office', url: 'http://backoffice.example/x', apiType: 'standard' });
    for (const family of ['cs', 'ci', 'status']) expect((await server.call('GET', `/hookup/${family}/app/${standard}`, { token: admin })).body.resCode).toBe('00000');
  });

  it('refuses a URL that is not http(s) and an app type of another family', async () => {
    const ftp = await server.call('POST', '/hookup/cs/app', { token: admin, body: { name: 'Ftp', url: 'ftp://files.example/x', apiType: 'consumerSession' } });
    expect([ftp.body.resCode, ftp.body.resData.issues[0].field]).toEqual(['1004', 'url']);
    const wrongType = await server.call('POST', '/hookup/cs/app', { token: admin, body: { name: 'Bins', url: 'https://bins.example', apiType: 'binEmpty' } });
    expect(wrongType.body.resCode).toBe('1004');
  });

  it("answers 9001 while machines are bound to the app (sub-fleets count), in the caller's language; deletes it once unbound", async () => {
    const id = await createApp('ci', { name: 'Collector', url: 'https://collector.example', apiType: 'binEmpty', fleets: [fleets.north] });
    const english = await server.call('DELETE', `/hookup/ci/app?id=${id}`, { token: admin });
    expect([english.body.resCode, english.body.resMsg]).toEqual(['9001', 'This APP has been used by RVM and cannot be deleted']);
    const chinese = await server.call('POST', '/hookup/ci/app/batchDelete', { token: admin, lang: 'zh', body: { ids: [id] } });
    expect(chinese.body.resCode).toBe('9001');
    expect(chinese.body.resMsg).toMatch(/[\u4e00-\u9fff]/);
    // a fleet without machines binds nothing: North-East's machine moves away, the app keeps only North-East
    await server.call('PUT', '/hookup/ci/app', { token: admin, body: { id, fleets: [fleets.northEast] } });
    await server.db.update(rvm).set({ fleetId: fleets.south }).where(eq(rvm.id, machines.m2.id));
    expect((await server.call('DELETE', `/hookup/ci/app?id=${id}`, { token: admin })).body.resCode).toBe('00000');
    await server.db.update(rvm).set({ fleetId: fleets.northEast }).where(eq(rvm.id, machines.m2.id));
  });

  it("subscriptions: a vendorConnect app takes no events; events must be the family's", async () => {
    const vendor = await createApp('cs', { name: 'Vendor', url: 'https://vendor.example', apiType: 'vendorConnect' });
    const refused = await server.call('POST', '/hookup/cs/subscription', { token: admin, body: { appId: vendor, events: 'consumerSession.completed' } });
    expect([refused.body.resCode, refused.body.resData.issues[0].field]).toEqual(['1004', 'appId']);
    const app = await createApp('status', { name: 'Status board', url: 'https://status.example', apiType: 'machineStatus' });
    const wrongEvents = await server.call('POST', '/hookup/status/subscription', { token: admin, body: { appId: app, events: 'bin.full' } });
    expect([wrongEvents.body.resCode, wrongEvents.body.resData.issues[0].field]).toEqual(['1004', 'events']);
    await server.call('PUT', '/hookup/cs/app', { token: admin, body: { id: vendor, enabled: false } });
  });

  let appId = 0;
  let secret = '';

  it('turns sessions, bin events and status changes of bound machines into signed messages, in order per machine', async () => {
    appId = await createApp('cs', { name: 'Everything', url: receiver.url, apiType: 'standard', fleets: [fleets.north] });
    secret = (await reveal('cs', appId)).resData.secret;
    receiver.secret = secret;
    await subscribe('cs', { appId, events: 'consumerSession.completed' });
    await subscribe('ci', { appId, events: 'bin.emptied, bin.full' });
    await subscribe('status', { appId, events: 'machine.statusChanged' });
    // the same event chosen twice gives one message
    await subscribe('cs', { appId, events: 'consumerSession.completed', fleets: [fleets.northEast] });

    // events after the app's docking time (older ones are never sent)
    const t0 = Date.now();
    const at = (seconds: number) => new Date(t0 + seconds * 1000);
    await ingest(server.db, [
      sessionMessage(machines.m1, at(1)),
      sessionMessage(machines.m2, at(2)),
      sessionMessage(machines.m3, at(3)), // South: not bound
      statusMessage(machines.m1, 'Down', at(4)),
      binsMessage(machines.m1, [{ binNo: 1, currentHeight: 20 }], at(5)), // 100 %: bin.full
      binsMessage(machines.m1, [{ binNo: 1, currentHeight: 20 }], at(6)), // still full: nothing new
      binsMessage(machines.m1, [{ binNo: 1, currentHeight: 120, emptied: true }], at(7)),
      sessionMessage(machines.m1, at(8)),
    ]);
    // in the machine's order of events (a status change is written when it happens, sessions and bins at the batch's end)
    const written = (await messagesOf(appId)).sort((a, b) => a.eventTime.getTime() - b.eventTime.getTime());
    expect(written.map((m) => [m.rvmId, m.eventType, m.status])).toEqual([
      [machines.m1.id, 'consumerSession.completed', 'notSent'],
      [machines.m2.id, 'consumerSession.completed', 'notSent'],
      [machines.m1.id, 'machine.statusChanged', 'notSent'],
      [machines.m1.id, 'bin.full', 'notSent'],
      [machines.m1.id, 'bin.emptied', 'notSent'],
      [machines.m1.id, 'consumerSession.completed', 'notSent'],
    ]);
    expect(written.every((m) => /^msg_[A-Za-z0-9_-]{22}$/.test(m.messageId))).toBe(true);

    await deliverDue(server.db, at(10), FAST);
    expect(receiver.refused).toBe(0);
    const m1 = receiver.received.filter((r) => r.data.rvmId === machines.m1.id).map((r) => r.type);
    expect(m1).toEqual(['consumerSession.completed', 'machine.statusChanged', 'bin.full', 'bin.emptied', 'consumerSession.completed']);
    expect(receiver.received.map((r) => r.id).sort()).toEqual(written.map((m) => m.messageId).sort());
    const session = receiver.received.find((r) => r.data.rvmId === machines.m2.id)!;
    expect(session.data).toMatchObject({ termNo: 'HK2', payoutMethod: 'receipt', totalRefund: 0.1, items: [{ seq: 1, itemType: 'can', refund: 0.1 }] });
    expect((await messagesOf(appId)).map((m) => [m.status, m.attempts, m.lastResponseStatus])).toEqual(written.map(() => ['success', 1, 200]));
    expect((await server.db.select().from(hookupApp).where(eq(hookupApp.id, appId)))[0].lastSuccessTime).not.toBeNull();
  });

  it('retries on the schedule while the receiver fails, the next message of the machine waiting; fail after the eighth; replay delivers', async () => {
    receiver.received.length = 0;
    receiver.mode = 'error500';
    const start = new Date(Date.now() + 30_000);
    await ingest(server.db, [sessionMessage(machines.m1, new Date(start.getTime() - 20_000)), sessionMessage(machines.m1, new Date(start.getTime() - 10_000))]);
    const [first, second] = (await messagesOf(appId)).slice(-2);
    let clock = start.getTime();
    for (const [index, delay] of RETRY_SCHEDULE_MS.entries()) {
      clock += delay;
      // just before the due time nothing is sent
      if (delay > 0) {
        const before = receiver.requests;
        await deliverDue(server.db, new Date(clock - 1), FAST);
        expect(receiver.requests).toBe(before);
      }
      await deliverDue(server.db, new Date(clock), FAST);
      const [row] = await server.db.select().from(hookupMessage).where(eq(hookupMessage.id, first.id));
      expect(row.attempts).toBe(index + 1);
      expect([row.lastResponseStatus, row.lastResponseExcerpt]).toEqual([500, 'receiver broken: database unavailable']);
      // the machine's next message waits while the first is pending
      if (index < RETRY_SCHEDULE_MS.length - 1) expect((await server.db.select().from(hookupMessage).where(eq(hookupMessage.id, second.id)))[0].attempts).toBe(0);
    }
    const [dead] = await server.db.select().from(hookupMessage).where(eq(hookupMessage.id, first.id));
    expect([dead.status, dead.attempts, dead.nextAttemptTime]).toEqual(['fail', 8, null]);
    // failed for good: the next one goes (and fails on its own schedule)
    await deliverDue(server.db, new Date(clock + 1), FAST);
    expect((await server.db.select().from(hookupMessage).where(eq(hookupMessage.id, second.id)))[0].attempts).toBe(1);

    receiver.mode = 'ok';
    const replay = await server.call('POST', '/hookup/cs/message/replay', {
      token: admin,
      body: { from: new Date(start.getTime() - 60_000).toISOString(), to: start.toISOString() },
    });
    expect(replay.body.resData.count).toBe(1);
    const resend = await server.call('POST', '/hookup/cs/message/resend', { token: admin, body: { ids: [second.id] } });
    expect(resend.body.resData.count).toBe(1);
    await deliverDue(server.db, new Date(clock + 2), FAST);
    expect(receiver.received.map((r) => r.id)).toEqual([first.messageId, second.messageId]);
    const rows = await server.db
      .select()
      .from(hookupMessage)
      .where(sql`${hookupMessage.id} in (${first.id}, ${second.id})`)
      .orderBy(hookupMessage.id);
    expect(rows.map((row) => [row.status, row.attempts])).toEqual([
      ['success', 9],
      ['success', 2],
    ]);
    // the transactions screen reads them, with the machine's number
    const page = await server.call('POST', '/hookup/cs/message/page', { token: admin, body: { pageNum: 1, pageSize: 10, status: 'success', rvmId: machines.m1.id } });
    expect(page.body.resData.list[0]).toMatchObject({ termNo: 'HK1', status: 'success', attempts: 2, lastResponseStatus: 200 });
    expect(
      (await server.call('POST', '/hookup/ci/message/page', { token: admin, body: { pageNum: 1, pageSize: 50 } })).body.resData.list.every((m: { eventType: string }) =>
        m.eventType.startsWith('bin.'),
      ),
    ).toBe(true);
  });

  it('switches off an app that failed for days and mails its owners, once', async () => {
    const id = await createApp('status', { name: 'Broken', url: 'http://127.0.0.1:9/none', apiType: 'machineStatus', ownerEmails: 'ops@example.com' });
    await server.db
      .update(hookupApp)
      .set({ failingSince: new Date(Date.now() - (DISABLE_AFTER_DAYS + 1) * 86_400_000) })
      .where(eq(hookupApp.id, id));
    expect(await disableFailingApps(server.db, server.app.services.mailer, new Date(), silentLog)).toBe(1);
    expect(await disableFailingApps(server.db, server.app.services.mailer, new Date(), silentLog)).toBe(0);
    const [row] = await server.db.select().from(hookupApp).where(eq(hookupApp.id, id));
    expect([row.enabled, row.disabledReason]).toEqual([false, 'failing']);
    const mails = await server.db
      .select()
      .from(mailOutbox)
      .where(and(eq(mailOutbox.recipient, 'ops@example.com')));
    expect(mails.map((mail) => mail.subject)).toEqual(['Third-party app Broken switched off / 第三方应用 Broken 已停用']);
    // switched on again: it counts its failing days anew
    await server.call('PUT', '/hookup/status/app', { token: admin, body: { id, enabled: true } });
    expect((await server.db.select().from(hookupApp).where(eq(hookupApp.id, id)))[0].failingSince).toBeNull();
  });

  it('lists every notification and the tracing-code lists of the account', async () => {
    const notifications = await server.call('POST', '/hookup/notification/page', { token: admin, body: { pageNum: 1, pageSize: 100, channel: 'webhook' } });
    expect(notifications.body.resData.total).toBe((await messagesOf(appId)).length);
    expect(notifications.body.resData.list[0]).toMatchObject({ channel: 'webhook', target: 'Everything', status: 'success' });
    // a vendorConnect app on North makes North's machines (sub-fleets too) a tracing-code scheme
    await createApp('cs', { name: 'Deposit scheme', url: 'https://scheme.example', apiType: 'vendorConnect', fleets: [fleets.north] });
    await ingest(server.db, [
      sessionMessage(machines.m2, new Date(), [
        { seq: 1, itemType: 'can', refund: 0.1 },
        { seq: 2, itemType: 'can', refund: 0, rejectReason: 102 },
        { seq: 3, itemType: 'glass', refund: 0, rejectReason: 101 },
      ]),
    ]);
    const tcMachines = await server.call('POST', '/hookup/tc/rvm/page', { token: admin, body: { pageNum: 1, pageSize: 10 } });
    expect(tcMachines.body.resData.list.map((m: { termNo: string; schemeApp: string }) => [m.termNo, m.schemeApp])).toEqual([
      ['HK1', 'Deposit scheme'],
      ['HK2', 'Deposit scheme'],
    ]);
    const tc = await server.call('POST', '/hookup/tc/transaction/page', { token: admin, body: { pageNum: 1, pageSize: 50, rvmId: machines.m2.id } });
    expect(tc.body.resData.list.map((t: { outcome: string }) => t.outcome).sort()).toEqual(['alreadyRedeemed', 'missing', 'redeemed', 'redeemed']);
    const exported = await server.call('POST', '/hookup/tc/transaction/export', { token: admin, body: { format: 'csv', outcome: 'alreadyRedeemed' } });
    expect(exported.raw.body).toContain('Tracing code redeemed (102)');
  });

  it("keeps to the caller's permissions, family and license account", async () => {
    const [{ id: pageOnly }] = rowsOf<{ id: number }>(await server.db.execute(sql`select 120201 as id`));
    const role = (await server.call('POST', '/role', { token: admin, body: { name: 'hk-viewer', permissions: [pageOnly] } })).body.resData.id;
    await server.createUser({ name: 'hkview', roles: [role] }, admin);
    const viewer = await server.login('hkview', 'Passw0rd!');
    expect((await server.call('POST', '/hookup/cs/message/page', { token: viewer, body: { pageNum: 1, pageSize: 5 } })).body.resCode).toBe('00000');
    expect((await server.call('POST', '/hookup/cs/message/resend', { token: viewer, body: { ids: [1] } })).body.resCode).toBe('4003');
    expect((await server.call('POST', '/hookup/ci/message/page', { token: viewer, body: { pageNum: 1, pageSize: 5 } })).body.resCode).toBe('4003');
    expect((await server.call('POST', `/hookup/cs/app/secret/rotate?id=${appId}`, { token: viewer })).body.resCode).toBe('4003');
    // another license account sees none of it
    const [other] = rowsOf<{ id: number }>(await server.db.execute(sql`insert into license_account (license_account_name) values ('HK Elsewhere') returning id`));
    await server.db.execute(sql`insert into license_account_user_relation (user_id, license_account_id) select id, ${other.id} from sys_user where name = 'admin'`);
    const switched = await server.call('PUT', `/license-account-user-relation?id=${other.id}`, { token: admin });
    expect(switched.body.resCode).toBe('00000');
    expect((await server.call('POST', '/hookup/cs/message/page', { token: admin, body: { pageNum: 1, pageSize: 5 } })).body.resData.total).toBe(0);
    expect((await server.call('POST', `/hookup/cs/app/secret/rotate?id=${appId}`, { token: admin })).body.resCode).toBe('2003');
    const [first] = await messagesOf(appId);
    expect((await server.call('POST', '/hookup/cs/message/resend', { token: admin, body: { ids: [first.id] } })).body.resCode).toBe('2003');
    await server.call('PUT', `/license-account-user-relation?id=${account}`, { token: admin });
  });
});
