// Machine configurations (docs/machine-configuration.md): every rule of the kinds with its error code and
// message in both languages, items that must not repeat (2002 naming the item), the versions every save
// keeps, the readable diff of two versions and a version made into a package a machine can read.
import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { deploymentPackage } from '../../server/db/schema/deployments';
import { issueOf, readStored } from './answers';
import { describeBackends, type TestServer } from './helpers';

const create = (server: TestServer, token: string, path: string, body: Record<string, unknown>, lang?: string) =>
  server.call('POST', `/configuration/${path}`, { token, body, lang });

describeBackends('machine configuration', (server) => {
  let token: string;
  beforeAll(async () => {
    token = await server.login();
  });

  describe('items must not repeat', () => {
    it('refuses a repeated item type with 2002 naming it, in English and Chinese', async () => {
      expect((await create(server, token, 'refund', { itemType: 'can', value: 0.1, currency: 'HKD', decimals: 2 })).body.resCode).toBe('00000');
      const en = await create(server, token, 'refund', { itemType: 'can', value: 0.2, currency: 'HKD', decimals: 2 }, 'en');
      expect(issueOf(en)).toEqual({ code: '2002', field: 'itemType', message: 'Item type "Can" already exists' });
      const zh = await create(server, token, 'refund', { itemType: 'can', value: 0.2, currency: 'HKD', decimals: 2 }, 'zh');
      expect(issueOf(zh)).toEqual({ code: '2002', field: 'itemType', message: '物品类型“金属罐”已存在' });
    });

    it('lets a product have its own refund once, beside its type', async () => {
      expect((await create(server, token, 'refund', { itemType: 'can', barcode: '4891234567890', value: 0.3, currency: 'HKD', decimals: 2 })).body.resCode).toBe('00000');
      const again = await create(server, token, 'refund', { itemType: 'can', barcode: '4891234567890', value: 0.4, currency: 'HKD', decimals: 2 });
      expect(issueOf(again)).toMatchObject({ code: '2002', field: 'barcode', message: 'Product barcode "4891234567890" already exists' });
    });

    it('refuses a repeated assortment barcode and a repeated sorting item type', async () => {
      const product = { barcode: '4890000000017', name: 'Water 500 ml', itemType: 'plasticBottle', material: 'PET', volume: 500, minWeight: 10, maxWeight: 40 };
      expect((await create(server, token, 'assortment', product)).body.resCode).toBe('00000');
      expect(issueOf(await create(server, token, 'assortment', { ...product, name: 'Other' }, 'zh'))).toEqual({
        code: '2002',
        field: 'barcode',
        message: '条码“4890000000017”已存在',
      });
      expect((await create(server, token, 'sorting', { itemType: 'glass', binNo: 2 })).body.resCode).toBe('00000');
      expect(issueOf(await create(server, token, 'sorting', { itemType: 'glass', binNo: 3 }))).toMatchObject({ code: '2002', field: 'itemType' });
    });
  });

  describe('refund values', () => {
    it('keeps a value within its decimals and fills the account currency', async () => {
      const tooFine = await create(server, token, 'refund', { itemType: 'glass', value: 0.125, decimals: 2 });
      expect(issueOf(tooFine)).toEqual({ code: '1004', field: 'value', message: 'At most 2 decimal places' });
      const created = await create(server, token, 'refund', { itemType: 'glass', value: 0.125, decimals: 3 });
      expect(created.body.resCode).toBe('00000');
      const shown = await server.call('GET', `/configuration/refund/${created.body.resData.id}`, { token });
      expect(shown.body.resData.currency).toMatch(/^[A-Z]{3}$/);
      expect(issueOf(await create(server, token, 'refund', { itemType: 'flat', value: 0.1, currency: 'hkd', decimals: 2 }, 'zh'))).toEqual({
        code: '1004',
        field: 'currency',
        message: '三个大写字母（ISO 4217），例如 HKD',
      });
    });
  });

  describe('assortment rules', () => {
    const product = { name: 'Can 330 ml', itemType: 'can', material: 'aluminium', minWeight: 10, maxWeight: 20 };
    it('takes barcodes of 3 to 20 digits only', async () => {
      expect(issueOf(await create(server, token, 'assortment', { ...product, barcode: '12' }))).toMatchObject({ code: '1002', field: 'barcode' });
      expect(issueOf(await create(server, token, 'assortment', { ...product, barcode: '1'.repeat(21) }))).toMatchObject({ code: '1002', field: 'barcode' });
      expect(issueOf(await create(server, token, 'assortment', { ...product, barcode: '12a45' }))).toEqual({
        code: '1004',
        field: 'barcode',
        message: 'The barcode is 3 to 20 digits',
      });
      expect((await create(server, token, 'assortment', { ...product, barcode: '123' })).body.resCode).toBe('00000');
      expect((await create(server, token, 'assortment', { ...product, barcode: '1'.repeat(20) })).body.resCode).toBe('00000');
    });
    it('needs the max. weight above the min. weight', async () => {
      const answer = await create(server, token, 'assortment', { ...product, barcode: '4567', minWeight: 20, maxWeight: 20 }, 'zh');
      expect(issueOf(answer)).toEqual({ code: '1004', field: 'maxWeight', message: '最大重量必须大于最小重量' });
    });
  });

  describe('main config rules', () => {
    const main = {
      model: 'H30',
      binEmptyHeight: 120,
      binFullHeight: 30,
      almostFullPercent: 80,
      alreadyFullPercent: 95,
      onTime: '06:00',
      offTime: '22:00',
      language: 'en',
      volume: 50,
    };
    it.each([
      [{ binEmptyHeight: 150 }, 'binEmptyHeight', 'Must be at most 149'],
      [{ binFullHeight: 10 }, 'binFullHeight', 'Must be at least 11'],
      [{ binEmptyHeight: 30, binFullHeight: 30 }, 'binEmptyHeight', 'The bin empty height must exceed the bin full height'],
      [{ almostFullPercent: 96 }, 'almostFullPercent', 'Almost full must not exceed already full'],
      [{ offTime: '06:00' }, 'offTime', 'The end time must be after the start time'],
      [{ onTime: '25:00' }, 'onTime', 'A time of day as HH:mm'],
    ])('refuses %o', async (change, field, message) => {
      expect(issueOf(await create(server, token, 'main', { ...main, ...change }))).toEqual({ code: '1004', field, message });
    });
    it('takes the limits themselves and says the rules in Chinese', async () => {
      expect(issueOf(await create(server, token, 'main', { ...main, binEmptyHeight: 40, binFullHeight: 50 }, 'zh'))).toMatchObject({ message: '回收箱空箱高度必须大于满箱高度' });
      expect((await create(server, token, 'main', { ...main, binEmptyHeight: 149, binFullHeight: 11, almostFullPercent: 95 })).body.resCode).toBe('00000');
    });
    it('checks a rule against the stored record on an edit', async () => {
      const list = await server.call('POST', '/configuration/main/page', { token, body: { pageNum: 1, pageSize: 10 } });
      const id = list.body.resData.list[0].id;
      expect(issueOf(await server.call('PUT', '/configuration/main', { token, body: { id, offTime: '05:00' } }))).toMatchObject({ code: '1004', field: 'offTime' });
    });
  });

  describe('versions', () => {
    const versions = async () => (await server.call('GET', '/configuration/sorting/versions', { token })).body.resData;

    it('keeps a version per save, none for a save that changes nothing, one per delete', async () => {
      const before = (await versions()).total as number;
      const created = await create(server, token, 'sorting', { itemType: 'can', binNo: 1 });
      const id = created.body.resData.id as number;
      expect((await versions()).total).toBe(before + 1);
      await server.call('PUT', '/configuration/sorting', { token, body: { id, binNo: 1 } });
      expect((await versions()).total).toBe(before + 1);
      await server.call('PUT', '/configuration/sorting', { token, body: { id, binNo: 3 } });
      await create(server, token, 'sorting', { itemType: 'plasticBottle', binNo: 1 });
      await server.call('DELETE', `/configuration/sorting?id=${id}`, { token });
      const after = await versions();
      expect(after.total).toBe(before + 4);
      expect(after.list[0]).toMatchObject({ version: before + 4, itemCount: 2, createdByName: expect.any(String) });
    });

    it('compares two versions item by item', async () => {
      const latest = (await versions()).list[0].version as number;
      const first = latest - 3;
      const diff = (await server.call('GET', `/configuration/sorting/diff?from=${first}&to=${latest}`, { token })).body.resData;
      expect(diff).toMatchObject({
        from: first,
        to: latest,
        removed: [{ key: 'can', item: { itemType: 'can', binNo: 1 } }],
        added: [{ key: 'plasticBottle', item: { binNo: 1 } }],
        changed: [],
        unchanged: 1,
      });
      const changed = (await server.call('GET', `/configuration/sorting/diff?from=${first}&to=${first + 1}`, { token })).body.resData;
      expect(changed.changed).toEqual([{ key: 'can', item: { itemType: 'can', binNo: 3 }, changes: [{ field: 'binNo', from: 1, to: 3 }] }]);
      expect((await server.call('GET', `/configuration/sorting/diff?from=${first}&to=9999`, { token })).body.resCode).toBe('2003');
    });

    it('makes a version into a package whose content a machine reads', async () => {
      const latest = (await versions()).list[0].version as number;
      const made = await server.call('POST', `/configuration/sorting/versions/${latest}/package`, { token, body: { name: `sorting ${latest}`, adaptedModels: 'H30' } });
      expect(made.body.resData).toMatchObject({ name: `sorting ${latest}`, version: `v${latest}`, resourceType: 'sorting' });
      const [row] = await server.db.select().from(deploymentPackage).where(eq(deploymentPackage.id, made.body.resData.id));
      expect(await readStored(server, row.file!)).toEqual({
        format: 'rvm-configuration',
        v: 1,
        kind: 'sorting',
        resourceType: 'sorting',
        version: latest,
        items: [
          { itemType: 'glass', binNo: 2 },
          { itemType: 'plasticBottle', binNo: 1 },
        ],
      });
      expect((await versions()).list[0]).toMatchObject({ packageId: row.id, packageName: `sorting ${latest}` });
      const again = await server.call('POST', `/configuration/sorting/versions/${latest}/package`, { token, body: { name: `sorting ${latest}`, adaptedModels: 'H30' } });
      expect(issueOf(again)).toMatchObject({ code: '2002', field: 'name' });
    });

    it("needs the configuration's permission, and packaging the package permission", async () => {
      await server.createUser({ name: 'cfgnone' }, token);
      const plain = await server.login('cfgnone', 'Passw0rd!');
      expect((await server.call('GET', '/configuration/sorting/versions', { token: plain })).body.resCode).toBe('4003');
      expect((await server.call('POST', '/configuration/sorting/versions/1/package', { token: plain, body: { name: 'x', adaptedModels: 'H30' } })).body.resCode).toBe('4003');
    });
  });
});
