// The fixture of the generic CRUD engine's suites (crudRules, crudRoutes): a trio the product does not have.
// Crates (account-scoped, every filter operator, a cascade reference, a setNull multiReference, server-set
// creator and time) in depots (global, a tree and a self-reference, computed fields) with labels
// (account-scoped, a kept total); their tables as a migration would create them, and their hooks.
import { inArray, sql } from 'drizzle-orm';
import { boolean, date, integer, pgTable, primaryKey, timestamp, varchar } from 'drizzle-orm/pg-core';
import { defineResource } from '../../resources/types';
import type { Caller } from '../../server/auth/principal';
import type { Db } from '../../server/db/client';
import type { HookContext } from '../../server/crud/hooks';
import { AppError } from '../../server/lib/errors';

export const depot = defineResource({
  name: 'depot',
  apiPath: '/depot',
  route: '/service/depot',
  menuId: 606,
  table: 'depot',
  nameField: 'name',
  scope: 'global',
  fields: {
    id: { type: 'number', readOnly: true },
    name: { type: 'text', required: true, maxLength: 32 },
    parentId: { type: 'treeParent', reference: 'depot' },
    twinId: { type: 'reference', reference: 'depot' },
    /** Computed by the hook (below): how many depots have this one as parent; the name marked (a computed field with a parameter). */
    children: { type: 'number', integer: true, readOnly: true, sortable: true },
    marked: { type: 'text', readOnly: true },
  },
  list: { columns: ['name'], defaultSort: { field: 'name', order: 'ASC' }, filters: [] },
  permissions: { page: 'depot:page', show: 'depot:page', create: 'depot:add', edit: 'depot:edit', delete: 'depot:delete' },
  permissionIds: { 'depot:page': 6069901, 'depot:add': 6069902, 'depot:edit': 6069903, 'depot:delete': 6069904 },
});

export const label = defineResource({
  name: 'label',
  apiPath: '/label',
  route: '/service/label',
  menuId: 615, // under generateConfigFile; its buttons' ids <menu>99nn never meet a product button's <menu>nn
  table: 'label',
  nameField: 'title',
  scope: 'licenseAccount',
  fields: { id: { type: 'number', readOnly: true }, title: { type: 'text', required: true, maxLength: 32 } },
  list: { columns: ['title'], defaultSort: { field: 'title', order: 'ASC' }, filters: [] },
  permissions: { page: 'label:page', show: 'label:page', create: 'label:add', delete: 'label:delete' },
  permissionIds: { 'label:page': 6159901, 'label:add': 6159902, 'label:delete': 6159903 },
});

export const crate = defineResource({
  name: 'crate',
  apiPath: '/crate',
  route: '/service/crate',
  menuId: 622, // under imageClassify, buttons <menu>99nn
  table: 'crate',
  nameField: 'code',
  scope: 'licenseAccount',
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
    /** readOnly date: the server's create day, as for a datetime. */
    sealedOn: { type: 'date', readOnly: true },
    /** A reference to a resource this server does not have: nothing to check it against. */
    outsideId: { type: 'reference', reference: 'outsider' },
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
      { name: 'sealedFrom', field: 'sealedOn', operator: 'gte' },
      { name: 'codeLike', field: 'code', operator: 'like' },
    ],
  },
  rules: [{ kind: 'notGreaterThan', field: 'size', other: 'capacity', message: 'fleet.validation.almostFullNotAboveFull' }],
  permissions: { page: 'crate:page', show: 'crate:page', create: 'crate:add', edit: 'crate:edit', delete: 'crate:delete', export: 'crate:export' },
  permissionIds: { 'crate:page': 6229901, 'crate:add': 6229902, 'crate:edit': 6229903, 'crate:delete': 6229904, 'crate:export': 6229905 },
});

export const depotTable = pgTable('depot', {
  id: integer('id').primaryKey().generatedByDefaultAsIdentity(),
  name: varchar('name', { length: 32 }).notNull(),
  parentId: integer('parent_id'),
  twinId: integer('twin_id'),
});
export const labelTable = pgTable('label', {
  id: integer('id').primaryKey().generatedByDefaultAsIdentity(),
  licenseAccountId: integer('license_account_id').notNull(),
  title: varchar('title', { length: 32 }).notNull(),
});
export const crateTable = pgTable('crate', {
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
  sealedOn: date('sealed_on'),
  outsideId: integer('outside_id'),
  createTime: timestamp('create_time', { withTimezone: true }).notNull().defaultNow(),
  /** Declared only by the export's own view of the crate (exportCrate below). */
  fragile: boolean('fragile'),
});
// `pinned`: a join row's own column, which an edit keeping the link must keep
export const crateLabelTable = pgTable(
  'crate_label',
  { crateId: integer('crate_id').notNull(), labelId: integer('label_id').notNull(), pinned: boolean('pinned').notNull().default(false) },
  (t) => [primaryKey({ columns: [t.crateId, t.labelId] })],
);

export const TABLES = { depot: depotTable, label: labelTable, crate: crateTable, crate_label: crateLabelTable };

/** A database whose selects are counted, and which fails from the `failAt`-th select on. */
export const countingDb = (db: Db, failAt = Number.POSITIVE_INFINITY) => {
  let selects = 0;
  const counted = new Proxy(db, {
    get: (target, property) => {
      if (property !== 'select') return Reflect.get(target, property);
      return (...args: Parameters<Db['select']>) => {
        selects += 1;
        if (selects >= failAt) throw new Error('database gone');
        return target.select(...args);
      };
    },
  });
  return { db: counted, selects: () => selects };
};

/** What a crate hook saw of its context: the write's transaction (the rows as the write left them), caller, model and registry. */
export interface HookSighting {
  resource: string;
  userId: number;
  models: string[];
  rows: Array<{ id: number; code: string }>;
}
export const hookSightings: HookSighting[] = [];
const sighting = async ({ tx, caller, model, models }: HookContext, ids: number[]): Promise<HookSighting> => ({
  resource: model.declaration.name,
  userId: caller.userId,
  models: [...models.keys()].filter((name) => ['crate', 'depot', 'label'].includes(name)),
  rows: await tx.select({ id: crateTable.id, code: crateTable.code }).from(crateTable).where(inArray(crateTable.id, ids)).orderBy(crateTable.id),
});

/** A refusal after the insert and the join rows: the whole write must roll back; watched writes and every delete are seen. */
export const hooks = {
  depot: {
    computed: () => ({
      children: sql<number>`(select count(*) from depot child where child.parent_id = ${depotTable.id})`.mapWith(Number),
      marked: sql<string>`(${depotTable.name} || ${' *'})`,
    }),
  },
  /** The label count of the caller's account, as a kept total would be read. */
  label: { scopeTotal: (caller: Caller) => sql`(select count(*) from label where license_account_id = ${caller.principal.licenseAccountId})` },
  crate: {
    /** A filter of the hook's own: `codeIn: ['*']` is every code. */
    filter: (filter: { name: string }, value: unknown) => (filter.name === 'codeIn' && Array.isArray(value) && value.includes('*') ? sql`true` : undefined),
    afterCreate: async (_context: unknown, _id: number, input: Record<string, unknown>) => {
      if (input.code === 'refused') throw new AppError('5002');
    },
    afterUpdate: async (context: HookContext, id: number, input: Record<string, unknown>) => {
      if (input.size === 13) throw new AppError('5002');
      if (input.code === 'watched') hookSightings.push(await sighting(context, [id]));
    },
    beforeDelete: async (context: HookContext, ids: number[]) => {
      hookSightings.push(await sighting(context, ids));
    },
  },
};

/** The fixture's tables, as a migration would create them; no foreign key cascades: the declaration decides. */
export const createFixtureTables = async (db: Db) => {
  await db.execute(sql`create table if not exists depot (id integer generated by default as identity primary key,
    name varchar(32) not null, parent_id integer, twin_id integer)`);
  await db.execute(sql`create table if not exists label (id integer generated by default as identity primary key,
    license_account_id integer not null references license_account(id), title varchar(32) not null)`);
  await db.execute(sql`create table if not exists crate (id integer generated by default as identity primary key,
    license_account_id integer not null references license_account(id), code varchar(20) not null, size integer, capacity integer, kind varchar(1),
    packed_at timestamptz, depot_id integer references depot(id), creator integer, sealed_by integer, sealed_at timestamptz, sealed_on date, outside_id integer,
    create_time timestamptz not null default now(), fragile boolean)`);
  await db.execute(sql`create table if not exists crate_label (crate_id integer not null references crate(id) on delete cascade,
    label_id integer not null references label(id), pinned boolean not null default false, primary key (crate_id, label_id))`);
};
