// A deployment's buttons: pause, resume, cancel (confirmed: unfinished deliveries become voided), retry
// failed (`deployment:control`) and approve (`deployment:approve`, by someone other than its creator),
// each shown only where the deployment's status allows it.
import { useState } from 'react';
import { useCanAccess, useNotify, useTranslate } from 'ra-core';
import { Confirm } from 'react-admin';
import { Button, Stack } from '@mui/material';
import PauseIcon from '@mui/icons-material/Pause';
import PlayArrowIcon from '@mui/icons-material/PlayArrow';
import CancelIcon from '@mui/icons-material/Cancel';
import ReplayIcon from '@mui/icons-material/Replay';
import TaskAltIcon from '@mui/icons-material/TaskAlt';
import type { ReactElement } from 'react';
import { useConsoleServices } from '../layout/ConsoleServices';
import { identifierRequest } from '../permissions/canAccess';
import { DEPLOYMENT_API, DEPLOYMENT_PERMISSIONS, type ControlAction, type DeploymentDetail } from './types';

interface ControlButton {
  action: ControlAction;
  icon: ReactElement;
  permission: string;
  shown: (deployment: DeploymentDetail, failed: number, mine: boolean) => boolean;
  color?: 'error' | 'primary';
}

const BUTTONS: readonly ControlButton[] = [
  { action: 'approve', icon: <TaskAltIcon />, permission: DEPLOYMENT_PERMISSIONS.approve, shown: (d, _failed, mine) => d.status === 'awaitingApproval' && !mine },
  { action: 'pause', icon: <PauseIcon />, permission: DEPLOYMENT_PERMISSIONS.control, shown: (d) => d.status === 'running' },
  { action: 'resume', icon: <PlayArrowIcon />, permission: DEPLOYMENT_PERMISSIONS.control, shown: (d) => d.status === 'paused' },
  {
    action: 'retryFailed',
    icon: <ReplayIcon />,
    permission: DEPLOYMENT_PERMISSIONS.control,
    shown: (d, failed) => failed > 0 && (d.status === 'running' || d.status === 'paused' || d.status === 'completed'),
  },
  {
    action: 'cancel',
    icon: <CancelIcon />,
    permission: DEPLOYMENT_PERMISSIONS.control,
    shown: (d) => ['awaitingApproval', 'running', 'paused'].includes(d.status),
    color: 'error',
  },
];

export interface DeploymentControlsProps {
  deployment: DeploymentDetail;
  failed: number;
  onDone: () => void;
}

export const DeploymentControls = ({ deployment, failed, onDone }: DeploymentControlsProps) => {
  const translate = useTranslate();
  const notify = useNotify();
  const granted: Record<string, boolean> = {
    [DEPLOYMENT_PERMISSIONS.approve]: useCanAccess(identifierRequest(DEPLOYMENT_PERMISSIONS.approve)).canAccess === true,
    [DEPLOYMENT_PERMISSIONS.control]: useCanAccess(identifierRequest(DEPLOYMENT_PERMISSIONS.control)).canAccess === true,
  };
  const { http, session } = useConsoleServices();
  const [running, setRunning] = useState<ControlAction | null>(null);
  const [confirming, setConfirming] = useState(false);
  const mine = deployment.createdBy !== null && String(deployment.createdBy) === session.getSysUserId();
  const shown = BUTTONS.filter((button) => granted[button.permission] === true && button.shown(deployment, failed, mine));

  const run = async (action: ControlAction) => {
    setRunning(action);
    try {
      await http.post(`${DEPLOYMENT_API}/${deployment.id}/${action}`);
      notify(`deployments.controls.done.${action}`, { type: 'info' });
    } catch {
      // the http client showed the refusal (e.g. 5001: the status changed meanwhile)
    } finally {
      setRunning(null);
      setConfirming(false);
      onDone();
    }
  };

  if (shown.length === 0) return null;
  return (
    <Stack direction="row" spacing={1} sx={{ flexWrap: 'wrap' }} data-testid="deployment-controls">
      {shown.map((button) => (
        <Button
          key={button.action}
          variant={button.action === 'approve' ? 'contained' : 'outlined'}
          color={button.color ?? 'primary'}
          size="small"
          startIcon={button.icon}
          disabled={running !== null}
          onClick={() => (button.action === 'cancel' ? setConfirming(true) : void run(button.action))}
          data-testid={`control-${button.action}`}
        >
          {translate(`deployments.controls.${button.action}`)}
        </Button>
      ))}
      <Confirm
        isOpen={confirming}
        loading={running === 'cancel'}
        title="deployments.controls.cancelTitle"
        content="deployments.controls.cancelContent"
        confirm="deployments.controls.cancelConfirm"
        cancel="deployments.controls.keep"
        confirmColor="warning"
        onConfirm={() => void run('cancel')}
        onClose={() => setConfirming(false)}
      />
    </Stack>
  );
};
