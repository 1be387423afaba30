// Heading of a menu screen: its translated menu title.
import { useTranslate } from 'ra-core';
import { Typography } from '@mui/material';
import type { MenuNode } from '../../resources/menu';

export const ScreenHeading = ({ node }: { node: MenuNode }) => {
  const translate = useTranslate();
  return (
    <Typography component="h1" variant="h5" sx={{ mb: 2 }}>
      {translate(`menu.${node.key}`)}
    </Typography>
  );
};
