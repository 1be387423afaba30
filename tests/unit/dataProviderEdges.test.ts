// The data provider's edges (src/providers/dataProvider.ts): paging everything stops on the total or a
// short page, writes fall back to what was sent when the server answers no record, updateMany /
// deleteMany answer the ids, a registry getter is read per call, and non-ApiError failures pass
// through unchanged (issue 13's mutation run).
import { describe, expect, it } from 'vitest';
import { RESOURCES } from '../../resources';
import { createDataProvider } from '../../src/providers/dataProvider';
import { ApiError } from '../../src/providers/httpTypes';
import { fakeHttp } from '../fixtures/fakeHttp';

const page = (list: unknown[], total = list.length) => ({ list, total, pageNum: 1, pageSize: 500 });
const ids = (from: number, count: number) => Array.from({ length: count }, (_, index) => ({ id: from + index }));
const all = { pagination: { page: 1, perPage: 500 }, sort: { field: 'id', order: 'ASC' as const }, filter: {}, meta: { all: true } };

describe('paging through everything', () => {
  it('stops when the total is reached, even on a full page', async () => {
    const { http, download, calls } = fakeHttp({ 'POST /permission/page': page(ids(1, 500), 500) });
    const result = await createDataProvider(http, download).getList('systemSettings/permission', all);
    expect(result.data).toHaveLength(500);
    expect(calls).toHaveLength(1);
  });

  it('stops on a short page even when the total says more (records deleted meanwhile)', async () => {
    const { http, download, calls } = fakeHttp({ 'POST /permission/page': page(ids(1, 3), 900) });
    const result = await createDataProvider(http, download).getList('systemSettings/permission', all);
    expect([result.data.length, result.total, calls.length]).toEqual([3, 900, 1]);
  });

  it('asks for the next page after a full page below the total', async () => {
    const { http, download, calls } = fakeHttp({
      'POST /permission/page': (call: { body?: unknown }) => ((call.body as { pageNum: number }).pageNum === 1 ? page(ids(1, 500), 501) : page(ids(501, 1), 501)),
    });
    const result = await createDataProvider(http, download).getList('systemSettings/permission', all);
    expect([result.data.length, calls.length]).toEqual([501, 2]);
  });
});

describe('writes', () => {
  it('update sends the id of the previous record and answers what was sent when the server answers no record', async () => {
    const { http, download, calls } = fakeHttp({ 'PUT /role': null });
    const result = await createDataProvider(http, download).update('systemSettings/role', { id: 9, data: { name: 'ops' }, previousData: { id: 5, name: 'old', extra: 'kept' } });
    expect((calls[0].body as { id: unknown }).id).toBe(5);
    expect(calls[0].options).toMatchObject({ silent: true });
    expect(result.data).toMatchObject({ id: 5, name: 'ops', extra: 'kept' });
  });

  it("update answers the server's record when there is one, and uses params.id without a previous record", async () => {
    const { http, download, calls } = fakeHttp({ 'PUT /role': { id: 9, name: 'from server' } });
    const result = await createDataProvider(http, download).update('systemSettings/role', { id: 9, data: { name: 'ops' }, previousData: undefined as never });
    expect((calls[0].body as { id: unknown }).id).toBe(9);
    expect(result.data).toEqual({ id: 9, name: 'from server' });
  });

  it('updateMany updates each id in turn and answers the ids', async () => {
    const { http, download, calls } = fakeHttp({ 'PUT /role': null });
    const result = await createDataProvider(http, download).updateMany('systemSettings/role', { ids: [3, 4], data: { name: 'x' } });
    expect(result).toEqual({ data: [3, 4] });
    expect(calls.map((call) => (call.body as { id: unknown }).id)).toEqual([3, 4]);
  });

  it('deleteMany answers the ids it deleted', async () => {
    const { http, download } = fakeHttp();
    expect(await createDataProvider(http, download).deleteMany('systemSettings/role', { ids: [3, 4] })).toEqual({ data: [3, 4] });
  });

  it('a failure that is no ApiError passes through as it is', async () => {
    const original = new TypeError('network down');
    const { http, download } = fakeHttp({
      'POST /role': () => {
        throw original;
      },
    });
    await expect(createDataProvider(http, download).create('systemSettings/role', { data: { name: 'x' } })).rejects.toBe(original);
  });

  it('a validation failure without a status becomes a 400 form error', async () => {
    const { http, download } = fakeHttp({
      'POST /role': () => {
        throw new ApiError('1004', 'Parameter error', { issues: [{ field: 'name', message: 'too long' }] });
      },
    });
    const failure = await createDataProvider(http, download)
      .create('systemSettings/role', { data: { name: 'x' } })
      .catch((error) => error);
    expect(failure.status).toBe(400);
    expect(failure.body.errors.name).toBe('too long');
  });
});

describe('the registry', () => {
  it('is read through a getter at every call (configured types change at run time)', async () => {
    let registry: typeof RESOURCES = RESOURCES.filter((declaration) => declaration.name !== 'role');
    const { http, download } = fakeHttp({ 'GET /role/5': { id: 5, name: 'ops' } });
    const provider = createDataProvider(http, download, () => registry);
    await expect(provider.getOne('systemSettings/role', { id: 5 })).rejects.toThrow(/Unknown resource/);
    registry = RESOURCES;
    expect((await provider.getOne('systemSettings/role', { id: 5 })).data).toEqual({ id: 5, name: 'ops' });
  });
});

describe('more edges (issue 13, second mutation run)', () => {
  it('labels: a server that answers no list gives no records', async () => {
    const { http, download } = fakeHttp({ 'GET /role/list': null });
    const result = await createDataProvider(http, download).getList('systemSettings/role', { ...all, meta: { labels: true } });
    expect(result).toEqual({ data: [], total: 0 });
  });

  it('export sends the columns asked for, in their order, and none when none are asked', async () => {
    const { http, download, calls } = fakeHttp();
    const provider = createDataProvider(http, download);
    await provider.export('systemSettings/role', { format: 'csv', columns: ['name', 'id'] });
    await provider.export('systemSettings/role', { format: 'xlsx', columns: [] });
    expect(calls.map((call) => [call.path, (call.body as { columns?: string[] }).columns])).toEqual([
      ['/role/export', ['name', 'id']],
      ['/role/export', undefined],
    ]);
  });

  it('a failure of another kind passes through unchanged even when it carries validation issues', async () => {
    const foreign = Object.assign(new Error('other client'), { data: { issues: [{ field: 'name', message: 'too long' }] } });
    const { http, download } = fakeHttp({
      'POST /role': () => {
        throw foreign;
      },
    });
    await expect(createDataProvider(http, download).create('systemSettings/role', { data: { name: 'x' } })).rejects.toBe(foreign);
  });
});
