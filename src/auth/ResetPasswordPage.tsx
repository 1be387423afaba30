// Reset password from the e-mailed link (/resetPassword?token=...): new password and confirmation
// under SPEC section 5's rule, then back to the login page.
import { useState, type FormEvent } from 'react';
import { useNotify, useTranslate } from 'ra-core';
import { Link as RouterLink, useNavigate, useSearchParams } from 'react-router-dom';
import { Alert, Box, Button, Link } from '@mui/material';
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

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setSubmitted(true);
    if (pending || hasErrors(validateNewPassword(values))) return;
    setPending(true);
    try {
      await http.post('/login/resetPassword', { token, ...values });
      notify('app.resetPassword.success', { type: 'success' });
      navigate('/login', { replace: true });
    } catch {
      setPending(false); // the http client showed why (e.g. the link expired)
    }
  };

  return (
    <PublicFrame titleKey="app.resetPassword.title">
      {token === '' ? (
        <Alert severity="error">{translate('errors.4006')}</Alert>
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
