// Reading records: one query for the rows (stored and computed fields), one per multiReference
// for the id arrays, then the wire form (dates as ISO strings, writeOnly/virtual never present).
import { and, asc, eq, inArray, sql, type SQL } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import type { Caller } from '../auth/principal';
import { rowsOf, type Db } from '../db/client';
import { LIST_PAGE_SIZES } from '../../resources/types';
import { rowLimit } from '../db/inlineSql';
import { notFound } from '../lib/errors';
import type { Values } from './hooks';
import type { ModelRegistry, ResourceModel } from './model';
import { scopeCondition } from './query';

export type WireRecord = Record<string, unknown>;

const wireNamesOf = new WeakMap<ResourceModel, readonly string[]>();
const wireNames = (model: ResourceModel) => {
  let names = wireNamesOf.get(model);
  if (!names) wireNamesOf.set(model, (names = ['id', ...model.readable]));
  return names;
};

const selection = (model: ResourceModel): Record<string, PgColumn | SQL> => {
  const fields: Record<string, PgColumn | SQL> = { id: model.id };
  for (const name of model.readable) {
    if (model.columns[name]) fields[name] = model.columns[name];
    else if (model.computed[name]) fields[name] = model.computed[name];
  }
  return fields;
};

/** A row in its wire form: the named fields only, dates as ISO strings, absent values null (a plain loop: 20 rows of ~35 fields per page). */
const toWire = (names: readonly string[], row: Values): WireRecord => {
  const record: WireRecord = {};
  for (const name of names) {
    const value = row[name];
    record[name] = value instanceof Date ? value.toISOString() : (value ?? null);
  }
  return record;
};

/** Fills every multiReference field of `rows` with the ids found in its join table. */
const attachJoins = async (db: Db, model: ResourceModel, rows: Values[]) => {
  const ids = rows.map((row) => row.id as number);
  for (const [name, join] of Object.entries(model.joins)) {
    if (!model.readable.includes(name)) continue;
    const links = ids.length ? await db.select({ from: join.from, to: join.to }).from(join.table).where(inArray(join.from, ids)).orderBy(asc(join.to)) : [];
    const byRow = new Map<number, number[]>();
    for (const link of links) {
      const list = byRow.get(link.from as number) ?? [];
      list.push(link.to as number);
      byRow.set(link.from as number, list);
    }
    for (const row of rows) row[name] = byRow.get(row.id as number) ?? [];
  }
};

export interface ReadOptions {
  where?: SQL;
  orderBy?: SQL[];
  limit?: number;
  offset?: number;
  /**
   * The limit written into the text, so the database may keep one (generic) plan for the statement
   * (server/db/inlineSql.ts). Only where no other value decides the best plan, e.g. the unfiltered page of an
   * account: a kept plan cannot see a user's pattern (`like $1` then never uses a prefix index: measured
   * 6–7 s instead of 8 ms for a search over 4.4 million sessions).
   */
  planOnce?: boolean;
}

// Written in for the sizes the console offers only: every other size would be one more statement text, and the
// names are few (namedStatements.ts MAX_NAMES) and kept for the process's life.
const limitOf = (options: ReadOptions, limit: number) => (options.planOnce && (LIST_PAGE_SIZES as readonly number[]).includes(limit) ? rowLimit(limit) : limit);

/**
 * The ids of one page, for a model with computed fields: the page is chosen on plain columns first,
 * so the computed fields' subqueries run for its rows only. Asked for the whole filtered set at once,
 * the planner expects thousands of rows and computes some of them for every row of the table (hashed
 * subplans: measured 15 ms instead of 8 ms for 20 of 10,000 machines, docs/benchmarks.md "Load").
 */
const pageIds = (db: Db, model: ResourceModel, options: ReadOptions) => {
  let ids = db.select({ id: model.id }).from(model.table).where(options.where).$dynamic();
  if (options.orderBy?.length) ids = ids.orderBy(...options.orderBy);
  if (options.limit !== undefined) ids = ids.limit(limitOf(options, options.limit));
  if (options.offset) ids = ids.offset(options.offset);
  return ids;
};

export const readRecords = async (db: Db, model: ResourceModel, options: ReadOptions): Promise<WireRecord[]> => (await readRecordsWith(db, model, options, {})).records;

/**
 * The records, and `extra`: scalar expressions read in the same statement (from the first row; undefined
 * when there is none), so a page and, say, its kept total cost one round trip.
 */
export const readRecordsWith = async (
  db: Db,
  model: ResourceModel,
  options: ReadOptions,
  extras: Record<string, SQL>,
): Promise<{ records: WireRecord[]; extra: Values | undefined }> => {
  const pageFirst = Object.keys(model.computed).length > 0 && options.limit !== undefined && options.limit > 1;
  const extraNames = Object.keys(extras).map((name) => [name, `extra_${name}`] as const);
  let query = db
    .select({ ...selection(model), ...Object.fromEntries(extraNames.map(([name, key]) => [key, extras[name]])) })
    .from(model.table)
    .where(pageFirst ? inArray(model.id, pageIds(db, model, options)) : options.where)
    .$dynamic();
  if (options.orderBy?.length) query = query.orderBy(...options.orderBy);
  if (!pageFirst && options.limit !== undefined) query = query.limit(limitOf(options, options.limit));
  if (!pageFirst && options.offset) query = query.offset(options.offset);
  const rows = (await query) as Values[];
  await attachJoins(db, model, rows);
  const first = rows[0];
  return {
    records: rows.map((row) => toWire(wireNames(model), row)),
    extra: first && Object.fromEntries(extraNames.map(([name, key]) => [name, first[key]])),
  };
};

/** One scalar expression's value, on its own. */
export const readScalar = async (db: Db, expression: SQL): Promise<number> => {
  const [row] = rowsOf<{ value: unknown }>(await db.execute(sql`select ${expression} as value`));
  return Number(row?.value ?? 0);
};

export const countRecords = async (db: Db, model: ResourceModel, where?: SQL): Promise<number> => {
  const [row] = await db
    .select({ total: sql<number>`count(*)`.mapWith(Number) })
    .from(model.table)
    .where(where);
  return row?.total ?? 0;
};

/**
 * One record the caller may see, else 2003. `scoped: false` after the caller's own write: a record
 * just moved out of their scope (e.g. a user created in another license account) is still answered.
 */
export const readOne = async (db: Db, model: ResourceModel, caller: Caller, id: number, scoped = true): Promise<WireRecord> => {
  const [record] = await readRecords(db, model, { where: and(eq(model.id, id), scoped ? scopeCondition(model, caller) : undefined), limit: 1 });
  if (!record) throw notFound(model);
  return record;
};

/** `{ id -> label }` of the referenced rows (the referenced resource's nameField), for exports. */
export const labelsOf = async (db: Db, models: ModelRegistry, resource: string | undefined, ids: number[]) => {
  const model = resource ? models.get(resource) : undefined;
  const labels = new Map<number, string>();
  if (!model || ids.length === 0) return labels;
  const name = model.columns[model.declaration.nameField] ?? model.computed[model.declaration.nameField];
  const rows = await db
    .select({ id: model.id, name })
    .from(model.table)
    .where(inArray(model.id, [...new Set(ids)]));
  for (const row of rows) labels.set(row.id as number, String(row.name ?? ''));
  return labels;
};
