import { sql } from 'drizzle-orm';
import { expect, it } from 'vitest';
import { REJECT_REASON_CODES, RVM_STATUSES } from '../../resources/fleetCatalogue';
import { rowsOf } from '../../server/db/client';
import { seedDemoFleet, seedDemoFleetIfEmpty } from '../../server/seed/demoFleet';
import { accountNamed, SMALL_FLEET } from './fleetHarness';
import { describeFleet } from './fleetSuite';

const NOW = new Date('2026-03-02T04:00:00Z');

/** Everything a license account's fleet holds, without ids (they depend on what was there before). */
const fingerprint = async (context: Parameters<Parameters<typeof describeFleet>[1]>[0], account: number) => {
  const query = async (text: ReturnType<typeof sql>) => rowsOf<Record<string, unknown>>(await context.server.db.execute(text));
  return {
    machines: await query(
      sql`select term_no, serial_number, term_type, current_sts, status_since, online, address, software_version, bin_empty_height, on_time, last_session_time from rvm where license_account_id = ${account} order by term_no`,
    ),
    sessions:
      await query(sql`select r.term_no, count(*)::int n, sum(s.total_refund)::text refund, sum(s.item_count)::int items, min(s.start_time) first, max(s.voucher_code) voucher
      from consumer_session s join rvm r on r.id = s.rvm_id where s.license_account_id = ${account} group by r.term_no order by r.term_no`),
    rejects: await query(sql`select reject_reason, count(*)::int n from consumer_session_item where license_account_id = ${account} group by 1 order by 1`),
    statuses: await query(
      sql`select r.term_no, h.status, h.start_time, h.end_time from rvm_status_history h join rvm r on r.id = h.rvm_id where h.license_account_id = ${account} order by 1, 3`,
    ),
    events: await query(sql`select code, count(*)::int n, count(cleared_time)::int cleared from rvm_event where license_account_id = ${account} group by 1 order by 1`),
    services: await query(sql`select cleaning_outcome, count(*)::int n from service_session where license_account_id = ${account} group by 1 order by 1`),
  };
};

describeFleet('demo fleet generator', (context) => {
  it('gives a new installation its starter fleet, once', async () => {
    const summary = await seedDemoFleetIfEmpty(context.server.db, { machines: 4, days: 2 });
    expect(summary).toMatchObject({ machines: 4, fleets: 21 });
    expect((await context.server.call('GET', '/fleet/tree', { token: context.token })).body.resData).toHaveLength(3);
    expect(await seedDemoFleetIfEmpty(context.server.db, { machines: 4, days: 2 })).toBeNull();
  });

  it('gives the same fleet for the same seed, and another one for another seed', async () => {
    const first = await accountNamed(context.server, 'Seed A');
    const second = await accountNamed(context.server, 'Seed B');
    const third = await accountNamed(context.server, 'Seed C');
    const a = await seedDemoFleet(context.server.db, { ...SMALL_FLEET, licenseAccountId: first, now: NOW });
    const b = await seedDemoFleet(context.server.db, { ...SMALL_FLEET, licenseAccountId: second, now: NOW });
    await seedDemoFleet(context.server.db, { ...SMALL_FLEET, seed: 'another', licenseAccountId: third, now: NOW });
    expect({ ...a, elapsedMs: 0 }).toEqual({ ...b, elapsedMs: 0 });
    expect(a.sessions).toBeGreaterThan(100);
    const [fa, fb, fc] = [await fingerprint(context, first), await fingerprint(context, second), await fingerprint(context, third)];
    expect(fa).toEqual(fb);
    expect(fc.sessions).not.toEqual(fa.sessions);
  });

  it('refuses to seed a license account that already has a fleet', async () => {
    const account = await accountNamed(context.server, 'Seed A');
    await expect(seedDemoFleet(context.server.db, { ...SMALL_FLEET, licenseAccountId: account })).rejects.toThrow(/already has a fleet/);
    expect(await seedDemoFleetIfEmpty(context.server.db)).toBeNull();
  });

  it('writes consistent, realistic rows', async () => {
    const account = await accountNamed(context.server, 'Seed A');
    const one = async (text: ReturnType<typeof sql>) => rowsOf<Record<string, unknown>>(await context.server.db.execute(text))[0];
    // Session totals are the sums of their items (what was paid: nothing when the payment was cancelled); every item has a picture reference.
    expect(
      await one(sql`select count(*)::int bad from consumer_session s where s.license_account_id = ${account} and (
      s.item_count <> (select count(*) from consumer_session_item i where i.session_id = s.id)
      or s.accepted_count <> (select count(*) from consumer_session_item i where i.session_id = s.id and i.reject_reason is null)
      or s.total_refund <> case when s.payout_method = 'userCancelledPayment' then 0 else (select sum(i.refund) from consumer_session_item i where i.session_id = s.id) end)`),
    ).toEqual({ bad: 0 });
    expect(await one(sql`select count(*)::int missing from consumer_session_item where license_account_id = ${account} and picture is null`)).toEqual({ missing: 0 });
    const reasons = rowsOf<{ reason: number }>(
      await context.server.db.execute(sql`select distinct reject_reason reason from consumer_session_item where license_account_id = ${account} and reject_reason is not null`),
    );
    for (const { reason } of reasons) expect(REJECT_REASON_CODES).toContain(reason);
    const statuses = rowsOf<{ status: string }>(await context.server.db.execute(sql`select distinct status from rvm_status_history where license_account_id = ${account}`));
    for (const { status } of statuses) expect(RVM_STATUSES).toContain(status);
    // Status intervals tile the window: each one ends where the next starts, one open interval per machine.
    expect(
      await one(sql`select count(*)::int gaps from (
      select end_time, lead(start_time) over (partition by rvm_id order by start_time) next_start from rvm_status_history where license_account_id = ${account}) t
      where next_start is not null and end_time <> next_start`),
    ).toEqual({ gaps: 0 });
    expect(await one(sql`select count(*)::int open from rvm_status_history where license_account_id = ${account} and end_time is null`)).toEqual({ open: SMALL_FLEET.machines });
    // Bins respect docs/product-rules.md#validation-rules (the CHECK constraints) and their fill stays within 0..100.
    expect(await one(sql`select count(*)::int bad from rvm_bin where license_account_id = ${account} and (fill_percent < 0 or fill_percent > 100)`)).toEqual({ bad: 0 });
    // The quarantine holds at least 8 messages (12 machines are too few for 3%), one of each refusal the gateway knows.
    const quarantine = rowsOf<{ reason: string; n: number }>(
      await context.server.db.execute(sql`select reason, count(*)::int n from quarantine_message where license_account_id = ${account} group by 1 order by 1`),
    );
    expect(quarantine.map((row) => row.reason)).toEqual(['invalidTimestamp', 'malformedContent', 'unknownAlarmCode', 'unknownMachine', 'valueOutOfRange']);
    expect(quarantine.reduce((total, row) => total + row.n, 0)).toBe(8);
  });
});
