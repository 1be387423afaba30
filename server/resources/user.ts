// User rules the declaration cannot express: scoping to the caller's license account, password
// hashing, token revocation on disable/delete, and the guards around self and superAdmins.
import { eq, inArray, sql } from 'drizzle-orm';
import type { PasswordHasher } from '../auth/passwords';
import { revokeUserTokens } from '../auth/tokens';
import { licenseAccountUserRelation as relation, sysUser, sysUserRole } from '../db/schema';
import type { HookContext, ResourceHooks } from '../crud/hooks';
import { AppError } from '../lib/errors';
import { ensureDefaultAccount } from './accounts';
import { checkAssignableRoles } from './role';

/** Users linked to a license account: the user list's scope (the caller's current account). */
export const usersOfAccount = (accountId: number | null) =>
  accountId === null ? sql`false` : sql`exists (select 1 from ${relation} r where r.user_id = ${sysUser.id} and r.license_account_id = ${accountId})`;

/**
 * Acting on another user (edit, password reset) must not hand the caller more than they hold: someone
 * who is not superAdmin needs every permission of the target's roles (all accounts, one-way cover)
 * and every license account of the target among their own; else 4003.
 */
export const checkTargetWithinCaller = async (context: Pick<HookContext, 'tx' | 'caller'>, targetId: number) => {
  const { tx, caller } = context;
  if (caller.principal.superAdmin) return;
  const roleIds = (await tx.select({ id: sysUserRole.roleId }).from(sysUserRole).where(eq(sysUserRole.userId, targetId))).map((row) => row.id);
  await checkAssignableRoles(context, roleIds);
  const mine = new Set(
    (await tx.select({ id: relation.licenseAccountId }).from(relation).where(eq(relation.userId, caller.userId))).map((row) => row.id),
  );
  const theirs = await tx.select({ id: relation.licenseAccountId }).from(relation).where(eq(relation.userId, targetId));
  if (theirs.some((row) => !mine.has(row.id))) throw new AppError('4003');
};

export const userHooks = (hasher: PasswordHasher): ResourceHooks => ({
  scope: (caller) => usersOfAccount(caller.principal.licenseAccountId),

  beforeCreate: async (context, input, values) => {
    const { caller } = context;
    await checkAssignableRoles(context, input.roles);
    values.password = await hasher.hash(input.password as string);
    // An administrator chose this password: the user replaces it at the first sign-in.
    values.mustChangePassword = true;
    values.passwordChangedAt = new Date();
    const accounts = input.licenseAccounts as number[] | undefined;
    if ((!accounts || accounts.length === 0) && caller.principal.licenseAccountId !== null) {
      input.licenseAccounts = [caller.principal.licenseAccountId];
    }
  },

  afterCreate: async ({ tx }, id) => ensureDefaultAccount(tx, id),

  beforeUpdate: async (context, id, input, _values, existing) => {
    const { caller } = context;
    if (existing.superAdmin && !caller.principal.superAdmin) throw new AppError('4003');
    // Editing oneself takes over no one; anyone else must hold no more than the caller.
    if (id !== caller.userId) await checkTargetWithinCaller(context, id);
    await checkAssignableRoles(context, input.roles);
    if ('enabled' in input && input.enabled !== existing.enabled) {
      if (id === caller.userId) throw new AppError('5001');
      await caller.require(['user:disable']);
    }
  },

  afterUpdate: async ({ tx }, id, input, existing) => {
    if (input.enabled === false && existing.enabled) await revokeUserTokens(tx, id, 'disabled');
    if (Array.isArray(input.licenseAccounts)) await ensureDefaultAccount(tx, id);
  },

  // SPEC 5: "a linked role or user must be unlinked before it is deleted".
  beforeDelete: async ({ tx, caller }, ids) => {
    if (ids.includes(caller.userId)) throw new AppError('5001');
    const targets = await tx.select({ id: sysUser.id, superAdmin: sysUser.superAdmin }).from(sysUser).where(inArray(sysUser.id, ids));
    if (targets.some((target) => target.superAdmin) && !caller.principal.superAdmin) throw new AppError('4003');
    const linked = await tx.select({ userId: sysUserRole.userId }).from(sysUserRole).where(inArray(sysUserRole.userId, ids)).limit(1);
    if (linked.length) throw new AppError('5002');
    for (const id of ids) await revokeUserTokens(tx, id, 'deleted');
  },
});

