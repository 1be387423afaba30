// Package rules the declaration cannot say (docs/deployments.md "Packages"): the upload status follows the
// file field, the last editor and update time follow every edit, and what a machine receives (the file,
// the version, the resource type) cannot change while a deployment of the package may still send it.
import { and, eq, inArray, sql } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';
import { ACTIVE_DEPLOYMENT_STATUSES } from '../../resources/deployment';
import type { ResourceHooks } from '../crud/hooks';
import { deployment, deploymentPackage } from '../db/schema/deployments';
import { AppError } from '../lib/errors';

/** Fields whose change would give machines of one deployment different things. */
const DELIVERED_FIELDS = ['file', 'version', 'resourceType'] as const;

export const deploymentPackageHooks: ResourceHooks = {
  computed: (_table: PgTable) => ({
    uploadStatus: sql<string>`case when ${deploymentPackage.file} is null then 'notUploaded' else 'uploaded' end`,
  }),
  beforeUpdate: async ({ tx, caller }, id, input, values, existing) => {
    values.lastEditor = caller.userId;
    values.updateTime = new Date();
    const changed = DELIVERED_FIELDS.filter((field) => field in input && input[field] !== existing[field]);
    if (changed.length === 0) return;
    // The package row is locked by the update; a deployment created meanwhile waits for it.
    const [active] = await tx
      .select({ id: deployment.id })
      .from(deployment)
      .where(and(eq(deployment.packageId, id), inArray(deployment.status, [...ACTIVE_DEPLOYMENT_STATUSES])))
      .limit(1);
    if (active) throw new AppError('8101', { resData: { deploymentId: active.id, fields: changed } });
  },
};
