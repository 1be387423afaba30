// A deployment's targets counted per wave and status from the append-only tally that triggers on
// deployment_target keep (docs/deployments.md "Progress counts"; table in server/db/schema/deployments.ts):
// a few delta rows per deployment instead of a scan of its targets. The rollout job folds the deltas.
import { sql, type SQL } from 'drizzle-orm';
import type { Db } from '../db/client';
import { deploymentTargetTally } from '../db/schema/deployments';

const statusIn = (statuses: readonly string[]) =>
  sql`${deploymentTargetTally.status} in (${sql.join(
    statuses.map((status) => sql`${status}`),
    sql`, `,
  )})`;

/** `(wave, status, n)` rows of one deployment, as JSON rows would be, without the (wave, status) pairs that sum to 0. */
export const tallyRows = (deploymentId: SQL | number) =>
  sql`select ${deploymentTargetTally.wave} as wave, ${deploymentTargetTally.status} as status, sum(${deploymentTargetTally.n})::int as n
    from ${deploymentTargetTally} where ${deploymentTargetTally.deploymentId} = ${deploymentId}
    group by 1, 2 having sum(${deploymentTargetTally.n}) <> 0`;

/** A scalar subquery: how many of the deployment's targets are in one of `statuses` (every target without). */
export const tallyCount = (deploymentId: SQL | number, statuses?: readonly string[]) =>
  sql<number>`(select coalesce(sum(${deploymentTargetTally.n}), 0)::int from ${deploymentTargetTally}
    where ${deploymentTargetTally.deploymentId} = ${deploymentId}${statuses ? sql` and ${statusIn(statuses)}` : sql``})`;

/**
 * Replaces the deployment's deltas by their sums, one row per (wave, status). Run under the deployment's row
 * lock (one folder at a time); deltas that concurrent transactions have not committed yet are not seen, so stay.
 */
export const foldTally = (tx: Db, deploymentId: number) =>
  tx.execute(sql`with gone as (
      delete from ${deploymentTargetTally} where ${deploymentTargetTally.deploymentId} = ${deploymentId}
      returning ${deploymentTargetTally.wave} as wave, ${deploymentTargetTally.status} as status, ${deploymentTargetTally.n} as n)
    insert into ${deploymentTargetTally} (deployment_id, wave, status, n)
    select ${deploymentId}, wave, status, sum(n) from gone group by wave, status having sum(n) <> 0`);
