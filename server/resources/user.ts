// User rules the declaration cannot express: scoping to the caller's license account, password
// hashing, token revocation on disable/delete, the guards around self and superAdmins, and the
// caller's scope over a user's links (roles, license accounts) on save and delete.
import { and, eq, inArray, sql } from 'drizzle-orm';
import type { PasswordHasher } from '../auth/passwords';
import { revokeUserTokens } from '../auth/tokens';
import type { Db } from '../db/client';
import { licenseAccountUserRelation as relation, sysPermission, sysRole, sysRolePermission, sysUser, sysUserRole } from '../db/schema';
import type { HookContext, ResourceHooks } from '../crud/hooks';
import { scopeCondition } from '../crud/query';
import { AppError, invalidField } from '../lib/errors';
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
  const mine = new Set((await tx.select({ id: relation.licenseAccountId }).from(relation).where(eq(relation.userId, caller.userId))).map((row) => row.id));
  const theirs = await tx.select({ id: relation.licenseAccountId }).from(relation).where(eq(relation.userId, targetId));
  if (theirs.some((row) => !mine.has(row.id))) throw new AppError('4003');
};

type Context = Pick<HookContext, 'tx' | 'caller'>;
type LinkField = 'roles' | 'licenseAccounts';

const accountIdsOf = async (tx: Db, userId: number) =>
  new Set((await tx.select({ id: relation.licenseAccountId }).from(relation).where(eq(relation.userId, userId))).map((row) => row.id));

/**
 * The links of `ids` the caller may change (add or remove). License accounts: a superAdmin all, anyone
 * else their own. Roles: those of the license account the caller is working in (the roles a form there
 * shows), so saving a user in one account never touches their roles in another; for anyone but a
 * superAdmin only roles whose every permission they cover. A user in two accounts gets roles in each
 * by an edit in each (docs/security.md "Authorization").
 */
const changeableLinks = async ({ tx, caller }: Context, field: LinkField, ids: number[]): Promise<Set<number>> => {
  if (ids.length === 0) return new Set();
  if (field === 'licenseAccounts') {
    if (caller.principal.superAdmin) return new Set(ids);
    const mine = await accountIdsOf(tx, caller.userId);
    return new Set(ids.filter((id) => mine.has(id)));
  }
  const roles = await tx.select({ id: sysRole.id, accountId: sysRole.licenseAccountId }).from(sysRole).where(inArray(sysRole.id, ids));
  const candidates = roles.filter((role) => role.accountId === caller.principal.licenseAccountId).map((role) => role.id);
  if (caller.principal.superAdmin || candidates.length === 0) return new Set(candidates);
  const granted = await tx
    .select({ roleId: sysRolePermission.roleId, identifier: sysPermission.identifier })
    .from(sysRolePermission)
    .innerJoin(sysPermission, eq(sysPermission.id, sysRolePermission.permissionId))
    .where(inArray(sysRolePermission.roleId, candidates));
  const changeable = new Set(candidates);
  for (const { roleId, identifier } of granted) if (changeable.has(roleId) && !(await caller.covers(identifier))) changeable.delete(roleId);
  return changeable;
};

const linkTable = (field: LinkField) =>
  field === 'roles'
    ? { table: sysUserRole, user: sysUserRole.userId, to: sysUserRole.roleId, toKey: 'roleId' as const }
    : { table: relation, user: relation.userId, to: relation.licenseAccountId, toKey: 'licenseAccountId' as const };

/**
 * Saves a user's roles or license accounts as the caller may: links inside the caller's scope
 * (`changeableLinks`) become as requested; links outside stay as they are, whether the request
 * repeats them (what the record answered, e.g. a role of another account) or leaves them out. An added
 * link must be visible to the caller (1004) and, for a role, one they could give (4003).
 */
const saveLinks = async (context: HookContext, userId: number, field: LinkField, requested: number[]) => {
  const { tx, caller, models } = context;
  const link = linkTable(field);
  const stored = (await tx.select({ id: link.to }).from(link.table).where(eq(link.user, userId))).map((row) => row.id);
  const wanted = new Set(requested);
  const added = [...wanted].filter((id) => !stored.includes(id));
  const changeable = await changeableLinks(
    context,
    field,
    stored.filter((id) => !wanted.has(id)),
  );
  const removed = stored.filter((id) => !wanted.has(id) && changeable.has(id));
  if (added.length) {
    if (field === 'roles') await checkAssignableRoles(context, added);
    const target = models.get(field === 'roles' ? 'role' : 'account');
    if (!target) throw new Error(`no resource for user.${field}`);
    const visible = await tx
      .select({ id: target.id })
      .from(target.table)
      .where(and(inArray(target.id, added), scopeCondition(target, caller)));
    if (visible.length !== added.length) throw invalidField(field, 'validation.reference');
    await tx
      .insert(link.table)
      .values(added.map((id) => ({ userId, [link.toKey]: id }) as typeof link.table.$inferInsert))
      .onConflictDoNothing();
  }
  if (removed.length) await tx.delete(link.table).where(and(eq(link.user, userId), inArray(link.to, removed)));
  if (field === 'licenseAccounts') await ensureDefaultAccount(tx, userId);
};

/**
 * Deleting a user who also belongs to license accounts a non-superAdmin caller is not in (cannot see)
 * only unlinks them from the caller's accounts and takes away their roles there (4003 unless the
 * caller covers those roles); the user and their other links remain. Answers the ids so kept.
 */
const unlinkSharedUsers = async (context: Context, ids: number[]): Promise<number[]> => {
  const { tx, caller } = context;
  if (caller.principal.superAdmin) return [];
  const mine = [...(await accountIdsOf(tx, caller.userId))];
  const links = await tx.select({ userId: relation.userId, accountId: relation.licenseAccountId }).from(relation).where(inArray(relation.userId, ids));
  const shared = [...new Set(links.filter((row) => !mine.includes(row.accountId)).map((row) => row.userId))];
  for (const userId of shared) {
    const roles = mine.length
      ? await tx
          .select({ id: sysUserRole.roleId })
          .from(sysUserRole)
          .innerJoin(sysRole, eq(sysRole.id, sysUserRole.roleId))
          .where(and(eq(sysUserRole.userId, userId), inArray(sysRole.licenseAccountId, mine)))
      : [];
    const roleIds = roles.map((row) => row.id);
    await checkAssignableRoles(context, roleIds);
    if (roleIds.length) await tx.delete(sysUserRole).where(and(eq(sysUserRole.userId, userId), inArray(sysUserRole.roleId, roleIds)));
    if (mine.length) await tx.delete(relation).where(and(eq(relation.userId, userId), inArray(relation.licenseAccountId, mine)));
    await ensureDefaultAccount(tx, userId);
  }
  return shared;
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
    if ('enabled' in input && input.enabled !== existing.enabled) {
      if (id === caller.userId) throw new AppError('5001');
      await caller.require(['user:disable']);
    }
    // The links are saved here, within the caller's scope, instead of by the generic join sync.
    for (const field of ['roles', 'licenseAccounts'] as const) {
      if (!Array.isArray(input[field])) continue;
      await saveLinks(context, id, field, input[field] as number[]);
      delete input[field];
    }
  },

  afterUpdate: async ({ tx }, id, input, existing) => {
    if (input.enabled === false && existing.enabled) await revokeUserTokens(tx, id, 'disabled');
  },

  // A linked role or user must be unlinked before it is deleted (docs/product-rules.md#validation-rules).
  beforeDelete: async (context, ids) => {
    const { tx, caller } = context;
    if (ids.includes(caller.userId)) throw new AppError('5001');
    const targets = await tx.select({ id: sysUser.id, superAdmin: sysUser.superAdmin }).from(sysUser).where(inArray(sysUser.id, ids));
    if (targets.some((target) => target.superAdmin) && !caller.principal.superAdmin) throw new AppError('4003');
    const unlinked = await unlinkSharedUsers(context, ids);
    // deleteRecords (server/crud/write.ts) deletes the rows of this very array after the hook: the
    // users only unlinked are taken out of it (securityAuthz.test.ts checks that they remain).
    if (unlinked.length) ids.splice(0, ids.length, ...ids.filter((id) => !unlinked.includes(id)));
    if (ids.length === 0) return;
    const linked = await tx.select({ userId: sysUserRole.userId }).from(sysUserRole).where(inArray(sysUserRole.userId, ids)).limit(1);
    if (linked.length) throw new AppError('5002');
    for (const id of ids) await revokeUserTokens(tx, id, 'deleted');
  },
});
