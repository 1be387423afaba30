// The machine's connection to the gateway (docs/machine-protocol.md): where it connects, whether it
// has a secret, when it was last seen, and "rotate secret", whose answer is the only time the
// secret is ever shown (the server keeps a digest). Rotating needs machine:edit.
import { useState } from 'react';
import { useCanAccess, useTranslate } from 'react-admin';
import { Alert, Box, Button, Card, CardContent, Dialog, DialogActions, DialogContent, DialogTitle, Stack, TextField, Typography } from '@mui/material';
import KeyIcon from '@mui/icons-material/Key';
import { machine } from '../../../resources/machine';
import { formatDateTime } from '../../generic/format';
import { useConsoleServices } from '../../layout/ConsoleServices';
import { resourceNameOf } from '../../providers/registry';
import { useMachine, useMachineData } from './MachineContext';

interface Credential {
  serialNumber: string;
  hasSecret: boolean;
  rotatedTime: string | null;
  machineUrl: string | null;
  online: boolean;
  lastSeenTime: string | null;
}

const Row = ({ label, value }: { label: string; value: string }) => (
  <Box sx={{ display: 'grid', gridTemplateColumns: '12rem 1fr', gap: 1, py: 0.25 }}>
    <Typography variant="body2" color="text.secondary">
      {label}
    </Typography>
    <Typography variant="body2" sx={{ wordBreak: 'break-all' }}>
      {value}
    </Typography>
  </Box>
);

export const GatewayCard = () => {
  const translate = useTranslate();
  const { http } = useConsoleServices();
  const { machineId } = useMachine();
  const canRotate = useCanAccess({ resource: resourceNameOf(machine), action: 'edit' }).canAccess === true;
  const { data, reload } = useMachineData((client, id, signal) => client.get<Credential>(`/rvm/${id}/credential`, undefined, { signal }), ['credential']);
  const [confirming, setConfirming] = useState(false);
  const [secret, setSecret] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  if (!data) return null;

  const rotate = async () => {
    setBusy(true);
    try {
      const answer = await http.post<{ secret: string }>(`/rvm/${machineId}/credential`);
      setSecret(answer.secret);
      reload();
    } finally {
      setBusy(false);
      setConfirming(false);
    }
  };
  const none = translate('installation.gateway.none');

  return (
    <Card variant="outlined" sx={{ mt: 2 }}>
      <CardContent>
        <Typography component="h2" variant="subtitle1" sx={{ fontWeight: 600, mb: 1 }}>
          {translate('installation.gateway.title')}
        </Typography>
        <Row label={translate('installation.gateway.userName')} value={data.serialNumber} />
        <Row label={translate('installation.gateway.broker')} value={data.machineUrl ?? translate('installation.gateway.noBroker')} />
        <Row
          label={translate('installation.gateway.secret')}
          value={data.hasSecret ? translate('installation.gateway.secretSince', { time: formatDateTime(data.rotatedTime) }) : translate('installation.gateway.noSecret')}
        />
        <Row label={translate('installation.gateway.lastSeen')} value={data.lastSeenTime ? formatDateTime(data.lastSeenTime) : none} />
        {canRotate ? (
          <Button sx={{ mt: 1 }} startIcon={<KeyIcon />} variant="outlined" onClick={() => setConfirming(true)}>
            {translate(data.hasSecret ? 'installation.gateway.rotate' : 'installation.gateway.create')}
          </Button>
        ) : null}
      </CardContent>
      <Dialog open={confirming} onClose={() => setConfirming(false)} aria-labelledby="gateway-rotate-title">
        <DialogTitle id="gateway-rotate-title">{translate(data.hasSecret ? 'installation.gateway.rotate' : 'installation.gateway.create')}</DialogTitle>
        <DialogContent>
          <Typography>{translate(data.hasSecret ? 'installation.gateway.rotateConfirm' : 'installation.gateway.createConfirm')}</Typography>
        </DialogContent>
        <DialogActions>
          <Button onClick={() => setConfirming(false)}>{translate('ra.action.cancel')}</Button>
          <Button variant="contained" disabled={busy} onClick={() => void rotate()}>
            {translate('ra.action.confirm')}
          </Button>
        </DialogActions>
      </Dialog>
      <Dialog open={secret !== null} onClose={() => setSecret(null)} aria-labelledby="gateway-secret-title" fullWidth maxWidth="sm">
        <DialogTitle id="gateway-secret-title">{translate('installation.gateway.secretTitle')}</DialogTitle>
        <DialogContent>
          <Stack spacing={2} sx={{ pt: 1 }}>
            <Alert severity="warning">{translate('installation.gateway.shownOnce')}</Alert>
            <TextField label={translate('installation.gateway.userName')} value={data.serialNumber} slotProps={{ input: { readOnly: true } }} />
            <TextField label={translate('installation.gateway.secret')} value={secret ?? ''} slotProps={{ input: { readOnly: true } }} onFocus={(event) => event.target.select()} />
          </Stack>
        </DialogContent>
        <DialogActions>
          <Button onClick={() => void navigator.clipboard?.writeText(secret ?? '')}>{translate('installation.gateway.copy')}</Button>
          <Button variant="contained" onClick={() => setSecret(null)}>
            {translate('installation.gateway.done')}
          </Button>
        </DialogActions>
      </Dialog>
    </Card>
  );
};
