// Machine configuration kinds group and payout (resources/configurationGroups.ts, docs/machine-configuration.md):
// their items, one row each (property names equal their field names), unique per license account.
import { boolean, index, integer, numeric, pgTable, primaryKey, smallint, timestamp, uniqueIndex, varchar } from 'drizzle-orm/pg-core';
import { fleet } from './fleet';
import { licenseAccount } from './system';

const at = (name: string) => timestamp(name, { withTimezone: true });
const account = () =>
  integer('license_account_id')
    .notNull()
    .references(() => licenseAccount.id, { onDelete: 'restrict' });

/** A group of machines (models and/or fleets) or of products (barcodes). */
export const configurationGroup = pgTable(
  'configuration_group',
  {
    id: integer('id').primaryKey().generatedByDefaultAsIdentity(),
    licenseAccountId: account(),
    name: varchar('name', { length: 32 }).notNull(),
    kind: varchar('kind', { length: 16 }).notNull().default('machines'),
    models: varchar('models', { length: 500 }),
    barcodes: varchar('barcodes', { length: 2000 }),
    description: varchar('description', { length: 500 }),
    updateTime: at('update_time').notNull().defaultNow(),
  },
  (t) => [uniqueIndex('configuration_group_account_name_uq').on(t.licenseAccountId, t.name)],
);

/** The fleets a machine group holds (a fleet a group names cannot be deleted: the declaration restricts it). */
export const configurationGroupFleet = pgTable(
  'configuration_group_fleet',
  {
    groupId: integer('group_id')
      .notNull()
      .references(() => configurationGroup.id, { onDelete: 'cascade' }),
    fleetId: integer('fleet_id')
      .notNull()
      .references(() => fleet.id, { onDelete: 'restrict' }),
  },
  (t) => [primaryKey({ columns: [t.groupId, t.fleetId] }), index('configuration_group_fleet_fleet_idx').on(t.fleetId)],
);

/** A payout method enabled (or not) for a machine group or every machine (`*`), once per group and method. */
export const payoutMethodConfig = pgTable(
  'payout_method_config',
  {
    id: integer('id').primaryKey().generatedByDefaultAsIdentity(),
    licenseAccountId: account(),
    machineGroup: varchar('machine_group', { length: 32 }).notNull().default('*'),
    method: varchar('method', { length: 24 }).notNull(),
    enabled: boolean('enabled').notNull().default(true),
    minAmount: numeric('min_amount', { precision: 10, scale: 2, mode: 'number' }),
    maxAmount: numeric('max_amount', { precision: 10, scale: 2, mode: 'number' }),
    validityDays: smallint('validity_days'),
    institutes: varchar('institutes', { length: 500 }),
    updateTime: at('update_time').notNull().defaultNow(),
  },
  (t) => [uniqueIndex('payout_method_config_account_group_method_uq').on(t.licenseAccountId, t.machineGroup, t.method)],
);
