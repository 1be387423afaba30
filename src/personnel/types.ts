// Wire shapes of the personnel screens (server/personnel/packages.ts, docs/service-personnel.md#packages).
import type { AccessLevel, ServiceAction } from '../../resources/servicePersonnel';

export const BAN_PACKAGE_PERMISSION = 'consumerBan:package';

export interface MadePackage {
  id: number;
  name: string;
  version: string;
  resourceType: string;
  adaptedModels: string;
}

export interface PersonnelPreview {
  personnel: Array<{ loginName: string; realName: string; accessLevel: AccessLevel; company: string | null }>;
  levels: Record<AccessLevel, { actions: ServiceAction[]; signOutMinutes: number }>;
  defaults: { name: string; version: string; adaptedModels: string };
}

export interface PersonnelDeployRow extends MadePackage {
  createTime: string;
  latestDeployment: { id: number; status: string; createdTime: string; total: number; applied: number } | null;
}
