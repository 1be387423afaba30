// What machines do over time: status and online/offline intervals, alarm events, consumer sessions
// with their items, service (cleaning) sessions and a daily usage roll-up. These tables grow to
// millions of rows: every list and time range has an index led by the machine (the machine page)
// or by the license account and time (fleet-wide figures), and the demo seed bulk-loads them.
import { sql } from 'drizzle-orm';
import { bigint, boolean, date, index, integer, numeric, pgTable, primaryKey, smallint, timestamp, uniqueIndex, varchar } from 'drizzle-orm/pg-core';
import { rvm } from './fleet';

const at = (name: string) => timestamp(name, { withTimezone: true });
const bigId = () => bigint('id', { mode: 'number' }).primaryKey().generatedByDefaultAsIdentity();
const machine = () =>
  integer('rvm_id')
    .notNull()
    .references(() => rvm.id, { onDelete: 'cascade' });
// No foreign key to license_account on these tables: the machine's key already ties them to it,
// and per-row key checks would dominate bulk loads.
const accountId = () => integer('license_account_id').notNull();
const money = (name: string) => numeric(name, { precision: 10, scale: 2, mode: 'number' });

/** Status intervals (Up, Offline, Down, Sleep); `endTime` null = the current one. */
export const rvmStatusHistory = pgTable(
  'rvm_status_history',
  {
    id: bigId(),
    licenseAccountId: accountId(),
    rvmId: machine(),
    status: varchar('status', { length: 16 }).notNull(),
    startTime: at('start_time').notNull(),
    endTime: at('end_time'),
  },
  (t) => [index('rvm_status_history_rvm_start_idx').on(t.rvmId, t.startTime)],
);

/** Online/offline intervals of the machine's connection; `endTime` null = the current one. */
export const rvmOnlineHistory = pgTable(
  'rvm_online_history',
  {
    id: bigId(),
    licenseAccountId: accountId(),
    rvmId: machine(),
    online: boolean('online').notNull(),
    startTime: at('start_time').notNull(),
    endTime: at('end_time'),
  },
  (t) => [index('rvm_online_history_rvm_start_idx').on(t.rvmId, t.startTime)],
);

/** Alarm events (codes of the am_code_PK_ catalogue), raised and, once resolved, cleared. */
export const rvmEvent = pgTable(
  'rvm_event',
  {
    id: bigId(),
    licenseAccountId: accountId(),
    rvmId: machine(),
    code: varchar('code', { length: 24 }).notNull(),
    category: varchar('category', { length: 16 }).notNull(),
    severity: varchar('severity', { length: 8 }).notNull(),
    raisedTime: at('raised_time').notNull(),
    clearedTime: at('cleared_time'),
    detail: varchar('detail', { length: 200 }),
  },
  (t) => [
    index('rvm_event_rvm_raised_idx').on(t.rvmId, t.raisedTime),
    // Open alarms per account (home cards such as "octopus offline") stay a small index.
    index('rvm_event_account_open_idx')
      .on(t.licenseAccountId, t.code)
      .where(sql`${t.clearedTime} is null`),
    index('rvm_event_account_raised_idx').on(t.licenseAccountId, t.raisedTime),
  ],
);

/** A consumer's visit: the containers it fed, then one payout. */
export const consumerSession = pgTable(
  'consumer_session',
  {
    id: bigId(),
    licenseAccountId: accountId(),
    rvmId: machine(),
    startTime: at('start_time').notNull(),
    endTime: at('end_time').notNull(),
    payoutMethod: varchar('payout_method', { length: 24 }).notNull(),
    totalRefund: money('total_refund').notNull(),
    itemCount: smallint('item_count').notNull(),
    acceptedCount: smallint('accepted_count').notNull(),
    rejectedCount: smallint('rejected_count').notNull(),
    userId: varchar('user_id', { length: 32 }),
    voucherCode: varchar('voucher_code', { length: 32 }),
    /** Until when the session's voucher can be redeemed, as the machine reported it (its payout package's validity; docs/machine-protocol.md). */
    voucherValidUntil: at('voucher_valid_until'),
    donationInstituteId: integer('donation_institute_id'),
    /** The consumer's card, when the machine read one (docs/service-personnel.md#bans). */
    cardNo: varchar('card_no', { length: 32 }),
    /** Why the machine refused the consumer (`banned`); null: served (docs/service-personnel.md#bans). */
    refusal: varchar('refusal', { length: 16 }),
    /** The machine's own id of the session (gateway): a re-sent session is stored once. */
    externalId: varchar('external_id', { length: 64 }),
  },
  (t) => [
    index('consumer_session_rvm_start_idx').on(t.rvmId, t.startTime),
    index('consumer_session_account_start_idx').on(t.licenseAccountId, t.startTime),
    // text_pattern_ops: serves both equality and prefix (LIKE 'x%') search whatever the collation.
    index('consumer_session_voucher_idx').on(t.voucherCode.op('text_pattern_ops')),
    index('consumer_session_user_idx').on(t.userId.op('text_pattern_ops')),
    uniqueIndex('consumer_session_external_uq')
      .on(t.rvmId, t.externalId)
      .where(sql`${t.externalId} is not null`),
  ],
);

/** One container fed in a consumer session; `rejectReason` null = accepted. */
export const consumerSessionItem = pgTable(
  'consumer_session_item',
  {
    sessionId: bigint('session_id', { mode: 'number' })
      .notNull()
      .references(() => consumerSession.id, { onDelete: 'cascade' }),
    seq: smallint('seq').notNull(),
    licenseAccountId: accountId(),
    itemType: varchar('item_type', { length: 16 }).notNull(),
    barcode: varchar('barcode', { length: 20 }),
    category: varchar('category', { length: 48 }),
    refund: money('refund').notNull(),
    rejectReason: smallint('reject_reason'),
    /** Reference of a generated picture, `<itemType>/<variant>` (served by GET /picture/<ref>.svg). */
    picture: varchar('picture', { length: 32 }),
  },
  (t) => [
    primaryKey({ columns: [t.sessionId, t.seq] }),
    // The tracing-code list (view hookup_tc_transaction, docs/api-hookups.md "Tracing-code lists"): the few items
    // refused for their tracing code, per account and session (the session gives the time and machine filters).
    index('consumer_session_item_tc_idx')
      .on(t.licenseAccountId, t.sessionId)
      .where(sql`${t.rejectReason} in (101, 102, 103)`),
  ],
);

/** A technician's visit (emptying bins, cleaning, repair). */
export const serviceSession = pgTable(
  'service_session',
  {
    id: bigId(),
    licenseAccountId: accountId(),
    rvmId: machine(),
    technician: varchar('technician', { length: 64 }).notNull(),
    startTime: at('start_time').notNull(),
    endTime: at('end_time').notNull(),
    cleaningOutcome: varchar('cleaning_outcome', { length: 16 }).notNull(),
    binsEmptied: smallint('bins_emptied').notNull().default(0),
    note: varchar('note', { length: 200 }),
    externalId: varchar('external_id', { length: 64 }),
  },
  (t) => [
    uniqueIndex('service_session_external_uq')
      .on(t.rvmId, t.externalId)
      .where(sql`${t.externalId} is not null`),
    index('service_session_rvm_start_idx').on(t.rvmId, t.startTime),
    index('service_session_account_start_idx').on(t.licenseAccountId, t.startTime),
  ],
);

/**
 * Per machine and day roll-up of consumer sessions, written with the sessions: fleet-wide figures
 * over weeks or months (home cards, reports) read thousands of these instead of millions of sessions.
 */
export const rvmDailyUsage = pgTable(
  'rvm_daily_usage',
  {
    rvmId: machine(),
    day: date('day', { mode: 'string' }).notNull(),
    licenseAccountId: accountId(),
    sessions: integer('sessions').notNull(),
    items: integer('items').notNull(),
    accepted: integer('accepted').notNull(),
    rejected: integer('rejected').notNull(),
    refund: money('refund').notNull(),
  },
  (t) => [primaryKey({ columns: [t.rvmId, t.day] }), index('rvm_daily_usage_account_day_idx').on(t.licenseAccountId, t.day)],
);
