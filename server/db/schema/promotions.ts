// The Promotion area (docs/promotions.md; declarations in resources/promotions.ts, property names equal their
// field names): screens of media, options scheduling them for fleets or models, each option's ordered items,
// and the default promotion of each license account (at most one: a unique index on the account).
import { date, index, integer, pgTable, primaryKey, smallint, timestamp, uniqueIndex, varchar } from 'drizzle-orm/pg-core';
import { fleet } from './fleet';
import { uploadedFile } from './files';
import { licenseAccount } from './system';

const at = (name: string) => timestamp(name, { withTimezone: true });
const account = () =>
  integer('license_account_id')
    .notNull()
    .references(() => licenseAccount.id, { onDelete: 'restrict' });

export const promotionResource = pgTable(
  'promotion_resource',
  {
    id: integer('id').primaryKey().generatedByDefaultAsIdentity(),
    licenseAccountId: account(),
    name: varchar('name', { length: 64 }).notNull(),
    promotion1: integer('promotion1_file_id')
      .notNull()
      .references(() => uploadedFile.id),
    promotion2: integer('promotion2_file_id').references(() => uploadedFile.id),
    logo: integer('logo_file_id').references(() => uploadedFile.id),
    description: varchar('description', { length: 500 }),
    createTime: at('create_time').notNull().defaultNow(),
  },
  (t) => [uniqueIndex('promotion_resource_account_name_uq').on(t.licenseAccountId, t.name), index('promotion_resource_account_created_idx').on(t.licenseAccountId, t.createTime)],
);

export const promotionOption = pgTable(
  'promotion_option',
  {
    id: integer('id').primaryKey().generatedByDefaultAsIdentity(),
    licenseAccountId: account(),
    name: varchar('name', { length: 64 }).notNull(),
    startDate: date('start_date', { mode: 'string' }).notNull(),
    endDate: date('end_date', { mode: 'string' }).notNull(),
    /** Week days, comma-separated (`mon` … `sun`). */
    days: varchar('days', { length: 40 }).notNull().default('mon, tue, wed, thu, fri, sat, sun'),
    startHour: smallint('start_hour').notNull().default(0),
    endHour: smallint('end_hour').notNull().default(24),
    /** Machine models (`rvm.term_type`), comma-separated; with the fleets, the machines it is for. */
    models: varchar('models', { length: 500 }),
    description: varchar('description', { length: 500 }),
    createTime: at('create_time').notNull().defaultNow(),
  },
  (t) => [uniqueIndex('promotion_option_account_name_uq').on(t.licenseAccountId, t.name), index('promotion_option_account_created_idx').on(t.licenseAccountId, t.createTime)],
);

export const promotionOptionFleet = pgTable(
  'promotion_option_fleet',
  {
    optionId: integer('option_id')
      .notNull()
      .references(() => promotionOption.id, { onDelete: 'cascade' }),
    fleetId: integer('fleet_id')
      .notNull()
      .references(() => fleet.id, { onDelete: 'cascade' }),
  },
  (t) => [primaryKey({ columns: [t.optionId, t.fleetId] }), index('promotion_option_fleet_fleet_idx').on(t.fleetId)],
);

export const promotionItem = pgTable(
  'promotion_item',
  {
    id: integer('id').primaryKey().generatedByDefaultAsIdentity(),
    licenseAccountId: account(),
    optionId: integer('option_id')
      .notNull()
      .references(() => promotionOption.id, { onDelete: 'cascade' }),
    position: smallint('position').notNull().default(1),
    resourceId: integer('resource_id')
      .notNull()
      .references(() => promotionResource.id, { onDelete: 'restrict' }),
    durationSeconds: integer('duration_seconds').notNull().default(15),
  },
  (t) => [
    index('promotion_item_option_idx').on(t.optionId, t.position),
    index('promotion_item_resource_idx').on(t.resourceId),
    index('promotion_item_account_idx').on(t.licenseAccountId),
  ],
);

export const defaultPromotion = pgTable(
  'default_promotion',
  {
    id: integer('id').primaryKey().generatedByDefaultAsIdentity(),
    licenseAccountId: account(),
    resourceId: integer('resource_id')
      .notNull()
      .references(() => promotionResource.id, { onDelete: 'restrict' }),
    durationSeconds: integer('duration_seconds').notNull().default(15),
    updateTime: at('update_time').notNull().defaultNow(),
  },
  // one default per license account (docs/promotions.md#default-promotion)
  (t) => [uniqueIndex('default_promotion_account_uq').on(t.licenseAccountId), index('default_promotion_resource_idx').on(t.resourceId)],
);
