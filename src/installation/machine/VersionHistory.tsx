// The machine's version history on its Overview tab (docs/deployments.md "Versions"): every change of
// a version it runs, newest first: when, of which resource type, the version and the one before, where
// it came from (its hello, or an applied package) and the deployment that installed it, linked.
import { useTranslate } from 'ra-core';
import { TitledCard } from '../../layout/TitledCard';
import type { Column } from '../../kit/PagedTable';
import { deploymentColumn, QueryPagedTable } from '../../kit/QueryPagedTable';
import { useMachine } from './MachineContext';

/** One change (GET /rvm/{id}/versions). */
export interface VersionChangeRow {
  id: number;
  changedTime: string;
  resourceType: string;
  version: string;
  previousVersion: string | null;
  /** `hello` or `deployment`. */
  source: string;
  /** The delivery that applied it (source `deployment`). */
  deployId: number | null;
  /** The deployment of that delivery. */
  deploymentId: number | null;
}

export const VersionHistory = () => {
  const translate = useTranslate();
  const { machineId } = useMachine();
  const columns: Column<VersionChangeRow>[] = [
    { key: 'changedTime', label: 'deployments.versionHistory.time', render: (row) => row.changedTime, nowrap: true },
    {
      key: 'resourceType',
      label: 'deployments.versionHistory.type',
      render: (row) => translate(`resources.deploymentPackage.enums.resourceType.${row.resourceType}`, { _: row.resourceType }),
      nowrap: true,
    },
    { key: 'version', label: 'deployments.versionHistory.version', render: (row) => row.version, nowrap: true },
    { key: 'previousVersion', label: 'deployments.versionHistory.previous', render: (row) => row.previousVersion ?? '–', nowrap: true },
    {
      key: 'source',
      label: 'deployments.versionHistory.source',
      render: (row) => translate(`deployments.versionHistory.sources.${row.source}`, { _: row.source }),
    },
    deploymentColumn((row) => row.deploymentId),
  ];
  return (
    <TitledCard title={translate('deployments.versionHistory.title')} testId="version-history">
      <QueryPagedTable
        columns={columns}
        load={(http, paging, signal) => http.get<{ list: VersionChangeRow[]; total: number }>(`/rvm/${machineId}/versions`, { ...paging }, { signal, silent: true })}
        loadKey={`versions|${machineId}`}
        rowKey={(row) => row.id}
        empty="deployments.versionHistory.empty"
        caption={translate('deployments.versionHistory.title')}
        testId="version-history-table"
      />
    </TitledCard>
  );
};
