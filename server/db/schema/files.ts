// Uploaded files (docs/files.md): the metadata of each, its bytes in the file storage (a folder or
// S3-compatible object storage, server/files/storage.ts) under `storage_key`. A record's image or file
// field holds the id; a file no record holds any more is removed (server/files/cleanup.ts).
import { sql } from 'drizzle-orm';
import { bigint, boolean, char, index, integer, pgTable, timestamp, varchar } from 'drizzle-orm/pg-core';
import { licenseAccount, sysUser } from './system';

export const uploadedFile = pgTable(
  'uploaded_file',
  {
    id: integer('id').primaryKey().generatedByDefaultAsIdentity(),
    /** Only callers of this license account may download it or put it in a record. */
    licenseAccountId: integer('license_account_id')
      .notNull()
      .references(() => licenseAccount.id, { onDelete: 'cascade' }),
    uploadedBy: integer('uploaded_by').references(() => sysUser.id, { onDelete: 'set null' }),
    /** The name the uploader's file had (for the download's Content-Disposition). */
    name: varchar('name', { length: 255 }).notNull(),
    /** Judged from the bytes (file-type), never from the name or the client's header. */
    mimeType: varchar('mime_type', { length: 127 }).notNull(),
    size: bigint('size', { mode: 'number' }).notNull(),
    /** Hex SHA-256 of the bytes, computed while they streamed in. */
    sha256: char('sha256', { length: 64 }).notNull(),
    createdTime: timestamp('created_time', { withTimezone: true }).notNull().defaultNow(),
    storageKey: varchar('storage_key', { length: 200 }).notNull(),
    /** Images: a small WebP made on upload; null for other files or when it could not be made. */
    thumbnailKey: varchar('thumbnail_key', { length: 200 }),
    /**
     * Saved into a record (set by the write that saves it); false from the upload on, and again once a write lets
     * go of it: such a file older than a day that no record holds is swept (docs/files.md "Files and their records").
     */
    saved: boolean('saved').notNull().default(false),
  },
  (t) => [
    index('uploaded_file_account_idx').on(t.licenseAccountId, t.id),
    index('uploaded_file_unsaved_idx')
      .on(t.createdTime)
      .where(sql`not ${t.saved}`),
  ],
);
