// The machines of a deployment with their delivery's status, reason, wave and reported version, paged
// and filtered by status, wave and machine number; read again with the page while the deployment moves.
import { useEffect, useId, useState } from 'react';
import { useTranslate } from 'ra-core';
import { Link as RouterLink } from 'react-router-dom';
import { Box, FormControl, InputLabel, Link, MenuItem, Select, TextField } from '@mui/material';
import { EnumSelect } from '../kit/EnumSelect';
import { PagedTable, type Column } from '../kit/PagedTable';
import { machinePagePath } from '../pages/machinePaths';
import { usePaging } from '../layout/usePaging';
import { TargetStatusChip } from './StatusParts';
import { useLiveQuery } from './useLiveQuery';
import { DEPLOYMENT_API, TARGET_STATUSES, type TargetRow } from './types';

const TYPING_PAUSE_MS = 400;

export interface DeploymentMachinesProps {
  deploymentId: number;
  waveCount: number;
  /** The wave under way: an offline machine of a started wave is waiting for itself, not for its wave. */
  currentWave: number;
  /** The status chosen above (a count tile) or here. */
  status: string | null;
  onStatus: (status: string | null) => void;
  /** How often to read again (false: the deployment is finished). */
  refreshMs: number | false;
}

export const DeploymentMachines = ({ deploymentId, waveCount, currentWave, status, onStatus, refreshMs }: DeploymentMachinesProps) => {
  const translate = useTranslate();
  const paging = usePaging(20);
  const [wave, setWave] = useState<string | null>(null);
  const waveLabelId = useId();
  const [termNoTyped, setTermNoTyped] = useState('');
  const [termNo, setTermNo] = useState('');
  useEffect(() => {
    const timer = setTimeout(() => setTermNo(termNoTyped.trim()), TYPING_PAUSE_MS);
    return () => clearTimeout(timer);
  }, [termNoTyped]);
  // new filters start again at page 1 (set while rendering: no request for the old page goes out)
  const filterKey = JSON.stringify([status, wave, termNo]);
  const [pagedFor, setPagedFor] = useState(filterKey);
  if (pagedFor !== filterKey) {
    setPagedFor(filterKey);
    paging.firstPage();
  }

  const body = {
    pageNum: paging.page,
    pageSize: paging.pageSize,
    ...(status ? { status: [status] } : {}),
    ...(wave ? { wave: Number(wave) } : {}),
    ...(termNo ? { termNoLike: termNo } : {}),
  };
  const loaded = useLiveQuery(
    ['targets', deploymentId, body],
    (http, signal) => http.post<{ list: TargetRow[]; total: number }>(`${DEPLOYMENT_API}/${deploymentId}/targets`, body, { signal, silent: true }),
    () => refreshMs,
  );

  // the server's own reasons (deadline, cancel) are words of the catalogue; a machine's are shown as it sent them
  const reasonText = (reason: string | null) => (reason ? translate(`deployments.reasons.${reason}`, { _: reason }) : '');
  const columns: Column<TargetRow>[] = [
    {
      key: 'termNo',
      label: 'deployments.machines.machine',
      render: (row) => (
        <Link component={RouterLink} to={machinePagePath(row.rvmId)}>
          {row.termNo}
        </Link>
      ),
      nowrap: true,
    },
    { key: 'termType', label: 'deployments.machines.model', render: (row) => row.termType, nowrap: true },
    { key: 'wave', label: 'deployments.machines.wave', render: (row) => row.wave, align: 'right' },
    { key: 'status', label: 'deployments.machines.status', render: (row) => <TargetStatusChip status={row.status} />, nowrap: true },
    {
      key: 'reason',
      label: 'deployments.machines.reason',
      render: (row) =>
        row.status === 'toBeIssued' && row.reachable === false && row.wave <= currentWave ? translate('deployments.machines.offline') : reasonText(row.statusReason),
    },
    { key: 'attempts', label: 'deployments.machines.attempts', render: (row) => row.attempts, align: 'right' },
    { key: 'version', label: 'deployments.machines.version', render: (row) => row.reportedVersion ?? '', nowrap: true },
    { key: 'updatedTime', label: 'deployments.machines.updatedTime', render: (row) => row.updatedTime ?? '', nowrap: true },
  ];

  return (
    <Box data-testid="deployment-machines">
      <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 2, mb: 1 }}>
        <EnumSelect
          label="deployments.machines.status"
          value={status}
          options={TARGET_STATUSES}
          labels="deployments.targetStatuses"
          onChange={onStatus}
          testId="machines-status-filter"
        />
        <FormControl size="small" fullWidth={false} sx={{ minWidth: 140 }}>
          <InputLabel id={waveLabelId}>{translate('deployments.machines.wave')}</InputLabel>
          <Select
            labelId={waveLabelId}
            label={translate('deployments.machines.wave')}
            value={wave ?? ''}
            onChange={(event) => setWave(event.target.value === '' ? null : String(event.target.value))}
            data-testid="machines-wave-filter"
          >
            <MenuItem value="">
              <em>{translate('installation.common.all')}</em>
            </MenuItem>
            {Array.from({ length: waveCount }, (_, index) => (
              <MenuItem key={index + 1} value={String(index + 1)}>
                {translate('deployments.machines.waveNumber', { wave: index + 1 })}
              </MenuItem>
            ))}
          </Select>
        </FormControl>
        <TextField
          size="small"
          fullWidth={false}
          label={translate('deployments.machines.machineFilter')}
          value={termNoTyped}
          onChange={(event) => setTermNoTyped(event.target.value)}
          sx={{ minWidth: 200 }}
        />
      </Box>
      <PagedTable
        columns={columns}
        rows={loaded.data?.list}
        total={loaded.data?.total ?? 0}
        {...paging.props}
        rowKey={(row) => row.id}
        isPending={loaded.isPending}
        error={loaded.error}
        onRetry={loaded.reload}
        empty="deployments.machines.empty"
        caption={translate('deployments.machines.title')}
        testId="deployment-machines-table"
      />
    </Box>
  );
};
