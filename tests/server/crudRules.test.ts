// The generic CRUD engine (server/crud) through a fixture trio the product does not have: crates
// (account-scoped, every filter operator, a cascade reference, a setNull multiReference, server-set
// creator and time) in depots (global, a tree and a self-reference) with labels (account-scoped).
import { eq, sql } from 'drizzle-orm';
import { boolean, integer, pgTable, primaryKey, timestamp, uniqueIndex, varchar } from 'drizzle-orm/pg-core';
import { beforeAll, expect, it } from 'vitest';
import { translate } from '../../i18n';
import { RESOURCES } from '../../resources';
import { defineResource } from '../../resources/types';
import { licenseAccountUserRelation, sysUser } from '../../server/db/schema';
import { uniqueViolation, withDefaults } from '../../server/crud/integrity';
import { buildModel } from '../../server/crud/model';
import { expressionOf, likePattern } from '../../server/crud/query';
import { AppError } from '../../server/lib/errors';
import { describeBackends } from './helpers';

const depot = defineResource({
  name: 'depot', apiPath: '/depot', route: '/service/depot', menuId: 606, table: 'depot', nameField: 'name', scope: 'global',
  fields: {
    id: { type: 'number', readOnly: true },
    name: { type: 'text', required: true, maxLength: 32 },
    parentId: { type: 'treeParent', reference: 'depot' },
    twinId: { type: 'reference', reference: 'depot' },
  },
  list: { columns: ['name'], defaultSort: { field: 'name', order: 'ASC' }, filters: [] },
  permissions: { page: 'depot:page', show: 'depot:page', create: 'depot:add', edit: 'depot:edit', delete: 'depot:delete' },
  permissionIds: { 'depot:page': 60601, 'depot:add': 60602, 'depot:edit': 60603, 'depot:delete': 60604 },
});

const label = defineResource({
  name: 'label', apiPath: '/label', route: '/service/label', menuId: 607, table: 'label', nameField: 'title', scope: 'licenseAccount',
  fields: { id: { type: 'number', readOnly: true }, title: { type: 'text', required: true, maxLength: 32 } },
  list: { columns: ['title'], defaultSort: { field: 'title', order: 'ASC' }, filters: [] },
  permissions: { page: 'label:page', show: 'label:page', create: 'label:add', delete: 'label:delete' },
  permissionIds: { 'label:page': 60701, 'label:add': 60702, 'label:delete': 60703 },
});

const crate = defineResource({
  name: 'crate', apiPath: '/crate', route: '/service/crate', menuId: 608, table: 'crate', nameField: 'code', scope: 'licenseAccount',
  fields: {
    id: { type: 'number', readOnly: true, sortable: true },
    code: { type: 'text', required: true, maxLength: 20, sortable: true },
    size: { type: 'number', integer: true, sortable: true },
    capacity: { type: 'number', integer: true },
    kind: { type: 'enum', options: ['a', 'b'] },
    packedAt: { type: 'datetime' },
    depotId: { type: 'reference', reference: 'depot', onDelete: 'cascade' },
    labels: { type: 'multiReference', reference: 'label', through: { table: 'crate_label', from: 'crate_id', to: 'label_id' }, onDelete: 'setNull' },
    creator: { type: 'reference', reference: 'user', readOnly: true },
    /** readOnly but not a user: the server leaves it empty (only a reference to a user is the creator). */
    sealedBy: { type: 'reference', reference: 'depot', readOnly: true },
    /** readOnly datetime without a column default: only the server's create time fills it. */
    sealedAt: { type: 'datetime', readOnly: true },
    createTime: { type: 'datetime', readOnly: true },
  },
  list: {
    columns: ['code', 'size', 'kind', 'depotId', 'labels'],
    defaultSort: { field: 'code', order: 'DESC' },
    filters: [
      { name: 'codeIn', field: 'code', operator: 'in' },
      { name: 'kind', field: 'kind', operator: 'eq' },
      { name: 'sizeAtLeast', field: 'size', operator: 'gte' },
      { name: 'sizeAtMost', field: 'size', operator: 'lte' },
      { name: 'packed', field: 'packedAt', operator: 'range' },
    ],
  },
  rules: [{ kind: 'notGreaterThan', field: 'size', other: 'capacity', message: 'fleet.validation.almostFullNotAboveFull' }],
  permissions: { page: 'crate:page', show: 'crate:page', create: 'crate:add', edit: 'crate:edit', delete: 'crate:delete', export: 'crate:export' },
  permissionIds: { 'crate:page': 60801, 'crate:add': 60802, 'crate:edit': 60803, 'crate:delete': 60804, 'crate:export': 60805 },
});

const depotTable = pgTable('depot', {
  id: integer('id').primaryKey().generatedByDefaultAsIdentity(),
  name: varchar('name', { length: 32 }).notNull(),
  parentId: integer('parent_id'),
  twinId: integer('twin_id'),
});
const labelTable = pgTable('label', {
  id: integer('id').primaryKey().generatedByDefaultAsIdentity(),
  licenseAccountId: integer('license_account_id').notNull(),
  title: varchar('title', { length: 32 }).notNull(),
});
const crateTable = pgTable('crate', {
  id: integer('id').primaryKey().generatedByDefaultAsIdentity(),
  licenseAccountId: integer('license_account_id').notNull(),
  code: varchar('code', { length: 20 }).notNull(),
  size: integer('size'),
  capacity: integer('capacity'),
  kind: varchar('kind', { length: 1 }),
  packedAt: timestamp('packed_at', { withTimezone: true }),
  depotId: integer('depot_id'),
  creator: integer('creator'),
  sealedBy: integer('sealed_by'),
  sealedAt: timestamp('sealed_at', { withTimezone: true }),
  createTime: timestamp('create_time', { withTimezone: true }).notNull().defaultNow(),
});
// `pinned`: a join row's own column, which an edit keeping the link must keep
const crateLabelTable = pgTable('crate_label', { crateId: integer('crate_id').notNull(), labelId: integer('label_id').notNull(), pinned: boolean('pinned').notNull().default(false) }, (t) => [
  primaryKey({ columns: [t.crateId, t.labelId] }),
]);

/** A refusal after the insert and the join rows: the whole write must roll back. */
const hooks = {
  crate: {
    afterCreate: async (_context: unknown, _id: number, input: Record<string, unknown>) => {
      if (input.code === 'refused') throw new AppError('5002');
    },
    afterUpdate: async (_context: unknown, _id: number, input: Record<string, unknown>) => {
      if (input.size === 13) throw new AppError('5002');
    },
  },
};

describeBackends(
  'the generic CRUD engine',
  (server) => {
    let admin: string;
    let adminId: number;
    const code = (answer: { body: { resCode: string } }) => answer.body.resCode;
    const codes = async (body: Record<string, unknown>) => {
      const answer = await server.call('POST', '/crate/page', { token: admin, body: { codeIn: ['c1', 'c2', 'c3', 'c4', 'c5'], ...body } });
      expect(code(answer)).toBe('00000');
      return answer.body.resData.list.map((row: { code: string }) => row.code) as string[];
    };
    const create = async (path: string, body: Record<string, unknown>) => {
      const answer = await server.call('POST', path, { token: admin, body });
      expect([path, code(answer)]).toEqual([path, '00000']);
      return answer.body.resData.id as number;
    };
    const labelsOfCrate = async (id: number) => (await server.call('GET', `/crate/${id}`, { token: admin })).body.resData.labels as number[];

    beforeAll(async () => {
      // What a migration would do; no foreign key cascades: the declaration decides.
      await server.db.execute(sql`create table if not exists depot (id integer generated by default as identity primary key,
        name varchar(32) not null, parent_id integer, twin_id integer)`);
      await server.db.execute(sql`create table if not exists label (id integer generated by default as identity primary key,
        license_account_id integer not null references license_account(id), title varchar(32) not null)`);
      await server.db.execute(sql`create table if not exists crate (id integer generated by default as identity primary key,
        license_account_id integer not null references license_account(id), code varchar(20) not null, size integer, capacity integer, kind varchar(1),
        packed_at timestamptz, depot_id integer references depot(id), creator integer, sealed_by integer, sealed_at timestamptz, create_time timestamptz not null default now())`);
      await server.db.execute(sql`create table if not exists crate_label (crate_id integer not null references crate(id) on delete cascade,
        label_id integer not null references label(id), pinned boolean not null default false, primary key (crate_id, label_id))`);
      admin = await server.login();
      adminId = (await server.call('GET', '/login/current', { token: admin })).body.resData.userId;
      const sizes = [3, 1, 3, 2, 5];
      const packed = ['2024-01-01T00:00:00Z', '2024-02-01T00:00:00Z', '2024-03-01T00:00:00Z', null, '2024-04-01T00:00:00Z'];
      for (let index = 0; index < 5; index++) {
        await create('/crate', { code: `c${index + 1}`, size: sizes[index], kind: index % 2 ? 'b' : 'a', packedAt: packed[index] });
      }
    });

    it('sorts either way with the id breaking ties, by the declared default sort, and pages by offset', async () => {
      expect(await codes({ sort: 'size', order: 'ASC' })).toEqual(['c2', 'c4', 'c1', 'c3', 'c5']);
      expect(await codes({ sort: 'size', order: 'DESC' })).toEqual(['c5', 'c3', 'c1', 'c4', 'c2']);
      expect(await codes({})).toEqual(['c5', 'c4', 'c3', 'c2', 'c1']);
      // a sort without an order is ascending (the default sort's order belongs to the default field)
      expect(await codes({ sort: 'code' })).toEqual(['c1', 'c2', 'c3', 'c4', 'c5']);
      expect(await codes({ sort: 'id', order: 'DESC' })).toEqual(['c5', 'c4', 'c3', 'c2', 'c1']);
      const page = await server.call('POST', '/crate/page', { token: admin, body: { codeIn: ['c1', 'c2', 'c3', 'c4', 'c5'], sort: 'code', pageNum: 2, pageSize: 2 } });
      expect(page.body.resData).toMatchObject({ total: 5, pageNum: 2, pageSize: 2 });
      expect(page.body.resData.list.map((row: { code: string }) => row.code)).toEqual(['c3', 'c4']);
    });

    it('filters: in ignores blank values, gte and lte include the bound, range takes either bound, a bad date answers 1003', async () => {
      expect(await codes({ codeIn: ['c3', '', 'c1'], sort: 'code' })).toEqual(['c1', 'c3']);
      // nothing but blanks is no filter (not "none of them")
      expect(await codes({ codeIn: [''], sort: 'code', pageSize: 100 })).toEqual(expect.arrayContaining(['c1', 'c2', 'c3', 'c4', 'c5']));
      expect(await codes({ kind: 'b', sort: 'code' })).toEqual(['c2', 'c4']);
      expect(await codes({ sizeAtLeast: 3, sort: 'code' })).toEqual(['c1', 'c3', 'c5']);
      expect(await codes({ sizeAtMost: 2, sort: 'code' })).toEqual(['c2', 'c4']);
      expect(await codes({ packed: ['2024-02-01T00:00:00Z', null], sort: 'code' })).toEqual(['c2', 'c3', 'c5']);
      expect(await codes({ packed: [null, '2024-02-01T00:00:00Z'], sort: 'code' })).toEqual(['c1', 'c2']);
      expect(await codes({ packed: ['2024-02-01T00:00:00Z', '2024-03-01T00:00:00Z'], sort: 'code' })).toEqual(['c2', 'c3']);
      const bad = await server.call('POST', '/crate/page', { token: admin, body: { packed: ['soon', null] } });
      expect([code(bad), bad.body.resData.issues]).toEqual(['1003', [{ field: 'packed', message: translate('en', 'validation.date') }]]);
    });

    it('offers options by ids and name part together, in name order with the id breaking ties, at most 50', async () => {
      const first = await create('/label', { title: 'Twin' });
      const second = await create('/label', { title: 'Twin' });
      const alpha = await create('/label', { title: 'Alpha' });
      await server.db.execute(sql`insert into label (license_account_id, title)
        select license_account_id, 'Bulk ' || lpad(g::text, 2, '0') from label, generate_series(1, 50) g where id = ${alpha}`);
      const options = async (query: string) => (await server.call('GET', `/label/list?${query}`, { token: admin })).body.resData as Array<{ id: number; name: string }>;
      expect(await options('nameLike=tWIN')).toEqual([{ id: first, name: 'Twin' }, { id: second, name: 'Twin' }]);
      expect(await options(`nameLike=twin&ids=${second},${alpha}`)).toEqual([{ id: second, name: 'Twin' }]);
      expect(await options(`ids=${alpha}, ${first}`)).toEqual([{ id: alpha, name: 'Alpha' }, { id: first, name: 'Twin' }]);
      const all = await options('');
      expect(all).toHaveLength(50);
      expect(all.slice(0, 2).map((option) => option.name)).toEqual(['Alpha', 'Bulk 01']);
    });

    it('sets the creator, the time and the account; stores join ids once each, in order; edits them exactly', async () => {
      const [l1, l2, l3] = [await create('/label', { title: 'L1' }), await create('/label', { title: 'L2' }), await create('/label', { title: 'L3' })];
      const created = await server.call('POST', '/crate', { token: admin, body: { code: 'j1', labels: [l2, l1, l2] } });
      expect(created.body.resData).toMatchObject({ code: 'j1', labels: [l1, l2], creator: adminId, sealedBy: null, size: null, packedAt: null });
      expect(Date.now() - Date.parse(created.body.resData.sealedAt)).toBeLessThan(60_000);
      const id = created.body.resData.id as number;
      // a datetime set and emptied again is stored empty (not 1970)
      expect((await server.call('PUT', '/crate', { token: admin, body: { id, packedAt: '2024-05-01T00:00:00Z' } })).body.resData.packedAt).toBe('2024-05-01T00:00:00.000Z');
      expect((await server.call('PUT', '/crate', { token: admin, body: { id, packedAt: null } })).body.resData.packedAt).toBeNull();
      await server.db.execute(sql`update crate_label set pinned = true where crate_id = ${id} and label_id = ${l1}`);
      expect((await server.call('PUT', '/crate', { token: admin, body: { id, labels: [l3, l1] } })).body.resData.labels).toEqual([l1, l3]);
      // the link kept is the same row (its own column survives), not deleted and inserted again
      const pinned = await server.db.execute(sql`select label_id from crate_label where crate_id = ${id} and pinned`);
      expect((pinned as { rows: Array<{ label_id: number }> }).rows).toEqual([{ label_id: l1 }]);
      expect((await server.call('PUT', '/crate', { token: admin, body: { id, size: 4 } })).body.resData).toMatchObject({ size: 4, labels: [l1, l3] });
      expect((await server.call('PUT', '/crate', { token: admin, body: { id, labels: [] } })).body.resData.labels).toEqual([]);
      // an unknown label is refused on the field and nothing is written
      const unknown = await server.call('PUT', '/crate', { token: admin, body: { id, size: 6, labels: [l1, 999999] } });
      expect([code(unknown), unknown.body.resData.issues]).toEqual(['1004', [{ field: 'labels', message: translate('en', 'validation.reference') }]]);
      // a field required on create is required with a value (null is no password)
      const nullPassword = await server.call('POST', '/user', { token: admin, body: { name: 'nullpass', realname: 'Null', password: null, confirmPassword: null } });
      expect([code(nullPassword), nullPassword.body.resData.issues.map((issue: { field: string }) => issue.field)]).toEqual(['1001', ['password', 'confirmPassword']]);
      expect((await server.call('GET', `/crate/${id}`, { token: admin })).body.resData).toMatchObject({ size: 4, labels: [] });
    });

    it('checks cross-field rules on the record as it will be stored, not only on the fields sent', async () => {
      const id = await create('/crate', { code: 'ruled', size: 3, capacity: 5 });
      const over = await server.call('PUT', '/crate', { token: admin, body: { id, size: 6 } });
      expect([code(over), over.body.resData.issues.map((issue: { field: string }) => issue.field)]).toEqual(['1004', ['size']]);
      expect((await server.call('PUT', '/crate', { token: admin, body: { id, size: 5 } })).body.resData).toMatchObject({ size: 5, capacity: 5 });
    });

    it('rolls the whole write back when a hook refuses after the insert', async () => {
      const l1 = await create('/label', { title: 'Rollback' });
      const before = await server.db.execute(sql`select count(*)::int as n from crate_label`);
      const refused = await server.call('POST', '/crate', { token: admin, body: { code: 'refused', labels: [l1] } });
      expect(code(refused)).toBe('5002');
      expect(await codes({ codeIn: ['refused'] })).toEqual([]);
      expect(await server.db.execute(sql`select count(*)::int as n from crate_label`)).toMatchObject({ rows: (before as { rows: unknown[] }).rows });
      const id = await create('/crate', { code: 'kept', size: 1 });
      expect(code(await server.call('PUT', '/crate', { token: admin, body: { id, size: 13, labels: [l1] } }))).toBe('5002');
      expect((await server.call('GET', `/crate/${id}`, { token: admin })).body.resData).toMatchObject({ size: 1, labels: [] });
    });

    it('refuses a tree parent that is the record itself or below it (1004 treeCycle)', async () => {
      const top = await create('/depot', { name: 'Top' });
      const middle = await create('/depot', { name: 'Middle', parentId: top });
      const bottom = await create('/depot', { name: 'Bottom', parentId: middle });
      for (const parentId of [top, bottom, middle]) {
        const cycle = await server.call('PUT', '/depot', { token: admin, body: { id: top, parentId } });
        expect([parentId, code(cycle), cycle.body.resData.issues]).toEqual([parentId, '1004', [{ field: 'parentId', message: translate('en', 'validation.treeCycle') }]]);
      }
      expect((await server.call('PUT', '/depot', { token: admin, body: { id: bottom, parentId: top } })).body.resData.parentId).toBe(top);
      expect((await server.call('PUT', '/depot', { token: admin, body: { id: bottom, parentId: null } })).body.resData.parentId).toBeNull();
      // a cycle already stored (written around the API) ends the walk up instead of looping for ever
      await server.db.execute(sql`update depot set parent_id = ${middle} where id = ${top}`);
      const outside = await create('/depot', { name: 'Outside' });
      const looped = await server.call('PUT', '/depot', { token: admin, body: { id: outside, parentId: top } });
      expect([code(looped), looped.body.resData.issues[0].field]).toEqual(['1004', 'parentId']);
      await server.db.execute(sql`update depot set parent_id = null where id = ${top}`);
    });

    it('deletes referencing records (cascade), empties join rows (setNull), lets a self-referencing batch go', async () => {
      const doomed = await create('/depot', { name: 'Doomed' });
      const spared = await create('/depot', { name: 'Spared' });
      const inside = await create('/crate', { code: 'inside', depotId: doomed });
      const outside = await create('/crate', { code: 'outside', depotId: spared });
      expect(code(await server.call('DELETE', `/depot?id=${doomed}`, { token: admin }))).toBe('00000');
      expect(code(await server.call('GET', `/crate/${inside}`, { token: admin }))).toBe('2003');
      expect((await server.call('GET', `/crate/${outside}`, { token: admin })).body.resData.depotId).toBe(spared);

      const [gone, stays] = [await create('/label', { title: 'Gone' }), await create('/label', { title: 'Stays' })];
      const labelled = await create('/crate', { code: 'labelled', labels: [gone, stays] });
      expect(code(await server.call('DELETE', `/label?id=${gone}`, { token: admin }))).toBe('00000');
      expect(await labelsOfCrate(labelled)).toEqual([stays]);

      const original = await create('/depot', { name: 'Original' });
      const twin = await create('/depot', { name: 'Twin', twinId: original });
      const refused = await server.call('DELETE', `/depot?id=${original}`, { token: admin });
      expect(refused.body).toMatchObject({ resCode: '5002', resData: { issues: [{ field: 'depot', message: 'Still used by 1 depot' }] } });
      const both = await server.call('POST', '/depot/batchDelete', { token: admin, body: { ids: [twin, original, twin] } });
      expect(both.body.resData).toEqual({ deleted: 2 });
    });

    it('exports references and join ids as their labels, empty cells for null, in the columns asked for', async () => {
      const depotId = await create('/depot', { name: 'Export depot' });
      const [red, blue] = [await create('/label', { title: 'Red' }), await create('/label', { title: 'Blue' })];
      await create('/crate', { code: 'x1', kind: 'b', depotId, labels: [blue, red] });
      const { raw } = await server.call('POST', '/crate/export', {
        token: admin,
        body: { format: 'csv', codeIn: ['x1'], columns: ['code', 'size', 'kind', 'depotId', 'labels'] },
      });
      expect(raw.payload.split('\r\n')[1]).toBe('x1,,b,Export depot,"Red, Blue"');
    });

    it('keeps other accounts out: 2003 on read, edit and delete, a batch with a foreign id deletes nothing; no account: 5001', async () => {
      const own = await create('/crate', { code: 'own' });
      const home = (await server.call('GET', '/login/current', { token: admin })).body.resData.licenseAccountId as number;
      const away = await create('/license-account', { licenseAccountName: 'Crates elsewhere' });
      await server.call('PUT', `/license-account-user-relation?id=${away}`, { token: admin });
      const foreign = await create('/crate', { code: 'foreign' });
      await server.call('PUT', `/license-account-user-relation?id=${home}`, { token: admin });
      expect(code(await server.call('GET', `/crate/${foreign}`, { token: admin }))).toBe('2003');
      expect(code(await server.call('PUT', '/crate', { token: admin, body: { id: foreign, size: 1 } }))).toBe('2003');
      expect(code(await server.call('DELETE', `/crate?id=${foreign}`, { token: admin }))).toBe('2003');
      expect(code(await server.call('POST', '/crate/batchDelete', { token: admin, body: { ids: [own, foreign] } }))).toBe('2003');
      expect((await server.call('GET', `/crate/${own}`, { token: admin })).body.resData.code).toBe('own');
      expect(await codes({ codeIn: ['own', 'foreign'] })).toEqual(['own']);
      // a reference to another account's label is no reference
      const foreignLabel = await server.db.execute(sql`insert into label (license_account_id, title) values (${away}, 'Far') returning id`);
      const farId = (foreignLabel as { rows: Array<{ id: number }> }).rows[0].id;
      expect(code(await server.call('POST', '/crate', { token: admin, body: { code: 'far', labels: [farId] } }))).toBe('1004');

      // a superAdmin outside every account sees no account-scoped row and cannot create one
      const drifterId = await server.createUser({ name: 'drifter' }, admin);
      await server.db.update(sysUser).set({ superAdmin: true }).where(eq(sysUser.id, drifterId));
      await server.db.delete(licenseAccountUserRelation).where(eq(licenseAccountUserRelation.userId, drifterId));
      const drifter = await server.login('drifter', 'Passw0rd!');
      expect((await server.call('POST', '/crate/page', { token: drifter, body: {} })).body.resData.total).toBe(0);
      expect(code(await server.call('POST', '/crate', { token: drifter, body: { code: 'nowhere' } }))).toBe('5001');
      // a global resource needs no account
      expect(code(await server.call('POST', '/depot', { token: drifter, body: { name: 'Anywhere' } }))).toBe('00000');
    });
  },
  {
    resources: [...RESOURCES, depot, label, crate],
    tables: { depot: depotTable, label: labelTable, crate: crateTable, crate_label: crateLabelTable },
    hooks,
  },
);

// Without a server: the rules that need no database.
const stamp = defineResource({
  name: 'stamp', apiPath: '/stamp', route: '/service/stamp', menuId: 609, table: 'stamp', nameField: 'code', scope: 'global',
  fields: {
    id: { type: 'number', readOnly: true },
    code: { type: 'text', unique: true, defaultValue: 'NEW' },
    serial: { type: 'text', unique: true },
    inked: { type: 'boolean', defaultValue: true },
    stampedAt: { type: 'datetime', readOnly: true, defaultValue: '2024-01-01T00:00:00Z' },
  },
  list: { columns: ['code'], defaultSort: { field: 'code', order: 'ASC' }, filters: [] },
  permissions: { page: 'stamp:page' },
  permissionIds: { 'stamp:page': 60901 },
});
const stampTable = pgTable(
  'stamp',
  { id: integer('id').primaryKey(), code: varchar('code'), serial: varchar('serial'), inked: boolean('inked'), stampedAt: timestamp('stamped_at') },
  (t) => [uniqueIndex('stamp_code_serial_uq').on(t.code, t.serial)],
);
const stampModel = buildModel(stamp, { stamp: stampTable });

it('names the unique field of a violation: the one sent, from the index found up to 3 causes deep; otherwise no 2002', () => {
  const issuesOf = (error: unknown, input: Record<string, unknown>) => uniqueViolation(stampModel, error, input, 'en')?.issues;
  const violation = { code: '23505', constraint: 'stamp_code_serial_uq' };
  expect(issuesOf(violation, { serial: 'S-1' })).toEqual([{ field: 'serial', message: 'validation.unique', values: { label: 'serial', value: 'S-1' } }]);
  expect(issuesOf(violation, { code: null })).toEqual([{ field: 'code', message: 'validation.unique', values: { label: 'code', value: '' } }]);
  expect(issuesOf(violation, {})?.[0].field).toBe('code');
  expect(uniqueViolation(stampModel, violation, { code: 'C' }, 'en')?.code).toBe('2002');
  expect(issuesOf({ code: '23505', cause: { cause: { cause: { constraint: 'stamp_code_serial_uq' } } } }, { serial: 'S' })?.[0].field).toBe('serial');
  // deeper, or an index nobody declared, with two unique fields to choose from: not guessed
  expect(issuesOf({ code: '23505', cause: { cause: { cause: { cause: { constraint: 'stamp_code_serial_uq' } } } } }, { serial: 'S' })).toBeUndefined();
  expect(issuesOf({ code: '23505', constraint: 'made_at_run_time_uq' }, { serial: 'S' })).toBeUndefined();
  expect(uniqueViolation(stampModel, { code: '23503', constraint: 'stamp_code_serial_uq' }, { serial: 'S' }, 'en')).toBeNull();
});

it('fills declared defaults of absent writable fields only', () => {
  expect(withDefaults(stampModel, { inked: false })).toEqual({ inked: false, code: 'NEW' });
  expect(withDefaults(stampModel, { code: null })).toEqual({ code: null, inked: true });
});

it('escapes the LIKE wildcards and the escape character; refuses an expression for a field that has none', () => {
  expect(likePattern('a\\b%c_d')).toBe('%a\\\\b\\%c\\_d%');
  expect(() => expressionOf(stampModel, 'nowhere')).toThrow('stamp.nowhere is neither a column nor computed');
});
