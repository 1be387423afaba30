// Machine messages the server could not accept (unknown machine, bad timestamp, ...), kept for the
// home quarantine screen and retried on demand. One retry run per license account at a time: the
// run row is the lock, so it holds across server instances.
import { bigint, boolean, index, integer, jsonb, pgTable, text, timestamp, varchar } from 'drizzle-orm/pg-core';

const at = (name: string) => timestamp(name, { withTimezone: true });

export const quarantineMessage = pgTable(
  'quarantine_message',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedByDefaultAsIdentity(),
    licenseAccountId: integer('license_account_id').notNull(),
    /** The sender as it identified itself (RVM number or serial), known machine or not. */
    causedBy: varchar('caused_by', { length: 64 }).notNull(),
    messageType: varchar('message_type', { length: 24 }).notNull(),
    /** At most MAX_QUARANTINED_BYTES of the message (server/gateway/ingest.ts); `contentBytes` is its whole size. */
    content: text('content').notNull(),
    contentBytes: integer('content_bytes').notNull().default(0),
    /** Sent with the license account's enrollment key, not a machine's own secret (docs/machine-protocol.md). */
    viaEnrollmentKey: boolean('via_enrollment_key').notNull().default(false),
    receivedTime: at('received_time').notNull(),
    reason: varchar('reason', { length: 24 }).notNull(),
    value: varchar('value', { length: 200 }),
    retryCount: integer('retry_count').notNull().default(0),
    lastRetryTime: at('last_retry_time'),
  },
  (t) => [index('quarantine_message_account_received_idx').on(t.licenseAccountId, t.receivedTime), index('quarantine_message_account_reason_idx').on(t.licenseAccountId, t.reason)],
);

/** The latest retry-all run per license account; a run without `finishedTime` blocks another (9500). */
export const quarantineRetryRun = pgTable('quarantine_retry_run', {
  licenseAccountId: integer('license_account_id').primaryKey(),
  startedTime: at('started_time').notNull(),
  finishedTime: at('finished_time'),
  resolved: integer('resolved').notNull().default(0),
  remaining: integer('remaining').notNull().default(0),
  summary: jsonb('summary'),
});
