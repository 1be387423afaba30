// Roll-ups of the home dashboard (docs/dashboard.md), written in the same transaction as what they
// sum (server/gateway/handlers.ts and ingest.ts; the demo seed fills them in bulk, the migration that
// created them backfilled them): a new consumer session or cleaning shows on the dashboard at once.
import { index, integer, numeric, pgTable, primaryKey, timestamp, varchar } from 'drizzle-orm/pg-core';
import { rvm } from './fleet';

const at = (name: string) => timestamp(name, { withTimezone: true });
const money = (name: string) => numeric(name, { precision: 14, scale: 2, mode: 'number' });

/**
 * Consumer sessions of a whole license account per 15 minutes (by start time): every local day,
 * month and window of the dashboard at any real UTC offset (all are multiples of 15 minutes) is a
 * sum of a few thousand rows, whatever the fleet size. Upserted once per gateway batch, in key order.
 */
export const accountUsage15m = pgTable(
  'account_usage_15m',
  {
    licenseAccountId: integer('license_account_id').notNull(),
    bucket: at('bucket').notNull(),
    sessions: integer('sessions').notNull(),
    items: integer('items').notNull(),
    accepted: integer('accepted').notNull(),
    rejected: integer('rejected').notNull(),
    refund: money('refund').notNull(),
  },
  (t) => [primaryKey({ columns: [t.licenseAccountId, t.bucket] })],
);

/**
 * Consumer sessions per machine and hour (by start time): "high reject rate" over the last 24 hours
 * (whole hours; the part hour at the window's start comes from the sessions) and the figures of the
 * machines of a saved filter. A row per machine and hour with sessions.
 */
export const rvmHourlyUsage = pgTable(
  'rvm_hourly_usage',
  {
    rvmId: integer('rvm_id')
      .notNull()
      .references(() => rvm.id, { onDelete: 'cascade' }),
    hour: at('hour').notNull(),
    licenseAccountId: integer('license_account_id').notNull(),
    sessions: integer('sessions').notNull(),
    items: integer('items').notNull(),
    accepted: integer('accepted').notNull(),
    rejected: integer('rejected').notNull(),
    refund: money('refund').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.rvmId, t.hour] }),
    // Covering: the last 24 hours of a whole account are read from the index alone.
    index('rvm_hourly_usage_account_hour_idx').on(t.licenseAccountId, t.hour, t.rvmId, t.items, t.rejected),
  ],
);

/** The start of each machine's latest completed cleaning (service session): "needs clean" without the sessions. */
export const rvmCleaningState = pgTable(
  'rvm_cleaning_state',
  {
    rvmId: integer('rvm_id')
      .primaryKey()
      .references(() => rvm.id, { onDelete: 'cascade' }),
    licenseAccountId: integer('license_account_id').notNull(),
    lastCompletedTime: at('last_completed_time').notNull(),
  },
  (t) => [index('rvm_cleaning_state_account_time_idx').on(t.licenseAccountId, t.lastCompletedTime)],
);

/**
 * How many machines of each model run each software version, per account: "profile mismatching" (the
 * version most machines of the model run) without a pass over every machine on each machine-list page
 * (half of that page's query before, bench/pageBreakdown.ts). Kept by row triggers on rvm (migration
 * 0016), so every writer (CRUD, gateway, seed, simulator) keeps it exact; rows that reach 0 stay.
 */
export const accountModelVersions = pgTable(
  'account_model_versions',
  {
    licenseAccountId: integer('license_account_id').notNull(),
    termType: varchar('term_type', { length: 32 }).notNull(),
    softwareVersion: varchar('software_version', { length: 32 }).notNull(),
    machines: integer('machines').notNull(),
  },
  (t) => [primaryKey({ columns: [t.licenseAccountId, t.termType, t.softwareVersion] })],
);
