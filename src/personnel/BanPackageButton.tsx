// Ban management's "ban list package" (docs/service-personnel.md#packages): after a confirmation, the bans not
// yet ended become a package (POST /consumer-ban/package) and the new-deployment form opens with it, so
// deploying the list is the next step. Shown with `consumerBan:package`.
import { useState } from 'react';
import { useCanAccess, useTranslate } from 'ra-core';
import { useNavigate } from 'react-router-dom';
import { Box, CircularProgress } from '@mui/material';
import PlaylistAddCheckIcon from '@mui/icons-material/PlaylistAddCheck';
import { Button, Confirm, useNotify } from 'react-admin';
import { useConsoleServices } from '../layout/ConsoleServices';
import { identifierRequest } from '../permissions/canAccess';
import { newDeploymentPath } from '../deployments/paths';
import { BAN_PACKAGE_PERMISSION, type MadePackage } from './types';

export const BanPackageButton = () => {
  const translate = useTranslate();
  const notify = useNotify();
  const navigate = useNavigate();
  const { http } = useConsoleServices();
  const { canAccess } = useCanAccess(identifierRequest(BAN_PACKAGE_PERMISSION));
  const [confirming, setConfirming] = useState(false);
  const [making, setMaking] = useState(false);
  if (!canAccess) return null;

  const make = async () => {
    setConfirming(false);
    setMaking(true);
    try {
      const made = await http.post<MadePackage & { bans: number }>('/consumer-ban/package', {});
      notify('personnel.bans.made', { type: 'success', messageArgs: { name: made.name, smart_count: made.bans } });
      void navigate(newDeploymentPath({ packageId: made.id, models: made.adaptedModels.split(',').filter(Boolean) }));
    } catch {
      // the http client has shown the failure
    } finally {
      setMaking(false);
    }
  };

  return (
    <Box sx={{ display: 'flex', justifyContent: 'flex-end', mb: -1 }}>
      <Button label="personnel.bans.makePackage" onClick={() => setConfirming(true)} disabled={making} variant="outlined" data-testid="ban-package">
        {making ? <CircularProgress size={18} /> : <PlaylistAddCheckIcon />}
      </Button>
      <Confirm
        isOpen={confirming}
        title={translate('personnel.bans.makeTitle')}
        content={translate('personnel.bans.makeIntro')}
        confirm="personnel.bans.makePackage"
        onConfirm={() => void make()}
        onClose={() => setConfirming(false)}
      />
    </Box>
  );
};
