// SPEC section 2 login screen: user name (2 to 8 characters) and password required, remember
// password, link to forgot password. A wrong user name or password also shows the inline tip
// 'userName or password error!' (codes 6 and, per SPEC 8's second reading, 2001).
import { useState, type FormEvent } from 'react';
import { useLogin, useTranslate } from 'ra-core';
import { Link as RouterLink } from 'react-router-dom';
import { Alert, Box, Button, Checkbox, FormControlLabel, Link } from '@mui/material';
import { ApiError } from '../providers/httpTypes';
import { useConsoleServices } from '../layout/ConsoleServices';
import { hasErrors, validateLogin } from './passwordRules';
import { PublicFrame } from './PublicFrame';
import { TranslatedField } from './TranslatedField';

const WRONG_CREDENTIALS_CODES = new Set(['6', '2001']);

export const LoginPage = () => {
  const translate = useTranslate();
  const login = useLogin();
  const { session } = useConsoleServices();
  const [values, setValues] = useState(() => ({
    username: session.getRememberedUsername(),
    password: session.getRememberedPassword() ?? '',
  }));
  const [rememberPassword, setRememberPassword] = useState(() => session.getRememberedUsername() !== '');
  const [submitted, setSubmitted] = useState(false);
  const [pending, setPending] = useState(false);
  const [wrongCredentials, setWrongCredentials] = useState(false);
  const errors = submitted ? validateLogin(values) : {};

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setSubmitted(true);
    setWrongCredentials(false);
    if (pending || hasErrors(validateLogin(values))) return;
    setPending(true);
    try {
      await login({ username: values.username.trim(), password: values.password, rememberPassword });
    } catch (error) {
      setWrongCredentials(error instanceof ApiError && WRONG_CREDENTIALS_CODES.has(error.code));
      setPending(false);
    }
  };

  return (
    <PublicFrame titleKey="app.login.title">
      <Box component="form" onSubmit={submit} noValidate>
        {wrongCredentials && (
          <Alert severity="error" sx={{ mb: 1 }} role="alert">
            {translate('errors.loginFailed')}
          </Alert>
        )}
        <TranslatedField
          name="username"
          autoComplete="username"
          autoFocus={values.username === ''}
          required
          labelKey="app.login.username"
          value={values.username}
          error={errors.username}
          onValueChange={(username) => setValues((current) => ({ ...current, username }))}
        />
        <TranslatedField
          name="password"
          type="password"
          autoComplete="current-password"
          autoFocus={values.username !== ''}
          required
          labelKey="app.login.password"
          value={values.password}
          error={errors.password}
          onValueChange={(password) => setValues((current) => ({ ...current, password }))}
        />
        <FormControlLabel
          control={<Checkbox name="rememberPassword" checked={rememberPassword} onChange={(event) => setRememberPassword(event.target.checked)} />}
          label={translate('app.login.rememberPassword')}
        />
        <Button type="submit" variant="contained" fullWidth disabled={pending} sx={{ mt: 1 }}>
          {translate('app.login.submit')}
        </Button>
        <Box sx={{ mt: 2, textAlign: 'right' }}>
          <Link component={RouterLink} to="/forgotPassword">
            {translate('app.login.forgotPassword')}
          </Link>
        </Box>
      </Box>
    </PublicFrame>
  );
};
