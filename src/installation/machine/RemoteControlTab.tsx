// RemoteControl tab: the remote commands (SPEC 2) are not built yet; this says so plainly instead of
// showing buttons that would do nothing.
import { useTranslate } from 'ra-core';
import { Alert, AlertTitle, List, ListItem, ListItemText } from '@mui/material';
import SettingsRemoteIcon from '@mui/icons-material/SettingsRemote';

/** The actions SPEC 2 names for this tab (labels `installation.remoteControl.actions.<key>`). */
const PLANNED_ACTIONS = [
  'restart', 'close', 'open', 'clearAlarms', 'onOffTime', 'maintenance', 'uiServiceReset', 'uiCounterReset',
  'downloadLogs', 'remoteDiagnosis', 'restartC750', 'binHeight',
] as const;

export const RemoteControlTab = () => {
  const translate = useTranslate();
  return (
    <Alert severity="info" icon={<SettingsRemoteIcon />} data-testid="remote-control-placeholder">
      <AlertTitle>{translate('installation.remoteControl.title')}</AlertTitle>
      {translate('installation.remoteControl.detail')}
      <List dense sx={{ columns: { xs: 1, md: 2 }, mt: 1 }}>
        {PLANNED_ACTIONS.map((action) => (
          <ListItem key={action} disablePadding>
            <ListItemText primary={`• ${translate(`installation.remoteControl.actions.${action}`)}`} />
          </ListItem>
        ))}
      </List>
    </Alert>
  );
};
