// Reset password from the e-mailed link (/resetPassword?token=...): the link is checked first (a used,
// expired or unknown one says so, with a way to request a new one, instead of a form that can only
// fail), then new password and confirmation under the password rule (docs/product-rules.md#validation-rules), then back to the login page.
import { useEffect, useState, type FormEvent } from 'react';
import { useNotify, useTranslate } from 'ra-core';
import { Link as RouterLink, useNavigate, useSearchParams } from 'react-router-dom';
import { Alert, Box, Button, CircularProgress, Link, Typography } from '@mui/material';
import { useConsoleServices } from '../layout/ConsoleServices';
import { hasErrors, validateNewPassword } from './passwordRules';
import { PublicFrame } from './PublicFrame';
import { TranslatedField } from './TranslatedField';

export const ResetPasswordPage = () => {
  const translate = useTranslate();
  const notify = useNotify();
  const navigate = useNavigate();
  const { http } = useConsoleServices();
  const [searchParams] = useSearchParams();
  const token = searchParams.get('token') ?? '';
  const [values, setValues] = useState({ password: '', confirmPassword: '' });
  const [submitted, setSubmitted] = useState(false);
  const [pending, setPending] = useState(false);
  const errors = submitted ? validateNewPassword(values) : {};
  const linkState = useLinkState(token);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setSubmitted(true);
    if (pending || hasErrors(validateNewPassword(values))) return;
    setPending(true);
    try {
      await http.post('/login/resetPassword', { token, ...values });
      notify('app.resetPassword.success', { type: 'success' });
      void navigate('/login', { replace: true });
    } catch {
      setPending(false); // the http client showed why (e.g. the link expired)
    }
  };

  return (
    <PublicFrame titleKey="app.resetPassword.title">
      {linkState === 'checking' ? (
        <Box role="status" sx={{ display: 'flex', alignItems: 'center', gap: 1 }}>
          <CircularProgress size={20} />
          <Typography variant="body2">{translate('app.resetPassword.checking')}</Typography>
        </Box>
      ) : linkState === 'invalid' ? (
        <>
          <Alert severity="error">{translate('app.resetPassword.invalidLink')}</Alert>
          <Button component={RouterLink} to="/forgotPassword" variant="contained" fullWidth sx={{ mt: 2 }}>
            {translate('app.resetPassword.requestNew')}
          </Button>
        </>
      ) : (
        <Box component="form" onSubmit={submit} noValidate>
          <TranslatedField
            name="password"
            type="password"
            autoComplete="new-password"
            autoFocus
            required
            labelKey="app.resetPassword.newPassword"
            hintKey="app.passwordRule"
            value={values.password}
            error={errors.password}
            onValueChange={(password) => setValues((current) => ({ ...current, password }))}
          />
          <TranslatedField
            name="confirmPassword"
            type="password"
            autoComplete="new-password"
            required
            labelKey="app.resetPassword.confirmPassword"
            value={values.confirmPassword}
            error={errors.confirmPassword}
            onValueChange={(confirmPassword) => setValues((current) => ({ ...current, confirmPassword }))}
          />
          <Button type="submit" variant="contained" fullWidth disabled={pending} sx={{ mt: 1 }}>
            {translate('app.resetPassword.submit')}
          </Button>
        </Box>
      )}
      <Box sx={{ mt: 2 }}>
        <Link component={RouterLink} to="/login">
          {translate('app.resetPassword.backToLogin')}
        </Link>
      </Box>
    </PublicFrame>
  );
};

type LinkState = 'checking' | 'valid' | 'invalid';

/** Asks the server whether the link's token is still usable; a failed check shows the form (the reset itself decides). */
const useLinkState = (token: string): LinkState => {
  const { http } = useConsoleServices();
  const [state, setState] = useState<LinkState>(token ? 'checking' : 'invalid');
  useEffect(() => {
    if (!token) return;
    let current = true;
    http.get<{ valid: boolean }>('/login/resetPassword/check', { token }, { silent: true }).then(
      (answer) => current && setState(answer?.valid === false ? 'invalid' : 'valid'),
      () => current && setState('valid'),
    );
    return () => {
      current = false;
    };
  }, [http, token]);
  return state;
};
