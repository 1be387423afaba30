// Service personnel, their access levels and consumer bans (docs/service-personnel.md): declared resources
// (resources/servicePersonnel.ts, resources/consumerBan.ts); property names equal their field names.
import { boolean, index, integer, pgTable, smallint, timestamp, uniqueIndex, varchar } from 'drizzle-orm/pg-core';
import { licenseAccount, sysUser } from './system';

const at = (name: string) => timestamp(name, { withTimezone: true });
const account = () =>
  integer('license_account_id')
    .notNull()
    .references(() => licenseAccount.id, { onDelete: 'restrict' });

/** Who may sign in on a machine's service menu; `password` is the salted scrypt hash, never the password. */
export const servicePersonnel = pgTable(
  'service_personnel',
  {
    id: integer('id').primaryKey().generatedByDefaultAsIdentity(),
    licenseAccountId: account(),
    loginName: varchar('login_name', { length: 32 }).notNull(),
    realName: varchar('real_name', { length: 64 }).notNull(),
    accessLevel: varchar('access_level', { length: 16 }).notNull().default('normal'),
    company: varchar('company', { length: 64 }),
    password: varchar('password_hash', { length: 255 }).notNull(),
    enabled: boolean('enabled').notNull().default(true),
    createTime: at('create_time').notNull().defaultNow(),
    updateTime: at('update_time').notNull().defaultNow(),
  },
  (t) => [uniqueIndex('service_personnel_account_login_uq').on(t.licenseAccountId, t.loginName)],
);

/** What one access level may do on the account's machines (absent: the defaults of resources/servicePersonnel.ts). */
export const personnelAccessLevel = pgTable(
  'personnel_access_level',
  {
    id: integer('id').primaryKey().generatedByDefaultAsIdentity(),
    licenseAccountId: account(),
    level: varchar('level', { length: 16 }).notNull(),
    /** Comma-separated SERVICE_ACTIONS. */
    actions: varchar('actions', { length: 500 }).notNull(),
    signOutMinutes: smallint('sign_out_minutes').notNull().default(30),
    description: varchar('description', { length: 300 }),
    updateTime: at('update_time').notNull().defaultNow(),
  },
  (t) => [uniqueIndex('personnel_access_level_account_level_uq').on(t.licenseAccountId, t.level)],
);

/** A consumer (user ID, card or voucher) the account's machines refuse from `startTime` until `endTime`. */
export const consumerBan = pgTable(
  'consumer_ban',
  {
    id: integer('id').primaryKey().generatedByDefaultAsIdentity(),
    licenseAccountId: account(),
    consumerKind: varchar('consumer_kind', { length: 16 }).notNull(),
    consumerId: varchar('consumer_id', { length: 32 }).notNull(),
    reason: varchar('reason', { length: 200 }).notNull(),
    startTime: at('start_time').notNull(),
    endTime: at('end_time').notNull(),
    creator: integer('creator_id').references(() => sysUser.id, { onDelete: 'set null' }),
    createTime: at('create_time').notNull().defaultNow(),
  },
  (t) => [
    // one ban per consumer: a second is refused (server/resources/consumerBan.ts); this is the guarantee
    uniqueIndex('consumer_ban_account_consumer_uq').on(t.licenseAccountId, t.consumerKind, t.consumerId),
    index('consumer_ban_account_end_idx').on(t.licenseAccountId, t.endTime),
    index('consumer_ban_account_created_idx').on(t.licenseAccountId, t.createTime),
  ],
);
