// Report notification subscriptions (reports › notifications, resources/reportNotification.ts) and
// what the scheduler (server/reports/scheduler.ts) did with them. A run is one subscription's one
// period: its unique key (subscription, period, period start) makes each period's report happen once,
// whichever server instance gets there first; the mail rows say which recipients already have it, so a
// retry after a mail failure mails only the others and never produces the report again.
import { sql } from 'drizzle-orm';
import { bigint, boolean, index, integer, pgTable, primaryKey, smallint, text, timestamp, uniqueIndex, varchar } from 'drizzle-orm/pg-core';
import { fleet } from './fleet';

const at = (name: string) => timestamp(name, { withTimezone: true });
const accountId = () => integer('license_account_id').notNull();

/** "Every week (or month), mail this report of these fleets (none: all) as xlsx/csv in en/zh to these recipients." */
export const reportNotification = pgTable(
  'report_notification',
  {
    id: integer('id').primaryKey().generatedByDefaultAsIdentity(),
    licenseAccountId: accountId(),
    name: varchar('name', { length: 64 }).notNull(),
    /** volumes | volumesDaily | acceptedRejects | barcodeRejects (server/reports/generate.ts ReportKind). */
    report: varchar('report', { length: 24 }).notNull(),
    /** weekly | monthly */
    period: varchar('period', { length: 8 }).notNull(),
    /** Comma-separated e-mail list (docs/product-rules.md#validation-rules), stored as "a, b". */
    recipients: text('recipients').notNull(),
    format: varchar('format', { length: 4 }).notNull().default('xlsx'),
    /** Language of the file and of the mail. */
    language: varchar('language', { length: 2 }).notNull().default('en'),
    enabled: boolean('enabled').notNull().default(true),
    createTime: at('create_time').notNull().defaultNow(),
    /** The latest mailing (scheduler or "send now", server/reports/sendNow.ts): when, `sent` | `failed`, and why it failed. */
    lastSent: at('last_sent'),
    lastResult: varchar('last_result', { length: 8 }),
    lastError: text('last_error'),
  },
  (t) => [uniqueIndex('report_notification_account_name_uq').on(t.licenseAccountId, t.name), index('report_notification_account_create_idx').on(t.licenseAccountId, t.createTime)],
);

export const reportNotificationFleet = pgTable(
  'report_notification_fleet',
  {
    subscriptionId: integer('subscription_id')
      .notNull()
      .references(() => reportNotification.id, { onDelete: 'cascade' }),
    fleetId: integer('fleet_id')
      .notNull()
      .references(() => fleet.id, { onDelete: 'cascade' }),
  },
  (t) => [primaryKey({ columns: [t.subscriptionId, t.fleetId] }), index('report_notification_fleet_fleet_idx').on(t.fleetId)],
);

/**
 * One subscription's one period. status: `due` (to produce; `error` says why the last try failed),
 * `produced` (the generated report exists, some recipients still wait for their mail), `mailed` (done),
 * `skipped` (the subscription was switched off before it ran), `failed` (given up, see `error`).
 */
export const reportNotificationRun = pgTable(
  'report_notification_run',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedByDefaultAsIdentity(),
    licenseAccountId: accountId(),
    subscriptionId: integer('subscription_id')
      .notNull()
      .references(() => reportNotification.id, { onDelete: 'cascade' }),
    period: varchar('period', { length: 8 }).notNull(),
    /** The covered period [periodStart, periodEnd): local midnights; periodEnd is when it fell due. */
    periodStart: at('period_start').notNull(),
    periodEnd: at('period_end').notNull(),
    status: varchar('status', { length: 12 }).notNull().default('due'),
    /** The generated report (server/reports/generate.ts) once produced. */
    generatedReportId: bigint('generated_report_id', { mode: 'number' }),
    fileName: varchar('file_name', { length: 200 }),
    attempts: smallint('attempts').notNull().default(0),
    error: text('error'),
    createdTime: at('created_time').notNull().defaultNow(),
    producedTime: at('produced_time'),
    mailedTime: at('mailed_time'),
    /** Not retried before this time (backs off after failures). */
    nextAttemptTime: at('next_attempt_time').notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('report_notification_run_period_uq').on(t.subscriptionId, t.period, t.periodStart),
    // The job's work list: unfinished runs only, a small partial index.
    index('report_notification_run_open_idx')
      .on(t.nextAttemptTime)
      .where(sql`${t.status} in ('due', 'produced')`),
  ],
);

/** A recipient's mail of a run: delivered (or kept in mail_outbox without SMTP_URL) or the last error. */
export const reportNotificationMail = pgTable(
  'report_notification_mail',
  {
    runId: bigint('run_id', { mode: 'number' })
      .notNull()
      .references(() => reportNotificationRun.id, { onDelete: 'cascade' }),
    recipient: varchar('recipient', { length: 128 }).notNull(),
    /** The mail_outbox row of the latest attempt (its body names the attached generated report). */
    outboxId: integer('outbox_id'),
    attempts: smallint('attempts').notNull().default(0),
    deliveredTime: at('delivered_time'),
    error: text('error'),
  },
  (t) => [primaryKey({ columns: [t.runId, t.recipient] })],
);
