// After a bulk load into PGlite: a CHECKPOINT, so the write-ahead log written by the load can go.
// PostgreSQL keeps min_wal_size (80 MB) of old WAL segments for reuse and never checkpoints a single-user
// PGlite on its own before max_wal_size (1 GB): the demo folder was mostly WAL. With `wal_recycle = off`
// and a small min_wal_size old segments are deleted at the checkpoint. A data folder made from the build's
// template (server/dataFolder.ts) has both settings from its first start; an older folder gets them here,
// in effect from its next start (PGlite cannot reload its configuration while open).
import { sql } from 'drizzle-orm';
import { rowsOf, type Database } from '../db/client';

const COMPACT_WAL_SETTINGS = { min_wal_size: '32MB', wal_recycle: 'off' } as const;

/** Persists the compact WAL settings when the folder lacks them (ALTER SYSTEM: postgresql.auto.conf). */
const ensureCompactWalSettings = async (database: Database) => {
  const current = rowsOf<{ name: string; setting: string; unit: string | null }>(
    await database.db.execute(sql`select name, setting, unit from pg_settings where name in ('min_wal_size', 'wal_recycle')`),
  );
  const minWal = current.find((row) => row.name === 'min_wal_size');
  const recycle = current.find((row) => row.name === 'wal_recycle');
  // min_wal_size is reported in MB (unit 'MB')
  if (!minWal || Number(minWal.setting) > 32) await database.db.execute(sql.raw(`alter system set min_wal_size = '${COMPACT_WAL_SETTINGS.min_wal_size}'`));
  if (!recycle || recycle.setting !== 'off') await database.db.execute(sql.raw(`alter system set wal_recycle = ${COMPACT_WAL_SETTINGS.wal_recycle}`));
};

/** PGlite only (a PostgreSQL server manages its own WAL, and CHECKPOINT there needs a privileged role). */
export const compactAfterBulkLoad = async (database: Database): Promise<void> => {
  if (database.kind !== 'pglite') return;
  await ensureCompactWalSettings(database);
  await database.db.execute(sql`checkpoint`);
};
