// Tables behind the system-settings resources (resources/account.ts, user.ts, role.ts, permission.ts).
// Property names equal the declarations' field names: the CRUD engine finds columns by field name.
// Column types mirror the declared limits so the database refuses what the API would refuse.
import { type AnyPgColumn, boolean, index, integer, pgTable, primaryKey, text, timestamp, uniqueIndex, varchar } from 'drizzle-orm/pg-core';

const createTime = () => timestamp('create_time', { withTimezone: true }).notNull().defaultNow();

export const licenseAccount = pgTable(
  'license_account',
  {
    id: integer('id').primaryKey().generatedByDefaultAsIdentity(),
    licenseAccountName: varchar('license_account_name', { length: 64 }).notNull(),
    businessUnit: varchar('business_unit', { length: 64 }),
    contact: varchar('contact', { length: 64 }),
    /** ISO 4217 code of the account's refund values (the demo fleet pays Hong Kong dollars). */
    currency: varchar('currency', { length: 3 }).notNull().default('HKD'),
    createTime: createTime(),
  },
  (t) => [
    uniqueIndex('license_account_name_uq').on(t.licenseAccountName),
    index('license_account_business_unit_idx').on(t.businessUnit),
    index('license_account_create_time_idx').on(t.createTime),
  ],
);

export const sysUser = pgTable(
  'sys_user',
  {
    id: integer('id').primaryKey().generatedByDefaultAsIdentity(),
    realname: varchar('realname', { length: 32 }).notNull(),
    name: varchar('name', { length: 8 }).notNull(),
    localAreaId: varchar('local_area_id', { length: 64 }),
    phone: varchar('phone', { length: 20 }),
    email: varchar('email', { length: 128 }),
    enabled: boolean('enabled').notNull().default(true),
    /** The scrypt hash (`scrypt$N$r$p$salt$hash`), never the password itself. */
    password: text('password_hash').notNull(),
    sysUserId: integer('sys_user_id').references((): AnyPgColumn => sysUser.id, { onDelete: 'set null' }),
    createTime: createTime(),
    superAdmin: boolean('super_admin').notNull().default(false),
    mustChangePassword: boolean('must_change_password').notNull().default(false),
    passwordChangedAt: timestamp('password_changed_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('sys_user_name_uq').on(t.name),
    index('sys_user_realname_idx').on(t.realname),
    index('sys_user_email_idx').on(t.email),
    index('sys_user_local_area_idx').on(t.localAreaId),
    index('sys_user_enabled_idx').on(t.enabled),
    index('sys_user_create_time_idx').on(t.createTime),
  ],
);

/** multiReference `user.licenseAccounts`; `isDefault` marks the user's current license account. */
export const licenseAccountUserRelation = pgTable(
  'license_account_user_relation',
  {
    userId: integer('user_id')
      .notNull()
      .references(() => sysUser.id, { onDelete: 'cascade' }),
    licenseAccountId: integer('license_account_id')
      .notNull()
      .references(() => licenseAccount.id, { onDelete: 'cascade' }),
    isDefault: boolean('is_default').notNull().default(false),
  },
  (t) => [primaryKey({ columns: [t.userId, t.licenseAccountId] }), index('license_account_user_account_idx').on(t.licenseAccountId)],
);

export const sysRole = pgTable(
  'sys_role',
  {
    id: integer('id').primaryKey().generatedByDefaultAsIdentity(),
    licenseAccountId: integer('license_account_id')
      .notNull()
      .references(() => licenseAccount.id, { onDelete: 'restrict' }),
    name: varchar('name', { length: 32 }).notNull(),
    description: varchar('description', { length: 200 }),
    createTime: createTime(),
  },
  (t) => [uniqueIndex('sys_role_account_name_uq').on(t.licenseAccountId, t.name), index('sys_role_account_create_time_idx').on(t.licenseAccountId, t.createTime)],
);

export const sysUserRole = pgTable(
  'sys_user_role',
  {
    userId: integer('user_id')
      .notNull()
      .references(() => sysUser.id, { onDelete: 'cascade' }),
    roleId: integer('role_id')
      .notNull()
      .references(() => sysRole.id, { onDelete: 'cascade' }),
  },
  (t) => [primaryKey({ columns: [t.userId, t.roleId] }), index('sys_user_role_role_idx').on(t.roleId)],
);

/**
 * The permission tree. Seeded ids are permanent (resources/menu.ts and each declaration's permissionIds);
 * ids of permissions created through the API start high so they never collide with seeded ones.
 */
export const sysPermission = pgTable(
  'sys_permission',
  {
    id: integer('id').primaryKey().generatedByDefaultAsIdentity({ startWith: 10_000_000 }),
    name: varchar('name', { length: 64 }).notNull(),
    parentId: integer('parent_id').references((): AnyPgColumn => sysPermission.id),
    type: varchar('type', { length: 16 }).notNull(),
    identifier: varchar('identifier', { length: 128 }).notNull(),
    sort: integer('sort').notNull().default(0),
    description: varchar('description', { length: 200 }),
  },
  (t) => [
    index('sys_permission_parent_idx').on(t.parentId),
    index('sys_permission_identifier_idx').on(t.identifier),
    index('sys_permission_sort_idx').on(t.sort),
    index('sys_permission_name_idx').on(t.name),
    index('sys_permission_type_idx').on(t.type),
  ],
);

export const sysRolePermission = pgTable(
  'sys_role_permission',
  {
    roleId: integer('role_id')
      .notNull()
      .references(() => sysRole.id, { onDelete: 'cascade' }),
    permissionId: integer('permission_id')
      .notNull()
      .references(() => sysPermission.id, { onDelete: 'cascade' }),
  },
  (t) => [primaryKey({ columns: [t.roleId, t.permissionId] }), index('sys_role_permission_permission_idx').on(t.permissionId)],
);
