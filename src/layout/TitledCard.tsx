// An outlined card with its title as a level-2 heading (screen sections: machine overview, dashboard charts).
import type { ReactNode } from 'react';
import { Card, CardContent, Typography } from '@mui/material';

export const TitledCard = ({ title, children, testId }: { title: string; children: ReactNode; testId?: string }) => (
  <Card variant="outlined" data-testid={testId} sx={{ minWidth: 0 }}>
    <CardContent>
      <Typography component="h2" variant="subtitle1" sx={{ fontWeight: 600, mb: 1 }}>
        {title}
      </Typography>
      {children}
    </CardContent>
  </Card>
);
