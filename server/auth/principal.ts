// Who is calling: the user behind a token, their current license account and their permissions,
// read from the database in one query, or kept in memory until any of it changes (callerCache.ts).
import { and, asc, desc, eq, sql } from 'drizzle-orm';
import { hasPermission, identifierCovers } from '../../resources/permissions';
import type { Locale } from '../../i18n';
import type { ServerConfig } from '../config';
import { rowsOf, type Db } from '../db/client';
import { licenseAccount, licenseAccountUserRelation, sysPermission, sysRole, sysRolePermission, sysUser, sysUserRole } from '../db/schema';
import { AppError } from '../lib/errors';
import type { CallerCache } from './callerCache';
import { checkTokenRow, touchToken, tokenHashOf, type TokenRow } from './tokens';

export interface Principal {
  userId: number;
  userName: string;
  realName: string;
  superAdmin: boolean;
  mustChangePassword: boolean;
  passwordChangedAt: Date;
  /** The caller's current (default) license account; null when they belong to none. */
  licenseAccountId: number | null;
  licenseAccountName: string | null;
  /** ISO 4217 code of the current license account's refund values; null without an account. */
  licenseAccountCurrency: string | null;
  tokenId: number;
  /** The client's UTC offset at sign-in, when it sent one. */
  utcOffsetMinutes: number | null;
}

export interface PermissionItem {
  id: number;
  identifier: string;
}

export const currentLicenseAccount = async (db: Db, userId: number) => {
  const [row] = await db
    .select({ id: licenseAccount.id, name: licenseAccount.licenseAccountName, currency: licenseAccount.currency })
    .from(licenseAccountUserRelation)
    .innerJoin(licenseAccount, eq(licenseAccount.id, licenseAccountUserRelation.licenseAccountId))
    .where(eq(licenseAccountUserRelation.userId, userId))
    // The default one, else the oldest link (a user whose default was unlinked still has a current account).
    .orderBy(desc(licenseAccountUserRelation.isDefault), asc(licenseAccountUserRelation.licenseAccountId))
    .limit(1);
  return row ?? null;
};

export const loadPrincipal = async (db: Db, token: TokenRow): Promise<Principal> => {
  const [user] = await db.select().from(sysUser).where(eq(sysUser.id, token.userId)).limit(1);
  // A deleted or disabled user's tokens are revoked when that happens; this covers any race.
  if (!user || !user.enabled) throw new AppError('11015');
  const account = await currentLicenseAccount(db, user.id);
  return {
    userId: user.id,
    userName: user.name,
    realName: user.realname,
    superAdmin: user.superAdmin,
    mustChangePassword: user.mustChangePassword,
    passwordChangedAt: user.passwordChangedAt,
    licenseAccountId: account?.id ?? null,
    licenseAccountName: account?.name ?? null,
    licenseAccountCurrency: account?.currency ?? null,
    tokenId: token.id,
    utcOffsetMinutes: token.utcOffsetMinutes,
  };
};

/**
 * The union of the permissions of the user's roles in one license account (roles belong to one
 * account: rights held elsewhere do not count). None when the account is null.
 */
export const permissionsOf = async (db: Db, userId: number, licenseAccountId: number | null): Promise<PermissionItem[]> =>
  licenseAccountId === null
    ? []
    : db
        .selectDistinct({ id: sysPermission.id, identifier: sysPermission.identifier })
        .from(sysUserRole)
        .innerJoin(sysRole, eq(sysRole.id, sysUserRole.roleId))
        .innerJoin(sysRolePermission, eq(sysRolePermission.roleId, sysUserRole.roleId))
        .innerJoin(sysPermission, eq(sysPermission.id, sysRolePermission.permissionId))
        .where(and(eq(sysUserRole.userId, userId), eq(sysRole.licenseAccountId, licenseAccountId)))
        .orderBy(asc(sysPermission.id));

/** The user's roles in one license account (none when it is null). */
export const roleIdsOf = async (db: Db, userId: number, licenseAccountId: number | null): Promise<number[]> =>
  licenseAccountId === null
    ? []
    : (
        await db
          .select({ id: sysUserRole.roleId })
          .from(sysUserRole)
          .innerJoin(sysRole, eq(sysRole.id, sysUserRole.roleId))
          .where(and(eq(sysUserRole.userId, userId), eq(sysRole.licenseAccountId, licenseAccountId)))
          .orderBy(asc(sysUserRole.roleId))
      ).map((row) => row.id);

/**
 * `permissionsOf` and `roleIdsOf` in one query (the login answer needs both), same order and same
 * answers: none when the account is null.
 */
export const permissionsAndRolesOf = async (db: Db, userId: number, licenseAccountId: number | null): Promise<{ permissions: PermissionItem[]; roleIds: number[] }> => {
  if (licenseAccountId === null) return { permissions: [], roleIds: [] };
  const [row] = rowsOf<{ permissions: PermissionItem[] | string; role_ids: number[] | string }>(
    await db.execute(sql`
      with roles as (
        select ur.role_id from sys_user_role ur join sys_role r on r.id = ur.role_id
        where ur.user_id = ${userId} and r.license_account_id = ${licenseAccountId}
      )
      select
        (select coalesce(json_agg(json_build_object('id', p.id, 'identifier', p.identifier) order by p.id), '[]'::json)
          from (select distinct sp.id, sp.identifier from roles
            join sys_role_permission rp on rp.role_id = roles.role_id
            join sys_permission sp on sp.id = rp.permission_id) p) as permissions,
        (select coalesce(json_agg(roles.role_id order by roles.role_id), '[]'::json) from roles) as role_ids`),
  );
  // PGlite answers json as text, node-postgres parses it.
  const parse = <T>(value: T | string): T => (typeof value === 'string' ? (JSON.parse(value) as T) : value);
  return { permissions: parse(row.permissions), roleIds: parse(row.role_ids) };
};

interface CallerRow {
  token_id: number;
  token_user_id: number;
  utc_offset_minutes: number | null;
  revoked: boolean;
  revoke_reason: string | null;
  created_ms: number;
  last_seen_ms: number;
  user_id: number | null;
  enabled: boolean | null;
  user_name: string;
  realname: string;
  super_admin: boolean;
  must_change_password: boolean;
  password_changed_ms: number;
  account_id: number | null;
  account_name: string | null;
  account_currency: string | null;
  permissions: PermissionItem[] | string | null;
}

/** The caller's row as one query reads it (permissions parsed), kept by the guard's CallerCache. */
export type CallerEntry = Omit<CallerRow, 'permissions'> & { permissions: PermissionItem[] | null };

const readCallerRow = async (db: Db, hash: string): Promise<CallerEntry | undefined> => {
  const [row] = rowsOf<CallerRow>(
    await db.execute(sql`
      select t.id as token_id, t.user_id as token_user_id, t.utc_offset_minutes, t.revoked_at is not null as revoked, t.revoke_reason,
        (extract(epoch from t.created_at) * 1000)::float8 as created_ms, (extract(epoch from t.last_seen_at) * 1000)::float8 as last_seen_ms,
        u.id as user_id, u.enabled, u.name as user_name, u.realname, u.super_admin, u.must_change_password,
        (extract(epoch from u.password_changed_at) * 1000)::float8 as password_changed_ms,
        account.id as account_id, account.name as account_name, account.currency as account_currency,
        case when u.super_admin or account.id is null then null else (
          select coalesce(json_agg(json_build_object('id', p.id, 'identifier', p.identifier) order by p.id), '[]'::json)
          from (select distinct sp.id, sp.identifier from sys_user_role ur
            join sys_role r on r.id = ur.role_id
            join sys_role_permission rp on rp.role_id = ur.role_id
            join sys_permission sp on sp.id = rp.permission_id
            where ur.user_id = u.id and r.license_account_id = account.id) p
        ) end as permissions
      from sys_token t
      left join sys_user u on u.id = t.user_id
      left join lateral (
        -- The default one, else the oldest link (as currentLicenseAccount).
        select a.id, a.license_account_name as name, a.currency from license_account_user_relation lr
        join license_account a on a.id = lr.license_account_id
        where lr.user_id = u.id order by lr.is_default desc, lr.license_account_id asc limit 1
      ) account on true
      where t.token_hash = ${hash}
      limit 1`),
  );
  if (!row) return undefined;
  return { ...row, permissions: typeof row.permissions === 'string' ? (JSON.parse(row.permissions) as PermissionItem[]) : row.permissions };
};

/** The checks and the answer of `loadCaller` on one row; a touch of the token updates the row too. */
const admitCaller = async (db: Db, config: ServerConfig, row: CallerEntry): Promise<{ principal: Principal; permissions?: PermissionItem[] }> => {
  const lastSeen = checkTokenRow(config, {
    revoked: row.revoked,
    revokeReason: row.revoke_reason,
    createdAt: row.created_ms,
    lastSeenAt: row.last_seen_ms,
  });
  if (lastSeen) {
    // first: concurrent requests of a kept caller then touch once
    row.last_seen_ms = lastSeen.getTime();
    await touchToken(db, row.token_id, lastSeen);
  }
  // A deleted or disabled user's tokens are revoked when that happens; this covers any race.
  if (row.user_id === null || !row.enabled) throw new AppError('11015');
  return {
    principal: {
      userId: row.user_id,
      userName: row.user_name,
      realName: row.realname,
      superAdmin: row.super_admin,
      mustChangePassword: row.must_change_password,
      passwordChangedAt: new Date(row.password_changed_ms),
      licenseAccountId: row.account_id,
      licenseAccountName: row.account_name,
      licenseAccountCurrency: row.account_currency,
      tokenId: row.token_id,
      utcOffsetMinutes: row.utc_offset_minutes,
    },
    // superAdmin: never asked; no account: none.
    permissions: row.permissions ?? (row.account_id === null ? [] : undefined),
  };
};

/**
 * The token check, the principal and (for a non-superAdmin with a license account) the permissions in
 * ONE query: what `authenticate`, `loadPrincipal` and `permissionsOf` read one after the other, with
 * the same answers and forced-logout codes. Times come as epoch milliseconds (float8), which both
 * drivers answer as numbers. With a `cache`, a caller resolved before is answered from memory until
 * anything it was read from changes (callerCache.ts); a refusal is never answered from memory: the
 * row is read again and checked, so a revoked token, a disabled user or a changed role counts at once.
 */
export const loadCaller = async (
  db: Db,
  config: ServerConfig,
  tokenValue: string | undefined,
  cache?: CallerCache<CallerEntry>,
): Promise<{ principal: Principal; permissions?: PermissionItem[] }> => {
  const hash = tokenHashOf(tokenValue);
  const kept = cache?.get(hash);
  if (kept) {
    try {
      return await admitCaller(db, config, kept);
    } catch {
      cache?.forget(hash);
    }
  }
  const generation = cache?.generation ?? 0;
  const row = await readCallerRow(db, hash);
  if (!row) throw new AppError('11012');
  const admitted = await admitCaller(db, config, row);
  cache?.remember(hash, row, generation);
  return admitted;
};

/** Everything a handler needs about its caller; permissions are loaded at most once per request. */
export class Caller {
  private permissionList?: Promise<PermissionItem[]>;

  constructor(
    readonly db: Db,
    readonly config: ServerConfig,
    readonly principal: Principal,
    readonly locale: Locale,
    /** Already read with the principal (loadCaller); otherwise loaded on first use. */
    permissions?: PermissionItem[],
  ) {
    if (permissions) this.permissionList = Promise.resolve(permissions);
  }

  get userId() {
    return this.principal.userId;
  }

  permissions(): Promise<PermissionItem[]> {
    this.permissionList ??= permissionsOf(this.db, this.principal.userId, this.principal.licenseAccountId);
    return this.permissionList;
  }

  /** superAdmin, or one of the caller's identifiers matches one of `required` (`*` wildcards). */
  async can(required: readonly string[]): Promise<boolean> {
    if (this.principal.superAdmin) return true;
    return hasPermission({ permissions: await this.permissions() }, required);
  }

  /**
   * Granting check (one-way): superAdmin, or one of the caller's identifiers covers `target`
   * (a target containing `*` is covered only by a pattern at least as wide). Use for anything
   * that hands rights to someone else, never `can`.
   */
  async covers(target: string): Promise<boolean> {
    if (this.principal.superAdmin) return true;
    return (await this.permissions()).some((p) => identifierCovers(p.identifier, target));
  }

  async require(required: readonly string[]): Promise<void> {
    if (!(await this.can(required))) throw new AppError('4003');
  }
}
