// A deployment nobody approved before its expiry time (docs/deployments.md "Deployment statuses") ends as
// `expired`: its targets, none of which was ever sent, become voided (reason `approvalExpired`) rather
// than failed, so no machine counts as a failed upgrade for a deployment that never started. Run by the
// rollout job; each deployment in its own transaction holding its row (`for update skip locked`, and
// the update conditional on the status it was decided from), so with several instances running the job
// at once a deployment expires once and has one audit entry.
import { and, eq, lte, sql } from 'drizzle-orm';
import { diffFields, recordEvent } from '../audit/record';
import type { Db } from '../db/client';
import { deployment, deploymentTarget } from '../db/schema/deployments';

/** `status_reason` of the targets of a deployment that expired awaiting approval. */
export const APPROVAL_EXPIRED_REASON = 'approvalExpired';

const awaitingAndDue = (now: Date) => and(eq(deployment.status, 'awaitingApproval'), lte(deployment.expiresTime, now));

/** Expires one deployment if it still awaits approval and is due; answers whether this call did it. */
const expireOne = (db: Db, id: number, now: Date): Promise<boolean> =>
  db.transaction(async (tx) => {
    const [row] = await tx
      .select({ id: deployment.id, licenseAccountId: deployment.licenseAccountId, expiresTime: deployment.expiresTime })
      .from(deployment)
      .where(and(eq(deployment.id, id), awaitingAndDue(now)))
      .for('update', { skipLocked: true });
    if (!row) return false;
    const moved = await tx
      .update(deployment)
      .set({ status: 'expired', updatedTime: sql`now()` })
      .where(and(eq(deployment.id, id), eq(deployment.status, 'awaitingApproval')))
      .returning({ id: deployment.id });
    if (!moved.length) return false;
    const voided = await tx
      .update(deploymentTarget)
      .set({ status: 'voided', statusReason: APPROVAL_EXPIRED_REASON, finishedTime: now, updatedTime: sql`now()` })
      .where(and(eq(deploymentTarget.deploymentId, id), eq(deploymentTarget.status, 'toBeIssued')))
      .returning({ id: deploymentTarget.id });
    // The server acted, not a user: the entry names no user, and says why in its details.
    await recordEvent(tx, {
      licenseAccountId: row.licenseAccountId,
      userId: null,
      userName: null,
      action: 'update',
      resource: 'deployment',
      recordId: id,
      changes: diffFields({ status: 'awaitingApproval' }, { status: 'expired' }, []),
      detail: { control: 'expire', reason: APPROVAL_EXPIRED_REASON, expiresTime: row.expiresTime.toISOString(), voided: voided.length },
      outcome: 'success',
      address: null,
    });
    return true;
  });

/** Every deployment still awaiting approval at its expiry time becomes `expired`; answers the ids this run expired. */
export const expireUnapproved = async (db: Db, now: Date): Promise<number[]> => {
  const due = await db.select({ id: deployment.id }).from(deployment).where(awaitingAndDue(now)).orderBy(deployment.id);
  const expired: number[] = [];
  for (const { id } of due) if (await expireOne(db, id, now)) expired.push(id);
  return expired;
};
