// A SELECT sent again and again is sent as a named (prepared) statement (PostgreSQL here, PGlite's worker
// through pgliteNamed.ts), so each pooled connection parses it once and PostgreSQL may keep a generic plan instead of planning it on every call.
// Planning is most of the database time of the busiest reads: the machine list's page query (seven computed
// fields as subqueries) plans in 2-3 ms and runs in well under that (docs/benchmarks.md "Load").
// Names are derived from the text, so one name always means one text (node-postgres refuses otherwise),
// and drizzle already sends every value as a parameter: texts are query shapes, not values.
import { createHash } from 'node:crypto';
import type pg from 'pg';

/**
 * A pattern match on a parameter: its best plan depends on the value (a prefix can use a btree index only when
 * the planner sees it; how many rows a trigram pattern matches), and a named statement may settle on a generic
 * plan that sees none (measured: search's session lookup 6–7 s instead of 8 ms over 4.4 million sessions).
 * Such statements stay unnamed: planned with their values on every call.
 */
const VALUE_PLANNED = /\b(i?like|similar\s+to)\s+\$\d|~~\*?\s+\$\d|\bstrpos\s*\(/i;

/** Texts seen this many times get a name: one-off statements never occupy a connection's memory. */
const REPEATS_BEFORE_NAMING = 3;
/** At most this many names per process (each connection keeps a parsed statement per name it used). */
const MAX_NAMES = 200;
const MAX_COUNTED = 5_000;

const names = new Map<string, string>();
const seen = new Map<string, number>();

/**
 * Only SELECTs that carry parameters: they already use the extended protocol, so naming them changes nothing else.
 * Also used by PGlite's worker (pgliteNamed.ts).
 */
export const statementName = (text: string, values: unknown): string | undefined => {
  const known = names.get(text);
  if (known) return known;
  if (!Array.isArray(values) || values.length === 0 || names.size >= MAX_NAMES || !/^\s*(select|with)\b/i.test(text) || VALUE_PLANNED.test(text)) return undefined;
  const count = (seen.get(text) ?? 0) + 1;
  if (count < REPEATS_BEFORE_NAMING) {
    if (seen.size >= MAX_COUNTED) seen.clear();
    seen.set(text, count);
    return undefined;
  }
  seen.delete(text);
  const name = `rvm_${createHash('sha256').update(text).digest('base64url').slice(0, 40)}`;
  names.set(text, name);
  return name;
};

type QueryFunction = (...args: unknown[]) => unknown;

/** "cached plan must not change result type": a table under a named statement changed its columns. */
const STALE_PLAN = '0A000';
let renamed = 0;

/** The text gets a new name (its old statement stays invalid on the connections that prepared it). */
const renameStale = (text: string) => {
  const name = names.get(text);
  if (name) names.set(text, `${name.slice(0, 40)}_${(renamed += 1)}`);
};

const isStale = (error: unknown) => (error as { code?: unknown } | null)?.code === STALE_PLAN;

/**
 * Sends `named` (a query config with its name); a stale plan answers the same query sent unnamed
 * once, and the text is renamed for its next calls. Callback and promise forms alike.
 */
const sendNamed = (query: QueryFunction, named: Record<string, unknown>, unnamed: unknown, text: string, rest: unknown[], inTransaction: boolean): unknown => {
  // inside a transaction the error has aborted it: the retry would only hide the real error behind 25P02
  const retries = (error: unknown) => {
    if (!isStale(error)) return false;
    renameStale(text);
    return !inTransaction;
  };
  const callback = rest.at(-1);
  if (typeof callback === 'function') {
    return query(named, ...rest.slice(0, -1), (error: unknown, ...answer: unknown[]) =>
      retries(error) ? query(unnamed, ...rest) : (callback as (...args: unknown[]) => unknown)(error, ...answer),
    );
  }
  const result = query(named, ...rest);
  if (!(result instanceof Promise)) return result;
  return result.catch((error: unknown) => {
    if (!retries(error)) throw error;
    return query(unnamed, ...rest);
  });
};

const TRANSACTION_START = /^\s*(begin|start\s+transaction)\b/i;
const TRANSACTION_END = /^\s*(commit|end|rollback)\s*;?\s*$/i;

/** For `pool.on('connect')`: the client's queries go through `statementName` (pool.query and transactions alike). */
export const nameRepeatedSelects = (client: pg.PoolClient) => {
  const query = client.query.bind(client) as QueryFunction;
  let inTransaction = false;
  (client as unknown as { query: QueryFunction }).query = (config: unknown, ...rest: unknown[]) => {
    const sent = typeof config === 'string' ? config : (config as { text?: unknown } | null)?.text;
    if (typeof sent === 'string' && TRANSACTION_START.test(sent)) inTransaction = true;
    else if (typeof sent === 'string' && TRANSACTION_END.test(sent)) inTransaction = false;
    if (process.env.PG_NAMED_STATEMENTS === 'off') return query(config, ...rest);
    if (typeof config === 'string') {
      const name = statementName(config, rest[0]);
      return name ? sendNamed(query, { name, text: config }, config, config, rest, inTransaction) : query(config, ...rest);
    }
    // A Query or Cursor object (it has `submit`) is passed on untouched, as is one that already has a name.
    if (config && typeof config === 'object' && !('submit' in config)) {
      const { text, name, values } = config as { text?: unknown; name?: unknown; values?: unknown };
      if (typeof text === 'string' && !name) {
        const given = statementName(text, Array.isArray(rest[0]) ? rest[0] : values);
        if (given) return sendNamed(query, { ...config, name: given }, config, text, rest, inTransaction);
      }
    }
    return query(config, ...rest);
  };
};
