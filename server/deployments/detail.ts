// What the deployment page reads (docs/deployments.md): the deployment with its progress (targets per
// status, per wave), thresholds, the gate's last figures and the pause reason; and its targets, paged,
// with their machine, status, reason and wave. Both stay index reads on the deployment's targets
// (deployment_target_deployment_status_idx, deployment_target_deployment_rvm_uq) and a page's machines.
import { and, asc, count, eq, inArray, sql, type SQL } from 'drizzle-orm';
import { containsCondition } from '../crud/query';
import type { DeliveryStatus } from '../../resources/deploymentPackage';
import type { Db } from '../db/client';
import { deployment, deploymentPackage, deploymentTarget } from '../db/schema/deployments';
import { rvm } from '../db/schema/fleet';
import { deploymentRollout } from '../db/schema/rollouts';
import { sysUser } from '../db/schema/system';
import { iso } from '../fleet/access';
import { AppError } from '../lib/errors';
import { progressOf, readProgressRows, waveCountOf } from './rollout';

/** The account's deployment with everything its page shows; 2003 for another account's or none. */
export const readDeployment = async (db: Db, account: number, id: number) => {
  // The deployment, its targets' counts and those waiting for their machine, at once (pooled connections on PostgreSQL).
  const [[row], progressRows, offlineWaiting] = await Promise.all([
    db
      .select({
        deployment,
        pkg: { id: deploymentPackage.id, name: deploymentPackage.name, version: deploymentPackage.version, resourceType: deploymentPackage.resourceType },
        approvedByName: sysUser.realname,
        rollout: deploymentRollout,
      })
      .from(deployment)
      .innerJoin(deploymentPackage, eq(deploymentPackage.id, deployment.packageId))
      .leftJoin(sysUser, eq(sysUser.id, deployment.approvedBy))
      .leftJoin(deploymentRollout, eq(deploymentRollout.deploymentId, deployment.id))
      .where(and(eq(deployment.id, id), eq(deployment.licenseAccountId, account))),
    readProgressRows(db, id),
    countOfflineWaiting(db, account, id),
  ]);
  if (!row) throw new AppError('2003');
  const d = row.deployment;
  const waves = d.waves as { percentages?: number[]; sizes?: number[]; counts: number[]; total: number };
  const progress = progressOf(progressRows, waveCountOf(d.waves));
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
    offlineWaiting,
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

/** Online as far as the gateway knows: a machine that never spoke to it (the demo fleet's) keeps its seeded status. */
const reachable = sql<boolean>`(${rvm.online} and ${rvm.lastSeenTime} is not null)`;

/**
 * Targets of the started waves still to be issued because their machine is offline or has never spoken to the
 * gateway (the demo fleet's machines keep a seeded status without it) (docs/deployments.md,
 * "Statuses of one machine's delivery"): each gets the package when it connects, and a wave waits for them, so the page says so.
 */
const countOfflineWaiting = async (db: Db, account: number, id: number): Promise<number> => {
  const [row] = await db
    .select({ value: count() })
    .from(deploymentTarget)
    .innerJoin(deployment, eq(deployment.id, deploymentTarget.deploymentId))
    .innerJoin(rvm, eq(rvm.id, deploymentTarget.rvmId))
    .where(
      and(
        eq(deploymentTarget.deploymentId, id),
        eq(deployment.licenseAccountId, account),
        eq(deploymentTarget.status, 'toBeIssued'),
        sql`${deploymentTarget.wave} <= ${deployment.currentWave}`,
        sql`not ${reachable}`,
      ),
    );
  return row?.value ?? 0;
};

export interface TargetQuery {
  pageNum: number;
  pageSize: number;
  status?: DeliveryStatus[];
  wave?: number;
  termNoLike?: string;
}

/** The account's deployment exists (2003 otherwise). */
export const ensureDeployment = async (db: Db, account: number, id: number) => {
  const [row] = await db
    .select({ id: deployment.id })
    .from(deployment)
    .where(and(eq(deployment.id, id), eq(deployment.licenseAccountId, account)));
  if (!row) throw new AppError('2003');
};

/** One page of a deployment's targets in machine id order, with the filtered total. */
export const readTargets = async (db: Db, account: number, id: number, query: TargetQuery) => {
  await ensureDeployment(db, account, id);
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
  const [list, [{ total }]] = await Promise.all([
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
    db.select({ total: count() }).from(deploymentTarget).where(filtered),
  ]);
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
