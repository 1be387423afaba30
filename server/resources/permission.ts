// Permission rules: the tree is global (shared by every license account), so only a superAdmin may
// create, edit or delete a node (4003: an identifier changed to '*' would reach everyone's roles);
// a node with subordinates cannot be deleted (5003), nor one a role uses (5002).
import { and, inArray, notInArray } from 'drizzle-orm';
import { sysPermission, sysRolePermission } from '../db/schema';
import type { HookContext, ResourceHooks } from '../crud/hooks';
import { AppError } from '../lib/errors';

const requireSuperAdmin = ({ caller }: HookContext) => {
  if (!caller.principal.superAdmin) throw new AppError('4003');
};

export const permissionHooks: ResourceHooks = {
  beforeCreate: async (context) => requireSuperAdmin(context),
  beforeUpdate: async (context) => requireSuperAdmin(context),
  beforeDelete: async (context, ids) => {
    requireSuperAdmin(context);
    const { tx } = context;
    const children = await tx
      .select({ id: sysPermission.id })
      .from(sysPermission)
      .where(and(inArray(sysPermission.parentId, ids), notInArray(sysPermission.id, ids)))
      .limit(1);
    if (children.length) throw new AppError('5003');
    const used = await tx.select({ id: sysRolePermission.permissionId }).from(sysRolePermission).where(inArray(sysRolePermission.permissionId, ids)).limit(1);
    if (used.length) throw new AppError('5002');
  },
};
