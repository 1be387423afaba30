// account_machine_counts (migration 0017): each account's machine count, kept by rvm's row triggers
// through every kind of write, is what the machine list answers as its unfiltered total; a filtered
// page still counts its rows.
import { eq, inArray, sql } from 'drizzle-orm';
import { expect, it } from 'vitest';
import { rowsOf } from '../../server/db/client';
import { rvm } from '../../server/db/schema';
import { describeBackends } from './helpers';
import { addFleet } from './eventsHarness';

describeBackends('machine totals kept by triggers', (server) => {
  it('inserts, account moves and deletes keep each account count equal to its machines, and the unfiltered page answers it', async () => {
    const { db } = server;
    const token = await server.login();
    const [{ id: account }] = rowsOf<{ id: number }>(await db.execute(sql`select id from license_account order by id limit 1`));
    const [{ id: other }] = rowsOf<{ id: number }>(await db.execute(sql`insert into license_account (license_account_name) values (${`totals-${Date.now()}`}) returning id`));
    const counts = async () =>
      Object.fromEntries(
        rowsOf<{ license_account_id: number; machines: number }>(
          await db.execute(sql`select license_account_id, machines from account_machine_counts where license_account_id in (${account}, ${other})`),
        ).map((row) => [row.license_account_id, Number(row.machines)]),
      );
    const truth = async () =>
      Object.fromEntries(
        rowsOf<{ license_account_id: number; machines: number }>(
          await db.execute(sql`select license_account_id, count(*) as machines from rvm where license_account_id in (${account}, ${other}) group by 1`),
        ).map((row) => [row.license_account_id, Number(row.machines)]),
      );
    const page = async (filters: Record<string, unknown> = {}) => {
      const answer = await server.call('POST', '/rvm/page', { token, body: { pageNum: 1, pageSize: 2, ...filters } });
      expect(answer.body.resCode).toBe('00000');
      return answer.body.resData as { total: number; list: unknown[] };
    };
    const startedWith = (await truth())[account] ?? 0;

    const fleetId = await addFleet(db, account, 'Totals');
    const ids = (
      await db
        .insert(rvm)
        .values(['T1', 'T2', 'T3', 'T4'].map((termNo) => ({ licenseAccountId: account, fleetId, termNo, serialNumber: `SN-${termNo}`, termType: 'H30', address: 'x' })))
        .returning({ id: rvm.id })
    ).map((row) => row.id);
    expect(await counts()).toEqual(await truth());
    expect((await counts())[account]).toBe(startedWith + 4);
    expect((await page()).total).toBe(startedWith + 4);

    await db
      .update(rvm)
      .set({ licenseAccountId: other })
      .where(inArray(rvm.id, [ids[0], ids[1]]));
    await db.update(rvm).set({ address: 'unrelated' }).where(eq(rvm.id, ids[2])); // no count changes
    await db.delete(rvm).where(eq(rvm.id, ids[3]));
    const after = await truth();
    expect(await counts()).toEqual(after);
    expect(after[other]).toBe(2);
    expect(after[account]).toBe(startedWith + 1);
    // the page answers the kept count, and it is the count of the machines the caller can page through
    expect((await page()).total).toBe(startedWith + 1);

    // a filter is counted over the rows it matches, not taken from the kept count
    const filtered = await page({ termNoLike: 'T3' });
    expect(filtered.total).toBe(1);
    expect(filtered.list).toHaveLength(1);
  });
});
