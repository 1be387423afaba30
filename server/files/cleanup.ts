// Uploaded files no record holds are removed (docs/files.md "Files and their records"): right after a write
// that let go of a file (its record deleted, its field's value replaced), and by the `fileSweep` job for
// uploads never saved into a record. The row goes in a transaction that first locks it and then looks for
// holders; a write saving the file locks the same row (./ownership.ts), so one of the two waits for the other
// and a file a record still holds (or is about to hold) is never removed. The bytes go after the commit.
import { and, eq, inArray, lt, sql } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { FastifyBaseLogger } from 'fastify';
import { isFileKind } from '../../resources/files';
import type { FieldDeclaration } from '../../resources/types';
import { rowsOf, type Db } from '../db/client';
import { uploadedFile } from '../db/schema';
import type { FileStorage } from './storage';

/** A code-declared image or file field: the column holding file ids. */
export interface FileColumn {
  table: PgTable;
  column: PgColumn;
}

/** What this module reads of a resource model (server/crud/model.ts; named here: files/ sits below crud/). */
export interface FileFieldModel {
  declaration: { fields: Readonly<Record<string, FieldDeclaration>> };
  table: PgTable;
  columns: Record<string, PgColumn>;
  document?: unknown;
}

/** The file columns of code-declared models (configured types keep theirs in documents, checked as a whole below). */
export const fileColumnsOf = (models: Iterable<FileFieldModel>): FileColumn[] =>
  [...models].flatMap((model) =>
    model.document
      ? []
      : Object.entries(model.declaration.fields)
          .filter(([name, field]) => isFileKind(field.type) && !field.virtual && model.columns[name])
          .map(([name]) => ({ table: model.table, column: model.columns[name] })),
  );

/** An unsaved upload older than this is swept. */
export const UNSAVED_UPLOAD_MS = 24 * 60 * 60_000;
export const FILE_SWEEP_JOB = 'fileSweep';
const SWEEP_BATCH = 500;
const SWEEP_BATCHES = 20;
/** Transaction advisory lock of the sweep, so one instance runs it at a time ("FSWP"). */
const SWEEP_LOCK_KEY = 0x46535750;

const idList = (ids: readonly number[]) =>
  sql.join(
    ids.map((id) => sql`${id}`),
    sql`, `,
  );

/**
 * The ids among `rows` some record holds: a code-declared field's column, or a configured record of the file's
 * account, in its document or in its archive (values of removed fields, kept: docs/ARCHITECTURE.md "Changes").
 * A configured record is read as a whole: any top-level number equal to the id holds it (a number field that
 * happens to be equal keeps a file; never the other way round).
 */
const heldIds = async (tx: Db, rows: ReadonlyArray<{ id: number; licenseAccountId: number }>, columns: readonly FileColumn[]): Promise<Set<number>> => {
  const ids = rows.map((row) => row.id);
  const held = new Set<number>();
  if (ids.length === 0) return held;
  for (const { table, column } of columns) {
    for (const row of await tx.selectDistinct({ id: column }).from(table).where(inArray(column, ids))) held.add(Number(row.id));
  }
  const accounts = [...new Set(rows.map((row) => row.licenseAccountId))];
  const documents = rowsOf<{ id: string | number }>(
    await tx.execute(sql`select distinct (item.value #>> '{}')::numeric as id
      from configured_record as record cross join lateral jsonb_each(record.data || coalesce(record.archived, '{}'::jsonb)) as item
      where record.license_account_id in (${idList(accounts)}) and jsonb_typeof(item.value) = 'number' and (item.value #>> '{}')::numeric in (${idList(ids)})`),
  );
  for (const row of documents) held.add(Number(row.id));
  return held;
};

/**
 * Inside `tx`: locks the files `ids`, keeps (and marks saved) those a record holds, deletes the other rows.
 * Answers the storage keys to delete once `tx` has committed.
 */
export const releaseInTransaction = async (tx: Db, ids: readonly number[], columns: readonly FileColumn[]): Promise<{ removed: number; keys: string[] }> => {
  if (ids.length === 0) return { removed: 0, keys: [] };
  const rows = await tx
    .select({ id: uploadedFile.id, licenseAccountId: uploadedFile.licenseAccountId, storageKey: uploadedFile.storageKey, thumbnailKey: uploadedFile.thumbnailKey })
    .from(uploadedFile)
    .where(inArray(uploadedFile.id, [...new Set(ids)]))
    .orderBy(uploadedFile.id)
    .for('update');
  // read after the lock: a write that saved one of them meanwhile has committed
  const held = await heldIds(tx, rows, columns);
  const kept = rows.filter((row) => held.has(row.id)).map((row) => row.id);
  const gone = rows.filter((row) => !held.has(row.id));
  if (kept.length)
    await tx
      .update(uploadedFile)
      .set({ saved: true })
      .where(and(inArray(uploadedFile.id, kept), eq(uploadedFile.saved, false)));
  if (gone.length)
    await tx.delete(uploadedFile).where(
      inArray(
        uploadedFile.id,
        gone.map((row) => row.id),
      ),
    );
  return { removed: gone.length, keys: gone.flatMap((row) => (row.thumbnailKey ? [row.storageKey, row.thumbnailKey] : [row.storageKey])) };
};

/** Removes the bytes of deleted rows; a failure leaves bytes no row names (unreachable), logged. */
export const deleteStored = async (storage: FileStorage | undefined, keys: readonly string[], log?: Pick<FastifyBaseLogger, 'warn'>) => {
  if (!storage) return;
  for (const key of keys) await storage.delete(key).catch((error: unknown) => log?.warn({ err: error, key }, 'the bytes of a removed file stay in the storage'));
};

export interface ReleaseDeps {
  db: Db;
  fileStorage?: FileStorage;
  columns: readonly FileColumn[];
  log?: Pick<FastifyBaseLogger, 'warn'>;
}

/**
 * After a write that let go of files (committed): removes those no record holds. Never throws: what it could
 * not do, the sweep does (the write marked them unsaved).
 */
export const releaseFiles = async ({ db, fileStorage, columns, log }: ReleaseDeps, ids: readonly number[]): Promise<void> => {
  if (ids.length === 0 || !fileStorage) return;
  try {
    const { keys } = await db.transaction((tx) => releaseInTransaction(tx, ids, columns));
    await deleteStored(fileStorage, keys, log);
  } catch (error) {
    log?.warn({ err: error, ids }, 'released files were not removed (the file sweep will)');
  }
};

/**
 * The `fileSweep` job: uploads not saved into a record (or let go of since) and older than a day, no record
 * holding them. One instance at a time (a transaction advisory lock; another finding it taken skips its run);
 * at most SWEEP_BATCHES batches a run, the next run goes on.
 */
export const sweepUnsavedFiles = async ({ db, fileStorage, columns, log }: ReleaseDeps, now: Date): Promise<number> => {
  const before = new Date(now.getTime() - UNSAVED_UPLOAD_MS);
  let removed = 0;
  for (let batch = 0; batch < SWEEP_BATCHES; batch++) {
    const outcome = await db.transaction(async (tx) => {
      const [lock] = rowsOf<{ locked: boolean }>(await tx.execute(sql`select pg_try_advisory_xact_lock(${SWEEP_LOCK_KEY}) as locked`));
      if (!lock?.locked) return undefined;
      const candidates = await tx
        .select({ id: uploadedFile.id })
        .from(uploadedFile)
        .where(and(eq(uploadedFile.saved, false), lt(uploadedFile.createdTime, before)))
        .orderBy(uploadedFile.id)
        .limit(SWEEP_BATCH);
      return {
        count: candidates.length,
        ...(await releaseInTransaction(
          tx,
          candidates.map((row) => row.id),
          columns,
        )),
      };
    });
    if (!outcome) break;
    await deleteStored(fileStorage, outcome.keys, log);
    removed += outcome.removed;
    if (outcome.count < SWEEP_BATCH) break;
  }
  return removed;
};

/** Inside a write that lets go of files: they are unsaved until a check finds a holder (the sweep's net should the removal after the commit not happen). */
export const markUnsaved = async (tx: Db, ids: readonly number[]) => {
  if (ids.length)
    await tx
      .update(uploadedFile)
      .set({ saved: false })
      .where(inArray(uploadedFile.id, [...new Set(ids)]));
};
