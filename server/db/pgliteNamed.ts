// PGlite's query() parses, describes and plans every statement on every call (its API has no named
// statements). In its worker, a SELECT sent again and again (namedStatements.ts decides which, as for
// PostgreSQL) is parsed once under a name through PGlite's protocol API, and each later call only binds
// and executes it: what node-postgres does with a named query. The answer is parsed by PGlite's own
// parseResults with the same parsers, so callers see no difference.
import { parse as pgliteParse, protocol, type PGlite, type QueryOptions, type Results } from '@electric-sql/pglite';
import { statementName } from './namedStatements';

const { serialize } = protocol;

interface Prepared {
  paramTypes: number[];
}

/** PGlite's own exclusive sections (what query() runs in), so a named call never interleaves with another. */
interface Exclusive {
  _runExclusiveTransaction<T>(work: () => Promise<T>): Promise<T>;
  _runExclusiveQuery<T>(work: () => Promise<T>): Promise<T>;
}

const concat = (parts: Uint8Array[]) => {
  const whole = new Uint8Array(parts.reduce((length, part) => length + part.length, 0));
  let at = 0;
  for (const part of parts) {
    whole.set(part, at);
    at += part.length;
  }
  return whole;
};

/** "cached plan must not change result type" and friends: this call is sent unnamed, the next one prepares again. */
const STALE_STATEMENT = new Set(['0A000', '26000']);

export const namedQueries = (db: PGlite) => {
  const prepared = new Map<string, Prepared>();
  const exclusive = db as unknown as Exclusive;

  // Close first: a statement of that name left from a stale plan is replaced, not refused (42P05).
  const prepare = async (name: string, text: string): Promise<Prepared> => {
    const { messages } = await db.execProtocol(
      concat([serialize.close({ type: 'S', name }), serialize.parse({ name, text, types: [] }), serialize.describe({ type: 'S', name }), serialize.sync()]),
    );
    const statement = { paramTypes: pgliteParse.parseDescribeStatementResults(messages) };
    prepared.set(name, statement);
    return statement;
  };

  const run = async <T>(name: string, text: string, params: unknown[], options: QueryOptions): Promise<Results<T>> =>
    exclusive._runExclusiveTransaction(() =>
      exclusive._runExclusiveQuery(async () => {
        const statement = prepared.get(name) ?? (await prepare(name, text));
        const values = params.map((value, index) => {
          if (value === null || value === undefined) return null;
          const type = statement.paramTypes[index];
          const serializer = options.serializers?.[type] ?? db.serializers[type];
          return serializer ? serializer(value) : String(value);
        });
        try {
          const { messages } = await db.execProtocol(
            concat([serialize.bind({ statement: name, values }), serialize.describe({ type: 'P' }), serialize.execute({}), serialize.sync()]),
          );
          return pgliteParse.parseResults(messages, db.parsers, options)[0] as Results<T>;
        } catch (error) {
          // prepared again on its next call (prepare closes the stale one)
          prepared.delete(name);
          throw error;
        }
      }),
    );

  /** The answer of `db.query(text, params, options)`, through a named statement when the text is a repeated SELECT. */
  return async <T>(text: string, params: unknown[] | undefined, options: QueryOptions): Promise<Results<T>> => {
    const name = process.env.PG_NAMED_STATEMENTS === 'off' ? undefined : statementName(text, params);
    if (!name || !params) return db.query<T>(text, params, options);
    try {
      return await run<T>(name, text, params, options);
    } catch (error) {
      const code = (error as { code?: unknown }).code;
      if (typeof code !== 'string' || !STALE_STATEMENT.has(code)) throw error;
      return db.query<T>(text, params, options);
    }
  };
};
