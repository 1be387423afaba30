// Values written into a statement's text instead of sent as parameters, for the few that decide its plan.
// A repeated SELECT is a named statement (namedStatements.ts): PostgreSQL and PGlite plan its first five
// calls for their values, then keep one generic plan if it costs no more. With `limit $n` or `now() - $n`
// the generic plan must guess (a tenth of the table; a third of the rows), looks dearer, and the statement is
// planned again on every call: 0.7–1 ms of the machine list's 1.3 ms in the database (docs/benchmarks.md "Load").
// Only the product's constants and validated integers go here: never a user's text. And only in statements
// whose other parameters do not decide the plan: a kept plan cannot see a value, so `like $1` never uses a
// prefix index (a search over 4.4 million sessions went from 8 ms to 6–7 s when its limit was written in).
import { sql, type SQL } from 'drizzle-orm';

/**
 * A row count for drizzle's `.limit()`: a non-negative integer is written into the text (drizzle writes an
 * SQL object as it is); anything else is left to drizzle as a parameter. Page sizes are a few values, so the
 * texts stay few.
 */
export const rowLimit = (limit: number): number => (Number.isSafeInteger(limit) && limit >= 0 ? (sql.raw(String(limit)) as unknown as number) : limit);

/** A constant of the code (an interval, an alarm code) as an SQL string literal; refuses anything that is not a plain word. */
export const constantText = (value: string): SQL => {
  if (!/^[\w .:-]*$/.test(value)) throw new Error(`not a constant: ${value}`);
  return sql.raw(`'${value}'`);
};
