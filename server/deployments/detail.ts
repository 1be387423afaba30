// What the deployment page reads (docs/deployments.md): the deployment with its progress (targets per
// status, per wave), thresholds, the gate's last figures and the pause reason; and its targets, paged,
// with their machine, status, reason and wave. Both stay index reads on the deployment's targets
// (deployment_target_deployment_status_idx, deployment_target_deployment_rvm_uq) and a page's machines.
import { and, asc, eq, inArray, sql, type SQL } from 'drizzle-orm';
import { containsCondition } from '../crud/query';
import type { DeliveryStatus } from '../../resources/deploymentPackage';
import { rowsOf, type Db } from '../db/client';
import { deployment, deploymentPackage, deploymentTarget } from '../db/schema/deployments';
import { rvm } from '../db/schema/fleet';
import { deploymentRollout } from '../db/schema/rollouts';
import { sysUser } from '../db/schema/system';
import { iso } from '../fleet/access';
import { AppError } from '../lib/errors';
import { progressOf, waveCountOf, type ProgressRow } from './rollout';
import { tallyRows } from './tally';

/** Online as far as the gateway knows: a machine that never spoke to it (the demo fleet's) keeps its seeded status. */
const reachable = sql<boolean>`(${rvm.online} and ${rvm.lastSeenTime} is not null)`;

/**
 * Targets of the started waves still to be issued because their machine is offline or has never spoken to the
 * gateway (the demo fleet's machines keep a seeded status without it) (docs/deployments.md,
 * "Statuses of one machine's delivery"): each gets the package when it connects, and a wave waits for them, so the page says so.
 * A subquery of the deployment's row: the started waves are its value, not a join the planner could repeat per target.
 */
const offlineWaitingOf = (deploymentId: SQL, currentWave: SQL) => sql<number>`(
  select count(*)::int from deployment_target t join ${rvm} on ${rvm.id} = t.rvm_id
  where t.deployment_id = ${deploymentId} and t.status = 'toBeIssued' and t.wave <= ${currentWave} and not ${reachable})`;

/** The account's deployment with everything its page shows; 2003 for another account's or none. */
export const readDeployment = async (db: Db, account: number, id: number) => {
  // One statement: the deployment, its targets' counts per wave and status (the tally's few rows), and those waiting for their machine.
  // On PGlite every statement queues behind the ones running (machines' reports among them), so one wait
  // instead of three (docs/benchmarks.md "Deployments"); the subqueries run once for the one row.
  const [row] = await db
    .select({
      deployment,
      pkg: { id: deploymentPackage.id, name: deploymentPackage.name, version: deploymentPackage.version, resourceType: deploymentPackage.resourceType },
      approvedByName: sysUser.realname,
      rollout: deploymentRollout,
      progressRows: sql<ProgressRow[]>`(select coalesce(json_agg(p), '[]'::json) from (${tallyRows(sql`${deployment.id}`)}) p)`,
      offlineWaiting: offlineWaitingOf(sql`${deployment.id}`, sql`${deployment.currentWave}`),
    })
    .from(deployment)
    .innerJoin(deploymentPackage, eq(deploymentPackage.id, deployment.packageId))
    .leftJoin(sysUser, eq(sysUser.id, deployment.approvedBy))
    .leftJoin(deploymentRollout, eq(deploymentRollout.deploymentId, deployment.id))
    .where(and(eq(deployment.id, id), eq(deployment.licenseAccountId, account)));
  if (!row) throw new AppError('2003');
  const d = row.deployment;
  const waves = d.waves as { percentages?: number[]; sizes?: number[]; counts: number[]; total: number };
  const progress = progressOf(row.progressRows, waveCountOf(d.waves));
  return {
    id: d.id,
    package: row.pkg,
    status: d.status,
    pauseReason: d.pauseReason,
    targets: d.targets,
    wavePlan: { percentages: waves.percentages ?? null, sizes: waves.sizes ?? null },
    currentWave: d.currentWave,
    waveCount: waves.counts.length,
    total: progress.total,
    counts: progress.counts,
    applied: progress.applied,
    failed: progress.failed,
    finished: progress.finished,
    waves: progress.waves.map((wave) => ({ ...wave, started: wave.wave <= d.currentWave })),
    offlineWaiting: Number(row.offlineWaiting),
    successThreshold: d.successThreshold,
    errorThreshold: d.errorThreshold,
    gate: d.gate,
    gateSince: iso(row.rollout?.gateSince),
    gateResult: row.rollout?.gateResult ?? null,
    gateCheckedTime: iso(row.rollout?.checkedTime),
    requiresApproval: d.requiresApproval,
    approvedBy: d.approvedBy,
    approvedByName: row.approvedByName,
    approvedTime: iso(d.approvedTime),
    answerWithinHours: d.answerWithinHours,
    expiresTime: iso(d.expiresTime),
    createdBy: d.createdBy,
    createdByName: d.createdByName,
    createdTime: iso(d.createdTime),
    updatedTime: iso(d.updatedTime),
  };
};

export interface TargetQuery {
  pageNum: number;
  pageSize: number;
  status?: DeliveryStatus[];
  wave?: number;
  termNoLike?: string;
}

/** One page of a deployment's targets in machine id order, with the filtered total. */
export const readTargets = async (db: Db, account: number, id: number, query: TargetQuery) => {
  const filtered: SQL | undefined = and(
    eq(deploymentTarget.deploymentId, id),
    query.status?.length ? inArray(deploymentTarget.status, query.status) : undefined,
    query.wave ? eq(deploymentTarget.wave, query.wave) : undefined,
    query.termNoLike
      ? sql`${deploymentTarget.rvmId} in (select ${rvm.id} from ${rvm} where ${rvm.licenseAccountId} = ${account} and ${containsCondition(rvm.termNo, query.termNoLike)})`
      : undefined,
  );
  // The page's targets first (the (deployment_id, rvm_id) unique index gives the order), then their machines.
  const page = db
    .select({
      id: deploymentTarget.id,
      rvmId: deploymentTarget.rvmId,
      wave: deploymentTarget.wave,
      status: deploymentTarget.status,
      statusReason: deploymentTarget.statusReason,
      attempts: deploymentTarget.attempts,
      reportedVersion: deploymentTarget.reportedVersion,
      issuedTime: deploymentTarget.issuedTime,
      receivedTime: deploymentTarget.receivedTime,
      finishedTime: deploymentTarget.finishedTime,
      updatedTime: deploymentTarget.updatedTime,
    })
    .from(deploymentTarget)
    .where(filtered)
    .orderBy(asc(deploymentTarget.rvmId))
    .limit(query.pageSize)
    .offset((query.pageNum - 1) * query.pageSize)
    .as('page');
  const [list, [{ total, found }]] = await Promise.all([
    db
      .select({
        id: page.id,
        rvmId: page.rvmId,
        termNo: rvm.termNo,
        termType: rvm.termType,
        fleetId: rvm.fleetId,
        online: rvm.online,
        reachable,
        wave: page.wave,
        status: page.status,
        statusReason: page.statusReason,
        attempts: page.attempts,
        reportedVersion: page.reportedVersion,
        issuedTime: page.issuedTime,
        receivedTime: page.receivedTime,
        finishedTime: page.finishedTime,
        updatedTime: page.updatedTime,
      })
      .from(page)
      .innerJoin(rvm, eq(rvm.id, page.rvmId))
      .orderBy(asc(page.rvmId)),
    // the total and whether the deployment is the account's in one statement (PGlite: one wait, not two)
    db.execute(sql`select (select count(*)::int from ${deploymentTarget} where ${filtered}) as total,
      exists (select 1 from ${deployment} where ${deployment.id} = ${id} and ${deployment.licenseAccountId} = ${account}) as found`),
  ]).then(([rows, counted]) => [rows, rowsOf<{ total: number; found: boolean }>(counted)] as const);
  if (!found) throw new AppError('2003');
  return {
    list: list.map((row) => ({
      ...row,
      issuedTime: iso(row.issuedTime),
      receivedTime: iso(row.receivedTime),
      finishedTime: iso(row.finishedTime),
      updatedTime: iso(row.updatedTime),
    })),
    total: Number(total),
    pageNum: query.pageNum,
    pageSize: query.pageSize,
  };
};
