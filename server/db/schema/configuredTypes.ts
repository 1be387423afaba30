// Resource types defined at run time (issue 9, docs/ARCHITECTURE.md "Configured resource types"):
// one row per type holding its definition (resources/configuredTypes.ts `ConfiguredType`), and one
// record table shared by every configured type, values typed in JSON. Per-type expression and
// partial unique indexes on configured_record are created by the server (server/configuredTypes/indexes.ts).
import { index, integer, jsonb, pgTable, timestamp, varchar } from 'drizzle-orm/pg-core';
import { licenseAccount, sysUser } from './system';

export const resourceType = pgTable('resource_type', {
  id: integer('id').primaryKey().generatedByDefaultAsIdentity(),
  name: varchar('name', { length: 40 }).notNull().unique('resource_type_name_uq'),
  /** The ConfiguredType without status and version. */
  definition: jsonb('definition').notNull(),
  status: varchar('status', { length: 16 }).notNull().default('active'),
  /** max(version) + 1 on every change, under a transaction lock: instances reload when max(version) or count(*) moves. */
  version: integer('version').notNull(),
  createdTime: timestamp('created_time', { withTimezone: true }).notNull().defaultNow(),
  updatedTime: timestamp('updated_time', { withTimezone: true }).notNull().defaultNow(),
  createdBy: integer('created_by').references(() => sysUser.id, { onDelete: 'set null' }),
});

export const configuredRecord = pgTable(
  'configured_record',
  {
    id: integer('id').primaryKey().generatedByDefaultAsIdentity(),
    typeName: varchar('type_name', { length: 40 }).notNull(),
    licenseAccountId: integer('license_account_id')
      .notNull()
      .references(() => licenseAccount.id, { onDelete: 'cascade' }),
    /** Field values typed in JSON: numbers, booleans, strings (ISO for date and datetime), ids for references. */
    data: jsonb('data').notNull().default({}),
    /** Values of fields removed or re-kinded with confirmArchive, keyed `<field>@v<version>`. */
    archived: jsonb('archived'),
    createdTime: timestamp('created_time', { withTimezone: true }).notNull().defaultNow(),
    updatedTime: timestamp('updated_time', { withTimezone: true }).notNull().defaultNow(),
    createdBy: integer('created_by').references(() => sysUser.id, { onDelete: 'set null' }),
  },
  (t) => [index('configured_record_type_account_idx').on(t.typeName, t.licenseAccountId, t.id)],
);
