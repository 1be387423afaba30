// The rollout job's own state of a deployment (server/deployments/rollout.ts, docs/deployments.md "The
// business gate"): where the gate's window starts (creation, approval or the last resume) and what the
// gate found at its last check, shown on the deployment page without recomputing it per request.
import { integer, jsonb, pgTable, timestamp } from 'drizzle-orm/pg-core';
import { deployment } from './deployments';

const at = (name: string) => timestamp(name, { withTimezone: true });

export const deploymentRollout = pgTable('deployment_rollout', {
  deploymentId: integer('deployment_id')
    .primaryKey()
    .references(() => deployment.id, { onDelete: 'cascade' }),
  /** Sessions before this instant do not count for the gate (a resume starts a new window). */
  gateSince: at('gate_since').notNull().defaultNow(),
  /** The gate's last figures and verdict (server/deployments/gate.ts GateResult); null before its first check. */
  gateResult: jsonb('gate_result'),
  checkedTime: at('checked_time'),
});
