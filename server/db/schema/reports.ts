// The Reports screen (docs/reports.md): item roll-ups with a column per material and per reject
// reason, written in the same transaction as each consumer session (server/gateway/handlers.ts,
// server/reports/rollup.ts), and the generated report files.
import { sql } from 'drizzle-orm';
import { customType, date, index, integer, jsonb, pgTable, primaryKey, timestamp, varchar } from 'drizzle-orm/pg-core';
import { ITEM_TYPES, REJECT_REASON_CODES } from '../../../resources/fleetCatalogue';
import { licenseAccount, sysUser } from './system';
import { rvm } from './fleet';

const at = (name: string) => timestamp(name, { withTimezone: true });
const bytea = customType<{ data: Buffer; driverData: Buffer | Uint8Array }>({
  dataType: () => 'bytea',
  fromDriver: (value) => (Buffer.isBuffer(value) ? value : Buffer.from(value)),
});

const snake = (name: string) => name.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`);
/** SQL column of the accepted items of one material, e.g. `accepted_plastic_bottle`. */
export const materialColumn = (type: string) => `accepted_${snake(type)}`;
/** SQL column of the items rejected for one reason code, e.g. `rejected_r18`. */
export const reasonColumn = (code: number) => `rejected_r${code}`;

const count = (name: string) => integer(name).notNull().default(0);
// A column per material and per reason: a machine-day is one narrow row, whatever its mix.
const itemCounts = () => ({
  items: count('items'),
  accepted: count('accepted'),
  rejected: count('rejected'),
  ...Object.fromEntries(ITEM_TYPES.map((type) => [materialColumn(type), count(materialColumn(type))])),
  ...Object.fromEntries(REJECT_REASON_CODES.map((code) => [reasonColumn(code), count(reasonColumn(code))])),
});

/** Items per machine and UTC day (by session start): a report's whole UTC days. */
export const rvmDailyItems = pgTable(
  'rvm_daily_items',
  {
    rvmId: integer('rvm_id')
      .notNull()
      .references(() => rvm.id, { onDelete: 'cascade' }),
    day: date('day', { mode: 'string' }).notNull(),
    licenseAccountId: integer('license_account_id').notNull(),
    ...itemCounts(),
  },
  (t) => [primaryKey({ columns: [t.rvmId, t.day] }), index('rvm_daily_items_account_day_idx').on(t.licenseAccountId, t.day)],
);

/**
 * Items per machine and UTC week (Monday, by session start): the whole weeks of a range, so a 30-day
 * report reads about a third of the rows it would read per day.
 */
export const rvmWeeklyItems = pgTable(
  'rvm_weekly_items',
  {
    rvmId: integer('rvm_id')
      .notNull()
      .references(() => rvm.id, { onDelete: 'cascade' }),
    week: date('week', { mode: 'string' }).notNull(),
    licenseAccountId: integer('license_account_id').notNull(),
    ...itemCounts(),
  },
  (t) => [primaryKey({ columns: [t.rvmId, t.week] }), index('rvm_weekly_items_account_week_idx').on(t.licenseAccountId, t.week)],
);

/** Items per machine and hour: the hours of a range outside whole UTC days, and local days of some machines. */
export const rvmHourlyItems = pgTable(
  'rvm_hourly_items',
  {
    rvmId: integer('rvm_id')
      .notNull()
      .references(() => rvm.id, { onDelete: 'cascade' }),
    hour: at('hour').notNull(),
    licenseAccountId: integer('license_account_id').notNull(),
    ...itemCounts(),
  },
  (t) => [primaryKey({ columns: [t.rvmId, t.hour] }), index('rvm_hourly_items_account_hour_idx').on(t.licenseAccountId, t.hour)],
);

/**
 * Items of a whole license account per hour: local days and reject reasons of the whole account at
 * any whole-hour offset from 24 rows a day. Upserted once per gateway batch, in key order.
 */
export const accountHourlyItems = pgTable(
  'account_hourly_items',
  {
    licenseAccountId: integer('license_account_id').notNull(),
    hour: at('hour').notNull(),
    ...itemCounts(),
  },
  (t) => [primaryKey({ columns: [t.licenseAccountId, t.hour] })],
);

/** A report file produced by a user (the Reports screen) or a notification subscription. */
export const generatedReport = pgTable(
  'generated_report',
  {
    id: integer('id').primaryKey().generatedByDefaultAsIdentity(),
    licenseAccountId: integer('license_account_id')
      .notNull()
      .references(() => licenseAccount.id, { onDelete: 'cascade' }),
    report: varchar('report', { length: 24 }).notNull(),
    /** `{ from, to, fleetIds, machineIds, language, utcOffsetMinutes }` as asked. */
    params: jsonb('params').notNull(),
    format: varchar('format', { length: 8 }).notNull(),
    fileName: varchar('file_name', { length: 160 }).notNull(),
    contentType: varchar('content_type', { length: 96 }).notNull(),
    content: bytea('content').notNull(),
    size: integer('size').notNull(),
    producedByUserId: integer('produced_by_user_id').references(() => sysUser.id, { onDelete: 'set null' }),
    /** The notification subscription that produced it (helper table of the scheduler; no key, it may be deleted). */
    producedBySubscriptionId: integer('produced_by_subscription_id'),
    createdTime: at('created_time')
      .notNull()
      .default(sql`now()`),
  },
  (t) => [index('generated_report_account_created_idx').on(t.licenseAccountId, t.createdTime)],
);
