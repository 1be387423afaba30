// Everything the server needs to stay stateless: sessions, sign-in failures, reset tokens and the
// mail outbox live here, so any number of instances on one database behave as one.
import { boolean, index, integer, jsonb, pgTable, text, timestamp, uniqueIndex, varchar } from 'drizzle-orm/pg-core';
import { licenseAccount, sysUser } from './system';

const at = (name: string) => timestamp(name, { withTimezone: true });

/**
 * Session tokens, stored only as SHA-256 hashes. Revoked rows are kept (with the reason) so the
 * client gets the precise forced-logout code; no foreign key on user_id so a deleted user's rows
 * still answer "revoked" rather than "unknown".
 */
export const sysToken = pgTable(
  'sys_token',
  {
    id: integer('id').primaryKey().generatedByDefaultAsIdentity(),
    userId: integer('user_id').notNull(),
    tokenHash: varchar('token_hash', { length: 64 }).notNull(),
    createdAt: at('created_at').notNull().defaultNow(),
    lastSeenAt: at('last_seen_at').notNull().defaultNow(),
    revokedAt: at('revoked_at'),
    /** 'logout' | 'passwordChange' | 'passwordReset' | 'disabled' | 'deleted' | 'superseded' */
    revokeReason: varchar('revoke_reason', { length: 32 }),
    utcOffsetMinutes: integer('utc_offset_minutes'),
  },
  (t) => [uniqueIndex('sys_token_hash_uq').on(t.tokenHash), index('sys_token_user_idx').on(t.userId, t.createdAt)],
);

/**
 * Failed sign-ins by lower-cased user name (known or not) and client address, counted inside the
 * lock window (server/auth/loginAttempts.ts). A `pending` row is a password check under way: it holds
 * its slot, and is given back on success or becomes a failure.
 */
export const loginAttempt = pgTable(
  'login_attempt',
  {
    id: integer('id').primaryKey().generatedByDefaultAsIdentity(),
    username: varchar('username', { length: 64 }).notNull(),
    /** request.ip; '' on rows from before addresses were recorded. */
    address: varchar('address', { length: 64 }).notNull().default(''),
    attemptedAt: at('attempted_at').notNull().defaultNow(),
    pending: boolean('pending').notNull().default(false),
  },
  (t) => [
    index('login_attempt_username_time_idx').on(t.username, t.attemptedAt),
    index('login_attempt_address_time_idx').on(t.address, t.attemptedAt),
    index('login_attempt_time_idx').on(t.attemptedAt),
  ],
);

/** Counted requests of a rate limit (server/auth/rateLimit.ts), e.g. forgot-password calls per address. */
export const rateLimitHit = pgTable(
  'rate_limit_hit',
  {
    id: integer('id').primaryKey().generatedByDefaultAsIdentity(),
    /** Which limit: 'forgotAddress' | 'resetMailUser'. */
    scope: varchar('scope', { length: 32 }).notNull(),
    /** What it counts for: an address, a user id. */
    subject: varchar('subject', { length: 128 }).notNull(),
    hitAt: at('hit_at').notNull().defaultNow(),
  },
  (t) => [index('rate_limit_hit_scope_subject_time_idx').on(t.scope, t.subject, t.hitAt), index('rate_limit_hit_time_idx').on(t.hitAt)],
);

/** Single-use password-reset tokens (hashed), 30 minutes by default. */
export const passwordReset = pgTable(
  'password_reset',
  {
    id: integer('id').primaryKey().generatedByDefaultAsIdentity(),
    userId: integer('user_id')
      .notNull()
      .references(() => sysUser.id, { onDelete: 'cascade' }),
    tokenHash: varchar('token_hash', { length: 64 }).notNull(),
    createdAt: at('created_at').notNull().defaultNow(),
    expiresAt: at('expires_at').notNull(),
    usedAt: at('used_at'),
  },
  (t) => [uniqueIndex('password_reset_hash_uq').on(t.tokenHash), index('password_reset_user_idx').on(t.userId)],
);

/** Every mail the server sends (or would send without SMTP_URL); secrets such as reset links are stored redacted. */
export const mailOutbox = pgTable(
  'mail_outbox',
  {
    id: integer('id').primaryKey().generatedByDefaultAsIdentity(),
    recipient: varchar('recipient', { length: 128 }),
    subject: text('subject').notNull(),
    body: text('body').notNull(),
    createdAt: at('created_at').notNull().defaultNow(),
    sentAt: at('sent_at'),
    error: text('error'),
    /** The account whose notification this mail is (the Mails sent screen shows an account its own); null: no account's (a reset link). */
    licenseAccountId: integer('license_account_id'),
  },
  (t) => [index('mail_outbox_created_idx').on(t.createdAt), index('mail_outbox_account_created_idx').on(t.licenseAccountId, t.createdAt)],
);

/** Saved list filters: personal, public (per license account) or built-in (seeded, read-only). */
export const savedFilter = pgTable(
  'saved_filter',
  {
    id: integer('id').primaryKey().generatedByDefaultAsIdentity(),
    resource: varchar('resource', { length: 64 }).notNull(),
    name: varchar('name', { length: 64 }).notNull(),
    filter: jsonb('filter').notNull(),
    visibility: varchar('visibility', { length: 16 }).notNull(),
    builtIn: boolean('built_in').notNull().default(false),
    ownerId: integer('owner_id').references(() => sysUser.id, { onDelete: 'cascade' }),
    licenseAccountId: integer('license_account_id').references(() => licenseAccount.id, { onDelete: 'cascade' }),
    createTime: at('create_time').notNull().defaultNow(),
  },
  (t) => [index('saved_filter_resource_owner_idx').on(t.resource, t.ownerId), index('saved_filter_account_idx').on(t.licenseAccountId)],
);
