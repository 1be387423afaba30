// The rollout job (`deployments`, every 10 s; docs/deployments.md "Waves"): per running or paused deployment, in
// its own transaction holding its row (`for update skip locked`: another instance checking it at the
// same moment skips it), it marks the deployment completed when every target finished, pauses it when
// the failed targets of the started waves exceed the error threshold or the business gate fails, and
// starts the next wave when the current one reached the success threshold (and the gate, if any,
// passed). Every change is also a conditional update on the state it was decided from. Before that it
// expires the deployments still awaiting approval at their expiry time (./expiry.ts).
import { and, eq, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { PauseReason } from '../../resources/deployment';
import { DELIVERY_STATUSES, FAILED_DELIVERY_STATUSES, FINISHED_DELIVERY_STATUSES, type DeliveryStatus } from '../../resources/deploymentPackage';
import { rowsOf, type Db } from '../db/client';
import { deployment } from '../db/schema/deployments';
import { deploymentRollout } from '../db/schema/rollouts';
import { measureGate, type GateConfig, type GateResult } from './gate';
import { foldTally, tallyRows } from './tally';

export const DEPLOYMENTS_JOB = 'deployments';
export const ROLLOUT_EVERY_MS = 10_000;

type StatusCounts = Record<DeliveryStatus, number>;

export interface WaveProgress {
  wave: number;
  size: number;
  counts: StatusCounts;
  applied: number;
  failed: number;
  finished: number;
}

export interface Progress {
  total: number;
  counts: StatusCounts;
  applied: number;
  failed: number;
  finished: number;
  waves: WaveProgress[];
}

const FAILED = new Set<string>(FAILED_DELIVERY_STATUSES);
const FINISHED = new Set<string>(FINISHED_DELIVERY_STATUSES);
const noCounts = () => Object.fromEntries(DELIVERY_STATUSES.map((status) => [status, 0])) as StatusCounts;

const tally = (counts: StatusCounts) => {
  let size = 0;
  let failed = 0;
  let finished = 0;
  for (const [status, n] of Object.entries(counts)) {
    size += n;
    if (FAILED.has(status)) failed += n;
    if (FINISHED.has(status)) finished += n;
  }
  return { size, applied: counts.applied, failed, finished };
};

export type ProgressRow = { wave: number; status: DeliveryStatus; n: number };

/** The deployment's targets counted per wave and status, from the tally (server/deployments/tally.ts). */
export const readProgressRows = async (db: Db, deploymentId: number): Promise<ProgressRow[]> => rowsOf<ProgressRow>(await db.execute(tallyRows(deploymentId)));

/** Targets per status, overall and per wave, from the grouped rows. */
export const progressOf = (rows: readonly ProgressRow[], waveCount: number): Progress => {
  const perWave = Array.from({ length: waveCount }, noCounts);
  const counts = noCounts();
  for (const row of rows) {
    const wave = Number(row.wave);
    while (perWave.length < wave) perWave.push(noCounts());
    perWave[wave - 1][row.status] += Number(row.n);
    counts[row.status] += Number(row.n);
  }
  const overall = tally(counts);
  return {
    total: overall.size,
    counts,
    applied: overall.applied,
    failed: overall.failed,
    finished: overall.finished,
    waves: perWave.map((waveCounts, index) => {
      const { size, applied, failed, finished } = tally(waveCounts);
      return { wave: index + 1, size, counts: waveCounts, applied, failed, finished };
    }),
  };
};

/** `pauseReason` as stored and answered (one type with the console's, resources/deployment.ts). */
export type { PauseReason };

export type CheckOutcome = 'skipped' | 'unchanged' | 'completed' | 'paused' | 'waveStarted';

/** The wave counts a deployment was created with (`waves.counts`). */
export const waveCountOf = (waves: unknown) => ((waves as { counts?: number[] } | null)?.counts ?? []).length;

const round = (value: number) => Math.round(value * 100) / 100;

/** One deployment's check, in one transaction; answers what changed. */
export const checkDeployment = async (db: Db, id: number, now: Date): Promise<CheckOutcome> =>
  db.transaction(async (tx) => {
    const [row] = await tx
      .select()
      .from(deployment)
      .where(and(eq(deployment.id, id), sql`${deployment.status} in ('running', 'paused')`))
      .for('update', { skipLocked: true });
    if (!row) return 'skipped';
    // folded under the row lock, so one instance at a time; the reads below then sum a few rows
    await foldTally(tx, id);
    const waveCount = waveCountOf(row.waves);
    const progress = progressOf(await readProgressRows(tx, id), waveCount);
    const same = and(eq(deployment.id, id), eq(deployment.status, row.status), eq(deployment.currentWave, row.currentWave));
    if (progress.total > 0 && progress.finished === progress.total) {
      await tx
        .update(deployment)
        .set({ status: 'completed', updatedTime: sql`now()` })
        .where(same);
      return 'completed';
    }
    if (row.status !== 'running' || row.currentWave < 1) return 'unchanged';

    const pause = async (reason: PauseReason) => {
      await tx
        .update(deployment)
        .set({ status: 'paused', pauseReason: reason, updatedTime: sql`now()` })
        .where(same);
      return 'paused' as const;
    };
    const started = progress.waves.slice(0, row.currentWave);
    const startedTargets = started.reduce((sum, wave) => sum + wave.size, 0);
    const failed = started.reduce((sum, wave) => sum + wave.failed, 0);
    if (startedTargets > 0 && failed * 100 > row.errorThreshold * startedTargets) {
      return pause({
        kind: 'errorThreshold',
        time: now.toISOString(),
        failed,
        started: startedTargets,
        rate: round((failed * 100) / startedTargets),
        threshold: row.errorThreshold,
      });
    }

    const gate = row.gate as GateConfig | null;
    let gateResult: GateResult | null = null;
    if (gate) {
      const [rollout] = await tx.select().from(deploymentRollout).where(eq(deploymentRollout.deploymentId, id));
      gateResult = await measureGate(tx, row, gate, rollout?.gateSince ?? row.createdTime, now);
      await tx
        .insert(deploymentRollout)
        .values({ deploymentId: id, gateSince: rollout?.gateSince ?? row.createdTime, gateResult, checkedTime: now })
        .onConflictDoUpdate({ target: deploymentRollout.deploymentId, set: { gateResult, checkedTime: now } });
      if (gateResult.verdict === 'fail') {
        const { rule, updated, others, rejectRateIncrease, sessionsDrop, windowFrom, windowTo } = gateResult;
        const limit = rule === 'rejectRate' ? gate.maxRejectRateIncrease : gate.maxSessionsDrop;
        return pause({ kind: 'gate', time: now.toISOString(), rule, updated, others, rejectRateIncrease, sessionsDrop, windowFrom, windowTo, limit });
      }
    }

    const current = progress.waves[row.currentWave - 1];
    const reached = current !== undefined && current.applied * 100 >= row.successThreshold * current.size;
    // With a gate, the next wave also waits for its verdict on the machines updated so far.
    if (row.currentWave < waveCount && reached && (!gateResult || gateResult.verdict === 'pass')) {
      const next = await tx
        .update(deployment)
        .set({ currentWave: row.currentWave + 1, updatedTime: sql`now()` })
        .where(same)
        .returning({ id: deployment.id });
      return next.length ? 'waveStarted' : 'unchanged';
    }
    return 'unchanged';
  });

/** Machines online with a target of this deployment that may go out now (toBeIssued, its wave started, the deployment running). */
export const onlineDeliverable = async (db: Db, deploymentId: number): Promise<number[]> => {
  const rows = rowsOf<{ rvm_id: number }>(
    await db.execute(sql`
      select t.rvm_id from deployment_target t
      join deployment d on d.id = t.deployment_id and d.status = 'running' and t.wave <= d.current_wave
      join rvm r on r.id = t.rvm_id and r.online
      where t.deployment_id = ${deploymentId} and t.status = 'toBeIssued'`),
  );
  return rows.map((row) => row.rvm_id);
};

export interface RolloutHooks {
  /** Ends the deployments nobody approved before their expiry time (server/deployments/expiry.ts). */
  expireUnapproved?: (now: Date) => Promise<unknown>;
  /** Turns silence into noFeedback / taskOverdue (A1's deadlines, server/deployments/delivery.ts). */
  applyDeadlines?: (now: Date) => Promise<unknown>;
  /** Sends a deployment's deliverable targets to the machines online (after a wave started). */
  deliver?: (deploymentId: number) => Promise<unknown>;
  log?: FastifyBaseLogger;
}

/** One run of the job over every running or paused deployment; a failing deployment does not stop the others. */
export const runRollout = async (db: Db, now: Date, hooks: RolloutHooks = {}) => {
  await hooks.expireUnapproved?.(now);
  await hooks.applyDeadlines?.(now);
  const moving = await db
    .select({ id: deployment.id })
    .from(deployment)
    .where(sql`${deployment.status} in ('running', 'paused')`)
    .orderBy(deployment.id);
  const outcomes = new Map<number, CheckOutcome>();
  let failure: unknown;
  for (const { id } of moving) {
    try {
      const outcome = await checkDeployment(db, id, now);
      outcomes.set(id, outcome);
      if (outcome === 'waveStarted') await hooks.deliver?.(id);
    } catch (error) {
      hooks.log?.error({ err: error, deploymentId: id }, 'deployment check failed');
      failure ??= error;
    }
  }
  if (failure) throw failure;
  return outcomes;
};
