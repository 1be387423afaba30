// The deployment list's computed columns (resources/deployment.ts): its name (the package's name and the
// deployment's id), the wave and machine counts stored at creation, and the applied and failed targets,
// each a sum of the deployment's tally rows (server/deployments/tally.ts) per listed row.
import { sql } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';
import { FAILED_DELIVERY_STATUSES } from '../../resources/deploymentPackage';
import type { ResourceHooks } from '../crud/hooks';
import { deployment, deploymentPackage } from '../db/schema/deployments';
import { tallyCount } from '../deployments/tally';
import { outerColumn } from './outerColumn';

export const deploymentHooks: ResourceHooks = {
  computed: (table: PgTable) => {
    const rows = table as typeof deployment;
    const id = outerColumn(rows.id);
    return {
      name: sql<string>`((select ${deploymentPackage.name} from ${deploymentPackage} where ${deploymentPackage.id} = ${outerColumn(rows.packageId)}) || ' #' || ${id})`,
      waveCount: sql<number>`coalesce(jsonb_array_length(${outerColumn(rows.waves)} -> 'counts'), 0)`,
      targetCount: sql<number>`coalesce((${outerColumn(rows.waves)} ->> 'total')::int, 0)`,
      appliedCount: tallyCount(id, ['applied']),
      failedCount: tallyCount(id, FAILED_DELIVERY_STATUSES),
    };
  },
};
