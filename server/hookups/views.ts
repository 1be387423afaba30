// The Drizzle shapes of the views of migration 0025 (docs/api-hookups.md): read by the engine like tables,
// never written. Not exported from server/db/schema (drizzle-kit would create them as tables); app.ts adds
// them to the engine's table registry. The machine column declares the cascade its rows follow (a machine's
// sessions go with it), so deleting a machine asks nothing of the view.
import { bigint, integer, numeric, pgTable, smallint, text, timestamp, varchar } from 'drizzle-orm/pg-core';
import { rvm } from '../db/schema/fleet';

const at = (name: string) => timestamp(name, { withTimezone: true });

export const hookupTcTransaction = pgTable('hookup_tc_transaction', {
  id: bigint('id', { mode: 'number' }).primaryKey(),
  licenseAccountId: integer('license_account_id').notNull(),
  rvmId: integer('rvm_id')
    .notNull()
    .references(() => rvm.id, { onDelete: 'cascade' }),
  sessionId: bigint('session_id', { mode: 'number' }).notNull(),
  time: at('time').notNull(),
  seq: smallint('seq').notNull(),
  barcode: varchar('barcode', { length: 20 }),
  itemType: varchar('item_type', { length: 16 }).notNull(),
  refund: numeric('refund', { mode: 'number' }).notNull(),
  rejectReason: smallint('reject_reason'),
  outcome: text('outcome').notNull(),
});

export const hookupNotification = pgTable('hookup_notification', {
  id: bigint('id', { mode: 'number' }).primaryKey(),
  licenseAccountId: integer('license_account_id').notNull(),
  channel: text('channel').notNull(),
  target: text('target'),
  subject: text('subject'),
  status: text('status').notNull(),
  attempts: integer('attempts').notNull(),
  time: at('time'),
  detail: text('detail'),
  reference: text('reference'),
});

/** What app.ts adds to the engine's tables. */
export const HOOKUP_VIEWS = { hookup_tc_transaction: hookupTcTransaction, hookup_notification: hookupNotification };
