// The generic CRUD routes with callers the fixture suite (crudRules) does not have: a user holding only a
// referencing resource's permission, hooks that read their context, a custom scope a write can leave, kept
// totals out of step, and a second app instance built inside a test (so that route registration runs under
// the test: Stryker counts start-up code only when a test runs it).
import { eq, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { beforeAll, expect, it } from 'vitest';
import { RESOURCES } from '../../resources';
import { defineResource, type FieldDeclaration } from '../../resources/types';
import type { Caller } from '../../server/auth/principal';
import { buildModel } from '../../server/crud/model';
import { readRecords } from '../../server/crud/records';
import { readOptions, readPage } from '../../server/crud/routes';
import { sysPermission } from '../../server/db/schema';
import { countingDb, crate, crateTable, createFixtureTables, depot, hooks, hookSightings, label, TABLES } from './crudFixture';
import { describeBackends, type TestServer } from './helpers';

/** Depots under another name, whose scope (a hook's) hides those named "hidden…". */
const shelf = defineResource({
  ...depot,
  name: 'shelf',
  apiPath: '/shelf',
  route: '/service/shelf',
  menuId: 610,
  scope: 'custom',
  fields: { id: depot.fields.id, name: depot.fields.name },
  permissions: { page: 'shelf:page', show: 'shelf:page', create: 'shelf:add', edit: 'shelf:edit' },
  permissionIds: { 'shelf:page': 6109901, 'shelf:add': 6109902, 'shelf:edit': 6109903 },
});
/** Crates that may only be deleted: no page, no picker; an action declared without a permission grants nothing. */
const bare = defineResource({
  ...crate,
  name: 'bare',
  apiPath: '/bare',
  route: '/service/bare',
  menuId: 614,
  fields: { id: crate.fields.id, code: crate.fields.code, depotId: crate.fields.depotId },
  list: { ...crate.list, columns: ['code'], filters: [] },
  permissions: { delete: 'bare:delete', export: undefined },
  permissionIds: { 'bare:delete': 6149901 },
});
const fixtureHooks = { ...hooks, shelf: { scope: () => sql`depot.name not like 'hidden%'` } };
const OPTIONS = { resources: [...RESOURCES, depot, label, crate, shelf], tables: TABLES, hooks: fixtureHooks };

/** A user whose one role grants `identifiers`, signed in. */
const userWith = async (server: TestServer, admin: string, name: string, identifiers: string[]) => {
  const ids = (await server.db.select({ id: sysPermission.id, identifier: sysPermission.identifier }).from(sysPermission))
    .filter((row) => identifiers.includes(row.identifier ?? ''))
    .map((row) => row.id);
  expect(ids).toHaveLength(identifiers.length);
  const role = await server.call('POST', '/role', { token: admin, body: { name: `role ${name}`, permissions: ids } });
  expect(role.body.resCode).toBe('00000');
  await server.createUser({ name, roles: [role.body.resData.id] }, admin);
  return server.login(name, 'Passw0rd!');
};

describeBackends(
  'the generic CRUD routes',
  (server) => {
    let admin: string;
    let adminId: number;
    let home: number;
    /** Holds crate:page only: crates reference depots and labels. */
    let crateViewer: string;
    const create = async (path: string, body: Record<string, unknown>) => {
      const answer = await server.call('POST', path, { token: admin, body });
      expect([path, answer.body.resCode]).toEqual([path, '00000']);
      return answer.body.resData.id as number;
    };

    beforeAll(async () => {
      await createFixtureTables(server.db);
      admin = await server.login();
      const current = (await server.call('GET', '/login/current', { token: admin })).body.resData;
      [adminId, home] = [current.userId, current.licenseAccountId];
      crateViewer = await userWith(server, admin, 'crates', ['crate:page']);
    });

    it("answers picker labels by ids alone to a holder of a referencing resource's permission; a name search or every option needs the resource's own", async () => {
      const tag = await create('/label', { title: 'Picked' });
      const yard = await create('/depot', { name: 'Yard' });
      const options = async (path: string) => {
        const answer = await server.call('GET', path, { token: crateViewer });
        return answer.body.resCode === '00000' ? answer.body.resData : answer.body.resCode;
      };
      expect(await options(`/label/list?ids=${tag}`)).toEqual([{ id: tag, name: 'Picked' }]);
      expect(await options(`/depot/list?ids=${yard}`)).toEqual([{ id: yard, name: 'Yard' }]);
      expect(await options('/label/list?nameLike=Pick')).toBe('4003');
      expect(await options(`/label/list?ids=${tag}&nameLike=Pick`)).toBe('4003');
      expect(await options('/label/list')).toBe('4003');
      // the shelf is nobody's reference: its picker stays its own
      expect(await options('/shelf/list?ids=1')).toBe('4003');
    });

    it("searches the picker's names as the model's name field says where the start prepared one", () => {
      const caller = { principal: { licenseAccountId: home } } as unknown as Caller;
      const model = buildModel(label, TABLES);
      const text = () => readOptions(server.db, model, caller, { nameLike: 'Pi' }).toSQL().sql;
      expect(text()).toContain('strpos(lower("label"."title"), lower($2)) > 0');
      model.shortContains.title = (text) => sql`strpos("label"."title__folded", lower(${text})) > 0`;
      expect(text()).toContain('strpos("label"."title__folded", lower($2)) > 0');
    });

    it('answers the kept total without filters, even out of step with the rows, and the filtered count with one', async () => {
      const caller = { principal: { licenseAccountId: home } } as unknown as Caller;
      const kept = buildModel(crate, TABLES, { ...hooks.crate, scopeTotal: () => sql`1000` });
      for (const code of ['kt1', 'kt2']) await create('/crate', { code, kind: 'b' });
      expect((await readPage(server.db, kept, caller, { pageNum: 1, pageSize: 20 })).total).toBe(1000);
      const filtered = await readPage(server.db, kept, caller, { pageNum: 1, pageSize: 20, codeIn: ['kt1', 'kt2', 'none'] });
      expect([filtered.total, filtered.list.map((row) => row.code).sort()]).toEqual([2, ['kt1', 'kt2']]);
    });

    it("hands hooks the write's transaction (rows as the write left them), the caller, the model and the registry", async () => {
      hookSightings.length = 0;
      const id = await create('/crate', { code: 'seen', size: 1 });
      expect((await server.call('PUT', '/crate', { token: admin, body: { id, code: 'watched' } })).body.resCode).toBe('00000');
      expect((await server.call('DELETE', `/crate?id=${id}`, { token: admin })).body.resCode).toBe('00000');
      const seen = { resource: 'crate', userId: adminId, models: ['depot', 'label', 'crate'], rows: [{ id, code: 'watched' }] };
      expect(hookSightings).toEqual([seen, seen]);
    });

    it("answers a record its own write has just moved out of the caller's scope; a read afterwards does not", async () => {
      const created = await server.call('POST', '/shelf', { token: admin, body: { name: 'hidden at once' } });
      expect([created.body.resCode, created.body.resData?.name]).toEqual(['00000', 'hidden at once']);
      const id = await create('/shelf', { name: 'in sight' });
      const moved = await server.call('PUT', '/shelf', { token: admin, body: { id, name: 'hidden later' } });
      expect([moved.body.resCode, moved.body.resData?.name]).toEqual(['00000', 'hidden later']);
      expect((await server.call('GET', `/shelf/${id}`, { token: admin })).body.resCode).toBe('2003');
      expect((await server.call('GET', `/depot/${id}`, { token: admin })).body.resData.name).toBe('hidden later');
    });

    it("reads the id of a declaration without an id field; answers a new model's records with their id; reads no join a writeOnly field would hide", async () => {
      const id = await create('/crate', { code: 'wire', labels: [await create('/label', { title: 'Wired' })] });
      const { id: _declaredId, ...withoutId } = crate.fields;
      const where = eq(crateTable.id, id);
      const [plain] = await readRecords(server.db, buildModel({ ...crate, fields: withoutId }, TABLES), { where });
      expect(plain).toMatchObject({ id, code: 'wire' });
      expect(Object.keys((await readRecords(server.db, buildModel(label, TABLES), { limit: 1 }))[0])).toEqual(['id', 'title']);
      const reads = async (labels: FieldDeclaration) => {
        const counting = countingDb(server.db);
        const [record] = await readRecords(counting.db, buildModel({ ...crate, fields: { ...crate.fields, labels } }, TABLES), { where });
        return [counting.selects(), 'labels' in record];
      };
      expect(await reads(crate.fields.labels)).toEqual([2, true]);
      expect(await reads({ ...crate.fields.labels, writeOnly: true })).toEqual([1, false]);
    });

    it('registers only the routes a declaration permits, each checking its permission (an instance built in this test)', async () => {
      const other: FastifyInstance = await server.anotherInstance({ ...OPTIONS, resources: [...OPTIONS.resources, bare] });
      const call = async (method: 'GET' | 'POST', url: string, token: string, payload?: Record<string, unknown>) => {
        const answer = await other.inject({ method, url: `/test-api${url}`, headers: { 'rvm-token': token }, ...(payload ? { payload } : {}) });
        return { status: answer.statusCode, type: String(answer.headers['content-type']), body: answer.body, json: () => answer.json() };
      };
      const id = await create('/crate', { code: 'second' });
      // no page and no picker for a resource that may only be deleted
      expect((await call('POST', '/bare/page', admin, {})).status).toBe(404);
      expect((await call('GET', '/bare/list', admin)).status).toBe(404);
      expect((await call('POST', '/bare/export', admin, {})).status).toBe(404);
      // each route checks its own permission
      expect((await call('POST', '/crate/page', crateViewer, { codeIn: ['second'] })).json().resData.total).toBe(1);
      expect((await call('POST', '/crate/batchDelete', crateViewer, { ids: [id] })).json().resCode).toBe('4003');
      expect((await call('GET', `/crate/${id}`, admin)).json().resData).toMatchObject({ id, code: 'second' });
      const exported = await call('POST', '/crate/export', admin, { format: 'csv', columns: ['code'], codeIn: ['second'] });
      expect([exported.type, exported.body.replace(/^\uFEFF/, '').split('\r\n')[1]]).toEqual(['text/csv; charset=utf-8', 'second']);
      expect((await call('POST', '/crate/batchDelete', admin, { ids: [id] })).json().resData).toEqual({ deleted: 1 });
      // the labels' picker names the permissions that open it, the deletable crates' among them
      const docs = (await other.inject({ method: 'GET', url: '/test-api/docs/json' })).json() as { paths: Record<string, Record<string, { description: string }>> };
      expect(docs.paths['/test-api/depot/list'].get.description).toMatch(/, bare:delete \(superAdmin passes\)\.$/);
    });
  },
  OPTIONS,
);
