// A model's machines behind the newest software package, or whose last software delivery failed
// (GET /software-versions/machines), paged: each with its version and its last delivery's status and
// reason, linking to its machine page and to that deployment.
import { useState } from 'react';
import { useTranslate } from 'ra-core';
import { Link as RouterLink } from 'react-router-dom';
import { Link } from '@mui/material';
import { PagedTable, type Column } from '../installation/common/PagedTable';
import { machinePagePath } from '../installation/machine/tabs';
import { deploymentPath } from './paths';
import { TargetStatusChip } from './StatusParts';
import { useLiveQuery } from './useLiveQuery';
import { VERSIONS_API, type MachineKind, type VersionMachine } from './versionTypes';

export const VersionMachines = ({ model, kind }: { model: string; kind: MachineKind }) => {
  const translate = useTranslate();
  const [page, setPage] = useState(1);
  const [pageSize, setPageSize] = useState(10);
  const query = { model, kind, pageNum: page, pageSize };
  const loaded = useLiveQuery(['versionMachines', query], (http, signal) =>
    http.get<{ list: VersionMachine[]; total: number }>(VERSIONS_API.softwareMachines, query, { signal, silent: true }),
  );
  const reason = (text: string | null | undefined) => (text ? translate(`deployments.reasons.${text}`, { _: text }) : '');
  const columns: Column<VersionMachine>[] = [
    {
      key: 'termNo',
      label: 'deployments.machines.machine',
      render: (row) => (
        <Link component={RouterLink} to={machinePagePath(row.id)}>
          {row.termNo}
        </Link>
      ),
      nowrap: true,
    },
    { key: 'version', label: 'deployments.upgrade.version', render: (row) => row.softwareVersion ?? translate('deployments.upgrade.unknownVersion'), nowrap: true },
    {
      key: 'lastDelivery',
      label: 'deployments.upgrade.lastDelivery',
      render: (row) =>
        row.lastDelivery?.status ? (
          <>
            <TargetStatusChip status={row.lastDelivery.status} /> {reason(row.lastDelivery.statusReason)}
          </>
        ) : (
          '–'
        ),
    },
    {
      key: 'deployment',
      label: 'deployments.upgrade.deployment',
      render: (row) =>
        row.lastDelivery?.deploymentId ? (
          <Link component={RouterLink} to={deploymentPath(row.lastDelivery.deploymentId)}>
            #{row.lastDelivery.deploymentId}
          </Link>
        ) : (
          '–'
        ),
      nowrap: true,
    },
  ];
  return (
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
      empty="deployments.machines.empty"
      caption={translate(kind === 'failed' ? 'deployments.upgrade.failedTable' : 'deployments.upgrade.behindTable', { model })}
      testId={`${kind}-machines`}
    />
  );
};
