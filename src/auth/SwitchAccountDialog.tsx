// Switch the default license account (docs/product-rules.md#screens-and-routes, dialogs). Lists the user's accounts, requires a choice,
// saves it, stores the new account name and reloads the page.
import { useEffect, useState, type FormEvent } from 'react';
import { useNotify, useTranslate } from 'ra-core';
import {
  Alert,
  Button,
  CircularProgress,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  FormControl,
  FormControlLabel,
  FormHelperText,
  Radio,
  RadioGroup,
} from '@mui/material';
import { isForcedLogoutCode } from '../providers/http';
import { ApiError } from '../providers/httpTypes';
import { useConsoleServices } from '../layout/ConsoleServices';

export interface LicenseAccountChoice {
  id: number;
  licenseAccountName: string;
  isDefault?: boolean;
}

const RELOAD_DELAY_MS = 1000;

export const SwitchAccountDialog = ({ open, onClose }: { open: boolean; onClose: () => void }) => {
  const translate = useTranslate();
  const notify = useNotify();
  const { http, session, reload } = useConsoleServices();
  const [accounts, setAccounts] = useState<LicenseAccountChoice[] | null>(null);
  const [selected, setSelected] = useState<string>('');
  const [submitted, setSubmitted] = useState(false);
  const [saving, setSaving] = useState(false);

  useEffect(() => {
    if (!open) return;
    let cancelled = false;
    setAccounts(null);
    setSubmitted(false);
    http
      .get<LicenseAccountChoice[]>('/license-account-user-relation')
      .then((list) => {
        if (cancelled) return;
        setAccounts(list ?? []);
        const current = (list ?? []).find((account) => account.isDefault);
        setSelected(current ? String(current.id) : '');
      })
      .catch(() => !cancelled && setAccounts([]));
    return () => {
      cancelled = true;
    };
  }, [open, http]);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setSubmitted(true);
    if (!selected || saving) return;
    setSaving(true);
    try {
      const saved = await http.put<{ id: number; licenseAccountName: string }>('/license-account-user-relation', undefined, {
        query: { id: selected },
        silent: true,
      });
      const name = saved?.licenseAccountName ?? accounts?.find((account) => String(account.id) === selected)?.licenseAccountName;
      if (name) session.setAccountName(name);
      notify('app.switchAccount.success', { type: 'success' });
      setTimeout(() => reload(), RELOAD_DELAY_MS);
    } catch (error) {
      setSaving(false);
      if (!(error instanceof ApiError && isForcedLogoutCode(error.code))) {
        notify('app.switchAccount.failed', { type: 'error', autoHideDuration: 5000 });
      }
    }
  };

  const missingChoice = submitted && !selected;
  return (
    <Dialog
      open={open}
      onClose={() => !saving && onClose()}
      fullWidth
      maxWidth="xs"
      aria-labelledby="switch-account-title"
      slotProps={{ paper: { component: 'form', onSubmit: submit, noValidate: true } as object }}
    >
      <DialogTitle id="switch-account-title">{translate('app.switchAccount.title')}</DialogTitle>
      <DialogContent>
        {accounts === null ? (
          <CircularProgress size={24} aria-label={translate('ra.page.loading')} />
        ) : accounts.length === 0 ? (
          <Alert severity="info">{translate('app.switchAccount.empty')}</Alert>
        ) : (
          <FormControl error={missingChoice} fullWidth>
            <RadioGroup aria-labelledby="switch-account-title" name="licenseAccount" value={selected} onChange={(event) => setSelected(event.target.value)}>
              {accounts.map((account) => (
                <FormControlLabel key={account.id} value={String(account.id)} control={<Radio />} label={account.licenseAccountName} disabled={saving} />
              ))}
            </RadioGroup>
            {missingChoice && <FormHelperText>{translate('validation.selectOne')}</FormHelperText>}
          </FormControl>
        )}
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose} disabled={saving}>
          {translate('app.switchAccount.cancel')}
        </Button>
        <Button type="submit" variant="contained" disabled={saving || accounts === null}>
          {translate('app.switchAccount.submit')}
        </Button>
      </DialogActions>
    </Dialog>
  );
};
