// The signing secret, shown once (docs/api-hookups.md "Signing secret"): read-only text with a copy button.
import { Alert, Dialog, DialogActions, DialogContent, DialogTitle, Stack, TextField } from '@mui/material';
import ContentCopyIcon from '@mui/icons-material/ContentCopy';
import { Button, useNotify, useTranslate } from 'react-admin';

export interface ShownSecret {
  name: string;
  secret: string;
  previousValidUntil: string | null;
}

export const SecretDialog = ({ shown, onClose }: { shown: ShownSecret | null; onClose: () => void }) => {
  const translate = useTranslate();
  const notify = useNotify();
  const copy = async () => {
    if (!shown) return;
    await navigator.clipboard.writeText(shown.secret);
    notify('hookups.secret.copied', { type: 'success' });
  };
  return (
    // outside the row's click area: a click inside must not open the record
    <Dialog open={shown !== null} onClose={onClose} onClick={(event) => event.stopPropagation()} maxWidth="sm" fullWidth>
      <DialogTitle>{translate('hookups.secret.title', { name: shown?.name ?? '' })}</DialogTitle>
      <DialogContent>
        <Stack spacing={2} sx={{ pt: 1 }}>
          <Alert severity="warning">{translate('hookups.secret.once')}</Alert>
          <TextField
            value={shown?.secret ?? ''}
            label={translate('hookups.secret.title', { name: shown?.name ?? '' })}
            fullWidth
            slotProps={{ input: { readOnly: true, sx: { fontFamily: 'monospace' } }, htmlInput: { 'data-testid': 'hookup-secret' } }}
            onFocus={(event) => event.target.select()}
          />
          {shown?.previousValidUntil ? <Alert severity="info">{translate('hookups.secret.previous', { until: new Date(shown.previousValidUntil).toLocaleString() })}</Alert> : null}
        </Stack>
      </DialogContent>
      <DialogActions>
        <Button label="hookups.secret.copy" onClick={() => void copy().catch(() => undefined)} startIcon={<ContentCopyIcon />} />
        <Button label="hookups.secret.close" onClick={onClose} variant="contained" />
      </DialogActions>
    </Dialog>
  );
};
