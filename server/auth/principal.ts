// Who is calling: the user behind a token, their current license account and their permissions,
// read from the database on every request (nothing is cached across requests).
import { and, asc, desc, eq } from 'drizzle-orm';
import { hasPermission, identifierCovers } from '../../resources/permissions';
import type { Locale } from '../../i18n';
import type { ServerConfig } from '../config';
import type { Db } from '../db/client';
import { licenseAccount, licenseAccountUserRelation, sysPermission, sysRole, sysRolePermission, sysUser, sysUserRole } from '../db/schema';
import { AppError } from '../lib/errors';
import type { TokenRow } from './tokens';

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
    .select({ id: licenseAccount.id, name: licenseAccount.licenseAccountName })
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

/** Everything a handler needs about its caller; permissions are loaded at most once per request. */
export class Caller {
  private permissionList?: Promise<PermissionItem[]>;

  constructor(
    readonly db: Db,
    readonly config: ServerConfig,
    readonly principal: Principal,
    readonly locale: Locale,
  ) {}

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
