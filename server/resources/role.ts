// Role rules: a role still given to users cannot be deleted (5002), and someone who is not
// superAdmin can only put permissions they hold themselves into a role (no self-promotion).
import { inArray } from 'drizzle-orm';
import { sysPermission, sysUserRole } from '../db/schema';
import type { HookContext, ResourceHooks, Values } from '../crud/hooks';
import { AppError } from '../lib/errors';

const checkGrantable = async ({ tx, caller }: HookContext, input: Values) => {
  const ids = input.permissions as number[] | undefined;
  if (caller.principal.superAdmin || !ids?.length) return;
  const granted = await tx.select({ identifier: sysPermission.identifier }).from(sysPermission).where(inArray(sysPermission.id, ids));
  for (const { identifier } of granted) if (!(await caller.can([identifier]))) throw new AppError('4003');
};

export const roleHooks: ResourceHooks = {
  beforeCreate: (context, input) => checkGrantable(context, input),
  beforeUpdate: (context, _id, input) => checkGrantable(context, input),
  beforeDelete: async ({ tx }, ids) => {
    const linked = await tx.select({ roleId: sysUserRole.roleId }).from(sysUserRole).where(inArray(sysUserRole.roleId, ids)).limit(1);
    if (linked.length) throw new AppError('5002');
  },
};
