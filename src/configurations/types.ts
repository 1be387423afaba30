// The answers of the configuration version calls (server/configurations/routes.ts).
export interface VersionRow {
  id: number;
  version: number;
  itemCount: number;
  createdByName: string | null;
  createTime: string;
  packageId: number | null;
  packageName: string | null;
}

export interface VersionPage {
  list: VersionRow[];
  total: number;
}

export type Item = Record<string, unknown>;

export interface VersionDiff {
  from: number;
  to: number;
  added: Array<{ key: string; item: Item }>;
  removed: Array<{ key: string; item: Item }>;
  changed: Array<{ key: string; item: Item; changes: Array<{ field: string; from: unknown; to: unknown }> }>;
  unchanged: number;
}

export interface MadePackage {
  id: number;
  name: string;
  version: string;
  resourceType: string;
  adaptedModels: string;
}
