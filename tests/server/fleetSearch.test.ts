import { and, eq, isNotNull } from 'drizzle-orm';
import { expect, it } from 'vitest';
import { rvm } from '../../server/db/schema/fleet';
import { consumerSession } from '../../server/db/schema/fleetActivity';
import { quarantineMessage, quarantineRetryRun } from '../../server/db/schema/quarantine';
import { accountNamed, seedSmallFleet } from './fleetHarness';
import { describeFleet, type FleetContext } from './fleetSuite';

const setup = async ({ server, accountId }: FleetContext) => {
  await seedSmallFleet(server, accountId);
  await seedSmallFleet(server, await accountNamed(server, 'Other operator'), { seed: 'other fleet' });
};

describeFleet(
  'search and quarantine',
  (context) => {
    const call = (method: 'GET' | 'POST', path: string, body?: unknown) => context.server.call(method, path, { token: context.token, body });
    const search = async (q: string) => {
      const answer = await call('GET', `/search?q=${encodeURIComponent(q)}`);
      expect(answer.body.resCode).toBe('00000');
      return answer.body.resData.hits as Array<Record<string, any>>;
    };

    it("finds machines by serial number, RVM number and address, only the caller's", async () => {
      const [machine] = await context.server.db.select().from(rvm).where(eq(rvm.licenseAccountId, context.accountId)).limit(1);
      expect(await search(machine.serialNumber)).toContainEqual(expect.objectContaining({ type: 'machine', id: machine.id, matched: 'serialNumber' }));
      expect(await search(machine.termNo.toLowerCase())).toContainEqual(expect.objectContaining({ type: 'machine', id: machine.id, matched: 'termNo' }));
      const street = machine.address!.split(', ')[1];
      const byAddress = await search(street);
      expect(byAddress).toContainEqual(expect.objectContaining({ type: 'machine', id: machine.id, matched: 'address' }));
      const ids = (await context.server.db.select({ id: rvm.id }).from(rvm).where(eq(rvm.licenseAccountId, context.accountId))).map((row) => row.id);
      for (const hit of await search('RVM0')) expect(ids).toContain(hit.id);
    });

    it('finds consumer sessions by voucher code and user ID', async () => {
      const [withVoucher] = await context.server.db
        .select()
        .from(consumerSession)
        .where(and(eq(consumerSession.licenseAccountId, context.accountId), isNotNull(consumerSession.voucherCode)))
        .limit(1);
      const hits = await search(withVoucher.voucherCode!.toLowerCase());
      expect(hits).toContainEqual(expect.objectContaining({ type: 'consumerSession', id: withVoucher.id, rvmId: withVoucher.rvmId, matched: 'voucherCode' }));
      const [withUser] = await context.server.db
        .select()
        .from(consumerSession)
        .where(and(eq(consumerSession.licenseAccountId, context.accountId), eq(consumerSession.payoutMethod, 'octopus')))
        .limit(1);
      const byUser = await search(withUser.userId!);
      expect(byUser.length).toBeGreaterThan(0);
      expect(byUser.every((hit) => hit.type === 'consumerSession' && hit.userId === withUser.userId)).toBe(true);
      expect(await search('no such thing at all')).toEqual([]);
      expect((await call('GET', '/search?q=')).body.resCode).toBe('1001');
    });

    it('lists quarantined messages and retries them all, 9500 while a retry runs', async () => {
      const page = await call('POST', '/quarantine/page', { pageNum: 1, pageSize: 5 });
      expect(page.body.resCode).toBe('00000');
      const { list, total, retry } = page.body.resData;
      expect(total).toBeGreaterThanOrEqual(8);
      expect(list).toHaveLength(5);
      expect(list[0]).toEqual(
        expect.objectContaining({
          causedBy: expect.any(String),
          messageType: expect.any(String),
          content: expect.any(String),
          receivedTime: expect.any(String),
          reason: expect.any(String),
        }),
      );
      expect(retry.running).toBe(false);
      const unknown = await call('POST', '/quarantine/page', { pageNum: 1, pageSize: 50, reason: 'unknownMachine' });
      expect(unknown.body.resData.list.length).toBeGreaterThan(0);
      expect(unknown.body.resData.list.every((row: { reason: string }) => row.reason === 'unknownMachine')).toBe(true);

      // A sender that has become a known machine is accepted by the retry; the others stay quarantined.
      const sender = unknown.body.resData.list[0].causedBy as string;
      // (machines are known to the gateway by their serial number, docs/machine-protocol.md)
      await context.server.db
        .update(rvm)
        .set({ serialNumber: sender })
        .where(and(eq(rvm.licenseAccountId, context.accountId), eq(rvm.termNo, 'RVM00001')));
      const retried = await call('POST', '/quarantine/retryAll');
      expect(retried.body.resCode).toBe('00000');
      expect(retried.body.resData).toMatchObject({ running: false, resolved: 1, remaining: total - 1 });
      const after = await context.server.db.select().from(quarantineMessage).where(eq(quarantineMessage.licenseAccountId, context.accountId));
      expect(after).toHaveLength(total - 1);
      expect(after.length).toBeGreaterThan(0);
      expect(after.every((row) => row.retryCount === 1)).toBe(true);

      // Another instance's run in progress blocks a new one.
      await context.server.db.update(quarantineRetryRun).set({ startedTime: new Date(), finishedTime: null }).where(eq(quarantineRetryRun.licenseAccountId, context.accountId));
      const blocked = await call('POST', '/quarantine/retryAll');
      expect(blocked.body).toMatchObject({ resCode: '9500', resMsg: 'Quarantined messages are being retried' });
      expect((await call('POST', '/quarantine/page', { pageNum: 1, pageSize: 1 })).body.resData.retry.running).toBe(true);
      // A run abandoned for over 10 minutes (its server died) no longer blocks.
      await context.server.db
        .update(quarantineRetryRun)
        .set({ startedTime: new Date(Date.now() - 11 * 60_000) })
        .where(eq(quarantineRetryRun.licenseAccountId, context.accountId));
      expect((await call('POST', '/quarantine/retryAll')).body.resCode).toBe('00000');
    });

    it('serves item pictures without a token, and refuses unknown ones', async () => {
      const picture = await context.server.call('GET', '/picture/can/3.svg');
      expect(picture.status).toBe(200);
      expect(picture.raw.headers['cache-control']).toContain('immutable');
      expect(picture.raw.body).toBe((await context.server.call('GET', '/picture/can/3.svg')).raw.body);
      expect(picture.raw.body).not.toBe((await context.server.call('GET', '/picture/can/4.svg')).raw.body);
      expect((await context.server.call('GET', '/picture/banana/1.svg')).body.resCode).toBe('1004');
      expect((await context.server.call('GET', '/picture/can/9.svg')).body.resCode).toBe('1004');
    });
  },
  setup,
);
