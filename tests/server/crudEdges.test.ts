// The generic CRUD engine's rules that need no database: what a delete does to the records that reference
// the deleted ones (the statements it issues, through a transaction that records them), which field a unique
// violation names and in which words, scopes and filters as SQL, request schemas, and models built from
// declarations the product's resources do not exercise (no `id` field, per-view fields, a custom scope).
import { sql, type SQL } from 'drizzle-orm';
import { index, integer, PgDialect, pgTable, uniqueIndex, varchar } from 'drizzle-orm/pg-core';
import { describe, expect, it } from 'vitest';
import { translate } from '../../i18n';
import { defineResource, type FieldDeclaration } from '../../resources/types';
import type { Caller } from '../../server/auth/principal';
import type { Db } from '../../server/db/client';
import { applyDeleteBehaviour, uniqueIndexFields, uniqueViolation, withDefaults } from '../../server/crud/integrity';
import { buildModel, buildModels } from '../../server/crud/model';
import { filterConditions, scopeCondition } from '../../server/crud/query';
import { labelsOf } from '../../server/crud/records';
import { pageBodySchema, sortableFields, valueSchema } from '../../server/crud/schemas';
import { AppError } from '../../server/lib/errors';
import { crate, TABLES } from './crudFixture';

const dialect = new PgDialect();
const render = (condition: SQL | undefined) => {
  if (!condition) return 'nothing';
  const { sql: text, params } = dialect.sqlToQuery(condition);
  return params.reduce<string>((out, param, index) => out.replace(new RegExp(`\\$${index + 1}\\b`), JSON.stringify(param)), text);
};

// A place (the deleted side: a self-reference and a tree parent) and the records that point at it.
const placeTable = pgTable('place', { id: integer('id').primaryKey(), name: varchar('name'), twinId: integer('twin_id'), parentId: integer('parent_id') });
const roleTable = pgTable(
  'role_fixture',
  {
    id: integer('id').primaryKey(),
    licenseAccountId: integer('license_account_id'),
    name: varchar('name'),
    description: varchar('description'),
    placeId: integer('place_id'),
    spareId: integer('spare_id'),
    homeId: integer('home_id'),
    keptId: integer('kept_id').references(() => placeTable.id, { onDelete: 'cascade' }),
    lentId: integer('lent_id').references(() => placeTable.id, { onDelete: 'set null' }),
  },
  (t) => [
    // the account and a field not declared unique are not named by a violation of this index
    uniqueIndex('role_fixture_description_uq').on(t.licenseAccountId, t.description, t.name),
    index('role_fixture_place_ix').on(t.placeId),
  ],
);
const rolePlaceTable = pgTable('role_place', { roleId: integer('role_id'), placeId: integer('place_id') });
const place = defineResource({
  name: 'place',
  apiPath: '/place',
  route: '/place',
  menuId: 611,
  table: 'place',
  nameField: 'name',
  scope: 'global',
  fields: {
    id: { type: 'number', readOnly: true },
    name: { type: 'text' },
    twinId: { type: 'reference', reference: 'place' },
    parentId: { type: 'treeParent', reference: 'place' },
  },
  list: { columns: ['name'], defaultSort: { field: 'name', order: 'ASC' }, filters: [] },
  permissions: { page: 'place:page' },
  permissionIds: { 'place:page': 6119901 },
});
const roleFields = (behaviour: Record<string, FieldDeclaration['onDelete']>): Record<string, FieldDeclaration> => ({
  id: { type: 'number', readOnly: true },
  name: { type: 'text' },
  description: { type: 'text', unique: true },
  placeId: { type: 'reference', reference: 'place', onDelete: behaviour.placeId },
  spareId: { type: 'reference', reference: 'place', onDelete: behaviour.spareId },
  homeId: { type: 'reference', reference: 'place', onDelete: behaviour.homeId },
  keptId: { type: 'reference', reference: 'place', onDelete: behaviour.keptId },
  lentId: { type: 'reference', reference: 'place', onDelete: behaviour.lentId },
  places: { type: 'multiReference', reference: 'place', through: { table: 'role_place', from: 'role_id', to: 'place_id' }, onDelete: behaviour.places },
  /** Neither stored nor joined: nothing to check or empty. */
  ghostId: { type: 'reference', reference: 'place', virtual: true },
});
const role = (behaviour: Record<string, FieldDeclaration['onDelete']> = {}) =>
  defineResource({
    name: 'role',
    apiPath: '/role-fixture',
    route: '/role-fixture',
    menuId: 609,
    table: 'role_fixture',
    nameField: 'name',
    scope: 'licenseAccount',
    fields: roleFields(behaviour),
    list: { columns: ['name'], defaultSort: { field: 'name', order: 'ASC' }, filters: [] },
    permissions: { page: 'roleFixture:page' },
    permissionIds: { 'roleFixture:page': 6099911 },
  });
const TABLES_HERE = { place: placeTable, role_fixture: roleTable, role_place: rolePlaceTable };
const registry = (behaviour: Record<string, FieldDeclaration['onDelete']> = {}) => buildModels([place, role(behaviour)], TABLES_HERE, {});

/** A transaction that records the statements the delete behaviour issues and answers each count from `counts`. */
const recordingTx = (counts: number[] = []) => {
  const statements: string[] = [];
  const name = (table: unknown) => (table as { [key: symbol]: string })[Symbol.for('drizzle:Name')];
  const tx = {
    select: () => ({
      from: (table: unknown) => ({
        where: async (condition: SQL) => {
          statements.push(`count ${name(table)} where ${render(condition)}`);
          return [{ n: counts.shift() ?? 0 }];
        },
      }),
    }),
    delete: (table: unknown) => ({ where: async (condition: SQL) => void statements.push(`delete ${name(table)} where ${render(condition)}`) }),
    update: (table: unknown) => ({
      set: (values: Record<string, unknown>) => ({
        where: async (condition: SQL) => void statements.push(`update ${name(table)} set ${JSON.stringify(values)} where ${render(condition)}`),
      }),
    }),
  };
  return { tx: tx as unknown as Db, statements };
};

const deleting = async (behaviour: Record<string, FieldDeclaration['onDelete']>, ids: number[], counts: number[] = []) => {
  const models = registry(behaviour);
  const { tx, statements } = recordingTx(counts);
  await applyDeleteBehaviour(tx, models, models.get('place')!, ids, 'en');
  return statements;
};

describe('what deleting a record does to the records that reference it', () => {
  it('counts restrict references (a self-reference without the deleted records themselves); tree parents and virtual fields are not references', async () => {
    const all = { spareId: 'restrict', homeId: 'restrict', keptId: 'restrict', lentId: 'restrict' } as const;
    expect(await deleting(all, [4, 5])).toEqual([
      // the place's own self-reference: records deleted in the same call do not hold it back
      'count place where ("place"."twin_id" in (4, 5) and "place"."id" not in (4, 5))',
      ...['place_id', 'spare_id', 'home_id', 'kept_id', 'lent_id'].map((column) => `count role_fixture where "role_fixture"."${column}" in (4, 5)`),
      'count role_place where "role_place"."place_id" in (4, 5)',
    ]);
    expect(await deleting({}, [])).toEqual([]);
  });

  it('refuses with 5002 naming the referencing resource in the request language, one or many', async () => {
    const refusal = async (count: number, locale: 'en' | 'zh') => {
      const models = registry();
      const { tx } = recordingTx([0, count]);
      const error = await applyDeleteBehaviour(tx, models, models.get('place')!, [7], locale).catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(AppError);
      return [(error as AppError).code, (error as AppError).issues];
    };
    const issue = (count: number, resource: string) => [{ field: 'role', message: 'validation.stillReferenced', values: { count, resource } }];
    expect(await refusal(1, 'en')).toEqual(['5002', issue(1, 'Role')]);
    expect(await refusal(3, 'en')).toEqual(['5002', issue(3, 'Roles')]);
    expect(await refusal(2, 'zh')).toEqual(['5002', issue(2, translate('zh', 'resources.role.name'))]);
  });

  it('empties setNull references (a join loses its rows), deletes cascading records unless their foreign key cascades itself', async () => {
    const statements = await deleting({ spareId: 'setNull', homeId: 'cascade', keptId: 'cascade', lentId: 'cascade', places: 'setNull' }, [9], [0, 0]);
    expect(statements).toEqual([
      'count place where ("place"."twin_id" in (9) and "place"."id" not in (9))',
      'count role_fixture where "role_fixture"."place_id" in (9)',
      'update role_fixture set {"spareId":null} where "role_fixture"."spare_id" in (9)',
      'delete role_fixture where "role_fixture"."home_id" in (9)',
      // kept_id: the database's `on delete cascade` does it, after the place's own delete triggers have read the rows
      // lent_id: its foreign key only sets null, so the declaration's cascade deletes
      'delete role_fixture where "role_fixture"."lent_id" in (9)',
      'delete role_place where "role_place"."place_id" in (9)',
    ]);
    // a cascading multiReference loses its join rows too; a restrict one that found nothing writes nothing
    expect(await deleting({ places: 'cascade' }, [9])).toContain('delete role_place where "role_place"."place_id" in (9)');
    expect((await deleting({}, [9])).filter((line) => !line.startsWith('count'))).toEqual([]);
  });
});

describe('a unique violation', () => {
  const model = buildModel(role(), TABLES_HERE);
  const violation = { code: '23505', constraint: 'role_fixture_description_uq' };

  it('knows the declared unique fields of each unique index, not plain indexes', () => {
    expect(uniqueIndexFields(model)).toEqual(new Map([['role_fixture_description_uq', ['description']]]));
  });

  it('names the field with its label and the value sent, in the request language', () => {
    const issuesOf = (input: Record<string, unknown>, locale: 'en' | 'zh' = 'en', error: unknown = violation) => uniqueViolation(model, error, input, locale)?.issues;
    expect(issuesOf({ description: 'Night shift', name: 'n' })).toEqual([
      { field: 'description', message: 'validation.unique', values: { label: 'Description', value: 'Night shift' } },
    ]);
    expect(issuesOf({ description: 7 }, 'zh')).toEqual([{ field: 'description', message: 'validation.unique', values: { label: '描述', value: '7' } }]);
    // not sent (an edit of other fields): the index's field, no value
    expect(issuesOf({ name: 'n' })).toEqual([{ field: 'description', message: 'validation.unique', values: { label: 'Description', value: '' } }]);
    // an index the table does not declare (made at run time): the model's only unique field
    expect(issuesOf({ description: 'x' }, 'en', { code: '23505', constraint: 'made_later_uq' })?.[0]).toMatchObject({ field: 'description', values: { value: 'x' } });
    // a field without a catalogue label is named by itself
    const unlabelled = buildModel({ ...role(), name: 'roleFixture' }, TABLES_HERE);
    expect(uniqueViolation(unlabelled, violation, { description: 'x' }, 'en')?.issues?.[0].values).toEqual({ label: 'description', value: 'x' });
  });
});

it('fills declared defaults of absent writable fields, and adds no other key', () => {
  const defaults = buildModel({ ...crate, fields: { ...crate.fields, kind: { ...crate.fields.kind, defaultValue: 'a' } } }, TABLES);
  expect(Object.keys(withDefaults(defaults, { code: 'x' }))).toEqual(['code', 'kind']);
});

describe('scopes and filters as SQL', () => {
  const caller = { principal: { licenseAccountId: 3 } } as unknown as Caller;
  it("asks a custom scope's hook, and answers its condition", () => {
    const custom = buildModel({ ...place, scope: 'custom' }, TABLES_HERE, { scope: () => sql`name <> 'hidden'` });
    expect(render(scopeCondition(custom, caller))).toBe("name <> 'hidden'");
    expect(render(scopeCondition(buildModel(role(), TABLES_HERE), caller))).toBe('"role_fixture"."license_account_id" = 3');
  });

  it("compares `eq` filters for equality and lets the hook's own filter replace the declared one", () => {
    const model = buildModel(crate, TABLES, { filter: (filter, value) => (filter.name === 'codeIn' && value === '*' ? sql`true` : undefined) });
    expect(filterConditions(model, { kind: 'b' }).map(render)).toEqual(['"crate"."kind" = "b"']);
    expect(filterConditions(model, { codeIn: '*', kind: 'a' }).map(render)).toEqual(['true', '"crate"."kind" = "a"']);
  });

  it("answers a short contains text as the model's field says where the start prepared one, else with lower() of the column", () => {
    const model = buildModel(crate, TABLES);
    expect(filterConditions(model, { codeLike: 'Ab' }).map(render)).toEqual(['strpos(lower("crate"."code"), lower("Ab")) > 0']);
    model.shortContains.code = (text) => sql`strpos("crate"."code__folded", lower(${text})) > 0`;
    expect(filterConditions(model, { codeLike: 'Ab' }).map(render)).toEqual(['strpos("crate"."code__folded", lower("Ab")) > 0']);
    // from 3 characters on, the trigram index's ilike on the column itself
    expect(filterConditions(model, { codeLike: 'Abc' }).map(render)).toEqual(['"crate"."code" ilike "%Abc%"']);
  });
});

describe('schemas derived from the declaration', () => {
  it('an enum without options accepts no value', () => {
    expect(valueSchema({ type: 'enum' }, true)).toEqual({ enum: [] });
  });

  // a multiReference is filtered where a hook computes it (e.g. the fleets of a machine's tree) and filters by it
  it('filters a multiReference by one id, and sorts only by stored or computed fields', () => {
    const model = buildModel(
      {
        ...crate,
        fields: { ...crate.fields, note: { type: 'text', virtual: true, sortable: true } },
        list: { ...crate.list, filters: [{ name: 'label', field: 'labels', operator: 'eq' }] },
      },
      TABLES,
      { computed: () => ({ kind: sql`'a'`, labels: sql`array[1]` }) },
    );
    const properties = (pageBodySchema(model) as { properties: Record<string, unknown> }).properties;
    expect(properties.label).toEqual({ type: ['integer', 'null'], maximum: 2147483647 });
    expect(sortableFields(model)).toEqual(['id', 'code', 'size']);
  });
});

describe('models of declarations the product does not have', () => {
  it('finds the id column when the declaration has no id field', () => {
    const { id, ...fields } = place.fields;
    expect(id).toBeDefined();
    expect(buildModel({ ...place, fields }, TABLES_HERE).id).toBe(placeTable.id);
  });

  it('takes create and edit fields from their own views', () => {
    const model = buildModel(
      { ...place, fields: { ...place.fields, name: { type: 'text', views: ['create'] }, twinId: { type: 'reference', reference: 'place', views: ['edit'] } } },
      TABLES_HERE,
    );
    expect([model.creatable, model.editable]).toEqual([
      ['name', 'parentId'],
      ['twinId', 'parentId'],
    ]);
  });
});

describe('labels of referenced records, for exports', () => {
  const countingSelects = (rows: Array<{ id: number; name: unknown }>) => {
    const asked: string[] = [];
    const db = { select: () => ({ from: () => ({ where: async (condition: SQL) => (asked.push(render(condition)), rows) }) }) } as unknown as Db;
    return { db, asked };
  };
  it('asks nothing for no ids or a resource the server does not have; an empty name is an empty label', async () => {
    const models = registry();
    const none = countingSelects([]);
    expect(await labelsOf(none.db, models, 'place', [])).toEqual(new Map());
    expect(await labelsOf(none.db, models, 'outsider', [1])).toEqual(new Map());
    expect(none.asked).toEqual([]);
    const some = countingSelects([
      { id: 1, name: null },
      { id: 2, name: 'Two' },
    ]);
    expect(await labelsOf(some.db, models, 'place', [2, 1, 2])).toEqual(
      new Map([
        [1, ''],
        [2, 'Two'],
      ]),
    );
    expect(some.asked).toEqual(['"place"."id" in (2, 1)']);
  });
});

describe('computed fields', () => {
  it('keeps one with a parameter as it is (its value goes with it) and renders one without to its text once', () => {
    const model = buildModel(place, TABLES_HERE, {
      computed: (table) => ({
        marked: sql<string>`(${(table as typeof placeTable).name} || ${' *'})`,
        twins: sql<number>`(select count(*) from place t where t.twin_id = ${(table as typeof placeTable).id})`.mapWith(Number),
      }),
    });
    const { sql: markedText, params: markedParams } = dialect.sqlToQuery(model.computed.marked);
    expect([markedText, markedParams]).toEqual(['("place"."name" || $1)', [' *']]);
    const { sql: twinsText, params: twinsParams } = dialect.sqlToQuery(model.computed.twins);
    expect([twinsText, twinsParams]).toEqual(['(select count(*) from place t where t.twin_id = "place"."id")', []]);
    // rendered once: one raw chunk whose decoder still turns the count's text into a number
    expect(model.computed.twins.queryChunks).toHaveLength(1);
    expect((model.computed.twins as unknown as { decoder: { mapFromDriverValue(value: unknown): unknown } }).decoder.mapFromDriverValue('3')).toBe(3);
  });
});
