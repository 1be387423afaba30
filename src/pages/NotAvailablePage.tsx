// The honest stand-in for a menu screen nobody has built yet (registry in ./screens.ts).
import { useTranslate } from 'ra-core';
import { Alert, AlertTitle, Paper } from '@mui/material';
import ConstructionIcon from '@mui/icons-material/Construction';
import type { ScreenProps } from './screenProps';
import { ScreenHeading } from './ScreenHeading';

export const NotAvailablePage = ({ node }: ScreenProps) => {
  const translate = useTranslate();
  return (
    <Paper sx={{ p: 3 }} data-testid="not-available" data-menu-key={node.key}>
      <ScreenHeading node={node} />
      <Alert severity="info" icon={<ConstructionIcon />}>
        <AlertTitle>{translate('app.notAvailable.message')}</AlertTitle>
        {translate('app.notAvailable.detail')}
      </Alert>
    </Paper>
  );
};
