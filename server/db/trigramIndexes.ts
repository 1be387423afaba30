// Every "contains" search a declaration offers (a `like` filter, and the nameField behind
// `GET <apiPath>/list?nameLike=`) runs as `column ILIKE '%text%'`, which only a trigram GIN index can
// serve without reading the whole table. The indexes are derived from the declarations, so a new
// contains filter gets its index without anyone writing one: created at start, under the migration
// lock, after the migrations (which create pg_trgm and the search's own indexes, same names).
import { getTableName, sql, type SQL } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { ResourceDeclaration } from '../../resources/types';
import { rowsOf, type Db } from './client';

/** What the search indexes read of a crud model (server/crud/model.ts), by shape: db/ does not import crud/. */
export interface SearchedModel {
  declaration: Pick<ResourceDeclaration, 'name' | 'list' | 'nameField'>;
  table: PgTable;
  columns: Record<string, PgColumn>;
  shortContains: Record<string, (text: string) => SQL>;
}
export type SearchedModels = ReadonlyMap<string, SearchedModel>;

export interface TrigramIndex {
  name: string;
  table: string;
  column: string;
}

/** PostgreSQL cuts identifiers at 63 bytes. */
const MAX_IDENTIFIER = 63;

export const trigramIndexName = (table: string, column: string) => `${table}_${column}_trgm_idx`.slice(0, MAX_IDENTIFIER);

/** Text columns only: gin_trgm_ops indexes text; a computed field has no column to index. */
const isTextColumn = (column: PgColumn) => /^(text|varchar|character varying|char)/i.test(column.getSQLType());

/** Every text column a contains search reads: `like` filters and the nameField (pickers' `nameLike`), per model and field. */
export const containsColumns = (models: SearchedModels) =>
  [...models.values()].flatMap((model) => {
    const { declaration } = model;
    const searched = [...declaration.list.filters.filter((filter) => filter.operator === 'like').map((filter) => filter.field), declaration.nameField];
    return [...new Set(searched)].flatMap((field) => {
      const column = model.columns[field];
      return column && isTextColumn(column) ? [{ model, field, table: getTableName(model.table), column: column.name }] : [];
    });
  });

export const trigramIndexesOf = (models: SearchedModels): TrigramIndex[] => {
  const byName = new Map<string, TrigramIndex>();
  for (const { table, column } of containsColumns(models)) {
    const name = trigramIndexName(table, column);
    byName.set(name, { name, table, column });
  }
  return [...byName.values()];
};

export const quoted = (identifier: string) => `"${identifier.replace(/"/g, '""')}"`;

/**
 * Creates the indexes that do not exist yet, with a small pending list (migration 0013 says why).
 * Existing ones are found in the catalogue first: `create index if not exists` would still lock each
 * table and wait for its writers at every start.
 */
export const createTrigramIndexes = async (db: Db, models: SearchedModels): Promise<string[]> => {
  const wanted = trigramIndexesOf(models);
  if (!wanted.length) return [];
  const names = wanted.map((index) => index.name);
  const tableNames = [...new Set(wanted.map((index) => index.table))];
  const existing = new Set(
    rowsOf<{ name: string }>(await db.execute(sql`select indexname as name from pg_indexes where schemaname = current_schema() and indexname in ${names}`)).map((row) => row.name),
  );
  // A declaration whose table is not there yet (created later, as tests' fixtures do) gets its index at a later start.
  const tables = new Set(
    rowsOf<{ name: string }>(await db.execute(sql`select tablename as name from pg_tables where schemaname = current_schema() and tablename in ${tableNames}`)).map(
      (row) => row.name,
    ),
  );
  const created: string[] = [];
  for (const index of wanted.filter((candidate) => !existing.has(candidate.name) && tables.has(candidate.table))) {
    await db.execute(
      sql.raw(`create index if not exists ${quoted(index.name)} on ${quoted(index.table)} using gin (${quoted(index.column)} gin_trgm_ops) with (gin_pending_list_limit = 64)`),
    );
    created.push(index.name);
  }
  return created;
};
