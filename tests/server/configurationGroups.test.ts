// Group and payout configurations (docs/machine-configuration.md#group and #payout): every rule with its error
// code and message (1004 in both languages), items that do not repeat (2002 naming the item), a group's fleets
// kept in its versions and diffs, a payout version made into a package; and what a machine does with a group and
// a payout package (machineSettings.ts: the methods its consumers may take, their amounts and institutes).
import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { deploymentPackage } from '../../server/db/schema/deployments';
import { donationInstitute, fleet } from '../../server/db/schema/fleet';
import { Random } from '../../server/seed/random';
import { MachineSettings } from '../../server/simulator/machineSettings';
import { drawSession, modelFor, type BinLevel } from '../../server/simulator/world';
import { issueOf, readStored } from './answers';
import { describeOneBackend } from './helpers';

describeOneBackend('group and payout configurations', (server) => {
  let token: string;
  let north: number;
  let south: number;
  const create = (path: string, body: Record<string, unknown>, lang?: string) => server.call('POST', `/configuration/${path}`, { token, body, lang });
  const created = async (path: string, body: Record<string, unknown>) => {
    const answer = await create(path, body);
    expect(answer.body.resCode, answer.body.resMsg).toBe('00000');
    return answer.body.resData.id as number;
  };

  beforeAll(async () => {
    token = await server.login();
    const account = (await server.call('GET', '/login/current', { token })).body.resData.licenseAccountId as number;
    [{ id: north }, { id: south }] = await server.db
      .insert(fleet)
      .values([
        { licenseAccountId: account, name: 'Group north', level: 1 },
        { licenseAccountId: account, name: 'Group south', level: 1 },
      ])
      .returning({ id: fleet.id });
    await server.db.insert(donationInstitute).values([
      { licenseAccountId: account, name: 'Green Earth' },
      { licenseAccountId: account, name: 'Food Bank' },
    ]);
  });

  describe('groups', () => {
    it('holds machines by models and fleets, or products by barcodes, each name once', async () => {
      await created('group', { name: 'North', kind: 'machines', models: 'H30 ,  H10', fleets: [north] });
      await created('group', { name: 'Drinks', kind: 'products', barcodes: '4890000000017, 4890000000024' });
      const page = (await server.call('POST', '/configuration/group/page', { token, body: { pageNum: 1, pageSize: 10, nameLike: 'North' } })).body.resData;
      expect(page.list[0]).toMatchObject({ name: 'North', kind: 'machines', models: 'H30, H10', fleets: [north], barcodes: null });
      expect(issueOf(await create('group', { name: 'North', kind: 'machines', models: 'H30' }, 'en'))).toEqual({
        code: '2002',
        field: 'name',
        message: 'Name "North" already exists',
      });
      expect(issueOf(await create('group', { name: 'North', kind: 'machines', models: 'H30' }, 'zh'))).toEqual({ code: '2002', field: 'name', message: '名称“North”已存在' });
    });

    it('refuses members that do not fit the kind, with the reason in English and Chinese', async () => {
      expect(issueOf(await create('group', { name: 'Empty', kind: 'machines' }, 'en'))).toEqual({
        code: '1004',
        field: 'models',
        message: 'A machine group needs machine models or fleets',
      });
      expect(issueOf(await create('group', { name: 'Empty', kind: 'machines' }, 'zh'))).toEqual({ code: '1004', field: 'models', message: '机器分组需要机型或机群' });
      expect(issueOf(await create('group', { name: 'Mixed', kind: 'machines', models: 'H30', barcodes: '4890000000017' }))).toEqual({
        code: '1004',
        field: 'barcodes',
        message: 'A machine group holds no product barcodes',
      });
      expect(issueOf(await create('group', { name: 'Bare', kind: 'products' }))).toEqual({ code: '1004', field: 'barcodes', message: 'A product group needs product barcodes' });
      expect(issueOf(await create('group', { name: 'Odd', kind: 'products', barcodes: '4890000000017', fleets: [south] }, 'zh'))).toEqual({
        code: '1004',
        field: 'fleets',
        message: '商品分组不含机型或机群',
      });
      expect(issueOf(await create('group', { name: 'Twice', kind: 'machines', models: 'H30, H10, H30' }))).toEqual({
        code: '1004',
        field: 'models',
        message: '"H30" is listed twice',
      });
      expect(issueOf(await create('group', { name: 'Short', kind: 'products', barcodes: '12, 4890000000017' }))).toEqual({
        code: '1004',
        field: 'barcodes',
        message: 'Barcodes of 3 to 20 digits, separated by commas',
      });
      expect(issueOf(await create('group', { name: 'All*', kind: 'machines', models: 'H30' }))).toEqual({
        code: '1004',
        field: 'name',
        message: 'A group name cannot contain * or a comma',
      });
    });

    it('checks an edit against the stored members: the last fleet of a group without models cannot go', async () => {
      const id = await created('group', { name: 'South', kind: 'machines', fleets: [south] });
      expect(issueOf(await server.call('PUT', '/configuration/group', { token, body: { id, fleets: [] } }))).toMatchObject({ code: '1004', field: 'models' });
      expect((await server.call('PUT', '/configuration/group', { token, body: { id, models: 'H10', fleets: [] } })).body.resCode).toBe('00000');
    });

    it("keeps a group's fleets in its versions, and compares them", async () => {
      const versions = (await server.call('GET', '/configuration/group/versions', { token })).body.resData;
      const latest = versions.list[0].version as number;
      const items = (await server.call('GET', `/configuration/group/versions/${latest}`, { token })).body.resData.items;
      expect(items.find((item: { name: string }) => item.name === 'North')).toEqual({
        name: 'North',
        kind: 'machines',
        models: 'H30, H10',
        fleets: [north],
        barcodes: null,
        description: null,
      });
      const [row] = (await server.call('POST', '/configuration/group/page', { token, body: { pageNum: 1, pageSize: 10, nameLike: 'North' } })).body.resData.list;
      expect((await server.call('PUT', '/configuration/group', { token, body: { id: row.id, fleets: [north, south] } })).body.resCode).toBe('00000');
      const diff = (await server.call('GET', `/configuration/group/diff?from=${latest}&to=${latest + 1}`, { token })).body.resData;
      expect(diff.changed).toEqual([
        {
          key: 'North',
          item: expect.objectContaining({ fleets: [north, south].sort((a, b) => a - b) }),
          changes: [{ field: 'fleets', from: [north], to: [north, south].sort((a, b) => a - b) }],
        },
      ]);
    });
  });

  describe('payout methods', () => {
    it('enables a method once per machine group (or * for every machine)', async () => {
      await created('payout', { machineGroup: '*', method: 'octopus', enabled: true, minAmount: 0.1, maxAmount: 500 });
      await created('payout', { machineGroup: 'North', method: 'octopus', enabled: false });
      expect(issueOf(await create('payout', { machineGroup: '*', method: 'octopus', enabled: true }, 'en'))).toEqual({
        code: '2002',
        field: 'machineGroup',
        message: 'Machine group / Payout method "* / Octopus" already exists',
      });
      expect(issueOf(await create('payout', { machineGroup: '*', method: 'octopus', enabled: true }, 'zh'))).toEqual({
        code: '2002',
        field: 'machineGroup',
        message: '机器分组 / 支付方式“* / 八达通”已存在',
      });
      // a consumer can always cancel: no method to enable
      expect(issueOf(await create('payout', { machineGroup: '*', method: 'userCancelledPayment', enabled: true }))).toMatchObject({ field: 'method' });
    });

    it('applies to a machine group only', async () => {
      expect(issueOf(await create('payout', { machineGroup: 'Nowhere', method: 'receipt', enabled: true }, 'en'))).toEqual({
        code: '1004',
        field: 'machineGroup',
        message: 'There is no group "Nowhere"',
      });
      expect(issueOf(await create('payout', { machineGroup: 'Drinks', method: 'receipt', enabled: true }, 'zh'))).toEqual({
        code: '1004',
        field: 'machineGroup',
        message: '“Drinks”是商品分组：支付方式只适用于机器分组',
      });
      expect(issueOf(await create('payout', { machineGroup: 'A,B', method: 'receipt', enabled: true }))).toEqual({
        code: '1004',
        field: 'machineGroup',
        message: 'A machine group name, or * for every machine',
      });
    });

    it('checks the parameters: amounts in order, a validity for vouchers, institutes for donation', async () => {
      expect(issueOf(await create('payout', { machineGroup: '*', method: 'receipt', enabled: true, minAmount: 5, maxAmount: 5 }, 'en'))).toEqual({
        code: '1004',
        field: 'maxAmount',
        message: 'The max. amount must be above the min. amount',
      });
      expect(issueOf(await create('payout', { machineGroup: '*', method: 'alipayHK', enabled: true, validityDays: 30 }, 'zh'))).toEqual({
        code: '1004',
        field: 'validityDays',
        message: '只有凭证（收据、超市、票券）才有有效期',
      });
      await created('payout', { machineGroup: '*', method: 'receipt', enabled: true, validityDays: 30 });
      expect(issueOf(await create('payout', { machineGroup: '*', method: 'alipayHK', enabled: true, institutes: 'Green Earth' }))).toEqual({
        code: '1004',
        field: 'institutes',
        message: 'Only donation has donation institutes',
      });
      expect(issueOf(await create('payout', { machineGroup: '*', method: 'donation', enabled: true }))).toEqual({
        code: '1004',
        field: 'institutes',
        message: 'Donation needs at least one donation institute',
      });
      expect(issueOf(await create('payout', { machineGroup: '*', method: 'donation', enabled: true, institutes: 'Green Earth, Nobody' }, 'zh'))).toEqual({
        code: '1004',
        field: 'institutes',
        message: '没有名为“Nobody”的捐赠机构',
      });
      expect(issueOf(await create('payout', { machineGroup: '*', method: 'donation', enabled: true, institutes: 'Food Bank, Food Bank' }))).toEqual({
        code: '1004',
        field: 'institutes',
        message: '"Food Bank" is listed twice',
      });
      await created('payout', { machineGroup: '*', method: 'donation', enabled: true, institutes: 'Green Earth,Food Bank' });
    });

    it('keeps a group a payout names: no rename, no switch to products, no delete', async () => {
      const [row] = (await server.call('POST', '/configuration/group/page', { token, body: { pageNum: 1, pageSize: 10, nameLike: 'North' } })).body.resData.list;
      expect(issueOf(await server.call('PUT', '/configuration/group', { token, body: { id: row.id, name: 'Northern' }, lang: 'en' }))).toEqual({
        code: '1004',
        field: 'name',
        message: 'Payout methods apply to group "North": change them first',
      });
      expect(
        issueOf(await server.call('PUT', '/configuration/group', { token, body: { id: row.id, kind: 'products', models: null, fleets: [], barcodes: '4890000000017' } })),
      ).toMatchObject({
        code: '1004',
        field: 'kind',
      });
      const removed = await server.call('DELETE', `/configuration/group?id=${row.id}`, { token, lang: 'zh' });
      expect(issueOf(removed)).toEqual({ code: '5002', field: 'name', message: '有支付方式适用于分组“North”：请先修改它们' });
    });

    it('a batch delete of groups that payouts name is refused and names every such group, not only the first', async () => {
      const west = await created('group', { name: 'West', kind: 'machines', models: 'H30' });
      const east = await created('group', { name: 'East', kind: 'machines', models: 'H10' });
      await created('payout', { machineGroup: 'West', method: 'alipayHK', enabled: true });
      await created('payout', { machineGroup: 'East', method: 'alipayHK', enabled: true });
      const refused = await server.call('POST', '/configuration/group/batchDelete', { token, body: { ids: [west, east] }, lang: 'en' });
      expect(refused.body.resCode).toBe('5002');
      expect(refused.body.resData.issues).toEqual([
        { field: 'name', message: 'Payout methods apply to group "East": change them first' },
        { field: 'name', message: 'Payout methods apply to group "West": change them first' },
      ]);
      const left = (await server.call('POST', '/configuration/group/page', { token, body: { pageNum: 1, pageSize: 50 } })).body.resData.list.map(
        (group: { name: string }) => group.name,
      );
      expect(left).toEqual(expect.arrayContaining(['East', 'West']));
    });

    it('makes a payout version into a package of type payout', async () => {
      const latest = (await server.call('GET', '/configuration/payout/versions', { token })).body.resData.list[0].version as number;
      const made = await server.call('POST', `/configuration/payout/versions/${latest}/package`, { token, body: { name: `payout ${latest}`, adaptedModels: 'H30' } });
      expect(made.body.resData).toMatchObject({ resourceType: 'payout', version: `v${latest}` });
      const [row] = await server.db.select().from(deploymentPackage).where(eq(deploymentPackage.id, made.body.resData.id));
      const content = await readStored(server, row.file!);
      expect(content).toMatchObject({ format: 'rvm-configuration', kind: 'payout', resourceType: 'payout', version: latest });
      expect(content.items).toContainEqual({
        machineGroup: '*',
        method: 'donation',
        enabled: true,
        minAmount: null,
        maxAmount: null,
        validityDays: null,
        institutes: 'Green Earth, Food Bank',
      });
      expect(content.items).toContainEqual(expect.objectContaining({ machineGroup: 'North', method: 'octopus', enabled: false }));
    });
  });
});

describe('a machine with group and payout packages', () => {
  const content = (resourceType: string, items: Array<Record<string, unknown>>) =>
    Buffer.from(JSON.stringify({ format: 'rvm-configuration', v: 1, kind: resourceType, resourceType, version: 1, items }));
  const bins: BinLevel[] = [
    { binNo: 1, itemType: 'plasticBottle', count: 0 },
    { binNo: 2, itemType: 'can', count: 0 },
  ];
  const limits = { binEmptyHeight: 120, binFullHeight: 25, binAlmostFull: 80, binAlreadyFull: 98 };
  const profile = {
    serialNumber: 'PAYOUT-1',
    termType: 'H30',
    binCount: 2,
    fleetId: 7,
    donationInstituteIds: [11, 12],
    donationInstituteNames: { 11: 'Green Earth', 12: 'Food Bank' },
  };
  const methodsOf = (settings: MachineSettings, sessions = 300) => {
    const random = new Random('payout-test');
    const drafts = Array.from({ length: sessions }, (_, index) => drawSession(random, modelFor('H30'), bins, limits, profile, index + 1, 0, settings));
    return { methods: new Set(drafts.map((draft) => draft.payoutMethod)), drafts };
  };

  it('pays only by the methods its payout package enables for its groups (a group item before the * one)', () => {
    const settings = new MachineSettings('H30', 7);
    expect(methodsOf(settings).methods.size).toBeGreaterThan(5);
    expect(
      settings.apply(
        'group',
        content('group', [
          { name: 'By fleet', kind: 'machines', models: null, fleets: [7], barcodes: null, description: null },
          { name: 'Other model', kind: 'machines', models: 'H10', fleets: [], barcodes: null, description: null },
        ]),
      ),
    ).toBeNull();
    expect(
      settings.apply(
        'payout',
        content('payout', [
          { machineGroup: '*', method: 'octopus', enabled: true },
          { machineGroup: '*', method: 'receipt', enabled: true, validityDays: 30 },
          { machineGroup: 'By fleet', method: 'octopus', enabled: false },
          { machineGroup: 'Other model', method: 'alipayHK', enabled: true },
          { machineGroup: 'By fleet', method: 'donation', enabled: true, institutes: 'Food Bank' },
        ]),
      ),
    ).toBeNull();
    expect([...settings.groupNames()]).toEqual(['By fleet']);
    const { methods, drafts } = methodsOf(settings);
    expect([...methods].sort()).toEqual(['donation', 'receipt', 'userCancelledPayment']);
    // donation only to the institutes the package names
    expect(new Set(drafts.filter((draft) => draft.payoutMethod === 'donation').map((draft) => draft.donationInstituteId))).toEqual(new Set([12]));
  });

  it('offers a method only for a refund within its amounts', () => {
    const settings = new MachineSettings('H30', null);
    settings.apply(
      'payout',
      content('payout', [
        { machineGroup: '*', method: 'octopus', enabled: true, minAmount: 1 },
        { machineGroup: '*', method: 'receipt', enabled: true, maxAmount: 0.999 },
      ]),
    );
    const { drafts } = methodsOf(settings);
    const paid = drafts.filter((draft) => draft.payoutMethod !== 'userCancelledPayment');
    expect(paid.length).toBeGreaterThan(0);
    for (const draft of paid) expect(draft.payoutMethod).toBe(draft.totalRefund >= 1 ? 'octopus' : 'receipt');
  });
});
