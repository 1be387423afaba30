// A contains search shorter than 3 characters has no trigram to look up (trigramIndexes.ts), so it read every row
// of the account and compared `lower(column)`: at 100,000 machines "Po" (26,872 matches) took 33.8 ms, of which 12
// were `lower()` of every address and 15 the substring test (docs/benchmarks.md "Search"). Every column a contains
// search reads therefore gets, derived from the declarations like the trigram indexes:
// - a lower-case copy the database keeps itself (a stored generated column, `<column>__folded`, written with the row);
// - a GIN index of the copy's 2-character pieces (`contains_bigrams(copy)`, the 2-gram index PostgreSQL does not have),
//   which finds the rows holding a 2-character text without reading the others; the substring test on the copy then
//   confirms each (a text whose lower case is longer than 2 characters is looked up by all of its pieces).
// One character is compared on the copy alone: nearly every row holds it, an index would not spare reading them.
// Added at start under the migration lock, after the migrations; a model whose table lacks them (e.g. a test's
// fixture table created later) keeps comparing `lower(column)`: the same rows, only slower.
import { sql } from 'drizzle-orm';
import { rowsOf, type Db } from './client';
import { containsColumns, quoted, type SearchedModels } from './trigramIndexes';

/** PostgreSQL cuts identifiers at 63 bytes. */
export const foldedColumnName = (column: string) => `${column}__folded`.slice(0, 63);
export const bigramIndexName = (table: string, column: string) => `${table}_${column}_bigram_idx`.slice(0, 63);

/** The distinct 2-character pieces of a text (none for 0 or 1 character); immutable, so an index may hold it. */
const BIGRAMS_FUNCTION = `create function contains_bigrams(value text) returns text[] language sql immutable strict parallel safe as
  $$ select coalesce(array_agg(distinct substr(value, i, 2)), '{}') from generate_series(1, char_length(value) - 1) i $$`;

const existingNames = async (db: Db, query: ReturnType<typeof sql>) => new Set(rowsOf<{ name: string }>(await db.execute(query)).map((row) => row.name));

/**
 * Adds the lower-case copies and their 2-character indexes that do not exist yet, and tells each model how to answer
 * a short text on its searched fields (`model.shortContains`). Answers what it added (`table.column`, index names).
 */
export const createFoldedColumns = async (db: Db, models: SearchedModels): Promise<string[]> => {
  const wanted = containsColumns(models);
  if (!wanted.length) return [];
  const tables = [...new Set(wanted.map((column) => column.table))];
  const existing = rowsOf<{ table: string; column: string }>(
    await db.execute(sql`select table_name as "table", column_name as "column" from information_schema.columns
      where table_schema = current_schema() and table_name in ${tables}`),
  );
  const columnsOf = new Map<string, Set<string>>();
  for (const { table, column } of existing) columnsOf.set(table, (columnsOf.get(table) ?? new Set()).add(column));
  const added: string[] = [];
  if (!(await existingNames(db, sql`select proname as name from pg_proc where proname = 'contains_bigrams' and pronamespace = current_schema()::regnamespace`)).size) {
    await db.execute(sql.raw(BIGRAMS_FUNCTION));
    added.push('contains_bigrams()');
  }
  const indexNames = wanted.map(({ table, column }) => bigramIndexName(table, column));
  const indexes = await existingNames(db, sql`select indexname as name from pg_indexes where schemaname = current_schema() and indexname in ${indexNames}`);
  const indexedTables = new Set<string>();
  for (const { model, field, table, column } of wanted) {
    const columns = columnsOf.get(table);
    if (!columns) continue; // not there yet: its copy comes at a later start
    const folded = foldedColumnName(column);
    if (!columns.has(folded)) {
      await db.execute(sql.raw(`alter table ${quoted(table)} add column if not exists ${quoted(folded)} text generated always as (lower(${quoted(column)})) stored`));
      columns.add(folded);
      added.push(`${table}.${folded}`);
    }
    const index = bigramIndexName(table, column);
    if (!indexes.has(index)) {
      await db.execute(
        sql.raw(`create index if not exists ${quoted(index)} on ${quoted(table)} using gin (contains_bigrams(${quoted(folded)})) with (gin_pending_list_limit = 64)`),
      );
      indexes.add(index);
      indexedTables.add(table);
      added.push(index);
    }
    const copy = sql`${sql.identifier(table)}.${sql.identifier(folded)}`;
    model.shortContains[field] = (text) =>
      [...text].length < 2
        ? sql`strpos(${copy}, lower(${text})) > 0`
        : // The substring test stays on every row although the index alone is exact for most texts: it is what a scan in
          // the page's order filters with first, so `contains_bigrams` runs only on the rows that match. Without it the page
          // computed the pieces of every row it passed (PGlite, 10,000 machines, "Po", page 51: 160 ms instead of 2.9).
          sql`contains_bigrams(${copy}) @> contains_bigrams(lower(${text})) and strpos(${copy}, lower(${text})) > 0`;
  }
  // The planner knows how many rows hold a piece only from the statistics of the new index's expression: without
  // them it guessed 500 of 26,872 rows at 100,000 machines and sorted them all instead of walking the page's order (35 ms, not 1.5).
  // Never an empty table: its statistics would then say "no rows" instead of "never analysed", and plans cached while it fills
  // (the foreign-key checks of a seed's rvm_bin against rvm) would scan it whole on every row (the 100,000-machine bench seed: 15+ min instead of 79 s).
  for (const table of indexedTables) {
    const [{ filled }] = rowsOf<{ filled: boolean }>(await db.execute(sql.raw(`select exists (select from ${quoted(table)}) as filled`)));
    if (filled) await db.execute(sql.raw(`analyze ${quoted(table)}`));
  }
  return added;
};
