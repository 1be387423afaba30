// A computed field's subquery that refers to the row being listed must name that row's column in
// full. Drizzle strips the table from columns placed directly in a single-table selection, so in
// `(select count(*) from fleet f where f.license_account_id = ${licenseAccount.id})` the outer
// `"id"` would bind to the subquery's own `f.id`. Columns inside a nested SQL chunk keep their table.
import { sql, type SQL } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';

export const outerColumn = (column: PgColumn): SQL => sql`${column}`;
