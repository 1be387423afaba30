// The change-password dialog (docs/product-rules.md#sign-in-and-session,
// docs/product-rules.md#validation-rules). Never closed by an outside click or Escape; in
// forced mode (first login, expired password) it has no close button and shows the warning.
import { useState, type FormEvent } from 'react';
import { useAuthProvider, useNotify, useTranslate } from 'ra-core';
import { Alert, Button, Dialog, DialogActions, DialogContent, DialogTitle, IconButton } from '@mui/material';
import CloseIcon from '@mui/icons-material/Close';
import type { ForcedPasswordChange } from '../providers/session';
import { useConsoleServices } from '../layout/ConsoleServices';
import { hasErrors, trimPasswords, validateChangePassword, type ChangePasswordValues } from './passwordRules';
import { TranslatedField } from './TranslatedField';

/** Logout 1 s after a successful change (docs/product-rules.md#business-constants). */
export const LOGOUT_DELAY_MS = 1000;

const EMPTY: ChangePasswordValues = { oldPassword: '', newPassword: '', confirmPassword: '' };

export interface ChangePasswordDialogProps {
  open: boolean;
  forced: ForcedPasswordChange | null;
  onClose: () => void;
}

export const ChangePasswordDialog = ({ open, forced, onClose }: ChangePasswordDialogProps) => {
  const translate = useTranslate();
  const notify = useNotify();
  const authProvider = useAuthProvider();
  const { http, session, reload } = useConsoleServices();
  const [values, setValues] = useState(EMPTY);
  const [submitted, setSubmitted] = useState(false);
  const [saving, setSaving] = useState(false);
  const errors = submitted ? validateChangePassword(values, session.getStoredPassword()) : {};

  const close = () => {
    if (forced || saving) return;
    setValues(EMPTY);
    setSubmitted(false);
    onClose();
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setSubmitted(true);
    if (saving || hasErrors(validateChangePassword(values, session.getStoredPassword()))) return;
    const { oldPassword, newPassword } = trimPasswords(values);
    setSaving(true);
    try {
      await http.put('/user/password', { oldPassword }, { query: { password: newPassword } });
    } catch {
      setSaving(false); // the http client already showed why
      return;
    }
    session.setForcedPasswordChange(null);
    notify('app.changePassword.success', { type: 'success' });
    // The server revoked every token of the user: sign out and start again from the login page.
    setTimeout(async () => {
      try {
        await authProvider?.logout({});
      } finally {
        reload('/login');
      }
    }, LOGOUT_DELAY_MS);
  };

  const field = (name: keyof ChangePasswordValues, labelKey: string, autoComplete: string, autoFocus = false) => (
    <TranslatedField
      name={name}
      type="password"
      required
      autoFocus={autoFocus}
      autoComplete={autoComplete}
      labelKey={labelKey}
      value={values[name]}
      error={errors[name]}
      hintKey={name === 'newPassword' ? 'app.passwordRule' : undefined}
      onValueChange={(value) => setValues((current) => ({ ...current, [name]: value }))}
      disabled={saving}
    />
  );

  return (
    <Dialog
      open={open}
      // docs/product-rules.md#validation-rules: neither a click outside nor Escape closes it.
      onClose={() => undefined}
      disableEscapeKeyDown
      fullWidth
      maxWidth="xs"
      aria-labelledby="change-password-title"
      slotProps={{ paper: { component: 'form', onSubmit: submit, noValidate: true } as object }}
    >
      <DialogTitle id="change-password-title" sx={{ pr: 6 }}>
        {translate('app.changePassword.title')}
        {!forced && (
          <IconButton aria-label={translate('ra.action.close')} onClick={close} sx={{ position: 'absolute', right: 8, top: 8 }}>
            <CloseIcon />
          </IconButton>
        )}
      </DialogTitle>
      <DialogContent>
        {forced && (
          <Alert severity="warning" sx={{ mb: 1 }}>
            {translate(forced === 'firstLogin' ? 'app.changePassword.firstLogin' : 'app.changePassword.passwordExpired')}
          </Alert>
        )}
        {field('oldPassword', 'app.changePassword.oldPassword', 'current-password', true)}
        {field('newPassword', 'app.changePassword.newPassword', 'new-password')}
        {field('confirmPassword', 'app.changePassword.confirmPassword', 'new-password')}
      </DialogContent>
      <DialogActions>
        {!forced && (
          <Button onClick={close} disabled={saving}>
            {translate('app.changePassword.cancel')}
          </Button>
        )}
        <Button type="submit" variant="contained" disabled={saving}>
          {translate('app.changePassword.submit')}
        </Button>
      </DialogActions>
    </Dialog>
  );
};
