// The machine's version history on its Overview tab (docs/deployments.md "Versions"): every change of
// a version it runs, newest first: when, of which resource type, the version and the one before, and
// where it came from (its hello, or an applied package).
import { useState } from 'react';
import { useTranslate } from 'ra-core';
import { TitledCard } from '../../layout/TitledCard';
import { PagedTable, type Column } from '../common/PagedTable';
import { useMachineData } from './MachineContext';

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
}

export const VersionHistory = () => {
  const translate = useTranslate();
  const [page, setPage] = useState(1);
  const [pageSize, setPageSize] = useState(10);
  const loaded = useMachineData(
    (http, id, signal) => http.get<{ list: VersionChangeRow[]; total: number }>(`/rvm/${id}/versions`, { pageNum: page, pageSize }, { signal, silent: true }),
    `versions|${page}|${pageSize}`,
  );
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
  ];
  return (
    <TitledCard title={translate('deployments.versionHistory.title')} testId="version-history">
      <PagedTable
        columns={columns}
        rows={loaded.data?.list}
        total={loaded.data?.total ?? 0}
        page={page}
        pageSize={pageSize}
        onPage={setPage}
        onPageSize={(size) => {
          setPageSize(size);
          setPage(1);
        }}
        rowKey={(row) => row.id}
        isPending={loaded.isPending}
        error={loaded.error}
        onRetry={loaded.reload}
        empty="deployments.versionHistory.empty"
        caption={translate('deployments.versionHistory.title')}
        testId="version-history-table"
      />
    </TitledCard>
  );
};
