// account_model_versions (migration 0016): the machine counts per (account, model, software version)
// that "profile mismatching" reads are kept by rvm's row triggers through every kind of write, and
// always equal a count over the machines themselves.
import { eq, sql } from 'drizzle-orm';
import { expect, it } from 'vitest';
import { rowsOf } from '../../server/db/client';
import { rvm } from '../../server/db/schema';
import { describeBackends } from './helpers';
import { addFleet } from './eventsHarness';

interface Counted {
  license_account_id: number;
  term_type: string;
  software_version: string;
  machines: number;
}

const normalise = (rows: Counted[]) => rows.map((row) => `${row.license_account_id}/${row.term_type}/${row.software_version}=${Number(row.machines)}`).sort();

describeBackends('model versions kept by triggers', (server) => {
  it('inserts, version changes, model changes, account moves and deletes keep the counts equal to the machines', async () => {
    const { db } = server;
    const [{ id: account }] = rowsOf<{ id: number }>(await db.execute(sql`select id from license_account order by id limit 1`));
    const [{ id: other }] = rowsOf<{ id: number }>(await db.execute(sql`insert into license_account (license_account_name) values (${`versions-${Date.now()}`}) returning id`));
    const fleetId = await addFleet(db, account, 'Versions');
    const machine = (termNo: string, termType: string, softwareVersion: string | null) => ({
      licenseAccountId: account,
      fleetId,
      termNo,
      serialNumber: `SN-${termNo}`,
      termType,
      softwareVersion,
      address: 'x',
    });
    const ids = (
      await db
        .insert(rvm)
        .values([machine('V1', 'H30', '1.0'), machine('V2', 'H30', '1.0'), machine('V3', 'H30', '2.0'), machine('V4', 'K1', null), machine('V5', 'K1', '7')])
        .returning({ id: rvm.id })
    ).map((row) => row.id);
    const counted = async () =>
      normalise(rowsOf<Counted>(await db.execute(sql`select * from account_model_versions where machines > 0 and license_account_id in (${account}, ${other})`)));
    const truth = async () =>
      normalise(
        rowsOf<Counted>(
          await db.execute(sql`select license_account_id, term_type, software_version, count(*) as machines from rvm
            where software_version is not null and license_account_id in (${account}, ${other}) group by 1, 2, 3`),
        ),
      );
    const before = await truth();
    expect(before).toContain(`${account}/H30/1.0=2`);
    expect(await counted()).toEqual(before);

    await db.update(rvm).set({ softwareVersion: '2.0' }).where(eq(rvm.id, ids[0])); // 1.0 -> 2.0
    await db.update(rvm).set({ softwareVersion: '9' }).where(eq(rvm.id, ids[3])); // none -> 9
    await db.update(rvm).set({ softwareVersion: null }).where(eq(rvm.id, ids[4])); // 7 -> none
    await db.update(rvm).set({ termType: 'K1' }).where(eq(rvm.id, ids[1])); // another model
    await db.update(rvm).set({ address: 'unrelated' }).where(eq(rvm.id, ids[2])); // no count changes
    expect(await counted()).toEqual(await truth());
    expect(await counted()).toContain(`${account}/H30/2.0=2`);

    await db.update(rvm).set({ licenseAccountId: other }).where(eq(rvm.id, ids[2]));
    await db.delete(rvm).where(eq(rvm.id, ids[0]));
    const after = await truth();
    expect(await counted()).toEqual(after);
    expect(after).toContain(`${other}/H30/2.0=1`);
    expect(after).not.toEqual(before);
  });
});
