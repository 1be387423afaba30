// /404 and /401 (docs/product-rules.md#screens-and-routes): a message and a back-to-homepage link.
import { useTranslate } from 'ra-core';
import { Link as RouterLink } from 'react-router-dom';
import { Box, Button, Typography } from '@mui/material';
import { HOME_PATH } from '../providers/routeGuard';

const StatusPage = ({ section }: { section: 'notFound' | 'noPermission' }) => {
  const translate = useTranslate();
  return (
    <Box component="main" sx={{ minHeight: '100vh', display: 'flex', flexDirection: 'column', alignItems: 'center', justifyContent: 'center', gap: 2, p: 2, textAlign: 'center' }}>
      <Typography component="h1" variant="h1" color="primary" sx={{ fontWeight: 700 }}>
        {translate(`app.${section}.title`)}
      </Typography>
      <Typography variant="h6" component="p">
        {translate(`app.${section}.message`)}
      </Typography>
      <Button component={RouterLink} to={HOME_PATH} variant="contained">
        {translate(`app.${section}.backHome`)}
      </Button>
    </Box>
  );
};

export const NotFoundPage = () => <StatusPage section="notFound" />;
export const NoPermissionPage = () => <StatusPage section="noPermission" />;
