// PostgreSQL only: a SELECT sent again and again is sent as a named (prepared) statement, so each pooled
// connection parses it once and PostgreSQL may keep a generic plan instead of planning it on every call.
// Planning is most of the database time of the busiest reads: the machine list's page query (seven computed
// fields as subqueries) plans in 2-3 ms and runs in well under that (docs/benchmarks.md "Load").
// Names are derived from the text, so one name always means one text (node-postgres refuses otherwise),
// and drizzle already sends every value as a parameter: texts are query shapes, not values.
import { createHash } from 'node:crypto';
import type pg from 'pg';

/** Texts seen this many times get a name: one-off statements never occupy a connection's memory. */
const REPEATS_BEFORE_NAMING = 3;
/** At most this many names per process (each connection keeps a parsed statement per name it used). */
const MAX_NAMES = 200;
const MAX_COUNTED = 5_000;

const names = new Map<string, string>();
const seen = new Map<string, number>();

/** Only SELECTs that carry parameters: they already use the extended protocol, so naming them changes nothing else. */
const nameOf = (text: string, values: unknown): string | undefined => {
  const known = names.get(text);
  if (known) return known;
  if (!Array.isArray(values) || values.length === 0 || names.size >= MAX_NAMES || !/^\s*(select|with)\b/i.test(text)) return undefined;
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

/** For `pool.on('connect')`: the client's queries go through `nameOf` (pool.query and transactions alike). */
export const nameRepeatedSelects = (client: pg.PoolClient) => {
  const query = client.query.bind(client) as QueryFunction;
  (client as unknown as { query: QueryFunction }).query = (config: unknown, ...rest: unknown[]) => {
    if (process.env.PG_NAMED_STATEMENTS === 'off') return query(config, ...rest);
    if (typeof config === 'string') {
      const name = nameOf(config, rest[0]);
      return query(name ? { name, text: config } : config, ...rest);
    }
    // A Query or Cursor object (it has `submit`) is passed on untouched, as is one that already has a name.
    if (config && typeof config === 'object' && !('submit' in config)) {
      const { text, name, values } = config as { text?: unknown; name?: unknown; values?: unknown };
      if (typeof text === 'string' && !name) {
        const given = nameOf(text, Array.isArray(rest[0]) ? rest[0] : values);
        if (given) return query({ ...config, name: given }, ...rest);
      }
    }
    return query(config, ...rest);
  };
};
