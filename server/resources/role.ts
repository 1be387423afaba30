// Role rules: a role still given to users cannot be deleted (5002), and someone who is not
// superAdmin can only put permissions they hold themselves into a role (no self-promotion). "Hold"
// is the one-way `Caller.covers`: a target identifier with `*` needs a pattern at least as wide.
import { eq, inArray } from 'drizzle-orm';
import { sysPermission, sysRolePermission, sysUserRole } from '../db/schema';
import type { HookContext, ResourceHooks, Values } from '../crud/hooks';
import { AppError } from '../lib/errors';

const checkGrantable = async ({ tx, caller }: HookContext, input: Values) => {
  const ids = input.permissions as number[] | undefined;
  if (caller.principal.superAdmin || !ids?.length) return;
  const granted = await tx.select({ identifier: sysPermission.identifier }).from(sysPermission).where(inArray(sysPermission.id, ids));
  for (const { identifier } of granted) if (!(await caller.covers(identifier))) throw new AppError('4003');
};

/**
 * Giving a user roles is granting their permissions: someone who is not superAdmin may only assign
 * roles whose every permission they hold themselves (else a `user:edit` holder could promote anyone).
 */
export const checkAssignableRoles = async ({ tx, caller }: Pick<HookContext, 'tx' | 'caller'>, roleIds: unknown) => {
  if (caller.principal.superAdmin || !Array.isArray(roleIds) || roleIds.length === 0) return;
  const granted = await tx
    .selectDistinct({ identifier: sysPermission.identifier })
    .from(sysRolePermission)
    .innerJoin(sysPermission, eq(sysPermission.id, sysRolePermission.permissionId))
    .where(inArray(sysRolePermission.roleId, roleIds as number[]));
  for (const { identifier } of granted) if (!(await caller.covers(identifier))) throw new AppError('4003');
};

export const roleHooks: ResourceHooks = {
  beforeCreate: (context, input) => checkGrantable(context, input),
  beforeUpdate: (context, _id, input) => checkGrantable(context, input),
  beforeDelete: async ({ tx }, ids) => {
    const linked = await tx.select({ roleId: sysUserRole.roleId }).from(sysUserRole).where(inArray(sysUserRole.roleId, ids)).limit(1);
    if (linked.length) throw new AppError('5002');
  },
};
