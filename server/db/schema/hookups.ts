// API hookups (docs/api-hookups.md): third-party apps, their fleets, the subscriptions of the three API
// families and the outbox of messages with their delivery state. Property names equal the declarations'
// field names (resources/hookupApp.ts, hookupSubscription.ts, hookupMessage.ts).
import { sql } from 'drizzle-orm';
import { bigint, boolean, index, integer, jsonb, pgTable, primaryKey, smallint, text, timestamp, uniqueIndex, varchar } from 'drizzle-orm/pg-core';
import { fleet, rvm } from './fleet';
import { sysUser } from './system';

const at = (name: string) => timestamp(name, { withTimezone: true });
const accountId = () => integer('license_account_id').notNull();

/** A third-party app: where messages go and how they are signed (secrets readable: a sender must sign). */
export const hookupApp = pgTable(
  'hookup_app',
  {
    id: integer('id').primaryKey().generatedByDefaultAsIdentity(),
    licenseAccountId: accountId(),
    name: varchar('name', { length: 64 }).notNull(),
    url: varchar('url', { length: 500 }).notNull(),
    /** standard | vendorConnect | consumerSession | binEmpty | machineStatus (resources/hookupApp.ts). */
    apiType: varchar('api_type', { length: 24 }).notNull(),
    enabled: boolean('enabled').notNull().default(true),
    /** Comma-separated e-mail list; empty: the creator. */
    ownerEmails: text('owner_emails'),
    /** Events older than this are never sent. */
    dockingTime: at('docking_time').notNull().defaultNow(),
    secret: varchar('secret', { length: 64 }).notNull(),
    /** The secret before the last rotation, still signing until `previousSecretUntil`. */
    previousSecret: varchar('previous_secret', { length: 64 }),
    previousSecretUntil: at('previous_secret_until'),
    /** The first secret may be revealed once; later ones are answered by the rotation itself. */
    secretRevealed: boolean('secret_revealed').notNull().default(false),
    lastSuccessTime: at('last_success_time'),
    /** First failed attempt since the last success (null: not failing). */
    failingSince: at('failing_since'),
    /** Why the server switched it off (`failing`), null otherwise. */
    disabledReason: varchar('disabled_reason', { length: 16 }),
    createdBy: integer('created_by').references(() => sysUser.id, { onDelete: 'set null' }),
    createTime: at('create_time').notNull().defaultNow(),
  },
  (t) => [uniqueIndex('hookup_app_account_name_uq').on(t.licenseAccountId, t.name), index('hookup_app_account_type_idx').on(t.licenseAccountId, t.apiType)],
);

/** The fleets whose machines (sub-fleets included) are bound to an app. */
export const hookupAppFleet = pgTable(
  'hookup_app_fleet',
  {
    appId: integer('app_id')
      .notNull()
      .references(() => hookupApp.id, { onDelete: 'cascade' }),
    fleetId: integer('fleet_id')
      .notNull()
      .references(() => fleet.id, { onDelete: 'cascade' }),
  },
  (t) => [primaryKey({ columns: [t.appId, t.fleetId] }), index('hookup_app_fleet_fleet_idx').on(t.fleetId)],
);

/** "This app receives these events of one family (of these fleets only, when any)." */
export const hookupSubscription = pgTable(
  'hookup_subscription',
  {
    id: integer('id').primaryKey().generatedByDefaultAsIdentity(),
    licenseAccountId: accountId(),
    /** cs | ci | status */
    family: varchar('family', { length: 8 }).notNull(),
    appId: integer('app_id')
      .notNull()
      .references(() => hookupApp.id, { onDelete: 'cascade' }),
    /** Comma-separated event types of the family. */
    events: text('events').notNull(),
    enabled: boolean('enabled').notNull().default(true),
    createTime: at('create_time').notNull().defaultNow(),
  },
  (t) => [index('hookup_subscription_account_family_idx').on(t.licenseAccountId, t.family), index('hookup_subscription_app_idx').on(t.appId)],
);

export const hookupSubscriptionFleet = pgTable(
  'hookup_subscription_fleet',
  {
    subscriptionId: integer('subscription_id')
      .notNull()
      .references(() => hookupSubscription.id, { onDelete: 'cascade' }),
    fleetId: integer('fleet_id')
      .notNull()
      .references(() => fleet.id, { onDelete: 'cascade' }),
  },
  (t) => [primaryKey({ columns: [t.subscriptionId, t.fleetId] }), index('hookup_subscription_fleet_fleet_idx').on(t.fleetId)],
);

/**
 * The outbox: one message to one app. status notSent (due at `nextAttemptTime`; claimed while
 * `claimedUntil` is ahead), success, fail (dead letter). `attempts` counts every try; `scheduleStep` the
 * tries of the current round (reset by a resend). Family `vendor`: a synchronous vendor-connect call, recorded.
 */
export const hookupMessage = pgTable(
  'hookup_message',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedByDefaultAsIdentity(),
    messageId: varchar('message_id', { length: 40 }).notNull(),
    licenseAccountId: accountId(),
    appId: integer('app_id')
      .notNull()
      .references(() => hookupApp.id, { onDelete: 'cascade' }),
    rvmId: integer('rvm_id')
      .notNull()
      .references(() => rvm.id, { onDelete: 'cascade' }),
    family: varchar('family', { length: 8 }).notNull(),
    eventType: varchar('event_type', { length: 40 }).notNull(),
    eventTime: at('event_time').notNull(),
    payload: jsonb('payload').notNull(),
    status: varchar('status', { length: 8 }).notNull().default('notSent'),
    attempts: smallint('attempts').notNull().default(0),
    scheduleStep: smallint('schedule_step').notNull().default(0),
    nextAttemptTime: at('next_attempt_time'),
    claimedUntil: at('claimed_until'),
    lastSendTime: at('last_send_time'),
    lastResponseStatus: smallint('last_response_status'),
    lastResponseExcerpt: varchar('last_response_excerpt', { length: 200 }),
    createdTime: at('created_time').notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('hookup_message_message_id_uq').on(t.messageId),
    index('hookup_message_account_family_time_idx').on(t.licenseAccountId, t.family, t.eventTime),
    index('hookup_message_app_idx').on(t.appId),
    // The workers' list of due messages and the in-order check (the earliest pending event per app and machine): small partial indexes.
    index('hookup_message_due_idx')
      .on(t.nextAttemptTime)
      .where(sql`${t.status} = 'notSent'`),
    index('hookup_message_pending_idx')
      .on(t.appId, t.rvmId, t.eventTime, t.id)
      .where(sql`${t.status} = 'notSent'`),
    // Retention (server/hookups/retention.ts): settled messages by status and age.
    index('hookup_message_settled_idx')
      .on(t.status, t.lastSendTime)
      .where(sql`${t.status} <> 'notSent'`),
  ],
);
