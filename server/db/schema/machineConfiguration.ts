// Machine configurations (docs/machine-configuration.md): one table per configuration kind, its rows the
// items (declared resources, resources/configurationKinds.ts: property names equal their field names), and
// the versions every save keeps (a snapshot of a kind's items in one license account).
import { sql } from 'drizzle-orm';
import { index, integer, jsonb, numeric, pgTable, smallint, timestamp, uniqueIndex, varchar } from 'drizzle-orm/pg-core';
import { deploymentPackage } from './deployments';
import { licenseAccount, sysUser } from './system';

const at = (name: string) => timestamp(name, { withTimezone: true });
const account = () =>
  integer('license_account_id')
    .notNull()
    .references(() => licenseAccount.id, { onDelete: 'restrict' });
const decimal = (name: string, scale: number) => numeric(name, { precision: 10, scale, mode: 'number' });

/** A refund value for an item type, for a product group's products of that type, or (with a barcode) for one product. */
export const refundItem = pgTable(
  'refund_item',
  {
    id: integer('id').primaryKey().generatedByDefaultAsIdentity(),
    licenseAccountId: account(),
    itemType: varchar('item_type', { length: 16 }).notNull(),
    barcode: varchar('barcode', { length: 20 }),
    /** A product group's name (configuration_group, kind products); never with a barcode. */
    productGroup: varchar('product_group', { length: 32 }),
    value: decimal('value', 3).notNull(),
    currency: varchar('currency', { length: 3 }).notNull(),
    decimals: smallint('decimals').notNull().default(2),
    updateTime: at('update_time').notNull().defaultNow(),
  },
  (t) => [
    // an item type's value once, a product's once (docs/machine-configuration.md "Items do not repeat")
    uniqueIndex('refund_item_account_type_uq')
      .on(t.licenseAccountId, t.itemType)
      .where(sql`${t.barcode} is null and ${t.productGroup} is null`),
    // a product group's value once per item type
    uniqueIndex('refund_item_account_group_uq')
      .on(t.licenseAccountId, t.productGroup, t.itemType)
      .where(sql`${t.productGroup} is not null`),
    uniqueIndex('refund_item_account_barcode_uq')
      .on(t.licenseAccountId, t.barcode)
      .where(sql`${t.barcode} is not null`),
  ],
);

/** A product machines accept. */
export const assortmentItem = pgTable(
  'assortment_item',
  {
    id: integer('id').primaryKey().generatedByDefaultAsIdentity(),
    licenseAccountId: account(),
    barcode: varchar('barcode', { length: 20 }).notNull(),
    name: varchar('name', { length: 64 }).notNull(),
    itemType: varchar('item_type', { length: 16 }).notNull(),
    material: varchar('material', { length: 16 }).notNull(),
    volume: integer('volume'),
    minWeight: decimal('min_weight', 1).notNull(),
    maxWeight: decimal('max_weight', 1).notNull(),
    refund: decimal('refund', 3),
    updateTime: at('update_time').notNull().defaultNow(),
  },
  (t) => [uniqueIndex('assortment_item_account_barcode_uq').on(t.licenseAccountId, t.barcode)],
);

/** The bin an item type goes to. */
export const sortingItem = pgTable(
  'sorting_item',
  {
    id: integer('id').primaryKey().generatedByDefaultAsIdentity(),
    licenseAccountId: account(),
    itemType: varchar('item_type', { length: 16 }).notNull(),
    binNo: smallint('bin_no').notNull(),
    updateTime: at('update_time').notNull().defaultNow(),
  },
  (t) => [uniqueIndex('sorting_item_account_type_uq').on(t.licenseAccountId, t.itemType)],
);

/** Machine parameters for one model (`*`: the others). */
export const mainConfig = pgTable(
  'main_config',
  {
    id: integer('id').primaryKey().generatedByDefaultAsIdentity(),
    licenseAccountId: account(),
    model: varchar('model', { length: 32 }).notNull(),
    binEmptyHeight: smallint('bin_empty_height').notNull(),
    binFullHeight: smallint('bin_full_height').notNull(),
    almostFullPercent: smallint('almost_full_percent').notNull().default(80),
    alreadyFullPercent: smallint('already_full_percent').notNull().default(95),
    onTime: varchar('on_time', { length: 5 }).notNull(),
    offTime: varchar('off_time', { length: 5 }).notNull(),
    language: varchar('language', { length: 8 }).notNull().default('en'),
    volume: smallint('volume').notNull().default(50),
    updateTime: at('update_time').notNull().defaultNow(),
  },
  (t) => [uniqueIndex('main_config_account_model_uq').on(t.licenseAccountId, t.model)],
);

/** A saved version of one configuration kind in one account: its items as they were (content fields, key order). */
export const configurationVersion = pgTable(
  'configuration_version',
  {
    id: integer('id').primaryKey().generatedByDefaultAsIdentity(),
    licenseAccountId: account(),
    /** The kind's declaration name (resources/configurationKinds.ts). */
    resource: varchar('resource', { length: 32 }).notNull(),
    version: integer('version').notNull(),
    items: jsonb('items').notNull(),
    itemCount: integer('item_count').notNull(),
    createdBy: integer('created_by').references(() => sysUser.id, { onDelete: 'set null' }),
    createdByName: varchar('created_by_name', { length: 64 }),
    createTime: at('create_time').notNull().defaultNow(),
    /** The last package made from it (a deleted package leaves null). */
    packageId: integer('package_id').references(() => deploymentPackage.id, { onDelete: 'set null' }),
  },
  (t) => [
    uniqueIndex('configuration_version_account_resource_version_uq').on(t.licenseAccountId, t.resource, t.version),
    index('configuration_version_package_idx').on(t.packageId),
  ],
);
