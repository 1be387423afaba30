// The login screen (docs/product-rules.md#screens-and-routes): user name (2 to 8 characters) and password required, remember
// password, link to forgot password. A wrong user name or password also shows the inline tip
// 'userName or password error!' (codes 6 and 2001: docs/product-rules.md#error-catalogue).
// Part of the light signed-out entry (./PublicApp.tsx): nothing here may import react-admin, a router
// or the screens (tests/e2e/lazyLoading.test.ts keeps the login page's download small).
import { useEffect, useState, type FormEvent } from 'react';
import { useTranslate } from 'ra-core';
import { Alert, Box, Button, Checkbox, FormControlLabel, Link } from '@mui/material';
import { ApiError } from '../providers/httpTypes';
import type { LoginParams } from '../providers/authProvider';
import { useConsoleServices } from '../layout/ConsoleServices';
import { loadPasswordCipher } from '../providers/passwordCipher';
import { hasErrors, validateLogin } from './loginRules';
import { PublicFrame } from './PublicFrame';
import { TranslatedField } from './TranslatedField';

const WRONG_CREDENTIALS_CODES = new Set(['6', '2001']);
const FORGOT_PASSWORD_PATH = '/forgotPassword';

export interface LoginFormProps {
  /** Stores the session and hands over to the console; rejects with the server's failure. */
  signIn: (params: Required<LoginParams>) => Promise<unknown>;
  /** Client-side navigation to another public page (no router here: the form is part of the light entry). */
  navigate: (path: string) => void;
}

export const LoginForm = ({ signIn, navigate }: LoginFormProps) => {
  const translate = useTranslate();
  const { session } = useConsoleServices();
  const [values, setValues] = useState(() => ({
    username: session.getRememberedUsername(),
    password: session.getRememberedPassword() ?? '',
  }));
  const [rememberPassword, setRememberPassword] = useState(() => session.getRememberedUsername() !== '');
  // The remembered password is encrypted; the cipher's code is loaded only when there is one to read.
  useEffect(() => {
    if (!session.getRememberedUsername() || session.getRememberedPassword() !== null) return;
    let mounted = true;
    // a chunk that cannot load leaves the field empty: the user types the password
    loadPasswordCipher().then(
      () => {
        const password = session.getRememberedPassword();
        if (mounted && password) setValues((current) => (current.password === '' ? { ...current, password } : current));
      },
      () => undefined,
    );
    return () => {
      mounted = false;
    };
  }, [session]);
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
      await signIn({ username: values.username.trim(), password: values.password, rememberPassword });
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
          <Link
            href={FORGOT_PASSWORD_PATH}
            onClick={(event) => {
              event.preventDefault();
              navigate(FORGOT_PASSWORD_PATH);
            }}
          >
            {translate('app.login.forgotPassword')}
          </Link>
        </Box>
      </Box>
    </PublicFrame>
  );
};
