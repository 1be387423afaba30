// Every Drizzle table by its SQL name, so a declaration's `table` (and a multiReference's
// `through.table`) finds its table without any per-resource code.
import { getTableName, is } from 'drizzle-orm';
import { PgTable, type PgColumn } from 'drizzle-orm/pg-core';
import { getTableColumns } from 'drizzle-orm';
import * as schema from './schema';

export type TableRegistry = Record<string, PgTable>;

export const tablesOf = (module: Record<string, unknown>): TableRegistry =>
  Object.fromEntries(
    Object.values(module)
      .filter((value): value is PgTable => is(value, PgTable))
      .map((table) => [getTableName(table), table]),
  );

export const TABLES: TableRegistry = tablesOf(schema);

/** Column of `table` by its property name (= the declaration's field name). */
export const columnByField = (table: PgTable, field: string): PgColumn | undefined => (getTableColumns(table) as Record<string, PgColumn>)[field];

/** [property name, column] of `table` by SQL column name (join tables are declared by column names). */
export const columnBySqlName = (table: PgTable, name: string): [string, PgColumn] | undefined =>
  Object.entries(getTableColumns(table) as Record<string, PgColumn>).find(([, column]) => column.name === name);
