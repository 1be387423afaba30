// Roll-ups of the performance screen (docs/performance.md), per fleet, written in the same transaction
// as what they count (the gateway's batch, server/dashboard/rollup.ts), filled by the demo seed and
// backfilled by their migration. A machine that changes fleet or is deleted moves or takes its share
// with it (trigger of migration 0008_performance_backfill), so a fleet's rows always equal the
// sums over its current machines.
import { bigint, date, index, integer, numeric, pgTable, primaryKey, timestamp, varchar } from 'drizzle-orm/pg-core';
import { fleet } from './fleet';

/**
 * Consumer sessions (by start time) and error events (by raised time) of the machines of one fleet
 * (its own machines, not its sub-fleets') per hour: a whole account's 90 days are a few ten thousand
 * rows whatever the number of machines; local days are exact for every whole-hour UTC offset.
 */
export const fleetHourlyUsage = pgTable(
  'fleet_hourly_usage',
  {
    fleetId: integer('fleet_id')
      .notNull()
      .references(() => fleet.id, { onDelete: 'cascade' }),
    hour: timestamp('hour', { withTimezone: true }).notNull(),
    licenseAccountId: integer('license_account_id').notNull(),
    sessions: integer('sessions').notNull().default(0),
    items: integer('items').notNull().default(0),
    accepted: integer('accepted').notNull().default(0),
    rejected: integer('rejected').notNull().default(0),
    refund: numeric('refund', { precision: 14, scale: 2, mode: 'number' }).notNull().default(0),
    /** Error events (alarm severity "error") raised in the hour. */
    errors: integer('errors').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.fleetId, t.hour] }), index('fleet_hourly_usage_account_hour_idx').on(t.licenseAccountId, t.hour)],
);

/**
 * Error events per fleet, UTC day of their raising and alarm code: how many were raised, how many of
 * them are cleared and how long those were open (cleared − raised). Open ones are read from the
 * partial index of open alarms; the part days at a range's edges from the events themselves.
 */
export const fleetDailyErrors = pgTable(
  'fleet_daily_errors',
  {
    fleetId: integer('fleet_id')
      .notNull()
      .references(() => fleet.id, { onDelete: 'cascade' }),
    day: date('day', { mode: 'string' }).notNull(),
    code: varchar('code', { length: 24 }).notNull(),
    licenseAccountId: integer('license_account_id').notNull(),
    raised: integer('raised').notNull().default(0),
    cleared: integer('cleared').notNull().default(0),
    /** Milliseconds the cleared ones were open, each rounded to the millisecond. */
    clearedMs: bigint('cleared_ms', { mode: 'number' }).notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.fleetId, t.day, t.code] }), index('fleet_daily_errors_account_day_idx').on(t.licenseAccountId, t.day)],
);
