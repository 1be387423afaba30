// Role rules: a role still given to users cannot be deleted (5002), and someone who is not
// superAdmin can only put into a role, or take out of it, permissions they hold themselves (no
// self-promotion, no stripping a stronger role), and can change or delete only roles whose every
// permission they hold (no renaming a stronger role). "Hold" is the one-way `Caller.covers`: a
// target identifier with `*` needs a pattern at least as wide.
import { eq, inArray } from 'drizzle-orm';
import { sysPermission, sysRolePermission, sysUserRole } from '../db/schema';
import type { HookContext, ResourceHooks, Values } from '../crud/hooks';
import { AppError } from '../lib/errors';

/** Every permission of `ids` must be covered by the caller (superAdmin: anything); else 4003. */
const checkCovered = async ({ tx, caller }: HookContext, ids: number[]) => {
  if (caller.principal.superAdmin || ids.length === 0) return;
  const identifiers = await tx.select({ identifier: sysPermission.identifier }).from(sysPermission).where(inArray(sysPermission.id, ids));
  for (const { identifier } of identifiers) if (!(await caller.covers(identifier))) throw new AppError('4003');
};

/** On create every permission is added; on update the added and the removed ones count, the kept ones do not. */
const checkGrantable = async (context: HookContext, input: Values, roleId?: number) => {
  if (!Array.isArray(input.permissions) || context.caller.principal.superAdmin) return;
  const wanted = new Set(input.permissions as number[]);
  const rows = roleId === undefined ? [] : await context.tx.select({ id: sysRolePermission.permissionId }).from(sysRolePermission).where(eq(sysRolePermission.roleId, roleId));
  const stored = new Set(rows.map((row) => row.id));
  const added = [...wanted].filter((id) => !stored.has(id));
  const removed = [...stored].filter((id) => !wanted.has(id));
  await checkCovered(context, [...added, ...removed]);
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

/** The stored role is no stronger than the caller: every permission it has, the caller holds. */
const checkNotStronger = async (context: HookContext, roleIds: number[]) => {
  if (context.caller.principal.superAdmin || roleIds.length === 0) return;
  const rows = await context.tx.selectDistinct({ id: sysRolePermission.permissionId }).from(sysRolePermission).where(inArray(sysRolePermission.roleId, roleIds));
  await checkCovered(
    context,
    rows.map((row) => row.id),
  );
};

export const roleHooks: ResourceHooks = {
  beforeCreate: (context, input) => checkGrantable(context, input),
  beforeUpdate: async (context, id, input) => {
    await checkNotStronger(context, [id]);
    await checkGrantable(context, input, id);
  },
  beforeDelete: async (context, ids) => {
    await checkNotStronger(context, ids);
    const { tx } = context;
    const linked = await tx.select({ roleId: sysUserRole.roleId }).from(sysUserRole).where(inArray(sysUserRole.roleId, ids)).limit(1);
    if (linked.length) throw new AppError('5002');
  },
};
