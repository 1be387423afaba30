// A model's machines listed from the version screens, paged by RVM number, each linking to its machine
// page and to the deployment concerned: on Software upgrade the machines behind the newest software
// package or whose last software delivery failed (GET /software-versions/machines, with that delivery's
// status and reason), on AI the machines running one AI package or none yet (GET /ai-models/machines).
import { useTranslate } from 'ra-core';
import { Link as RouterLink } from 'react-router-dom';
import { Link } from '@mui/material';
import type { Column } from '../kit/PagedTable';
import { deploymentColumn, QueryPagedTable } from '../kit/QueryPagedTable';
import { machinePagePath } from '../pages/machinePaths';
import { TargetStatusChip } from './StatusParts';
import { VERSIONS_API, type AiMachine, type MachineKind, type VersionMachine } from './versionTypes';

const machineColumn = <T extends { id: number; termNo: string }>(): Column<T> => ({
  key: 'termNo',
  label: 'deployments.machines.machine',
  render: (row) => (
    <Link component={RouterLink} to={machinePagePath(row.id)}>
      {row.termNo}
    </Link>
  ),
  nowrap: true,
});

export const VersionMachines = ({ model, kind }: { model: string; kind: MachineKind }) => {
  const translate = useTranslate();
  const reason = (text: string | null | undefined) => (text ? translate(`deployments.reasons.${text}`, { _: text }) : '');
  const columns: Column<VersionMachine>[] = [
    machineColumn(),
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
    deploymentColumn((row) => row.lastDelivery?.deploymentId),
  ];
  return (
    <QueryPagedTable
      columns={columns}
      load={(http, paging, signal) => http.get<{ list: VersionMachine[]; total: number }>(VERSIONS_API.softwareMachines, { model, kind, ...paging }, { signal, silent: true })}
      loadKey={`softwareMachines|${model}|${kind}`}
      rowKey={(row) => row.id}
      empty="deployments.machines.empty"
      caption={translate(kind === 'failed' ? 'deployments.upgrade.failedTable' : 'deployments.upgrade.behindTable', { model })}
      testId={`${kind}-machines`}
    />
  );
};

/** The machines of `model` whose last applied AI package is `packageId` (null: running none yet). */
export const AiMachines = ({ model, packageId, caption }: { model: string; packageId: number | null; caption: string }) => {
  const translate = useTranslate();
  const columns: Column<AiMachine>[] = [
    machineColumn(),
    {
      key: 'package',
      label: 'deployments.ai.package',
      render: (row) => (row.aiPackage ? `${row.aiPackage.name ?? ''} · ${row.aiPackage.version ?? ''}` : translate('deployments.ai.noneShort')),
      nowrap: true,
    },
    { key: 'appliedTime', label: 'deployments.ai.appliedTime', render: (row) => row.aiPackage?.appliedTime ?? '–', nowrap: true },
    deploymentColumn((row) => row.aiPackage?.deploymentId),
  ];
  return (
    <QueryPagedTable
      columns={columns}
      load={(http, paging, signal) =>
        http.get<{ list: AiMachine[]; total: number }>(VERSIONS_API.aiMachines, { model, ...(packageId === null ? {} : { packageId }), ...paging }, { signal, silent: true })
      }
      loadKey={`aiMachines|${model}|${packageId ?? 'none'}`}
      rowKey={(row) => row.id}
      empty="deployments.machines.empty"
      caption={caption}
      testId="ai-machines"
    />
  );
};
