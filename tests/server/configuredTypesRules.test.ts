// server/configuredTypes' rules that need no database (issue 29 item 24, mutation testing): how a definition is
// stored and compared (definitionRow.ts), the indexes a type wants and their names (indexes.ts), the SQL text of
// each field kind, the date filters, the stored document and the scope of a configured model (model.ts), and the
// body check of its compiled schemas (validate.ts). Expected values are written out by hand.
import { createHash } from 'node:crypto';
import type { SQL } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import { describe, expect, it } from 'vitest';
import type { ConfiguredType } from '../../resources/configuredTypes';
import type { Caller } from '../../server/auth/principal';
import { definitionOnly, fromRow, sameDefinition, toRow } from '../../server/configuredTypes/definitionRow';
import { indexPrefix, indexSpecs, uniqueFieldOf } from '../../server/configuredTypes/indexes';
import { buildConfiguredModel, indexedFields, typePredicateText, valueExpressionText } from '../../server/configuredTypes/model';
import { bodyChecker, compileSchema, compileValidators, releaseValidators } from '../../server/configuredTypes/validate';
import { AppError } from '../../server/lib/errors';
import { BARCODE } from './configuredTypesFixture';

const dialect = new PgDialect();
const render = (condition: SQL | undefined) => {
  if (!condition) return 'nothing';
  const { sql: text, params } = dialect.sqlToQuery(condition);
  return params.reduce<string>((out, param, index) => out.replace(new RegExp(`\\$${index + 1}\\b`), JSON.stringify(param)), text);
};
const text = (en: string) => ({ en, zh: en });
const barcode = BARCODE as unknown as ConfiguredType;

/** A visit log: every kind the SQL text distinguishes, and date filters of each operator. */
const VISIT: ConfiguredType = {
  name: 'visit',
  labels: text('Visits'),
  menuParent: 'service',
  fields: {
    title: { type: 'text', labels: text('Title') },
    weight: { type: 'number', labels: text('Weight') },
    done: { type: 'boolean', labels: text('Done') },
    fleet: { type: 'reference', reference: 'fleet', labels: text('Fleet') },
    photo: { type: 'image', labels: text('Photo') },
    leaflet: { type: 'file', labels: text('Leaflet') },
    day: { type: 'date', labels: text('Day') },
    at: { type: 'datetime', labels: text('At') },
    note: { type: 'textarea', labels: text('Note') },
  },
  list: {
    columns: ['title'],
    filters: [
      { field: 'day', operator: 'gte' },
      { field: 'day', operator: 'lte' },
      { field: 'at', operator: 'range' },
      { field: 'day', operator: 'in' },
      { field: 'at', operator: 'eq' },
      { field: 'title', operator: 'eq' },
    ],
  },
  actions: ['page', 'create'],
};

const callerOf = (licenseAccountId: number | null) => ({ principal: { licenseAccountId } }) as unknown as Caller;

describe('definitionRow', () => {
  it('stores the field order beside the definition and drops what the server answers or a call adds', () => {
    const answered = { ...barcode, status: 'active', version: 7, confirmArchive: true } as ConfiguredType;
    const stored = toRow(answered);
    expect(stored.fieldOrder).toEqual(['code', 'itemType', 'refund', 'active']);
    for (const key of ['status', 'version', 'confirmArchive']) expect(stored).not.toHaveProperty(key);
    expect(definitionOnly({ ...stored, status: 'archived' } as ConfiguredType)).toEqual(barcode);
  });

  it("reads the fields back in the stored order (jsonb sorts keys), from an object or from JSON text, under the row's name", () => {
    const shuffled = {
      ...barcode,
      name: 'ignored',
      fields: { refund: barcode.fields.refund, active: barcode.fields.active, itemType: barcode.fields.itemType, code: barcode.fields.code },
      fieldOrder: ['code', 'itemType', 'refund', 'active'],
    };
    const read = fromRow(shuffled, 'barcode');
    expect(read.name).toBe('barcode');
    expect(Object.keys(read.fields)).toEqual(['code', 'itemType', 'refund', 'active']);
    expect(read).not.toHaveProperty('fieldOrder');
    expect(Object.keys(fromRow(JSON.stringify(shuffled), 'barcode').fields)).toEqual(['code', 'itemType', 'refund', 'active']);
    // a field the order does not name comes last; a name the order keeps without a field is dropped
    const partial = fromRow({ ...shuffled, fieldOrder: ['itemType', 'gone', 'code'] }, 'barcode');
    expect(Object.keys(partial.fields)).toEqual(['itemType', 'code', 'refund', 'active']);
    // no stored order (a row from before it was kept): the document's own order
    const { fieldOrder: _order, ...withoutOrder } = shuffled;
    expect(Object.keys(fromRow(withoutOrder, 'barcode').fields)).toEqual(['refund', 'active', 'itemType', 'code']);
  });

  it("compares definitions whatever their keys' order, but not their fields' order", () => {
    const reordered = {
      actions: barcode.actions,
      list: barcode.list,
      fields: barcode.fields,
      menuParent: barcode.menuParent,
      labels: { zh: '条码', en: 'Barcodes' },
      name: 'barcode',
    } as ConfiguredType;
    expect(sameDefinition(barcode, reordered)).toBe(true);
    expect(sameDefinition(barcode, { ...barcode, status: 'archived', version: 3 })).toBe(true);
    const { code, ...rest } = barcode.fields;
    expect(sameDefinition(barcode, { ...barcode, fields: { ...rest, code } })).toBe(false);
    expect(sameDefinition(barcode, { ...barcode, actions: ['page', 'show', 'create', 'edit', 'delete'] })).toBe(false);
    expect(sameDefinition(barcode, { ...barcode, fields: { ...barcode.fields, refund: { ...barcode.fields.refund, max: 99 } } })).toBe(false);
  });
});

describe('indexes', () => {
  it('wants a unique index per unique field, a trigram index per like filter and a btree per other filtered or sorted field', () => {
    const specs = indexSpecs(barcode);
    expect(
      specs.map((index) => [index.field, index.unique, index.statement.startsWith('create unique index if not exists "cfg_'), index.statement.includes('gin_trgm_ops')]),
    ).toEqual([
      ['code', false, false, true],
      ['itemType', false, false, false],
      ['refund', false, false, false],
      ['code', true, true, false],
    ]);
    const prefix = indexPrefix('barcode');
    expect(prefix).toMatch(/^cfg_[0-9a-f]{8}_$/);
    for (const index of specs) {
      expect(index.name.startsWith(prefix)).toBe(true);
      expect(index.name).toMatch(new RegExp(`^cfg_[0-9a-f]{8}_[0-9a-f]{8}_${index.field.toLowerCase()}$`));
      expect(index.statement).toContain(`"${index.name}"`);
      expect(index.statement).toContain(`where "type_name" = 'barcode'`);
    }
    const [trigram, btree, , unique] = specs;
    expect(trigram.statement).toBe(
      `create index if not exists "${trigram.name}" on "configured_record" using gin (("data" ->> 'code') gin_trgm_ops) where "type_name" = 'barcode'`,
    );
    expect(btree.statement).toBe(`create index if not exists "${btree.name}" on "configured_record" ("license_account_id", ("data" ->> 'itemType')) where "type_name" = 'barcode'`);
    expect(unique.statement).toBe(
      `create unique index if not exists "${unique.name}" on "configured_record" ("license_account_id", ("data" ->> 'code')) where "type_name" = 'barcode'`,
    );
    // names stay those of earlier versions (a new name drops and rebuilds an installation's index): type and statement hashed
    const sha = (text: string) => createHash('sha1').update(text).digest('hex').slice(0, 8);
    expect(prefix).toBe(`cfg_${sha('barcode')}_`);
    expect(btree.name).toBe(`${prefix}${sha(`btree on "configured_record" ("license_account_id", ("data" ->> 'itemType')) where "type_name" = 'barcode'`)}_itemtype`);
    expect(trigram.name).toBe(`${prefix}${sha(`trgm on "configured_record" using gin (("data" ->> 'code') gin_trgm_ops) where "type_name" = 'barcode'`)}_code`);
    expect(unique.name).toBe(`${prefix}${sha(`unique on "configured_record" ("license_account_id", ("data" ->> 'code')) where "type_name" = 'barcode'`)}_code`);
    // another type, another prefix; another statement, another name
    expect(indexPrefix('shelf')).not.toBe(prefix);
    expect(new Set(specs.map((index) => index.name)).size).toBe(4);
  });

  it("keeps every name within PostgreSQL's 63 characters (the field part cut at 40)", () => {
    const long = 'f' + 'x'.repeat(39);
    const type = {
      ...barcode,
      name: 'l' + 'y'.repeat(39),
      fields: { [long]: { type: 'text', labels: text('Long') } },
      list: { columns: [long], defaultSort: { field: long, order: 'ASC' } },
    } as ConfiguredType;
    const [index] = indexSpecs(type);
    expect(index.name).toHaveLength(4 + 9 + 9 + 40);
    expect(index.name.endsWith(long.toLowerCase())).toBe(true);
  });

  it("names the field of a unique index by the index's name only", () => {
    const unique = indexSpecs(barcode).find((index) => index.unique)!;
    const trigram = indexSpecs(barcode)[0];
    expect(uniqueFieldOf(barcode, unique.name)).toBe('code');
    expect(uniqueFieldOf(barcode, trigram.name)).toBeUndefined();
    expect(uniqueFieldOf(barcode, undefined)).toBeUndefined();
  });

  it('indexes the filtered fields and the default sort, only of sortable kinds and existing fields', () => {
    expect(indexedFields(barcode)).toEqual(['code', 'itemType', 'refund']);
    const sortedOnly = { ...barcode, list: { columns: ['code'], defaultSort: { field: 'refund', order: 'DESC' } } } as ConfiguredType;
    expect(indexedFields(sortedOnly)).toEqual(['refund']);
    expect(indexedFields({ ...barcode, list: { columns: ['code'], defaultSort: { field: 'gone', order: 'ASC' } } } as ConfiguredType)).toEqual([]);
    expect(indexedFields({ ...barcode, list: { columns: ['code'] } } as ConfiguredType)).toEqual([]);
    const multi = {
      ...barcode,
      fields: { ...barcode.fields, fleets: { type: 'multiReference', reference: 'fleet', labels: text('Fleets') } },
      list: {
        columns: ['code'],
        filters: [
          { field: 'fleets', operator: 'in' },
          { field: 'missing', operator: 'eq' },
        ],
      },
    } as ConfiguredType;
    expect(indexedFields(multi)).toEqual([]);
  });
});

describe('model', () => {
  it('reads each kind from the document with its cast, a file or image id only when it is a number', () => {
    expect(Object.fromEntries(Object.entries(VISIT.fields).map(([name, field]) => [name, valueExpressionText(name, field)]))).toEqual({
      title: `("data" ->> 'title')`,
      weight: `(("data" ->> 'weight')::float8)`,
      done: `(("data" ->> 'done')::boolean)`,
      fleet: `(("data" ->> 'fleet')::int4)`,
      photo: `(case when jsonb_typeof("data" -> 'photo') = 'number' then ("data" ->> 'photo')::int4 end)`,
      leaflet: `(case when jsonb_typeof("data" -> 'leaflet') = 'number' then ("data" ->> 'leaflet')::int4 end)`,
      day: `("data" ->> 'day')`,
      at: `("data" ->> 'at')`,
      note: `("data" ->> 'note')`,
    });
    expect(typePredicateText('visit')).toBe(`"type_name" = 'visit'`);
  });

  it('refuses to inline a name that is not a plain identifier of at most 40 characters', () => {
    for (const bad of ["a'b", 'A', '1a', 'a-b', '', 'a'.repeat(41), "x') or true --"]) {
      expect(() => valueExpressionText(bad, { type: 'text' }), bad).toThrow(`unsafe name for SQL: ${bad}`);
    }
    expect(valueExpressionText('a'.repeat(40), { type: 'text' })).toBe(`("data" ->> '${'a'.repeat(40)}')`);
    expect(typePredicateText('z9')).toBe(`"type_name" = 'z9'`);
  });

  it("scopes records by type and the caller's license account, none without one", () => {
    const model = buildConfiguredModel(VISIT);
    expect(render(model.hooks?.scope?.(callerOf(7), model))).toBe(`("configured_record"."type_name" = 'visit' and "configured_record"."license_account_id" = 7)`);
    expect(render(model.hooks?.scope?.(callerOf(null), model))).toBe('false');
    expect(render(model.computed?.weight)).toBe(`(("configured_record"."data" ->> 'weight')::float8)`);
    expect(render(model.document.rows)).toBe(`"configured_record"."type_name" = 'visit'`);
    expect(model.readable).toEqual(expect.arrayContaining(['id', 'title', 'at', 'createdTime']));
    expect(model.creatable).toEqual(['title', 'weight', 'done', 'fleet', 'photo', 'leaflet', 'day', 'at', 'note']);
    expect(model.editable).toEqual(model.creatable);
    expect(model.shortContains).toEqual({});
    expect(model.joins).toEqual({});
  });

  it("creates records in the caller's license account (5001 without one) and stamps updates", () => {
    const model = buildConfiguredModel(VISIT);
    expect(model.document.createValues(3, 9)).toEqual({ typeName: 'visit', licenseAccountId: 9, createdBy: 3 });
    expect(() => model.document.createValues(3, null)).toThrow(expect.objectContaining({ code: '5001' }));
    expect(render((model.document.updateValues() as { updatedTime: SQL }).updatedTime)).toBe('now()');
    expect(model.document.key).toBe('data');
    expect(model.document.uniqueFieldOf('any')).toBeUndefined();
    const named = buildConfiguredModel(barcode, (constraint) => (constraint === 'x' ? 'code' : undefined));
    expect(named.document.uniqueFieldOf('x')).toBe('code');
  });

  it('stores datetimes as UTC ISO text, days as YYYY-MM-DD, and leaves empty values out', () => {
    const model = buildConfiguredModel(VISIT);
    expect(model.document.toDocument({ title: 'A', at: '2026-03-01T10:00:00+08:00', day: '2026-03-01', weight: 0, done: false, note: '', fleet: null, photo: undefined })).toEqual({
      title: 'A',
      at: '2026-03-01T02:00:00.000Z',
      day: '2026-03-01',
      weight: 0,
      done: false,
    });
    // no key at all for an empty value (not one holding undefined)
    expect(Object.keys(model.document.toDocument({ title: 'A', photo: undefined, fleet: null, note: '' }))).toEqual(['title']);
    // a day sent as an instant keeps its UTC date; values of fields the type lacks are not stored
    expect(model.document.toDocument({ day: '2026-03-01T23:30:00Z', other: 1 })).toEqual({ day: '2026-03-01' });
    expect(model.document.toDocument({ day: '2026-03-01T01:30:00+08:00' })).toEqual({ day: '2026-02-28' });
    // a YYYY-MM-DD text is kept as written (a Date would roll 30 February over to 2 March); other forms go through a Date
    expect(model.document.toDocument({ day: '2026-02-30' })).toEqual({ day: '2026-02-30' });
    expect(model.document.toDocument({ day: '+002026-03-05' })).toEqual({ day: '2026-03-05' });
    // only texts are read as dates
    expect(model.document.toDocument({ day: 0, at: 0 })).toEqual({ day: 0, at: 0 });
  });

  it('filters dates and datetimes by their ISO text, for each operator', () => {
    const model = buildConfiguredModel(VISIT);
    const filter = model.hooks!.filter!;
    const of = (field: string, operator: string, name = `${field}-${operator}`) => ({ name, field, operator }) as never;
    const day = `("configured_record"."data" ->> 'day')`;
    const at = `("configured_record"."data" ->> 'at')`;
    expect(render(filter(of('day', 'gte'), '2026-03-01T20:00:00Z'))).toBe(`${day} >= "2026-03-01"`);
    expect(render(filter(of('day', 'lte'), '2026-03-05'))).toBe(`${day} <= "2026-03-05"`);
    expect(render(filter(of('at', 'range'), ['2026-03-01T10:00:00+08:00', '2026-03-02T00:00:00Z']))).toBe(
      `(${at} >= "2026-03-01T02:00:00.000Z" and ${at} <= "2026-03-02T00:00:00.000Z")`,
    );
    expect(render(filter(of('at', 'range'), [null, '2026-03-02T00:00:00Z']))).toBe(`${at} <= "2026-03-02T00:00:00.000Z"`);
    expect(render(filter(of('at', 'range'), ['2026-03-02T00:00:00Z', '']))).toBe(`${at} >= "2026-03-02T00:00:00.000Z"`);
    expect(render(filter(of('at', 'range'), [undefined, null]))).toBe('true');
    expect(render(filter(of('day', 'in'), ['2026-03-01', '', null, '2026-03-03']))).toBe(`${day} in ("2026-03-01", "2026-03-03")`);
    expect(render(filter(of('at', 'eq'), '2026-03-01T00:00:00Z'))).toBe(`${at} = "2026-03-01T00:00:00.000Z"`);
    // a day as written (30 February is not rolled over to 2 March); an extended year through a Date
    expect(render(filter(of('day', 'eq'), '2026-02-30'))).toBe(`${day} = "2026-02-30"`);
    expect(render(filter(of('day', 'eq'), '+002026-03-05'))).toBe(`${day} = "2026-03-05"`);
    // other kinds are the engine's own filters; a field the type lacks too
    expect(filter(of('title', 'eq'), 'x')).toBeUndefined();
    expect(filter(of('nothing', 'eq'), 'x')).toBeUndefined();
    // a text that is no date: 1003 on the filter's name
    for (const bad of ['soon', 5, null]) {
      let failure: unknown;
      try {
        filter(of('day', 'gte', 'dayFrom'), bad);
      } catch (error) {
        failure = error;
      }
      expect(failure).toBeInstanceOf(AppError);
      expect((failure as AppError).code).toBe('1003');
      expect((failure as AppError).issues?.[0]).toMatchObject({ field: 'dayFrom', message: 'validation.date' });
    }
  });

  it("answers the type's own texts under its resource keys", () => {
    const model = buildConfiguredModel(barcode);
    expect(model.texts?.('en', 'resources.barcode.fields.code')).toBe('Barcode');
    expect(model.texts?.('zh', 'resources.barcode.fields.code')).toBe('条码');
    expect(model.texts?.('en', 'resources.other.fields.code')).toBeUndefined();
    expect(model.configured).toBe(barcode);
    expect(model.declaration.name).toBe('barcode');
  });
});

describe('validate', () => {
  // built inside each test, never at collection: a mutant is active only while a test runs
  const check = (kind: 'create' | 'update' | 'page' | 'export', body: Record<string, unknown>, locale: 'en' | 'zh') => {
    const model = buildConfiguredModel(VISIT);
    bodyChecker(model, compileValidators(model))(kind, body, locale);
  };
  const failure = (kind: 'create' | 'update' | 'page' | 'export', body: Record<string, unknown>) => {
    try {
      check(kind, body, 'en');
    } catch (error) {
      return [(error as AppError).code, (error as AppError).issues?.map((issue) => issue.field)];
    }
    return 'accepted';
  };

  it('knows ISO instants with an offset or Z, and days as YYYY-MM-DD, nothing else (the formats of its schemas)', () => {
    const instant = compileSchema({ type: 'string', format: 'date-time' });
    const day = compileSchema({ type: 'string', format: 'date' });
    for (const at of ['2026-03-01T10:00Z', '2026-03-01T10:00:05+08:00', '2026-03-01T10:00:05.123456789-05:30', '2026-03-01T10:00:05.1Z']) expect(instant(at), at).toBe(true);
    for (const at of [
      '2026-03-01T10:00:05',
      '2026-03-01 10:00:05Z',
      '2026-13-01T10:00:05Z',
      '2026-03-01T10:00:05.1234567890Z',
      'x2026-03-01T10:00:05Z',
      '2026-03-01T10:00:05Zx',
      '2026-03-01T10:00:05+0800',
      '2026-03-01T10Z',
    ]) {
      expect(instant(at), at).toBe(false);
    }
    expect(day('2026-03-01')).toBe(true);
    for (const text of ['2026-3-01', '2026-03-01T00:00:00Z', 'x2026-03-01', '2026-03-01x', '2026-99-01']) expect(day(text), text).toBe(false);
    // not a string: the type keyword answers, the format does not throw
    expect(instant(5)).toBe(false);
  });

  it('checks each kind of body with its own schema: unknown fields refused, in the request language', () => {
    expect(failure('create', { title: 'A', nope: 1 })).toEqual(['1004', ['nope']]);
    expect(failure('update', { title: 'A' })).toEqual(['1001', ['id']]);
    expect(failure('update', { id: 1, title: 'A' })).toBe('accepted');
    expect(failure('page', { pageNum: 1, titles: 'x' })).toEqual(['1004', ['titles']]);
    expect(failure('page', { pageNum: 1, title: 'x' })).toBe('accepted');
    expect(failure('export', { format: 'pdf' })).toEqual(['1004', ['format']]);
    expect(failure('export', { format: 'csv' })).toBe('accepted');
    // the record's own columns sort too
    for (const sort of ['id', 'createdTime', 'updatedTime', 'weight']) expect(failure('page', { sort }), sort).toBe('accepted');
    expect(failure('page', { sort: 'nothing' })).toEqual(['1004', ['sort']]);
    expect(failure('create', { weight: '1' })).toEqual(['1003', ['weight']]);
    // every issue of a body at once
    expect(failure('create', { weight: '1', done: 'yes' })).toEqual(['1003', ['weight', 'done']]);
  });

  it("drops a replaced version's schemas from the validator cache (compiled anew afterwards)", () => {
    const validators = compileValidators(buildConfiguredModel(VISIT));
    // Ajv keeps every schema it compiled: the same schema object answers the same function until released
    expect(compileSchema(validators.create.schema as Record<string, unknown>)).toBe(validators.create);
    releaseValidators(validators);
    for (const kind of ['create', 'update', 'page', 'export'] as const) {
      expect(compileSchema(validators[kind].schema as Record<string, unknown>), kind).not.toBe(validators[kind]);
    }
  });

  it('answers the same issues in either request language', () => {
    const zh = (() => {
      try {
        check('create', { weight: '1' }, 'zh');
      } catch (error) {
        return [(error as AppError).code, (error as AppError).issues?.map((issue) => issue.field)];
      }
      return 'accepted';
    })();
    expect(zh).toEqual(['1003', ['weight']]);
  });
});
