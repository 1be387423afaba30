// The home route /index/index: a welcome page until the dashboard issue replaces it in ./screens.ts.
import { useTranslate } from 'ra-core';
import { Paper, Typography } from '@mui/material';
import { useConsoleServices } from '../layout/ConsoleServices';

export const HomePage = () => {
  const translate = useTranslate();
  const { session } = useConsoleServices();
  const accountName = session.getAccountName();
  return (
    <Paper sx={{ p: 3 }} data-testid="home">
      <Typography component="h1" variant="h5" sx={{ mb: 1 }}>
        {translate('app.home.welcome', { name: session.getRealName() })}
      </Typography>
      {accountName && <Typography sx={{ mb: 1 }}>{translate('app.home.account', { name: accountName })}</Typography>}
      <Typography color="text.secondary">{translate('app.home.intro')}</Typography>
    </Paper>
  );
};
