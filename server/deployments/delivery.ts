// One machine's delivery of a package (docs/deployments.md "Statuses of one machine's delivery"), used by
// the gateway (claims after a hello and by its job, the machines' deployStatus) and by the rollout job
// (deadlines). Like remote commands (server/commands/store.ts), every transition is one conditional UPDATE
// on the delivery's current status: safe on any number of instances, and a repeated or late report
// changes nothing. A finished delivery never moves again. Every change moves `updated_time`.
import { and, asc, eq, gt, inArray, isNotNull, lte, or, sql } from 'drizzle-orm';
import { ACTIVE_DEPLOYMENT_STATUSES } from '../../resources/deployment';
import type { DeliveryStatus, DeployState, ResourceType } from '../../resources/deploymentPackage';
import { rowsOf, type Db } from '../db/client';
import { deployment, deploymentPackage, deploymentTarget } from '../db/schema/deployments';
import { uploadedFile } from '../db/schema/files';
import { rvm } from '../db/schema/fleet';
import { recordVersion } from './history';
import { downloadUrl, signingKey } from './signing';

/** The `deploy` message (topic rvm/<serial>/down/deploy). */
export interface DeployMessage {
  v: 1;
  deployId: number;
  resourceType: string;
  name: string;
  version: string;
  url: string;
  size: number;
  sha256: string;
  activateAt?: string;
  expiresAt: string;
}

/** What a machine's report moves a delivery to. */
const NEXT_STATUS: Record<DeployState, DeliveryStatus> = {
  received: 'inProcess',
  applying: 'inProcess',
  applied: 'applied',
  failed: 'applyFailed',
  downloadFailed: 'receiveFailed',
  checksumFailed: 'receiveFailed',
};

/** Whether a machine's report ends its delivery (applied or failed one way or another). */
export const endsDelivery = (state: DeployState) => NEXT_STATUS[state] !== 'inProcess';

/** Deliveries claimed per machine and call: a machine is never sent more at once than it can queue. */
const CLAIM_LIMIT = 20;
const touched = sql`now()`;
const reasonOf = (text: string | undefined | null) => (text ? text.slice(0, 200) : null);
const hoursAfter = (time: Date, hours: number) => new Date(time.getTime() + hours * 3_600_000);

/** A machine may report on a delivery it was sent: issued, in process, or sent before and waiting to be sent again. */
const reportable = or(inArray(deploymentTarget.status, ['issued', 'inProcess']), and(eq(deploymentTarget.status, 'toBeIssued'), isNotNull(deploymentTarget.issuedTime)));

/**
 * Moves the machine's deliveries that may go out (toBeIssued, wave started, deployment running and not
 * expired, package uploaded) to `issued` (attempts+1, issuedTime) and answers their `deploy` messages,
 * oldest first. Rows another caller is claiming are skipped (`for update skip locked`) and the UPDATE
 * re-checks the status, so no delivery is handed out twice. `apiBase`: PUBLIC_URL with the API prefix.
 */
export const claimDeliveries = async (db: Db, rvmId: number, apiBase: string, now: Date = new Date()): Promise<DeployMessage[]> => {
  const waiting = db
    .select({ id: deploymentTarget.id })
    .from(deploymentTarget)
    .innerJoin(deployment, eq(deployment.id, deploymentTarget.deploymentId))
    .innerJoin(deploymentPackage, eq(deploymentPackage.id, deployment.packageId))
    .where(
      and(
        eq(deploymentTarget.rvmId, rvmId),
        eq(deploymentTarget.status, 'toBeIssued'),
        eq(deployment.status, 'running'),
        lte(deploymentTarget.wave, deployment.currentWave),
        gt(deployment.expiresTime, now),
        isNotNull(deploymentPackage.file),
      ),
    )
    .orderBy(asc(deploymentTarget.id))
    .limit(CLAIM_LIMIT)
    .for('update', { of: deploymentTarget, skipLocked: true });
  const claimed = await db
    .update(deploymentTarget)
    .set({ status: 'issued', attempts: sql`${deploymentTarget.attempts} + 1`, issuedTime: now, updatedTime: touched })
    .where(and(inArray(deploymentTarget.id, waiting), eq(deploymentTarget.status, 'toBeIssued')))
    .returning({ id: deploymentTarget.id, deploymentId: deploymentTarget.deploymentId });
  if (claimed.length === 0) return [];
  const packages = await db
    .select({
      deploymentId: deployment.id,
      answerWithinHours: deployment.answerWithinHours,
      name: deploymentPackage.name,
      resourceType: deploymentPackage.resourceType,
      version: deploymentPackage.version,
      activationTime: deploymentPackage.activationTime,
      size: uploadedFile.size,
      sha256: uploadedFile.sha256,
    })
    .from(deployment)
    .innerJoin(deploymentPackage, eq(deploymentPackage.id, deployment.packageId))
    .innerJoin(uploadedFile, eq(uploadedFile.id, deploymentPackage.file))
    .where(inArray(deployment.id, [...new Set(claimed.map((row) => row.deploymentId))]));
  const byDeployment = new Map(packages.map((row) => [row.deploymentId, row]));
  const key = await signingKey(db);
  return claimed
    .sort((a, b) => a.id - b.id)
    .map((row) => {
      const item = byDeployment.get(row.deploymentId)!;
      // The link lasts as long as the machine has to answer: past it the delivery has failed anyway.
      const expiresAt = hoursAfter(now, item.answerWithinHours);
      return {
        v: 1 as const,
        deployId: row.id,
        resourceType: item.resourceType,
        name: item.name,
        version: item.version,
        url: downloadUrl(apiBase, key, row.id, expiresAt),
        size: item.size,
        sha256: item.sha256,
        ...(item.activationTime ? { activateAt: item.activationTime.toISOString() } : {}),
        expiresAt: expiresAt.toISOString(),
      };
    });
};

/** Publishing failed (broker away): back to toBeIssued so the next hello or job run sends it. */
export const releaseClaimedDeliveries = async (db: Db, deployIds: number[]): Promise<void> => {
  if (deployIds.length === 0) return;
  await db
    .update(deploymentTarget)
    .set({ status: 'toBeIssued', updatedTime: touched })
    .where(and(inArray(deploymentTarget.id, deployIds), eq(deploymentTarget.status, 'issued')));
};

/**
 * The machine said hello: what was published before and not yet acknowledged by a report may have been
 * lost with the connection, so it is sent again (machines ignore a deployId they already have).
 */
export const requeueUnanswered = async (tx: Db, rvmId: number): Promise<void> => {
  await tx
    .update(deploymentTarget)
    .set({ status: 'toBeIssued', updatedTime: touched })
    .where(and(eq(deploymentTarget.rvmId, rvmId), eq(deploymentTarget.status, 'issued')));
};

/** Machines online now with deliveries that may go out (the gateway's job sends them). */
export const machinesAwaitingDelivery = async (db: Db, now: Date, limit: number): Promise<number[]> => {
  const rows = await db
    .selectDistinct({ rvmId: deploymentTarget.rvmId })
    .from(deploymentTarget)
    .innerJoin(deployment, eq(deployment.id, deploymentTarget.deploymentId))
    .innerJoin(rvm, eq(rvm.id, deploymentTarget.rvmId))
    .where(
      and(
        eq(deploymentTarget.status, 'toBeIssued'),
        eq(deployment.status, 'running'),
        lte(deploymentTarget.wave, deployment.currentWave),
        gt(deployment.expiresTime, now),
        eq(rvm.online, true),
      ),
    )
    .limit(limit);
  return rows.map((row) => row.rvmId);
};

export interface DeployReport {
  deployId: number;
  state: DeployState;
  version?: string;
  reason?: string;
}

/**
 * The machine's deployStatus (docs/deployments.md table): received/applying -> inProcess, applied ->
 * applied (its version recorded; the machine's version history, and its softwareVersion for a software
 * package), failed -> applyFailed, downloadFailed/checksumFailed -> receiveFailed (with the reason).
 * An unknown delivery, another machine's, or one already finished (or already in process, for
 * received/applying) changes nothing: false.
 */
export const applyDeployStatus = async (tx: Db, machine: { id: number; licenseAccountId: number }, report: DeployReport, at: Date): Promise<boolean> => {
  const next = NEXT_STATUS[report.state];
  const finished = endsDelivery(report.state);
  const from = finished ? reportable : or(eq(deploymentTarget.status, 'issued'), and(eq(deploymentTarget.status, 'toBeIssued'), isNotNull(deploymentTarget.issuedTime)));
  const version = report.state === 'applied' ? (report.version ?? null) : null;
  const [changed] = await tx
    .update(deploymentTarget)
    .set({
      status: next,
      statusReason: next === 'applyFailed' || next === 'receiveFailed' ? (reasonOf(report.reason) ?? report.state) : null,
      receivedTime: sql`coalesce(${deploymentTarget.receivedTime}, ${at.toISOString()}::timestamptz)`,
      ...(finished ? { finishedTime: at } : {}),
      // an applied report without its version: the package's version is what it applied
      ...(report.state === 'applied'
        ? {
            reportedVersion:
              version ??
              sql`(select ${deploymentPackage.version} from ${deploymentPackage} join ${deployment} on ${deployment.packageId} = ${deploymentPackage.id} where ${deployment.id} = ${deploymentTarget.deploymentId})`,
          }
        : {}),
      updatedTime: touched,
    })
    .where(and(eq(deploymentTarget.id, report.deployId), eq(deploymentTarget.rvmId, machine.id), from))
    .returning({ id: deploymentTarget.id, deploymentId: deploymentTarget.deploymentId, reportedVersion: deploymentTarget.reportedVersion });
  if (!changed) return false;
  if (next === 'applied' && changed.reportedVersion) {
    const [item] = await tx
      .select({ resourceType: deploymentPackage.resourceType })
      .from(deployment)
      .innerJoin(deploymentPackage, eq(deploymentPackage.id, deployment.packageId))
      .where(eq(deployment.id, changed.deploymentId));
    await recordVersion(tx, {
      rvmId: machine.id,
      licenseAccountId: machine.licenseAccountId,
      resourceType: item.resourceType as ResourceType,
      version: changed.reportedVersion,
      source: 'deployment',
      deploymentTargetId: changed.id,
      at,
    });
  }
  return true;
};

/** Why the server ended a delivery (`status_reason`). */
export const DEADLINE_REASONS = { noAnswer: 'noAnswer', overdue: 'overdue', expired: 'expired' } as const;

/**
 * Deadlines (run by the rollout job): `issued` without an answer within the deployment's
 * answerWithinHours -> noFeedback (noAnswer); `inProcess` not finished within it -> taskOverdue (overdue);
 * never sent (toBeIssued) when the deployment expired -> noFeedback (expired); a deployment that expired
 * awaiting approval is server/deployments/expiry.ts's (voided: it never started). Counted from when the
 * delivery was (last) issued. Conditional updates: safe on several instances. Answers how many moved.
 */
export const applyDeliveryDeadlines = async (db: Db, now: Date): Promise<number> => {
  const active = sql.join(
    ACTIVE_DEPLOYMENT_STATUSES.map((status) => sql`${status}`),
    sql`, `,
  );
  const at = now.toISOString();
  const moved = await db.execute(sql`
    update deployment_target t
    set status = case t.status when 'inProcess' then 'taskOverdue' else 'noFeedback' end,
      status_reason = case
        when t.status = 'toBeIssued' then ${DEADLINE_REASONS.expired}
        when t.status = 'inProcess' then ${DEADLINE_REASONS.overdue}
        else ${DEADLINE_REASONS.noAnswer} end,
      finished_time = ${at}::timestamptz, updated_time = now()
    from deployment d
    where d.id = t.deployment_id and d.status in (${active})
      and (
        (t.status in ('issued', 'inProcess') and t.issued_time <= ${at}::timestamptz - d.answer_within_hours * interval '1 hour')
        or (t.status = 'toBeIssued' and d.expires_time <= ${at}::timestamptz and d.status <> 'awaitingApproval')
      )
    returning t.id`);
  return rowsOf<{ id: unknown }>(moved).length;
};
