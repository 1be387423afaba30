// The live fleet (docs/machine-protocol.md): how machines authenticate to the gateway, which of their
// messages were already processed (idempotency), remote commands with their delivery state, files
// machines upload, the audit log (operator actions, writes, security events), and alarm e-mail notification rules.
// Everything that must hold across server instances lives here, never in memory.
import { sql } from 'drizzle-orm';
import { bigint, boolean, customType, index, integer, jsonb, pgTable, primaryKey, smallint, text, timestamp, uniqueIndex, varchar } from 'drizzle-orm/pg-core';
import { fleet, rvm } from './fleet';
import { rvmEvent } from './fleetActivity';

const at = (name: string) => timestamp(name, { withTimezone: true });
const bigId = () => bigint('id', { mode: 'number' }).primaryKey().generatedByDefaultAsIdentity();
const accountId = () => integer('license_account_id').notNull();
const machine = () =>
  integer('rvm_id')
    .notNull()
    .references(() => rvm.id, { onDelete: 'cascade' });

const bytea = customType<{ data: Buffer; driverData: Buffer | Uint8Array }>({
  dataType: () => 'bytea',
  fromDriver: (value) => (Buffer.isBuffer(value) ? value : Buffer.from(value)),
});

/**
 * A machine's gateway credential: MQTT user name = its serial number (unique among machines that
 * have a credential), password = a secret shown once when created or rotated; only its hash is kept.
 */
export const rvmCredential = pgTable(
  'rvm_credential',
  {
    rvmId: integer('rvm_id')
      .primaryKey()
      .references(() => rvm.id, { onDelete: 'cascade' }),
    licenseAccountId: accountId(),
    serialNumber: varchar('serial_number', { length: 32 }).notNull(),
    secretHash: text('secret_hash').notNull(),
    rotatedTime: at('rotated_time').notNull().defaultNow(),
    rotatedBy: integer('rotated_by'),
  },
  (t) => [uniqueIndex('rvm_credential_serial_uq').on(t.serialNumber)],
);

/**
 * A license account's enrollment key: a machine not registered yet connects with its serial number
 * and this key; its messages wait in the quarantine (unknownMachine) until the machine is created.
 */
export const gatewayEnrollmentKey = pgTable('gateway_enrollment_key', {
  licenseAccountId: integer('license_account_id').primaryKey(),
  keyHash: text('key_hash').notNull(),
  rotatedTime: at('rotated_time').notNull().defaultNow(),
  rotatedBy: integer('rotated_by'),
});

/** Message ids already processed per machine: a re-sent message is acknowledged and ignored. */
export const machineMessage = pgTable(
  'machine_message',
  {
    rvmId: machine(),
    messageId: varchar('message_id', { length: 64 }).notNull(),
    kind: varchar('kind', { length: 24 }).notNull(),
    receivedTime: at('received_time').notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.rvmId, t.messageId] }), index('machine_message_received_idx').on(t.receivedTime)],
);

/** A command sent to many machines at once (a selection or a machine-list filter). */
export const rvmCommandBatch = pgTable(
  'rvm_command_batch',
  {
    id: bigId(),
    licenseAccountId: accountId(),
    command: varchar('command', { length: 32 }).notNull(),
    params: jsonb('params').notNull().default({}),
    /** `{ ids: [...] }` or `{ filter: {...} }` as the user chose it. */
    selection: jsonb('selection').notNull(),
    machineCount: integer('machine_count').notNull(),
    createdBy: integer('created_by'),
    createdByName: varchar('created_by_name', { length: 64 }),
    createdTime: at('created_time').notNull().defaultNow(),
  },
  (t) => [index('rvm_command_batch_account_created_idx').on(t.licenseAccountId, t.createdTime)],
);

/**
 * A remote command to one machine. Status (docs/product-rules.md#statuses): notSent, sending, sent, sendFailed,
 * executedSuccessfully, executedFailed; plus cancelled. `updatedTime` moves on every change, so
 * live views poll "changed since" cheaply on any instance.
 */
export const rvmCommand = pgTable(
  'rvm_command',
  {
    id: bigId(),
    licenseAccountId: accountId(),
    rvmId: machine(),
    batchId: bigint('batch_id', { mode: 'number' }).references(() => rvmCommandBatch.id, { onDelete: 'set null' }),
    command: varchar('command', { length: 32 }).notNull(),
    params: jsonb('params').notNull().default({}),
    status: varchar('status', { length: 24 }).notNull().default('notSent'),
    /** Why it failed or stopped (expired, cancelled, the machine's reason), or the result message. */
    statusReason: varchar('status_reason', { length: 200 }),
    result: jsonb('result'),
    /** A file the command produced (logs, diagnosis). */
    fileId: bigint('file_id', { mode: 'number' }),
    resendOf: bigint('resend_of', { mode: 'number' }),
    attempts: smallint('attempts').notNull().default(0),
    createdBy: integer('created_by'),
    createdByName: varchar('created_by_name', { length: 64 }),
    createdTime: at('created_time').notNull().defaultNow(),
    expiresTime: at('expires_time').notNull(),
    sentTime: at('sent_time'),
    ackTime: at('ack_time'),
    finishedTime: at('finished_time'),
    updatedTime: at('updated_time').notNull().defaultNow(),
  },
  (t) => [
    index('rvm_command_rvm_created_idx').on(t.rvmId, t.createdTime),
    index('rvm_command_account_updated_idx').on(t.licenseAccountId, t.updatedTime),
    index('rvm_command_batch_idx').on(t.batchId),
    // Pending commands per machine (delivered on reconnect) stay a small index.
    index('rvm_command_pending_idx')
      .on(t.rvmId, t.createdTime)
      .where(sql`${t.status} in ('notSent', 'sending')`),
  ],
);

/** Files uploaded by machines (logs, diagnosis reports), downloaded through the download client. */
export const rvmFile = pgTable(
  'rvm_file',
  {
    id: bigId(),
    licenseAccountId: accountId(),
    rvmId: machine(),
    commandId: bigint('command_id', { mode: 'number' }),
    kind: varchar('kind', { length: 16 }).notNull(),
    name: varchar('name', { length: 128 }).notNull(),
    contentType: varchar('content_type', { length: 64 }).notNull(),
    size: integer('size').notNull(),
    content: bytea('content').notNull(),
    createdTime: at('created_time').notNull().defaultNow(),
  },
  (t) => [index('rvm_file_rvm_created_idx').on(t.rvmId, t.createdTime)],
);

/**
 * JSON kept as jsonb but read as its text: the audit screen's generic views show it as a text field
 * (the declaration format has no object kind), and the console's show view parses it again.
 */
const jsonText = customType<{ data: string; driverData: unknown }>({
  dataType: () => 'jsonb',
  fromDriver: (value) => (typeof value === 'string' ? value : JSON.stringify(value)),
});

/**
 * The audit log (docs/audit-log.md): every write of the resource engine, every security event and every
 * operator action on machines, who did it, from where and how it ended; written in the transaction of
 * the action (server/audit/record.ts). No account (null): a failed sign-in with an unknown user name.
 */
export const auditLog = pgTable(
  'audit_log',
  {
    id: bigId(),
    licenseAccountId: integer('license_account_id'),
    userId: integer('user_id'),
    /** The user's name at that time (a failed sign-in: the name tried). */
    userName: varchar('user_name', { length: 64 }),
    /** resources/auditLog.ts AUDIT_ACTIONS: create, update, delete, signIn, …, `command.<name>`, `gateway.<what>`. */
    action: varchar('action', { length: 48 }).notNull(),
    /** The resource acted on (a declaration's name, `machine` for commands) and the record, when one. */
    resource: varchar('resource', { length: 64 }),
    recordId: bigint('record_id', { mode: 'number' }),
    /** `{ <field>: { before?, after? } | { redacted: true } }`: the changed fields only (server/audit/diff.ts). */
    changes: jsonText('changes'),
    /** Commands: `{ rvmIds: [...], batchId?, commandIds? }` */
    target: jsonb('target').notNull().default({}),
    detail: jsonb('detail').notNull().default({}),
    outcome: varchar('outcome', { length: 24 }).notNull(),
    /** request.ip (with the app's trustProxy). */
    address: varchar('address', { length: 64 }),
    time: at('time').notNull().defaultNow(),
  },
  (t) => [
    index('audit_log_account_time_idx').on(t.licenseAccountId, t.time),
    // The screen's resource / record filter; the user name filter has the trigram index made at start (server/db/trigramIndexes.ts).
    index('audit_log_account_resource_idx').on(t.licenseAccountId, t.resource, t.recordId, t.time),
    // Retention deletes by age across accounts (server/audit/retention.ts).
    index('audit_log_time_idx').on(t.time),
  ],
);

/**
 * "When any of these alarm codes is raised on machines of these fleets (none: every fleet), e-mail
 * these recipients; remind every N hours while open (0: never); mail again when it clears."
 */
export const eventNotificationRule = pgTable(
  'event_notification_rule',
  {
    id: integer('id').primaryKey().generatedByDefaultAsIdentity(),
    licenseAccountId: accountId(),
    name: varchar('name', { length: 64 }).notNull(),
    /** Comma-separated am_code_PK_<n> list (docs/product-rules.md#validation-rules). */
    alarmCodes: text('alarm_codes').notNull(),
    /** Comma-separated e-mail list (docs/product-rules.md#validation-rules). */
    recipients: text('recipients').notNull(),
    reminderHours: smallint('reminder_hours').notNull().default(0),
    notifyOnClear: boolean('notify_on_clear').notNull().default(true),
    enabled: boolean('enabled').notNull().default(true),
    createTime: at('create_time').notNull().defaultNow(),
    /** The rule's latest mailing (job or "send now", server/events/): when, `sent` | `failed`, and why it failed. */
    lastSent: at('last_sent'),
    lastResult: varchar('last_result', { length: 8 }),
    lastError: text('last_error'),
  },
  (t) => [uniqueIndex('event_notification_rule_account_name_uq').on(t.licenseAccountId, t.name)],
);

export const eventNotificationRuleFleet = pgTable(
  'event_notification_rule_fleet',
  {
    ruleId: integer('rule_id')
      .notNull()
      .references(() => eventNotificationRule.id, { onDelete: 'cascade' }),
    fleetId: integer('fleet_id')
      .notNull()
      .references(() => fleet.id, { onDelete: 'cascade' }),
  },
  (t) => [primaryKey({ columns: [t.ruleId, t.fleetId] })],
);

/**
 * One mail per rule, event, kind (raised, reminder, cleared) and reminder number: the unique key
 * makes each notification happen once, whichever instance gets there first.
 */
export const eventNotification = pgTable(
  'event_notification',
  {
    id: bigId(),
    licenseAccountId: accountId(),
    ruleId: integer('rule_id')
      .notNull()
      .references(() => eventNotificationRule.id, { onDelete: 'cascade' }),
    eventId: bigint('event_id', { mode: 'number' })
      .notNull()
      .references(() => rvmEvent.id, { onDelete: 'cascade' }),
    kind: varchar('kind', { length: 16 }).notNull(),
    seq: smallint('seq').notNull().default(0),
    sentTime: at('sent_time').notNull().defaultNow(),
    /** The mail_outbox row of the first recipient's mail (the notification list's reference). */
    mailId: bigint('mail_id', { mode: 'number' }),
    /** Why a recipient's mail was not sent (`<address>: <error>`, one line each); null: every mail went out. */
    mailError: text('mail_error'),
  },
  (t) => [uniqueIndex('event_notification_once_uq').on(t.ruleId, t.eventId, t.kind, t.seq), index('event_notification_account_sent_idx').on(t.licenseAccountId, t.sentTime)],
);
