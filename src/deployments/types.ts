// The deployment API as the console reads it (docs/deployments.md): paths, answers and the status
// words of deployments and of each machine's delivery, with their chip colours.
import {
  deployment,
  EXCLUSION_REASONS,
  type DeploymentStatus,
  type ExclusionReason,
  type GateConfig,
  type GateResult,
  type GateSide,
  type PauseReason,
} from '../../resources/deployment';
import { DELIVERY_STATUSES, type DeliveryStatus } from '../../resources/deploymentPackage';
import type { StatusColor } from '../generic/statusColors';

/** The deployment routes (server/deployments/routes.ts) live below the declaration's API path. */
export const DEPLOYMENT_API = deployment.apiPath;

export const TARGET_STATUSES = DELIVERY_STATUSES;
export type TargetStatus = DeliveryStatus;
export { EXCLUSION_REASONS };

/** A deployment that changes no more: its page stops reading it again. */
export const isDeploymentFinished = (status: string | undefined) => status === 'completed' || status === 'cancelled' || status === 'expired';

const TARGET_COLORS: Readonly<Record<TargetStatus, StatusColor>> = {
  toBeIssued: 'default',
  issued: 'info',
  inProcess: 'info',
  applied: 'success',
  applyFailed: 'error',
  receiveFailed: 'error',
  noFeedback: 'warning',
  taskOverdue: 'warning',
  voided: 'default',
};
const DEPLOYMENT_COLORS: Readonly<Record<DeploymentStatus, StatusColor>> = {
  awaitingApproval: 'warning',
  running: 'info',
  paused: 'warning',
  completed: 'success',
  cancelled: 'default',
  expired: 'default',
};

export const targetStatusColor = (status: string): StatusColor => TARGET_COLORS[status as TargetStatus] ?? 'default';
export const deploymentStatusColor = (status: string): StatusColor => DEPLOYMENT_COLORS[status as DeploymentStatus] ?? 'default';

export type StatusCounts = Partial<Record<TargetStatus, number>>;

export interface DeploymentTargets {
  machineIds?: number[];
  fleetIds?: number[];
  models?: string[];
  savedFilterId?: number;
}

// The gate's settings and figures and the pause reason are the server's own types (resources/deployment.ts).
export type { GateConfig, GateResult, GateSide, PauseReason };

export interface DeploymentPackageRef {
  id: number;
  name: string;
  version: string;
  resourceType: string;
}

export interface WaveProgress {
  wave: number;
  size: number;
  counts: StatusCounts;
  applied: number;
  failed: number;
  finished: number;
  started: boolean;
}

/** `GET /deployment/{id}` (server/deployments/detail.ts). */
export interface DeploymentDetail {
  id: number;
  package: DeploymentPackageRef;
  status: DeploymentStatus;
  pauseReason: PauseReason | null;
  targets: DeploymentTargets;
  wavePlan: { percentages: number[] | null; sizes: number[] | null };
  currentWave: number;
  waveCount: number;
  total: number;
  counts: StatusCounts;
  applied: number;
  failed: number;
  finished: number;
  waves: WaveProgress[];
  /** Targets of the started waves waiting for their machine to connect. */
  offlineWaiting: number;
  successThreshold: number;
  errorThreshold: number;
  gate: GateConfig | null;
  gateSince: string | null;
  gateResult: GateResult | null;
  gateCheckedTime: string | null;
  requiresApproval: boolean;
  approvedBy: number | null;
  approvedByName: string | null;
  approvedTime: string | null;
  answerWithinHours: number;
  expiresTime: string;
  createdBy: number | null;
  createdByName: string | null;
  createdTime: string;
}

export interface TargetRow {
  id: number;
  rvmId: number;
  termNo: string;
  termType: string;
  online?: boolean;
  /** Online and heard by the gateway: a delivery can go out now. */
  reachable?: boolean;
  wave: number;
  status: TargetStatus;
  statusReason: string | null;
  attempts: number;
  reportedVersion: string | null;
  updatedTime: string | null;
}

export interface PreviewMachine {
  id: number;
  termNo: string;
  termType: string;
}

export interface ExcludedMachine extends PreviewMachine {
  reason: ExclusionReason;
}

/** `POST /deployment/preview`. */
export interface PreviewAnswer {
  selected: number;
  targeted: number;
  /** The first 100 targeted. */
  machines: PreviewMachine[];
  excludedCounts: Record<ExclusionReason, number>;
  /** At most 1000. */
  excluded: ExcludedMachine[];
  /** Machines per wave. */
  waves: number[];
}

export type ControlAction = 'pause' | 'resume' | 'cancel' | 'retryFailed' | 'approve';

/** The sum of counts of the given statuses. */
export const countOf = (counts: StatusCounts | undefined, statuses: readonly TargetStatus[]) => statuses.reduce((sum, status) => sum + (counts?.[status] ?? 0), 0);

/** Permission identifiers of the deployment screens (docs/deployments.md "Permissions"). */
export const DEPLOYMENT_PERMISSIONS = {
  packages: 'deploymentPackage:page',
  page: 'deployment:page',
  add: 'deployment:add',
  control: 'deployment:control',
  approve: 'deployment:approve',
  softwareUpgrade: 'softwareUpgrade:page',
  ai: 'ai:page',
} as const;
