import { defineResource } from './types';

/**
 * A deployment's lifecycle (docs/deployments.md "Deployment statuses"): awaitingApproval → running →
 * completed; running ⇄ paused; cancelled from any unfinished status; awaitingApproval → expired when
 * nobody approved it before its expiry time.
 */
export const DEPLOYMENT_STATUSES = ['awaitingApproval', 'running', 'paused', 'completed', 'cancelled', 'expired'] as const;
export type DeploymentStatus = (typeof DEPLOYMENT_STATUSES)[number];
/** Statuses a deployment can still move from (the job reads these; its targets count as in flight). */
export const ACTIVE_DEPLOYMENT_STATUSES = ['awaitingApproval', 'running', 'paused'] as const satisfies readonly DeploymentStatus[];

/** Why a machine of the selection is not targeted (the preview lists them). */
export const EXCLUSION_REASONS = ['wrongModel', 'inactive', 'alreadyDelivered', 'inFlight'] as const;
export type ExclusionReason = (typeof EXCLUSION_REASONS)[number];

/** What paused a deployment (`pauseReason.kind`). */
export const PAUSE_KINDS = ['operator', 'errorThreshold', 'gate'] as const;
export type PauseKind = (typeof PAUSE_KINDS)[number];
/** The business gate's rules (`pauseReason.rule` when the gate paused). */
export const GATE_RULES = ['rejectRate', 'sessions'] as const;
export type GateRule = (typeof GATE_RULES)[number];
/** The gate's verdict at its last check. */
export const GATE_VERDICTS = ['pass', 'fail', 'notEnoughData'] as const;

/** A deployment's business gate as requested and stored (`deployment.gate`). */
export interface GateConfig {
  windowMinutes: number;
  /** Percentage points the updated machines' reject rate may exceed the others'. */
  maxRejectRateIncrease: number;
  /** Percent fewer sessions per machine-hour the updated machines may have. */
  maxSessionsDrop: number;
}

/** One side of the business gate over its window. */
export interface GateSide {
  machines: number;
  sessions: number;
  items: number;
  rejected: number;
  /** Rejected items per 100 items; null without items. */
  rejectRate: number | null;
  sessionsPerMachineHour: number | null;
}

/** The gate's figures and verdict at a check (`deployment_rollout.gate_result`, answered as `gateResult`). */
export interface GateResult {
  verdict: (typeof GATE_VERDICTS)[number];
  /** The rule that failed (verdict `fail`). */
  rule: GateRule | null;
  windowFrom: string;
  windowTo: string;
  updated: GateSide;
  others: GateSide;
  /** updated − others, percentage points. */
  rejectRateIncrease: number | null;
  /** How many percent fewer sessions per machine-hour the updated machines had. */
  sessionsDrop: number | null;
}

/** Why a rollout paused (`deployment.pause_reason`, answered as `pauseReason`). */
export type PauseReason =
  | { kind: 'operator'; time: string; by: string }
  | { kind: 'errorThreshold'; time: string; failed: number; started: number; rate: number; threshold: number }
  | ({ kind: 'gate'; time: string; limit: number } & Omit<GateResult, 'verdict'>);

/** Defaults and limits of a deployment request (docs/deployments.md "Deployments"). */
export const DEPLOYMENT_DEFAULTS = {
  waves: [1, 10, 50, 100],
  successThreshold: 90,
  errorThreshold: 10,
  answerWithinHours: 24,
  expiresInDays: 7,
} as const;
export const DEPLOYMENT_LIMITS = {
  maxWaves: 20,
  maxAnswerWithinHours: 720,
  maxExpiresInDays: 90,
  maxWindowMinutes: 7 * 24 * 60,
  /** Items each side of the gate needs before it judges. */
  gateMinItems: 20,
  /** Machines of the preview's list; excluded machines listed at most. */
  previewMachines: 100,
  previewExcluded: 1000,
  /** Ids of a `machineIds` selection, fleets, models. */
  maxMachineIds: 10_000,
  maxFleetIds: 200,
  maxModels: 50,
} as const;

/**
 * Deployments (Service › Setup, docs/deployments.md): one package sent to machines in waves. Only the
 * list and its export are generic; creating, the detail with its progress, the targets and the controls
 * are routes of server/deployments/routes.ts. Counts and the name are computed by the server hook
 * (server/resources/deployment.ts).
 */
export const deployment = defineResource({
  name: 'deployment',
  apiPath: '/deployment',
  route: '/service/setup/deployments',
  menuId: 604, // service (6) › setup, resources/menu.ts
  table: 'deployment',
  nameField: 'name',
  scope: 'licenseAccount',
  fields: {
    id: { type: 'number', readOnly: true, sortable: true },
    /** The package's name and the deployment's id ("core 2.4.1 #12"). */
    name: { type: 'text', readOnly: true, views: [] },
    packageId: { type: 'reference', reference: 'deploymentPackage', readOnly: true, sortable: true, onDelete: 'restrict' },
    status: { type: 'enum', options: DEPLOYMENT_STATUSES, readOnly: true, display: 'status', sortable: true },
    currentWave: { type: 'number', integer: true, readOnly: true },
    waveCount: { type: 'number', integer: true, readOnly: true },
    targetCount: { type: 'number', integer: true, readOnly: true },
    appliedCount: { type: 'number', integer: true, readOnly: true },
    failedCount: { type: 'number', integer: true, readOnly: true },
    successThreshold: { type: 'number', integer: true, readOnly: true, views: ['show'] },
    errorThreshold: { type: 'number', integer: true, readOnly: true, views: ['show'] },
    requiresApproval: { type: 'boolean', readOnly: true, views: ['show'] },
    createdBy: { type: 'reference', reference: 'user', readOnly: true, views: [], onDelete: 'setNull' },
    createdByName: { type: 'text', readOnly: true, sortable: true },
    createdTime: { type: 'datetime', readOnly: true, sortable: true },
    expiresTime: { type: 'datetime', readOnly: true, sortable: true },
    updatedTime: { type: 'datetime', readOnly: true, sortable: true, views: ['show'] },
  },
  list: {
    // progress moves as machines report
    refreshSeconds: 10,
    columns: ['id', 'packageId', 'status', 'currentWave', 'waveCount', 'targetCount', 'appliedCount', 'failedCount', 'createdByName', 'createdTime', 'expiresTime'],
    defaultSort: { field: 'createdTime', order: 'DESC' },
    filters: [
      { name: 'status', field: 'status', operator: 'in', alwaysOn: true },
      { name: 'packageId', field: 'packageId', operator: 'eq', alwaysOn: true },
      { name: 'createdBy', field: 'createdBy', operator: 'eq' },
      { name: 'createdFrom', field: 'createdTime', operator: 'gte', alwaysOn: true },
      { name: 'createdTo', field: 'createdTime', operator: 'lte', alwaysOn: true },
    ],
  },
  // Creating, the detail and the controls are server/deployments/routes.ts (their permissions below).
  permissions: { page: 'deployment:page', export: 'deployment:page' },
  extraPermissions: {
    'deployment:add': 'resources.deployment.actions.add',
    'deployment:control': 'resources.deployment.actions.control',
    'deployment:approve': 'resources.deployment.actions.approve',
  },
  // Permanent permission ids of this resource's buttons (roles store ids: never renumber, see resources/menu.ts).
  permissionIds: { 'deployment:page': 60405, 'deployment:add': 60406, 'deployment:control': 60407, 'deployment:approve': 60408 },
  // the list, the new-deployment form (.../create) and a deployment's page (.../<id>): src/deployments/DeploymentsScreen.tsx
  customViews: { list: 'deployments' },
});
