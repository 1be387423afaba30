// Refund values per product group (docs/machine-configuration.md#refund and #group): a refund item may name a product
// group instead of a barcode, for that group's products of its item type. The rules with their codes in both
// languages, the group it names kept (no rename, no switch to machines, no delete), the name in versions; and on a
// simulated machine the precedence product > product group > item type, once it knows the group's barcodes.
import { beforeAll, describe, expect, it } from 'vitest';
import { Random } from '../../server/seed/random';
import { PRODUCTS } from '../../server/seed/vocabulary';
import { MachineSettings } from '../../server/simulator/machineSettings';
import { drawSession, modelFor, type BinLevel } from '../../server/simulator/world';
import { issueOf } from './answers';
import { describeOneBackend } from './helpers';

const [first, second, third] = PRODUCTS.plasticBottle.map((product) => product.barcode);

describeOneBackend('refund values per product group', (server) => {
  let token: string;
  const create = (path: string, body: Record<string, unknown>, lang = 'en') => server.call('POST', `/configuration/${path}`, { token, body, lang });
  const created = async (path: string, body: Record<string, unknown>) => {
    const answer = await create(path, body);
    expect(answer.body.resCode, answer.body.resMsg).toBe('00000');
    return answer.body.resData.id as number;
  };
  const bottle = { itemType: 'plasticBottle', value: 0.3, currency: 'HKD', decimals: 2 };

  beforeAll(async () => {
    token = await server.login();
  });

  it('names a product group of the account, not a machine group, never with a barcode; once per item type', async () => {
    const brand = await created('group', { name: 'Brand', kind: 'products', barcodes: `${first}, ${second}` });
    await created('group', { name: 'Kiosks', kind: 'machines', models: 'H30' });
    expect(issueOf(await create('refund', { ...bottle, productGroup: 'Nowhere' }))).toEqual({ code: '1004', field: 'productGroup', message: 'There is no group "Nowhere"' });
    expect(issueOf(await create('refund', { ...bottle, productGroup: 'Kiosks' }, 'zh'))).toEqual({
      code: '1004',
      field: 'productGroup',
      message: '“Kiosks”是机器分组：退款金额只适用于商品分组',
    });
    expect(issueOf(await create('refund', { ...bottle, productGroup: 'Brand', barcode: first }))).toEqual({
      code: '1004',
      field: 'productGroup',
      message: 'A refund value is for a product or a product group, not both',
    });
    const id = await created('refund', { ...bottle, productGroup: 'Brand' });
    // the item type's own value is another item
    await created('refund', { ...bottle, value: 0.1 });
    expect(issueOf(await create('refund', { ...bottle, productGroup: 'Brand', value: 0.4 }))).toEqual({
      code: '2002',
      field: 'productGroup',
      message: 'Product group / Item type "Brand / Plastic bottle" already exists',
    });
    // an edit is checked as it will be stored
    expect(issueOf(await server.call('PUT', '/configuration/refund', { token, body: { id, barcode: third } }))).toMatchObject({ code: '1004', field: 'productGroup' });

    // the group keeps its name and stays a product group while a refund names it
    expect(issueOf(await server.call('PUT', '/configuration/group', { token, body: { id: brand, name: 'Brands' } }))).toEqual({
      code: '1004',
      field: 'name',
      message: 'Refund values apply to group "Brand": change them first',
    });
    expect(issueOf(await server.call('PUT', '/configuration/group', { token, body: { id: brand, kind: 'machines', barcodes: null, models: 'H30' } }))).toMatchObject({
      code: '1004',
      field: 'kind',
    });
    const removed = await server.call('DELETE', `/configuration/group?id=${brand}`, { token, lang: 'zh' });
    expect(issueOf(removed)).toEqual({ code: '5002', field: 'name', message: '有退款金额适用于分组“Brand”：请先修改它们' });

    const latest = (await server.call('GET', '/configuration/refund/versions', { token })).body.resData.list[0].version as number;
    const version = (await server.call('GET', `/configuration/refund/versions/${latest}`, { token })).body.resData;
    expect(version.items).toContainEqual(expect.objectContaining({ itemType: 'plasticBottle', productGroup: 'Brand', barcode: null, value: 0.3 }));
  });
});

describe('a machine with refund values per product group', () => {
  const content = (resourceType: string, items: Array<Record<string, unknown>>) =>
    Buffer.from(JSON.stringify({ format: 'rvm-configuration', v: 1, kind: resourceType, resourceType, version: 1, items }));
  const refundItem = (fields: Record<string, unknown>) => ({ itemType: 'plasticBottle', barcode: null, productGroup: null, currency: 'HKD', decimals: 2, ...fields });

  it('pays a product its own value, else its product group’s for its item type, else its type’s', () => {
    const settings = new MachineSettings('H30');
    expect(
      settings.apply('refund', content('refund', [refundItem({ value: 0.1 }), refundItem({ productGroup: 'Brand', value: 0.3 }), refundItem({ barcode: second, value: 0.5 })])),
    ).toBeNull();
    // no group package yet: the machine does not know the group's products
    expect(settings.refundOf('plasticBottle', first)).toBe(0.1);
    expect(
      settings.apply('group', content('group', [{ name: 'Brand', kind: 'products', models: null, fleets: [], barcodes: `${first}, ${second}`, description: null }])),
    ).toBeNull();
    expect(settings.refundOf('plasticBottle', first)).toBe(0.3);
    expect(settings.refundOf('plasticBottle', second)).toBe(0.5);
    expect(settings.refundOf('plasticBottle', third)).toBe(0.1);
    // a value per group is for its item type only
    expect(settings.refundOf('can', first)).toBeUndefined();

    // in sessions: every accepted bottle of the group pays 0.30, the others 0.10 (or the product's own)
    const bins: BinLevel[] = [
      { binNo: 1, itemType: 'plasticBottle', count: 0 },
      { binNo: 2, itemType: 'can', count: 0 },
    ];
    const random = new Random('product-groups');
    const limits = { binEmptyHeight: 120, binFullHeight: 25, binAlmostFull: 80, binAlreadyFull: 98 };
    const items = Array.from({ length: 400 }, (_, index) =>
      drawSession(random, modelFor('H30'), bins, limits, { serialNumber: 'PG-1', termType: 'H30', binCount: 2 }, index + 1, 0, settings),
    )
      .flatMap((draft) => draft.items)
      .filter((item) => item.itemType === 'plasticBottle' && item.rejectReason === undefined);
    const inGroup = items.filter((item) => item.barcode === first);
    expect(inGroup.length).toBeGreaterThan(0);
    expect(new Set(inGroup.map((item) => item.refund))).toEqual(new Set([0.3]));
    expect(new Set(items.filter((item) => item.barcode !== first && item.barcode !== second).map((item) => item.refund))).toEqual(new Set([0.1]));
  });
});
