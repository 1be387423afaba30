// What the version screens read (server/deployments/versions.ts, docs/deployments.md "Versions"): the
// software versions per model with the machines behind or failed, and the AI packages per model with
// the machines running each.
export const VERSIONS_API = {
  software: '/software-versions',
  softwareMachines: '/software-versions/machines',
  ai: '/ai-models',
  aiMachines: '/ai-models/machines',
} as const;

export interface PackageRef {
  id: number;
  name: string;
  version: string;
  createTime: string | null;
}

/** `GET /software-versions`: one entry per machine model of the license account. */
export interface ModelVersions {
  model: string;
  machines: number;
  /** Machines not on the newest uploaded software package of the model. */
  behind: number;
  /** Machines whose last software delivery failed. */
  lastUpgradeFailed: number;
  newestPackage: PackageRef | null;
  /** Machines per version, most machines first; `version` null: none reported. */
  versions: Array<{ version: string | null; machines: number }>;
}

export type MachineKind = 'all' | 'version' | 'behind' | 'failed';

/** A row of `GET /software-versions/machines`. */
export interface VersionMachine {
  id: number;
  termNo: string;
  serialNumber: string;
  softwareVersion: string | null;
  online: boolean;
  lastDelivery: { deployId: number; deploymentId: number | null; status: string | null; statusReason: string | null; finishedTime: string | null } | null;
}

/** `GET /ai-models`: the AI packages per model with how many machines run each (their last applied AI package). */
export interface ModelAi {
  model: string;
  machines: number;
  packages: Array<PackageRef & { machines: number }>;
}

/** A row of `GET /ai-models/machines`: the machine and its last applied AI package (null: none yet). */
export interface AiMachine {
  id: number;
  termNo: string;
  serialNumber: string;
  online: boolean;
  aiPackage: { id: number; name: string | null; version: string | null; deployId: number; deploymentId: number | null; appliedTime: string | null } | null;
}
