// Preview and creation of a deployment (docs/deployments.md "Deployments"). Creation is one transaction:
// the package row locked (two deployments of one package are created one after the other, so the second
// sees the first's targets in flight), the selection counted per exclusion reason, the targets ordered,
// dealt into waves and inserted by one statement in the database (no machine list travels), the audit
// entry written.
import { DEPLOYMENT_DEFAULTS, DEPLOYMENT_LIMITS } from '../../resources/deployment';
import { recordWrite } from '../audit/record';
import type { Caller } from '../auth/principal';
import type { ModelRegistry } from '../crud/model';
import type { Db } from '../db/client';
import { deployment } from '../db/schema/deployments';
import { deploymentRollout } from '../db/schema/rollouts';
import { AppError, invalidField } from '../lib/errors';
import type { GateConfig } from './gate';
import {
  countSelection,
  insertTargets,
  listSelection,
  packageFor,
  selectionCondition,
  waveCounts,
  type ExclusionCounts,
  type SelectedMachine,
  type TargetSelection,
  type WavePlan,
} from './targets';

export interface WaveRequest {
  /** Cumulative percentages, ascending, ending at 100. */
  waves?: number[];
  /** Machines per wave; those left form a last wave. */
  waveSizes?: number[];
}

export interface CreateRequest extends WaveRequest {
  packageId: number;
  targets: TargetSelection;
  successThreshold?: number;
  errorThreshold?: number;
  gate?: GateConfig | null;
  requiresApproval?: boolean;
  answerWithinHours?: number;
  expiresInDays?: number;
}

/** The wave plan of a request (defaults [1, 10, 50, 100]); percentages that do not rise to 100 answer 1004. */
export const wavePlanOf = (request: WaveRequest): WavePlan => {
  if (request.waves && request.waveSizes) throw invalidField('waveSizes', 'validation.wavesOrSizes');
  if (request.waveSizes) return { sizes: request.waveSizes };
  const percentages = request.waves ?? [...DEPLOYMENT_DEFAULTS.waves];
  const rising = percentages.every((value, index) => index === 0 || value > percentages[index - 1]);
  if (!rising || percentages.at(-1) !== 100) throw invalidField('waves', 'validation.wavesRising');
  return { percentages };
};

const machineOf = ({ id, termNo, termType, fleetId }: SelectedMachine) => ({ id, termNo, termType, fleetId });

/** What a deployment of this package to this selection would target, and why the others would not. */
export const previewDeployment = async (db: Db, models: ModelRegistry, caller: Caller, account: number, request: { packageId: number; targets: TargetSelection } & WaveRequest) => {
  const plan = wavePlanOf(request);
  const pkg = await packageFor(db, account, request.packageId);
  const condition = await selectionCondition(db, models, caller, account, request.targets);
  const [summary, listed] = await Promise.all([
    countSelection(db, pkg, condition),
    listSelection(db, pkg, condition, { targeted: DEPLOYMENT_LIMITS.previewMachines, excluded: DEPLOYMENT_LIMITS.previewExcluded }),
  ]);
  return {
    ...summary,
    machines: listed.filter((machine) => machine.reason === null).map(machineOf),
    excluded: listed.flatMap((machine) => (machine.reason ? [{ ...machineOf(machine), reason: machine.reason }] : [])),
    waves: waveCounts(summary.targeted, plan),
  };
};

/** Nothing to send: 8200 when machines were left out only because they have it or are getting it, else 8203. */
const refuseEmpty = (excludedCounts: ExclusionCounts): never => {
  throw new AppError(excludedCounts.alreadyDelivered + excludedCounts.inFlight > 0 ? '8200' : '8203', { resData: { excludedCounts } });
};

const DAY = 86_400_000;

/**
 * Creates the deployment and its targets; answers its id, whether it runs at once, and how many machines it targets.
 * `singleSession`: the database is PGlite (one backend), see insertTargets.
 */
export const createDeployment = async (db: Db, models: ModelRegistry, caller: Caller, account: number, request: CreateRequest, { singleSession = false } = {}) => {
  const plan = wavePlanOf(request);
  return db.transaction(async (tx) => {
    const pkg = await packageFor(tx, account, request.packageId, true);
    const condition = await selectionCondition(tx, models, caller, account, request.targets);
    const { targeted, excludedCounts } = await countSelection(tx, pkg, condition);
    if (targeted === 0) refuseEmpty(excludedCounts);
    const counts = waveCounts(targeted, plan);
    const running = !request.requiresApproval;
    const settings = {
      successThreshold: request.successThreshold ?? DEPLOYMENT_DEFAULTS.successThreshold,
      errorThreshold: request.errorThreshold ?? DEPLOYMENT_DEFAULTS.errorThreshold,
      gate: request.gate ?? null,
      requiresApproval: Boolean(request.requiresApproval),
      answerWithinHours: request.answerWithinHours ?? DEPLOYMENT_DEFAULTS.answerWithinHours,
    };
    const waves = { ...('percentages' in plan ? { percentages: plan.percentages } : { sizes: plan.sizes }), counts, total: targeted };
    const [row] = await tx
      .insert(deployment)
      .values({
        licenseAccountId: account,
        packageId: pkg.id,
        targets: request.targets,
        waves,
        ...settings,
        status: running ? 'running' : 'awaitingApproval',
        currentWave: running ? 1 : 0,
        expiresTime: new Date(Date.now() + (request.expiresInDays ?? DEPLOYMENT_DEFAULTS.expiresInDays) * DAY),
        createdBy: caller.principal.userId,
        createdByName: (caller.principal.realName || caller.principal.userName).slice(0, 64),
      })
      .returning({ id: deployment.id, expiresTime: deployment.expiresTime });
    await insertTargets(tx, { deploymentId: row.id, account }, pkg, condition, counts, { singleSession });
    await tx.insert(deploymentRollout).values({ deploymentId: row.id });
    await recordWrite(tx, {
      caller,
      resource: 'deployment',
      action: 'create',
      recordId: row.id,
      after: { packageId: pkg.id, targets: request.targets, waves, ...settings, status: running ? 'running' : 'awaitingApproval', targetCount: targeted },
      secretFields: [],
    });
    return { id: row.id, running, targeted, excludedCounts, waves: counts };
  });
};
