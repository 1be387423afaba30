import { and, eq, sql } from 'drizzle-orm';
import { expect, it } from 'vitest';
import { translate } from '../../i18n';
import { machine } from '../../resources/machine';
import { rowsOf } from '../../server/db/client';
import { fleet, rvm, rvmBin } from '../../server/db/schema/fleet';
import { rvmStatusHistory } from '../../server/db/schema/fleetActivity';
import { machineFilter } from '../../server/resources/machine';
import { accountNamed, seedSmallFleet } from './fleetHarness';
import { describeFleet, type FleetContext } from './fleetSuite';

const setup = async ({ server, accountId }: FleetContext) => {
  await seedSmallFleet(server, accountId);
  await seedSmallFleet(server, await accountNamed(server, 'Other operator'));
};

const NEW_MACHINE = {
  termNo: 'NEW001',
  serialNumber: 'H302026900001',
  termType: 'H30',
  sts: 'active',
  binCount: 2,
  binEmptyHeight: 120,
  binFullHeight: 30,
  binAlmostFull: 80,
  binAlreadyFull: 95,
  onTime: '07:00',
  offTime: '22:00',
};

describeFleet(
  'fleet tree and machine list',
  (context) => {
    const call = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', path: string, body?: unknown) => context.server.call(method, path, { token: context.token, body });

    it('answers the tree with own and total machine counts', async () => {
      const answer = await call('GET', '/fleet/tree');
      expect(answer.body.resCode).toBe('00000');
      const roots = answer.body.resData as Array<{ level: number; totalMachineCount: number; machineCount: number; children: Array<{ level: number; machineCount: number }> }>;
      expect(roots.map((root) => root.level)).toEqual([1, 1, 1]);
      expect(roots.reduce((sum, root) => sum + root.totalMachineCount, 0)).toBe(12);
      for (const root of roots) {
        expect(root.machineCount).toBe(0);
        expect(root.children.length).toBeGreaterThan(0);
        expect(root.children.every((child) => child.level === 2)).toBe(true);
        expect(root.children.reduce((sum, child) => sum + child.machineCount, 0)).toBe(root.totalMachineCount);
      }
    });

    it('lists fleets with their own machine counts (the generic list agrees with the tree)', async () => {
      const tree = (await call('GET', '/fleet/tree')).body.resData as Array<{ id: number; machineCount: number; children: Array<{ id: number; machineCount: number }> }>;
      const expected = new Map(tree.flatMap((root) => [[root.id, root.machineCount] as const, ...root.children.map((child) => [child.id, child.machineCount] as const)]));
      const page = await call('POST', '/fleet/page', { pageSize: 100 });
      const listed = page.body.resData.list as Array<{ id: number; machineCount: number }>;
      expect(listed.length).toBe(expected.size);
      expect(new Map(listed.map((row) => [row.id, row.machineCount]))).toEqual(expected);
      expect(new Set(listed.map((row) => row.machineCount)).size).toBeGreaterThan(1);
    });

    it('creates, renames and moves fleets, keeping levels right', async () => {
      const created = async (body: Record<string, unknown>) => {
        const answer = await call('POST', '/fleet', body);
        expect(answer.body.resCode).toBe('00000');
        return answer.body.resData as { id: number; level: number };
      };
      const region = await created({ name: 'Test region' });
      const district = await created({ name: 'Test district', parentId: region.id });
      const street = await created({ name: 'Test street', parentId: district.id });
      expect([region.level, district.level, street.level]).toEqual([1, 2, 3]);

      const renamed = await call('PUT', '/fleet', { id: district.id, name: 'Renamed district' });
      expect(renamed.body.resData).toMatchObject({ name: 'Renamed district', level: 2 });

      const other = await created({ name: 'Other region' });
      await call('PUT', '/fleet', { id: district.id, parentId: other.id });
      const moved = await call('PUT', '/fleet', { id: other.id, parentId: region.id });
      expect(moved.body).toMatchObject({ resCode: '00000', resData: { level: 2 } });
      // street > district > other > region: region cannot go below street.
      expect((await call('PUT', '/fleet', { id: region.id, parentId: street.id })).body.resCode).toBe('1004');
      const levels = await context.server.db.select({ id: fleet.id, level: fleet.level }).from(fleet).where(eq(fleet.licenseAccountId, context.accountId));
      const levelOf = (id: number) => levels.find((row) => row.id === id)?.level;
      expect([levelOf(region.id), levelOf(other.id), levelOf(district.id), levelOf(street.id)]).toEqual([1, 2, 3, 4]);

      // Delete rules: subordinates first (5003); the leaf, then the emptied chain, in one batch.
      expect((await call('DELETE', `/fleet?id=${region.id}`)).body.resCode).toBe('5003');
      expect((await call('DELETE', `/fleet?id=${street.id}`)).body.resCode).toBe('00000');
      expect((await call('POST', '/fleet/batchDelete', { ids: [region.id, other.id, district.id] })).body.resData).toEqual({ deleted: 3 });
    });

    it("refuses to delete a fleet with machines (6000) and other accounts' fleets (2003)", async () => {
      const [district] = await context.server.db
        .select({ id: fleet.id })
        .from(fleet)
        .where(and(eq(fleet.licenseAccountId, context.accountId), eq(fleet.level, 2), sql`exists (select 1 from rvm where rvm.fleet_id = ${fleet.id})`))
        .limit(1);
      const answer = await call('DELETE', `/fleet?id=${district.id}`);
      expect(answer.body).toMatchObject({ resCode: '6000', resMsg: 'Please delete all its RVMs first' });
      const other = await accountNamed(context.server, 'Other operator');
      const [foreign] = await context.server.db.select({ id: fleet.id }).from(fleet).where(eq(fleet.licenseAccountId, other)).limit(1);
      expect((await call('DELETE', `/fleet?id=${foreign.id}`)).body.resCode).toBe('2003');
    });

    it("lists the caller's machines with filters and sorts", async () => {
      const page = async (filters: Record<string, unknown>) => {
        const answer = await call('POST', '/rvm/page', { pageNum: 1, pageSize: 100, ...filters });
        expect(answer.body.resCode).toBe('00000');
        return answer.body.resData as { list: Array<Record<string, any>>; total: number };
      };
      const all = await page({ sort: 'termNo', order: 'DESC' });
      expect(all.total).toBe(12);
      expect(all.list[0].termNo).toBe('RVM00012');
      const sample = all.list[3];
      for (const [filter, field, value] of [
        ['currentSts', 'currentSts', sample.currentSts],
        ['termType', 'termType', sample.termType],
        ['localAreaId', 'localAreaId', sample.localAreaId],
        ['softwareVersion', 'softwareVersion', sample.softwareVersion],
      ] as const) {
        const filtered = await page({ [filter]: value });
        expect(filtered.total).toBeGreaterThan(0);
        expect(filtered.list.every((row) => row[field] === value)).toBe(true);
      }
      const street = sample.address.split(', ')[1];
      const byStreet = (await page({ addressLike: street })).list;
      expect(byStreet.length).toBeGreaterThan(0);
      expect(byStreet.every((row) => row.address.includes(street))).toBe(true);
      const byFleet = await page({ fleetId: [sample.fleetId] });
      expect(byFleet.list.length).toBeGreaterThan(0);
      expect(byFleet.list.every((row) => row.fleetId === sample.fleetId)).toBe(true);
    });

    it('filters by fleet including its sub-fleets (hook)', async () => {
      const [region] = await context.server.db
        .select()
        .from(fleet)
        .where(and(eq(fleet.licenseAccountId, context.accountId), eq(fleet.name, 'Kowloon')));
      const condition = machineFilter(
        machine.list.filters.find((filter) => filter.name === 'fleetId')!,
        [region.id],
      )!;
      const [{ n }] = rowsOf<{ n: number }>(await context.server.db.execute(sql`select count(*)::int n from rvm where ${condition}`));
      const [{ expected }] = rowsOf<{ expected: number }>(
        await context.server.db.execute(sql`select count(*)::int expected from rvm join fleet f on f.id = rvm.fleet_id where f.parent_id = ${region.id}`),
      );
      expect(n).toBe(expected);
    });

    it('creates a machine with its bins and first status, refusing what the bin rules forbid', async () => {
      const [district] = await context.server.db
        .select({ id: fleet.id })
        .from(fleet)
        .where(and(eq(fleet.licenseAccountId, context.accountId), eq(fleet.level, 2)))
        .limit(1);
      for (const [change, field, message] of [
        [{ binFullHeight: 120 }, 'binEmptyHeight', 'fleet.validation.binEmptyAboveFull'],
        [{ binAlmostFull: 99 }, 'binAlmostFull', 'fleet.validation.almostFullNotAboveFull'],
        [{ offTime: '06:30' }, 'offTime', 'validation.endAfterStart'],
        [{ binEmptyHeight: 150 }, 'binEmptyHeight', 'validation.max'],
        [{ binFullHeight: 10 }, 'binFullHeight', 'validation.min'],
      ] as const) {
        const refused = await call('POST', '/rvm', { ...NEW_MACHINE, fleetId: district.id, ...change });
        expect(refused.body.resCode).toBe('1004');
        expect(refused.body.resData.issues).toContainEqual({ field, message: translate('en', message, { min: 11, max: 149 }) });
      }
      expect(await context.server.db.select().from(rvm).where(eq(rvm.termNo, NEW_MACHINE.termNo))).toHaveLength(0);
      const created = await call('POST', '/rvm', { ...NEW_MACHINE, fleetId: district.id });
      expect(created.body.resCode).toBe('00000');
      expect(created.body.resData).toMatchObject({ termNo: 'NEW001', currentSts: 'Offline', online: false, lastSessionTime: null });
      const id = created.body.resData.id as number;
      expect(await context.server.db.select().from(rvmBin).where(eq(rvmBin.rvmId, id))).toHaveLength(2);
      expect(await context.server.db.select().from(rvmStatusHistory).where(eq(rvmStatusHistory.rvmId, id))).toMatchObject([{ status: 'Offline', endTime: null }]);
      expect((await call('DELETE', `/rvm?id=${id}`)).body.resCode).toBe('00000');
    });

    it('exports the machine list', async () => {
      const answer = await call('POST', '/rvm/export', { format: 'csv', currentSts: null });
      expect(answer.status).toBe(200);
      expect(answer.raw.body.split('\n').length).toBeGreaterThan(12);
    });
  },
  setup,
);
