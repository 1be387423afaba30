// An operator's changes to a deployment (docs/deployments.md "Deployment statuses"): pause, resume
// (optionally with changed thresholds or gate), cancel (unfinished targets voided), retry failed
// (failed targets back to toBeIssued, their attempts kept) and approve (a second user). Each is one
// transaction on the locked deployment row, audited as an update of the deployment.
import { and, eq, inArray, sql } from 'drizzle-orm';
import type { PgUpdateSetSource } from 'drizzle-orm/pg-core';
import { FAILED_DELIVERY_STATUSES } from '../../resources/deploymentPackage';
import type { DeploymentStatus } from '../../resources/deployment';
import { recordWrite } from '../audit/record';
import type { Caller } from '../auth/principal';
import type { Db } from '../db/client';
import { deployment, deploymentTarget } from '../db/schema/deployments';
import { deploymentRollout } from '../db/schema/rollouts';
import { AppError } from '../lib/errors';
import type { GateConfig } from './gate';
import type { PauseReason } from './rollout';
import { UNFINISHED_DELIVERY_STATUSES } from './targets';

type DeploymentRow = typeof deployment.$inferSelect;

/** Settings a resume may change (the cause of a threshold's or the gate's pause). */
export interface ResumeChanges {
  successThreshold?: number;
  errorThreshold?: number;
  /** null removes the gate. */
  gate?: GateConfig | null;
}

export type Control = 'pause' | 'resume' | 'cancel' | 'retryFailed' | 'approve';

/** The statuses each control starts from; another answers 8202 with the current status. */
const ALLOWED: Record<Control, readonly DeploymentStatus[]> = {
  pause: ['running'],
  resume: ['paused'],
  cancel: ['awaitingApproval', 'running', 'paused'],
  retryFailed: ['running', 'paused', 'completed'],
  approve: ['awaitingApproval'],
};

/** At least now plus the deployment's original length (created → expires): docs/deployments.md "Deployment statuses". */
const freshDeliveryPeriod = sql`greatest(${deployment.expiresTime}, now() + (${deployment.expiresTime} - ${deployment.createdTime}))`;

const nameOf = (caller: Caller) => caller.principal.realName || caller.principal.userName;

/** Locks the account's deployment (2003 for another account's or none) and checks the control may start from its status. */
const lockFor = async (tx: Db, account: number, id: number, control: Control): Promise<DeploymentRow> => {
  const [row] = await tx
    .select()
    .from(deployment)
    .where(and(eq(deployment.id, id), eq(deployment.licenseAccountId, account)))
    .for('update');
  if (!row) throw new AppError('2003');
  if (!ALLOWED[control].includes(row.status as DeploymentStatus)) throw new AppError('8202', { resData: { status: row.status } });
  return row;
};

const audit = (tx: Db, caller: Caller, row: DeploymentRow, control: Control, after: Record<string, unknown>) =>
  recordWrite(tx, {
    caller,
    resource: 'deployment',
    action: 'update',
    recordId: row.id,
    before: {
      status: row.status,
      currentWave: row.currentWave,
      pauseReason: row.pauseReason,
      successThreshold: row.successThreshold,
      errorThreshold: row.errorThreshold,
      gate: row.gate,
    },
    after: { control, ...after },
    secretFields: [],
  });

/** Starts a new gate window (the rollout's figures before it no longer count). */
const restartGateWindow = (tx: Db, id: number) =>
  tx
    .insert(deploymentRollout)
    .values({ deploymentId: id, gateSince: sql`now()`, gateResult: null, checkedTime: null })
    .onConflictDoUpdate({ target: deploymentRollout.deploymentId, set: { gateSince: sql`now()`, gateResult: null, checkedTime: null } });

/** Applies `control`; answers whether targets may now be deliverable (the caller then asks for delivery). */
export const controlDeployment = async (
  db: Db,
  caller: Caller,
  account: number,
  id: number,
  control: Control,
  changes: ResumeChanges = {},
): Promise<{ deliverable: boolean; affected: number }> =>
  db.transaction(async (tx) => {
    const row = await lockFor(tx, account, id, control);
    const set = (values: PgUpdateSetSource<typeof deployment>) =>
      tx
        .update(deployment)
        .set({ ...values, updatedTime: sql`now()` })
        .where(eq(deployment.id, id));
    switch (control) {
      case 'pause': {
        const reason: PauseReason = { kind: 'operator', time: new Date().toISOString(), by: nameOf(caller) };
        await set({ status: 'paused', pauseReason: reason });
        await audit(tx, caller, row, control, { status: 'paused', pauseReason: reason });
        return { deliverable: false, affected: 0 };
      }
      case 'resume': {
        const settings = Object.fromEntries(Object.entries(changes).filter(([, value]) => value !== undefined));
        await set({ status: 'running', pauseReason: null, ...settings });
        await restartGateWindow(tx, id);
        await audit(tx, caller, row, control, { status: 'running', pauseReason: null, ...settings });
        return { deliverable: true, affected: 0 };
      }
      case 'cancel': {
        const voided = await tx
          .update(deploymentTarget)
          .set({ status: 'voided', statusReason: 'cancelled', finishedTime: sql`now()`, updatedTime: sql`now()` })
          .where(and(eq(deploymentTarget.deploymentId, id), inArray(deploymentTarget.status, UNFINISHED_DELIVERY_STATUSES)))
          .returning({ id: deploymentTarget.id });
        await set({ status: 'cancelled' });
        await audit(tx, caller, row, control, { status: 'cancelled', voided: voided.length });
        return { deliverable: false, affected: voided.length };
      }
      case 'retryFailed': {
        const retried = await tx
          .update(deploymentTarget)
          .set({ status: 'toBeIssued', statusReason: null, issuedTime: null, receivedTime: null, finishedTime: null, updatedTime: sql`now()` })
          .where(and(eq(deploymentTarget.deploymentId, id), inArray(deploymentTarget.status, [...FAILED_DELIVERY_STATUSES])))
          .returning({ id: deploymentTarget.id });
        // A retry gets a fresh delivery period; a completed deployment moves again.
        await set({ status: row.status === 'completed' && retried.length ? 'running' : row.status, expiresTime: freshDeliveryPeriod });
        await audit(tx, caller, row, control, { retried: retried.length });
        return { deliverable: retried.length > 0, affected: retried.length };
      }
      case 'approve': {
        if (row.createdBy === caller.principal.userId) throw new AppError('8201');
        // Past its expiry time it is expired, whether or not the job has marked it yet.
        if (row.expiresTime.getTime() <= Date.now()) throw new AppError('8202', { resData: { status: 'expired' } });
        // Delivery starts now, so its period does too: a late approval does not shorten it.
        await set({ status: 'running', currentWave: 1, approvedBy: caller.principal.userId, approvedTime: sql`now()`, expiresTime: freshDeliveryPeriod });
        await restartGateWindow(tx, id);
        await audit(tx, caller, row, control, { status: 'running', currentWave: 1, approvedBy: caller.principal.userId });
        return { deliverable: true, affected: 0 };
      }
    }
  });
