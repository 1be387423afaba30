// A configured type as a ResourceModel of the generic CRUD engine: its declaration from
// resources/configuredTypes.ts `toDeclaration`, its table the shared configured_record, every field
// a typed SQL expression on the JSON `data` (so server/crud's filtering, sorting, paging, reading
// and export work unchanged), the scope the type name plus the caller's license account.
// Names are inlined as literals (both are checked against ^[a-z][a-zA-Z0-9]*$): an expression
// index only serves a query whose expression and partial-index predicate are written the same way.
import { and, eq, gte, lte, sql, type SQL } from 'drizzle-orm';
import { configuredText, isSortableKind, type ConfiguredField, type ConfiguredType } from '../../resources/configuredTypes';
import { toDeclaration } from '../../resources/configuredTypes';
import type { FilterDeclaration } from '../../resources/types';
import type { Locale } from '../../i18n';
import { configuredRecord } from '../db/schema';
import { AppError, invalidField } from '../lib/errors';
import type { DocumentStorage, ResourceModel } from '../crud/model';

const SAFE_NAME = /^[a-z][a-zA-Z0-9]{0,39}$/;

const literal = (name: string) => {
  // Definitions are validated before they reach here; this guards the inlining itself.
  if (!SAFE_NAME.test(name)) throw new Error(`unsafe name for SQL: ${name}`);
  return `'${name}'`;
};

/** `(data->>'field')` with the cast of the field's kind: the text of indexes and of queries. */
export const valueExpressionText = (name: string, field: Pick<ConfiguredField, 'type'>) => {
  const text = `("data" ->> ${literal(name)})`;
  switch (field.type) {
    case 'number':
      return `(${text}::float8)`;
    case 'boolean':
      return `(${text}::boolean)`;
    case 'reference':
      return `(${text}::int4)`;
    // a JSON array of ids, [] when absent (as a code-declared multiReference answers none)
    case 'multiReference':
      return `coalesce(${listExpressionText(name)}, '[]'::jsonb)`;
    // an uploaded file's id (docs/files.md); a text from before files were ids reads as none
    case 'image':
    case 'file':
      return `(case when jsonb_typeof("data" -> ${literal(name)}) = 'number' then ${text}::int4 end)`;
    default:
      return text;
  }
};

/** `("data" -> '<name>')`: a multiReference's stored array, as its GIN index and its filters write it. */
export const listExpressionText = (name: string) => `("data" -> ${literal(name)})`;

/** `type_name = '<name>'`: the scope of the type and the predicate of its partial indexes. */
export const typePredicateText = (typeName: string) => `"type_name" = ${literal(typeName)}`;

const qualified = (text: string) => text.replaceAll('"data"', '"configured_record"."data"').replaceAll('"type_name"', '"configured_record"."type_name"');

/** Dates and datetimes are stored as ISO text: filters compare text with a normalised value. */
const isoFilterValue = (field: ConfiguredField, raw: unknown, filterName: string): string => {
  const time = typeof raw === 'string' ? Date.parse(raw) : Number.NaN;
  if (Number.isNaN(time)) throw invalidField(filterName, 'validation.date', '1003');
  if (field.type === 'date') return /^\d{4}-\d{2}-\d{2}$/.test(raw as string) ? (raw as string) : new Date(time).toISOString().slice(0, 10);
  return new Date(time).toISOString();
};

const dateFilter =
  (type: ConfiguredType, expressions: Record<string, SQL>) =>
  (filter: FilterDeclaration, value: unknown): SQL | undefined => {
    const field = type.fields[filter.field];
    if (!field || (field.type !== 'date' && field.type !== 'datetime')) return undefined;
    const expression = expressions[filter.field];
    const blank = (item: unknown) => item === undefined || item === null || item === '';
    const at = (item: unknown) => isoFilterValue(field, item, filter.name);
    switch (filter.operator) {
      case 'gte':
        return gte(expression, at(value));
      case 'lte':
        return lte(expression, at(value));
      case 'range': {
        const [from, to] = value as unknown[];
        return and(blank(from) ? undefined : gte(expression, at(from)), blank(to) ? undefined : lte(expression, at(to))) ?? sql`true`;
      }
      case 'in':
        return sql`${expression} in (${sql.join(
          (value as unknown[]).filter((item) => !blank(item)).map((item) => sql`${at(item)}`),
          sql`, `,
        )})`;
      default:
        return eq(expression, at(value));
    }
  };

/**
 * A multiReference filter: `eq` the records holding that id, `in` those holding any of them (containment,
 * which the field's GIN index serves: ./indexes.ts).
 */
const listFilter =
  (type: ConfiguredType) =>
  (filter: FilterDeclaration, value: unknown): SQL | undefined => {
    if (type.fields[filter.field]?.type !== 'multiReference') return undefined;
    const list = sql.raw(qualified(listExpressionText(filter.field)));
    const ids = (Array.isArray(value) ? value : [value]).filter((id): id is number => typeof id === 'number');
    if (ids.length === 0) return sql`true`;
    return sql`(${sql.join(
      ids.map((id) => sql`${list} @> ${JSON.stringify([id])}::jsonb`),
      sql` or `,
    )})`;
  };

export interface ConfiguredModel extends ResourceModel {
  configured: ConfiguredType;
  document: DocumentStorage;
}

const isEmpty = (value: unknown) => value === undefined || value === null || value === '';

/** The record's fields as its document stores them: datetimes as UTC ISO text, days as YYYY-MM-DD, empty values absent. */
const toDocument = (type: ConfiguredType, values: Record<string, unknown>) => {
  const data: Record<string, unknown> = {};
  for (const [name, field] of Object.entries(type.fields)) {
    const value = values[name];
    if (isEmpty(value) || (Array.isArray(value) && value.length === 0)) continue;
    // a multiReference: each id once, in order (as a join table holds them)
    if (field.type === 'multiReference' && Array.isArray(value)) data[name] = [...new Set(value as number[])].sort((a, b) => a - b);
    else if (field.type === 'datetime' && typeof value === 'string') data[name] = new Date(value).toISOString();
    else if (field.type === 'date' && typeof value === 'string') data[name] = /^\d{4}-\d{2}-\d{2}$/.test(value) ? value : new Date(value).toISOString().slice(0, 10);
    else data[name] = value;
  }
  return data;
};

/** `uniqueFieldOf`: the field of a unique index by its name (./indexes.ts names them). */
export const buildConfiguredModel = (type: ConfiguredType, uniqueFieldOf: (constraint: string | undefined) => string | undefined = () => undefined): ConfiguredModel => {
  const declaration = toDeclaration(type);
  const computed: Record<string, SQL> = {};
  for (const [name, field] of Object.entries(type.fields)) {
    computed[name] = sql.raw(qualified(valueExpressionText(name, field)));
    // a driver hands jsonb back parsed; text (should one not) is parsed here
    if (field.type === 'multiReference') computed[name] = computed[name].mapWith((value: unknown) => (typeof value === 'string' ? (JSON.parse(value) as unknown) : value));
  }
  const scopeBy = sql.raw(qualified(typePredicateText(type.name)));
  const writable = Object.keys(type.fields);
  return {
    configured: type,
    declaration,
    table: configuredRecord,
    id: configuredRecord.id,
    columns: { id: configuredRecord.id, createdTime: configuredRecord.createdTime, updatedTime: configuredRecord.updatedTime },
    computed,
    // values live in a JSON document: no stored copy to compare
    shortContains: {},
    joins: {},
    licenseAccountColumn: configuredRecord.licenseAccountId,
    hooks: {
      scope: (caller) => (caller.principal.licenseAccountId === null ? sql`false` : and(scopeBy, eq(configuredRecord.licenseAccountId, caller.principal.licenseAccountId))),
      filter: (filter, value) => listFilter(type)(filter, value) ?? dateFilter(type, computed)(filter, value),
    },
    readable: Object.keys(declaration.fields),
    creatable: writable,
    editable: writable,
    texts: (locale: Locale, key: string) => configuredText(type, locale, key),
    document: {
      key: 'data',
      column: configuredRecord.data,
      rows: scopeBy,
      createValues: (userId, licenseAccountId) => {
        if (licenseAccountId === null) throw new AppError('5001');
        return { typeName: type.name, licenseAccountId, createdBy: userId };
      },
      updateValues: () => ({ updatedTime: sql`now()` }),
      toDocument: (fields) => toDocument(type, fields),
      uniqueFieldOf,
    },
  };
};

/** Fields worth an expression index: filtered on, or the default sort. */
export const indexedFields = (type: ConfiguredType): string[] => {
  const names = new Set((type.list.filters ?? []).map((filter) => filter.field));
  if (type.list.defaultSort && type.fields[type.list.defaultSort.field]) names.add(type.list.defaultSort.field);
  return [...names].filter((name) => type.fields[name] && isSortableKind(type.fields[name].type));
};
