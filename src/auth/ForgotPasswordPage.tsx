// Forgot password: asks for a user name or e-mail, posts it, then always shows the same neutral
// message so the page never tells whether an account exists.
import { useState, type FormEvent } from 'react';
import { useTranslate } from 'ra-core';
import { Link as RouterLink } from 'react-router-dom';
import { Alert, Box, Button, Link, Typography } from '@mui/material';
import { useConsoleServices } from '../layout/ConsoleServices';
import { PublicFrame } from './PublicFrame';
import { TranslatedField } from './TranslatedField';

export const ForgotPasswordPage = () => {
  const translate = useTranslate();
  const { http } = useConsoleServices();
  const [account, setAccount] = useState('');
  const [submitted, setSubmitted] = useState(false);
  const [pending, setPending] = useState(false);
  const [sent, setSent] = useState(false);
  const missing = submitted && account.trim() === '';

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setSubmitted(true);
    if (pending || account.trim() === '') return;
    setPending(true);
    try {
      await http.post('/login/forgotPassword', { account: account.trim() });
      setSent(true);
    } catch {
      // the http client showed why (network, too many requests, ...)
    } finally {
      setPending(false);
    }
  };

  return (
    <PublicFrame titleKey="app.forgotPassword.title">
      {sent ? (
        <Alert severity="success" role="status">
          {translate('app.forgotPassword.sent')}
        </Alert>
      ) : (
        <Box component="form" onSubmit={submit} noValidate>
          <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
            {translate('app.forgotPassword.intro')}
          </Typography>
          <TranslatedField
            name="account"
            autoComplete="username"
            autoFocus
            required
            labelKey="app.forgotPassword.account"
            value={account}
            error={missing ? { key: 'validation.required' } : undefined}
            onValueChange={setAccount}
          />
          <Button type="submit" variant="contained" fullWidth disabled={pending} sx={{ mt: 1 }}>
            {translate('app.forgotPassword.submit')}
          </Button>
        </Box>
      )}
      <Box sx={{ mt: 2 }}>
        <Link component={RouterLink} to="/login">
          {translate('app.forgotPassword.backToLogin')}
        </Link>
      </Box>
    </PublicFrame>
  );
};
