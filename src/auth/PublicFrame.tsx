// Frame of the pages a signed-out user sees (login, forgot and reset password): a centred card on
// the sidebar's dark colour, with the product name and the language switch.
import type { ReactNode } from 'react';
import { useTranslate } from 'ra-core';
import { Box, Card, CardContent, Typography } from '@mui/material';
import { LanguageButton } from '../layout/LanguageButton';
import { SIDEBAR_COLORS } from '../layout/sidebarColors';

export const PublicFrame = ({ titleKey, children }: { titleKey: string; children: ReactNode }) => {
  const translate = useTranslate();
  return (
    <Box
      component="main"
      sx={{
        minHeight: '100vh',
        display: 'flex',
        flexDirection: 'column',
        alignItems: 'center',
        justifyContent: 'center',
        bgcolor: '#2d3a4b',
        px: 2,
      }}
    >
      <Box sx={{ position: 'absolute', top: 12, right: 16, color: SIDEBAR_COLORS.text }}>
        {/* the title describes the button as the header's tooltip does (its name stays its visible text) */}
        <LanguageButton title={translate('app.language.label')} />
      </Box>
      <Typography component="p" variant="h4" sx={{ color: '#eee', fontWeight: 600, mb: 3, textAlign: 'center' }}>
        {translate('app.title')}
      </Typography>
      <Card sx={{ width: '100%', maxWidth: 400 }}>
        <CardContent sx={{ p: 3 }}>
          <Typography component="h1" variant="h6" sx={{ mb: 2 }}>
            {translate(titleKey)}
          </Typography>
          {children}
        </CardContent>
      </Card>
    </Box>
  );
};
