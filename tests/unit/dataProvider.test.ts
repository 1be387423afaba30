import { describe, expect, it } from 'vitest';
import { createDataProvider } from '../../src/providers/dataProvider';
import { ApiError } from '../../src/providers/httpTypes';
import { fakeHttp } from '../fixtures/fakeHttp';

const page = (list: unknown[], total = list.length) => ({ list, total, pageNum: 1, pageSize: 20 });

describe('dataProvider: generic CRUD calls (declaration registry)', () => {
  it('getList posts the paging body with sortable sort and non-empty filters', async () => {
    const { http, download, calls } = fakeHttp({ 'POST /user/page': page([{ id: 1 }], 41) });
    const provider = createDataProvider(http, download);
    const result = await provider.getList('systemSettings/user', {
      pagination: { page: 3, perPage: 20 },
      sort: { field: 'createTime', order: 'DESC' },
      filter: { nameLike: ' adm ', realnameLike: '', enabled: false },
    });
    expect(result).toEqual({ data: [{ id: 1 }], total: 41 });
    expect(calls).toEqual([
      expect.objectContaining({
        method: 'POST',
        path: '/user/page',
        body: { pageNum: 3, pageSize: 20, sort: 'createTime', order: 'DESC', nameLike: 'adm', enabled: false },
      }),
    ]);
  });

  it('accepts the declaration name as well as the route name, and leaves out unsortable sorts', async () => {
    const { http, download, calls } = fakeHttp({ 'POST /license-account/page': page([]) });
    await createDataProvider(http, download).getList('account', { pagination: { page: 1, perPage: 1000 }, sort: { field: 'contact', order: 'ASC' }, filter: {} });
    expect(calls[0].body).toEqual({ pageNum: 1, pageSize: 500 });
  });

  it('rejects an unknown resource', async () => {
    const { http, download } = fakeHttp();
    await expect(createDataProvider(http, download).getOne('nope', { id: 1 })).rejects.toThrow(/Unknown resource/);
  });

  it('getList meta.all pages through every record', async () => {
    const first = Array.from({ length: 500 }, (_, index) => ({ id: index + 1 }));
    const { http, download, calls } = fakeHttp({
      'POST /permission/page': (call: { body?: unknown }) => ((call.body as { pageNum: number }).pageNum === 1 ? page(first, 502) : page([{ id: 501 }, { id: 502 }], 502)),
    });
    const result = await createDataProvider(http, download).getList('systemSettings/permission', {
      pagination: { page: 1, perPage: 500 },
      sort: { field: 'sort', order: 'ASC' },
      filter: {},
      meta: { all: true },
    });
    expect(result.total).toBe(502);
    expect(result.data).toHaveLength(502);
    expect(calls.map((call) => (call.body as { pageNum: number }).pageNum)).toEqual([1, 2]);
    expect(calls[0].body).toMatchObject({ pageSize: 500, sort: 'sort', order: 'ASC' });
  });

  it('getList meta.labels asks the options endpoint by name', async () => {
    const { http, download, calls } = fakeHttp({ 'GET /license-account/list': [{ id: 7, name: 'Acme' }] });
    const result = await createDataProvider(http, download).getList('systemSettings/account', {
      pagination: { page: 1, perPage: 25 },
      sort: { field: 'id', order: 'DESC' },
      filter: { nameLike: 'Ac' },
      meta: { labels: true },
    });
    expect(calls[0]).toMatchObject({ method: 'GET', path: '/license-account/list', query: { nameLike: 'Ac' } });
    expect(result).toEqual({ data: [{ id: 7, name: 'Acme', licenseAccountName: 'Acme' }], total: 1 });
  });

  it('getOne reads one record by id', async () => {
    const { http, download, calls } = fakeHttp({ 'GET /role/5': { id: 5, name: 'ops' } });
    expect(await createDataProvider(http, download).getOne('systemSettings/role', { id: '5' })).toEqual({ data: { id: 5, name: 'ops' } });
    expect(calls[0]).toMatchObject({ method: 'GET', path: '/role/5' });
  });

  it('getMany with meta.labels uses /list?ids= in batches of 50 and shapes records for labels', async () => {
    const ids = Array.from({ length: 60 }, (_, index) => index + 1);
    const { http, download, calls } = fakeHttp({
      'GET /role/list': (call: { query?: Record<string, unknown> }) =>
        String(call.query?.ids)
          .split(',')
          .map((id) => ({ id: Number(id), name: `r${id}` })),
    });
    const result = await createDataProvider(http, download).getMany('systemSettings/role', { ids, meta: { labels: true } });
    expect(calls.map((call) => String(call.query?.ids).split(',').length)).toEqual([50, 10]);
    expect(result.data).toHaveLength(60);
    expect(result.data[0]).toEqual({ id: 1, name: 'r1' });
  });

  it('getMany without meta reads full records one by one (never partial records in the getOne cache)', async () => {
    const { http, download, calls } = fakeHttp({ 'GET /user/1': { id: 1, name: 'a' }, 'GET /user/2': { id: 2, name: 'b' } });
    const result = await createDataProvider(http, download).getMany('systemSettings/user', { ids: [1, 2] });
    expect(result.data).toEqual([
      { id: 1, name: 'a' },
      { id: 2, name: 'b' },
    ]);
    expect(calls.map((call) => call.path)).toEqual(['/user/1', '/user/2']);
  });

  it('getManyReference pages with the target as filter', async () => {
    const { http, download, calls } = fakeHttp({ 'POST /permission/page': page([{ id: 3 }]) });
    const result = await createDataProvider(http, download).getManyReference('systemSettings/permission', {
      target: 'parentId',
      id: '21',
      pagination: { page: 1, perPage: 10 },
      sort: { field: 'sort', order: 'ASC' },
      filter: {},
    });
    expect(result).toEqual({ data: [{ id: 3 }], total: 1 });
    expect(calls[0].body).toEqual({ pageNum: 1, pageSize: 10, sort: 'sort', order: 'ASC', parentId: 21 });
  });

  it('create posts only writable fields of the create view, silently (react-admin reports failures)', async () => {
    const { http, download, calls } = fakeHttp({ 'POST /user': (call: { body?: object }) => ({ id: 9, ...call.body }) });
    const data = { realname: 'Ann', name: 'ann', email: '', roles: [1], password: 'Abc@123', confirmPassword: 'Abc@123', createTime: 'x', bogus: 1 };
    const result = await createDataProvider(http, download).create('systemSettings/user', { data });
    expect(calls[0]).toMatchObject({ method: 'POST', path: '/user', options: { silent: true } });
    expect(calls[0].body).toEqual({ realname: 'Ann', name: 'ann', roles: [1], password: 'Abc@123', confirmPassword: 'Abc@123' });
    expect(result.data.id).toBe(9);
  });

  it('update puts the edit view fields with the id; cleared fields become null', async () => {
    const { http, download, calls } = fakeHttp({ 'PUT /user': (call: { body?: object }) => call.body });
    const previousData = { id: 4, realname: 'Bo', name: 'bo', email: 'b@x.io', createTime: '2024-01-01 10:00:00', sysUserId: 1 };
    await createDataProvider(http, download).update('systemSettings/user', {
      id: '4',
      data: { ...previousData, email: '', enabled: false },
      previousData,
    });
    expect(calls[0]).toMatchObject({ method: 'PUT', path: '/user' });
    expect(calls[0].body).toEqual({ id: 4, realname: 'Bo', name: 'bo', email: null, enabled: false });
  });

  it('delete sends the id as query, deleteMany posts batchDelete', async () => {
    const { http, download, calls } = fakeHttp();
    const provider = createDataProvider(http, download);
    const deleted = await provider.delete('systemSettings/role', { id: '3', previousData: { id: 3 as number | string, name: 'x' } });
    await provider.deleteMany('systemSettings/role', { ids: ['3', 4] });
    expect(deleted.data).toEqual({ id: 3, name: 'x' });
    expect(calls[0]).toMatchObject({ method: 'DELETE', path: '/role', query: { id: 3 } });
    expect(calls[1]).toMatchObject({ method: 'POST', path: '/role/batchDelete', body: { ids: [3, 4] } });
  });

  it('turns server validation issues into react-admin field errors', async () => {
    const issues = [
      { field: 'name', message: 'The length must be between 2 and 8 characters' },
      { field: 'email', message: 'Please enter a valid e-mail address' },
    ];
    const { http, download } = fakeHttp({
      'POST /user': () => {
        throw new ApiError('1002', 'Parameter length error', { issues }, 400);
      },
    });
    const failure = await createDataProvider(http, download)
      .create('systemSettings/user', { data: { name: 'x' } })
      .catch((error) => error);
    expect(failure.status).toBe(400);
    expect(failure.message).toBe('Parameter length error');
    expect(failure.body.errors).toEqual({
      name: issues[0].message,
      email: issues[1].message,
      root: { serverError: 'Parameter length error' },
    });
  });

  it('passes other failures through unchanged', async () => {
    const original = new ApiError('2002', 'Data already exists', null, 409);
    const { http, download } = fakeHttp({
      'PUT /role': () => {
        throw original;
      },
    });
    await expect(createDataProvider(http, download).update('systemSettings/role', { id: 1, data: {}, previousData: { id: 1 } })).rejects.toBe(original);
  });
});

describe('dataProvider: custom methods', () => {
  it('export downloads the filtered, sorted list through the download client with progress', async () => {
    const { http, download, calls } = fakeHttp();
    const progress: number[] = [];
    const file = await createDataProvider(http, download).export('systemSettings/user', {
      format: 'xlsx',
      filter: { nameLike: 'a', emailLike: '' },
      sort: { field: 'createTime', order: 'ASC' },
      onProgress: ({ loaded }) => progress.push(loaded),
    });
    expect(calls[0]).toMatchObject({ method: 'POST', path: '/user/export', body: { format: 'xlsx', sort: 'createTime', order: 'ASC', nameLike: 'a' } });
    expect(progress).toEqual([5, 10]);
    expect(file.filename).toBe('export.csv');
  });

  it('saved filters: list by declaration name, create, update, delete', async () => {
    const { http, download, calls } = fakeHttp({ 'GET /saved-filter': [], 'POST /saved-filter': { id: 1 }, 'PUT /saved-filter': { id: 1 } });
    const provider = createDataProvider(http, download);
    await provider.savedFilters('systemSettings/user');
    await provider.saveFilter('systemSettings/user', { name: 'mine', filter: { nameLike: 'a' }, visibility: 'personal' });
    await provider.saveFilter('user', { id: 1, name: 'ours', filter: {}, visibility: 'public' });
    await provider.deleteFilter('1');
    expect(calls.map(({ method, path, query, body }) => ({ method, path, query, body }))).toEqual([
      { method: 'GET', path: '/saved-filter', query: { resource: 'user' }, body: undefined },
      { method: 'POST', path: '/saved-filter', query: undefined, body: { name: 'mine', filter: { nameLike: 'a' }, visibility: 'personal', resource: 'user' } },
      { method: 'PUT', path: '/saved-filter', query: undefined, body: { id: 1, name: 'ours', filter: {}, visibility: 'public', resource: 'user' } },
      { method: 'DELETE', path: '/saved-filter', query: { id: 1 }, body: undefined },
    ]);
  });

  it('options and call address the resource api path', async () => {
    const { http, download, calls } = fakeHttp({ 'GET /role/list': [{ id: 1, name: 'ops' }] });
    const provider = createDataProvider(http, download);
    expect(await provider.options('systemSettings/role', 'op')).toEqual([{ id: 1, name: 'ops' }]);
    await provider.call('systemSettings/user', { method: 'PUT', path: '/resetPassword', body: { id: 2, password: 'Abc@1234' } });
    expect(calls[0]).toMatchObject({ method: 'GET', path: '/role/list', query: { nameLike: 'op' } });
    expect(calls[1]).toMatchObject({ method: 'PUT', path: '/user/resetPassword', body: { id: 2, password: 'Abc@1234' } });
  });
});
