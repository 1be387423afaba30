// The fleet: the fleet tree, the machines (RVM, "term") with their profile and live state, their
// bins and the donation institutes. Property names equal the declarations' field names
// (resources/fleet.ts, resources/machine.ts); columns are snake_case. The bin rules (docs/product-rules.md#validation-rules) are
// also CHECK constraints so the database refuses what the API refuses.
import { sql } from 'drizzle-orm';
import { type AnyPgColumn, boolean, check, date, doublePrecision, index, integer, pgTable, primaryKey, smallint, timestamp, uniqueIndex, varchar } from 'drizzle-orm/pg-core';
import { BIN_HEIGHT } from '../../../resources/fleetCatalogue';
import { licenseAccount } from './system';

const BIN_MIN = sql.raw(String(BIN_HEIGHT.min));
const BIN_MAX = sql.raw(String(BIN_HEIGHT.max));
const at = (name: string) => timestamp(name, { withTimezone: true });
const accountId = () =>
  integer('license_account_id')
    .notNull()
    .references(() => licenseAccount.id, { onDelete: 'restrict' });

/** Fleet tree (regions > districts > ...): `level` is 1 for a root, parent's level + 1 below. */
export const fleet = pgTable(
  'fleet',
  {
    id: integer('id').primaryKey().generatedByDefaultAsIdentity(),
    licenseAccountId: accountId(),
    // No action (not restrict): checked at statement end, so a batch delete may hold a parent and its child.
    parentId: integer('parent_id').references((): AnyPgColumn => fleet.id),
    level: smallint('level').notNull().default(1),
    name: varchar('name', { length: 64 }).notNull(),
    createTime: at('create_time').notNull().defaultNow(),
  },
  (t) => [index('fleet_account_parent_idx').on(t.licenseAccountId, t.parentId), index('fleet_account_name_idx').on(t.licenseAccountId, t.name)],
);

/** A reverse vending machine. `currentSts`/`statusSince`/`online`/`lastSessionTime` are its live state. */
export const rvm = pgTable(
  'rvm',
  {
    id: integer('id').primaryKey().generatedByDefaultAsIdentity(),
    licenseAccountId: accountId(),
    // A fleet with machines cannot be deleted (6000, checked by the fleet hook first): never cascade.
    fleetId: integer('fleet_id')
      .notNull()
      .references(() => fleet.id),
    termNo: varchar('term_no', { length: 32 }).notNull(),
    serialNumber: varchar('serial_number', { length: 32 }).notNull(),
    termType: varchar('term_type', { length: 32 }).notNull(),
    sts: varchar('sts', { length: 16 }).notNull().default('active'),
    currentSts: varchar('current_sts', { length: 16 }).notNull().default('Offline'),
    statusSince: at('status_since').notNull().defaultNow(),
    online: boolean('online').notNull().default(false),
    localAreaId: varchar('local_area_id', { length: 64 }),
    address: varchar('address', { length: 200 }),
    softwareVersion: varchar('software_version', { length: 32 }),
    simNo: varchar('sim_no', { length: 32 }),
    macAddress: varchar('mac_address', { length: 17 }),
    longitude: doublePrecision('longitude'),
    latitude: doublePrecision('latitude'),
    installDate: date('install_date', { mode: 'string' }),
    activationDate: date('activation_date', { mode: 'string' }),
    binCount: smallint('bin_count').notNull().default(1),
    binEmptyHeight: smallint('bin_empty_height'),
    binFullHeight: smallint('bin_full_height'),
    binAlmostFull: smallint('bin_almost_full'),
    binAlreadyFull: smallint('bin_already_full'),
    onTime: varchar('on_time', { length: 5 }),
    offTime: varchar('off_time', { length: 5 }),
    lastSessionTime: at('last_session_time'),
    /** Last message from the machine through the gateway; online turns false when it is older than the heartbeat time-out. */
    lastSeenTime: at('last_seen_time'),
    note: varchar('note', { length: 500 }),
    createTime: at('create_time').notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('rvm_account_term_no_uq').on(t.licenseAccountId, t.termNo),
    index('rvm_account_serial_idx').on(t.licenseAccountId, t.serialNumber),
    index('rvm_account_fleet_idx').on(t.licenseAccountId, t.fleetId),
    index('rvm_fleet_idx').on(t.fleetId),
    index('rvm_account_status_idx').on(t.licenseAccountId, t.currentSts, t.statusSince),
    index('rvm_account_type_idx').on(t.licenseAccountId, t.termType),
    index('rvm_account_operator_idx').on(t.licenseAccountId, t.localAreaId),
    index('rvm_account_software_idx').on(t.licenseAccountId, t.softwareVersion),
    index('rvm_account_create_time_idx').on(t.licenseAccountId, t.createTime),
    index('rvm_account_last_session_idx').on(t.licenseAccountId, t.lastSessionTime),
    index('rvm_online_last_seen_idx')
      .on(t.lastSeenTime)
      .where(sql`${t.online}`),
    // the declaration's bounds (resources/fleetCatalogue.ts BIN_HEIGHT), not a second copy of them
    check('rvm_bin_height_range', sql`${t.binEmptyHeight} between ${BIN_MIN} and ${BIN_MAX} and ${t.binFullHeight} between ${BIN_MIN} and ${BIN_MAX}`),
    check('rvm_bin_empty_above_full', sql`${t.binEmptyHeight} > ${t.binFullHeight}`),
    check('rvm_bin_almost_not_above_full', sql`${t.binAlmostFull} <= ${t.binAlreadyFull}`),
  ],
);

/**
 * How many machines each license account holds: the machine list's unfiltered total without a
 * count(*) over the account's machines on every page (a third of that page's database time,
 * bench/pageBreakdown.ts). Kept by row triggers on rvm (migration 0017), so every writer (CRUD,
 * gateway, seed, simulator) keeps it exact; accounts that reach 0 keep their row.
 */
export const accountMachineCounts = pgTable('account_machine_counts', {
  licenseAccountId: integer('license_account_id').primaryKey(),
  machines: integer('machines').notNull(),
});

/**
 * One row per physical bin. The sensor measures the distance to the contents: `currentHeight`
 * goes from the machine's binEmptyHeight (empty) down to binFullHeight (full); `fillPercent` is
 * derived from it at write time so "full" counts need no arithmetic over the fleet.
 */
export const rvmBin = pgTable(
  'rvm_bin',
  {
    rvmId: integer('rvm_id')
      .notNull()
      .references(() => rvm.id, { onDelete: 'cascade' }),
    binNo: smallint('bin_no').notNull(),
    licenseAccountId: integer('license_account_id').notNull(),
    itemType: varchar('item_type', { length: 16 }).notNull(),
    currentHeight: smallint('current_height').notNull(),
    fillPercent: smallint('fill_percent').notNull().default(0),
    itemCount: integer('item_count').notNull().default(0),
    lastEmptiedTime: at('last_emptied_time'),
  },
  (t) => [primaryKey({ columns: [t.rvmId, t.binNo] }), index('rvm_bin_account_fill_idx').on(t.licenseAccountId, t.fillPercent)],
);

/** Charities a consumer can donate the refund to (payout method 'donation'). */
export const donationInstitute = pgTable(
  'donation_institute',
  {
    id: integer('id').primaryKey().generatedByDefaultAsIdentity(),
    licenseAccountId: accountId(),
    name: varchar('name', { length: 64 }).notNull(),
    createTime: at('create_time').notNull().defaultNow(),
  },
  (t) => [uniqueIndex('donation_institute_account_name_uq').on(t.licenseAccountId, t.name)],
);
