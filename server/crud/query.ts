// Filtering, sorting and scoping in SQL, from the declaration's list.filters and sortable fields.
import { and, asc, desc, eq, gte, ilike, inArray, lte, sql, type SQL } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import type { FilterDeclaration } from '../../resources/types';
import type { Caller } from '../auth/principal';
import { invalidField } from '../lib/errors';
import type { ResourceModel } from './model';

/**
 * The SQL expression of a stored or computed field. Typed as SQL: drizzle's operators accept a
 * column wherever they accept SQL, but their overloads cannot take the union.
 */
export const expressionOf = (model: ResourceModel, field: string): SQL => {
  const expression = model.columns[field] ?? model.computed[field];
  if (!expression) throw new Error(`${model.declaration.name}.${field} is neither a column nor computed`);
  return expression as unknown as SQL;
};

/** Rows of the model the caller may see; undefined means all. */
export const scopeCondition = (model: ResourceModel, caller: Caller): SQL | undefined => {
  switch (model.declaration.scope) {
    case 'global':
      return undefined;
    case 'licenseAccount':
      return caller.principal.licenseAccountId === null ? sql`false` : eq(model.licenseAccountColumn as PgColumn, caller.principal.licenseAccountId);
    case 'custom':
      return model.hooks.scope?.(caller, model) ?? undefined;
  }
};

/** `%`, `_` and the escape character itself match literally. */
export const likePattern = (text: string) => `%${text.replace(/[\\%_]/g, (char) => `\\${char}`)}%`;

/**
 * "Contains", case-insensitive. From 3 characters on as `ilike '%…%'`, which the trigram indexes answer
 * (migration trigramIndexes); a shorter text has no trigram to look up, yet the planner may still pick the
 * index and read all of it, slower than reading the rows (100,000 machines, "Po": 112 ms against 55 ms,
 * docs/benchmarks.md "Search"). So a shorter one is a substring test the index cannot serve, with the same
 * case folding (the database's `lower`, as `ilike` does) and no wildcards to escape; `short` answers it instead where
 * the column's table was prepared for short texts (server/db/foldedColumns.ts), sparing `lower()` of every row.
 */
export const containsCondition = (expression: SQL | PgColumn, text: string, short?: (text: string) => SQL): SQL =>
  [...text].length >= 3 ? ilike(expression, likePattern(text)) : (short?.(text) ?? sql`strpos(lower(${expression}), lower(${text})) > 0`);

const isBlank = (value: unknown) => value === undefined || value === null || value === '';

/** Datetime filter values arrive as text; anything else was already typed by the schema. */
const typed = (model: ResourceModel, filter: FilterDeclaration, value: unknown): unknown => {
  const type = model.declaration.fields[filter.field].type;
  if ((type === 'datetime' || type === 'date') && typeof value === 'string') {
    const time = Date.parse(value);
    if (Number.isNaN(time)) throw invalidField(filter.name, 'validation.date', '1003');
    return new Date(time);
  }
  return value;
};

export const filterConditions = (model: ResourceModel, body: Record<string, unknown>): SQL[] => {
  const conditions: SQL[] = [];
  for (const filter of model.declaration.list.filters) {
    const raw = body[filter.name];
    if (isBlank(raw)) continue;
    const custom = model.hooks.filter?.(filter, raw);
    if (custom) {
      conditions.push(custom);
      continue;
    }
    const expression = expressionOf(model, filter.field);
    switch (filter.operator) {
      case 'eq':
        conditions.push(eq(expression, typed(model, filter, raw)));
        break;
      case 'like':
        conditions.push(containsCondition(expression, String(raw), model.shortContains[filter.field]));
        break;
      case 'in': {
        const values = (raw as unknown[]).filter((value) => !isBlank(value)).map((value) => typed(model, filter, value));
        if (values.length) conditions.push(inArray(expression, values));
        break;
      }
      case 'gte':
        conditions.push(gte(expression, typed(model, filter, raw)));
        break;
      case 'lte':
        conditions.push(lte(expression, typed(model, filter, raw)));
        break;
      case 'range': {
        const [from, to] = raw as unknown[];
        if (!isBlank(from)) conditions.push(gte(expression, typed(model, filter, from)));
        if (!isBlank(to)) conditions.push(lte(expression, typed(model, filter, to)));
        break;
      }
    }
  }
  return conditions;
};

/** Sort on a sortable field (the schema only lets those through) or the default sort; id breaks ties. */
export const orderByOf = (model: ResourceModel, sort?: string, order?: 'ASC' | 'DESC'): SQL[] => {
  const fallback = model.declaration.list.defaultSort;
  const field = sort ?? fallback.field;
  const direction = order ?? (sort ? 'ASC' : fallback.order);
  const by = direction === 'DESC' ? desc : asc;
  return field === 'id' ? [by(model.id)] : [by(expressionOf(model, field)), by(model.id)];
};

export const listingWhere = (model: ResourceModel, caller: Caller, body: Record<string, unknown>): SQL | undefined =>
  and(scopeCondition(model, caller), ...filterConditions(model, body));
