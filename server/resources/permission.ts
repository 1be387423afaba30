// Permission rules: a node with subordinates cannot be deleted (5003), nor one a role uses (5002).
import { and, inArray, notInArray } from 'drizzle-orm';
import { sysPermission, sysRolePermission } from '../db/schema';
import type { ResourceHooks } from '../crud/hooks';
import { AppError } from '../lib/errors';

export const permissionHooks: ResourceHooks = {
  beforeDelete: async ({ tx }, ids) => {
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
