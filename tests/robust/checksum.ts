// A checksum of every table, to prove a refused call stored nothing (not even half of something):
// per table the row count and the sum of a 64-bit hash of each row's text (order-free, so no sort:
// an md5 over sorted rows costs ~90 ms a call on PGlite, this a fraction), all tables in one query. Signing in and every
// authenticated call legitimately write the session tables, so those are left out.
import { sql } from 'drizzle-orm';
import { rowsOf, type Db } from '../../server/db/client';

/** Written by signing in (tokens, failed attempts, throttle counts) and by every call (a token's last-seen time). */
export const SESSION_TABLES = ['sys_token', 'login_attempt', 'rate_limit_hit'];

/**
 * Rows a refusal writes on purpose, left out of their table's checksum: the audit log records a refused
 * remote command (ARCHITECTURE.md "Audit actions": outcome `refused`) and a failed sign-in (`failure`,
 * docs/audit-log.md) as the refusal itself.
 */
const REFUSAL_RECORDS: Record<string, string> = { audit_log: `where t.outcome not in ('refused', 'failure')` };

export type Checksums = Map<string, string>;

const tablesOf = async (db: Db) =>
  rowsOf<{ name: string }>(await db.execute(sql`select tablename as name from pg_tables where schemaname = 'public' order by tablename`))
    .map((row) => row.name)
    .filter((name) => !SESSION_TABLES.includes(name));

const cache = new WeakMap<Db, Promise<string>>();

/** The one query summing every table (built once per database handle: the table list does not change). */
const queryOf = (db: Db) => {
  let query = cache.get(db);
  if (!query) {
    query = tablesOf(db).then((tables) =>
      tables
        .map(
          (table) =>
            `select '${table}' as name, (select count(*) || ':' || coalesce(sum(hashtextextended(t::text, 7)), 0) from "${table}" t ${REFUSAL_RECORDS[table] ?? ''}) as sum`,
        )
        .join(' union all '),
    );
    cache.set(db, query);
  }
  return query;
};

export const checksums = async (db: Db): Promise<Checksums> =>
  new Map(rowsOf<{ name: string; sum: string }>(await db.execute(sql.raw(await queryOf(db)))).map((row) => [row.name, row.sum]));

/** The tables whose content differs (empty when nothing changed). */
export const changedTables = (before: Checksums, after: Checksums): string[] =>
  [...new Set([...before.keys(), ...after.keys()])].filter((table) => before.get(table) !== after.get(table)).sort();

/**
 * The next transaction id: it moves whenever any transaction writes (committed or not) and never
 * for reads, so an unchanged mark proves every checksum unchanged without computing them (on
 * PGlite a full checksum costs ~80 ms; on a shared PostgreSQL server other databases move it too,
 * and the checksums are simply computed).
 */
const writeMark = async (db: Db) => rowsOf<{ mark: string }>(await db.execute(sql`select pg_snapshot_xmax(pg_current_snapshot())::text as mark`))[0].mark;

export interface TableWatch {
  /** The tables whose content changed since the last look (or rebase); the baseline moves to now. */
  changed(): Promise<string[]>;
  /** A new baseline, after a call that may change things. */
  rebase(): Promise<void>;
}

export const watchTables = async (db: Db): Promise<TableWatch> => {
  let mark = await writeMark(db);
  let sums = await checksums(db);
  const look = async () => {
    const now = await writeMark(db);
    if (now === mark) return [];
    const after = await checksums(db);
    const changed = changedTables(sums, after);
    [mark, sums] = [now, after];
    return changed;
  };
  return { changed: look, rebase: async () => void (await look()) };
};
