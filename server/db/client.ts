// One Drizzle API over two drivers: embedded PGlite (a data folder, or memory) or PostgreSQL
// through a node-postgres Pool. Everything above this file is driver-agnostic. PGlite runs in a
// worker thread (pgliteWorker.ts): its queries never block the server's event loop.
import type { PGlite } from '@electric-sql/pglite';
import { sql } from 'drizzle-orm';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import pg from 'pg';
import { fileURLToPath } from 'node:url';
import { CALLER_CHANGES_CHANNEL, CallerChangeFeed, listenForCallerChanges, watchOwnCallerWrites } from './callerChanges';
import { nameRepeatedSelects } from './namedStatements';
import { PgliteWorkerClient } from './pgliteWorker';

/** The driver-neutral Drizzle handle (transactions are one too). */
export type Db = PgDatabase<PgQueryResultHKT>;

export interface Database {
  kind: 'pglite' | 'postgres';
  db: Db;
  /**
   * Runs `work` on one dedicated connection holding a PostgreSQL advisory lock, after applying the
   * migrations there: instances starting together migrate and seed one after the other.
   */
  migrateLocked<T>(work: (db: Db) => Promise<T>): Promise<T>;
  /** Signals that something a caller is read from has changed (server/db/callerChanges.ts). */
  callerChanges: CallerChangeFeed;
  close(): Promise<void>;
}

export const MIGRATIONS_FOLDER = fileURLToPath(new URL('./migrations', import.meta.url));
/** Arbitrary but fixed: "RVM" in ASCII. */
const MIGRATION_LOCK_KEY = 0x52564d;

export interface DatabaseOptions {
  /** postgres://… — when set, PostgreSQL; otherwise PGlite. */
  databaseUrl?: string;
  /** PGlite data folder; absent means in memory. */
  dataDir?: string;
  /**
   * PGlite in memory only: start from this dumped database (PGlite's dumpDataDir) instead of initdb.
   * The server suite starts every file from one migrated snapshot (tests/server/migratedTemplates.ts).
   */
  pgliteSnapshot?: string;
}

export const openDatabase = async ({ databaseUrl, dataDir, pgliteSnapshot }: DatabaseOptions): Promise<Database> => {
  if (databaseUrl) {
    // No JIT: compiling costs more than it saves on the console's short queries (the dashboard's pass
    // took 86 ms of CPU with it, 27 ms without; docs/dashboard.md). Set at connection start-up (no extra
    // round trip); a DATABASE_URL that gives its own `options` keeps them.
    const pool = new pg.Pool({ connectionString: databaseUrl, max: 10, ...(/[?&]options=/.test(databaseUrl) ? {} : { options: '-c jit=off' }) });
    // A pool error on an idle client must not crash the process; the next query reconnects.
    pool.on('error', () => undefined);
    pool.on('connect', nameRepeatedSelects);
    const callerChanges = new CallerChangeFeed();
    pool.on('connect', watchOwnCallerWrites(callerChanges));
    const stopListening = listenForCallerChanges(databaseUrl, callerChanges);
    return {
      callerChanges,
      kind: 'postgres',
      db: drizzlePg(pool) as unknown as Db,
      migrateLocked: async (work) => {
        const client = await pool.connect();
        try {
          await client.query('select pg_advisory_lock($1)', [MIGRATION_LOCK_KEY]);
          try {
            const db = drizzlePg(client);
            await migratePg(db, { migrationsFolder: MIGRATIONS_FOLDER });
            return await work(db);
          } finally {
            await client.query('select pg_advisory_unlock($1)', [MIGRATION_LOCK_KEY]);
          }
        } finally {
          client.release();
        }
      },
      close: async () => {
        await stopListening();
        await pool.end();
      },
    };
  }
  // The worker loads pg_trgm (trigram indexes; the migrations create the extension).
  const client = new PgliteWorkerClient(dataDir, pgliteSnapshot);
  try {
    await client.waitReady;
  } catch (error) {
    await client.close();
    throw error;
  }
  // drizzle's PGlite driver only calls query() and transaction(), which the worker client answers alike.
  const db = drizzlePglite(client as unknown as PGlite);
  const callerChanges = new CallerChangeFeed();
  try {
    await client.listen(CALLER_CHANGES_CHANNEL, () => callerChanges.changed());
  } catch (error) {
    await client.close();
    throw error;
  }
  callerChanges.setLive(true);
  return {
    kind: 'pglite',
    callerChanges,
    db: db as unknown as Db,
    migrateLocked: async (work) => {
      // PGlite has a single connection; the lock is kept for symmetry with PostgreSQL.
      await db.execute(sql`select pg_advisory_lock(${MIGRATION_LOCK_KEY})`);
      try {
        await migratePglite(db, { migrationsFolder: MIGRATIONS_FOLDER });
        return await work(db);
      } finally {
        await db.execute(sql`select pg_advisory_unlock(${MIGRATION_LOCK_KEY})`);
      }
    },
    close: async () => {
      callerChanges.setLive(false);
      await client.close();
    },
  };
};

/** Rows of a raw `db.execute` (both drivers answer `{ rows }`). */
export const rowsOf = <T>(result: unknown): T[] => (result as { rows: T[] }).rows;
