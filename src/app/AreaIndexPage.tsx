// The page of a menu area's own route (e.g. /service/serviceManager): links to the area's screens
// the user may open.
import { useMemo } from 'react';
import { useTranslate } from 'ra-core';
import { Link as RouterLink } from 'react-router-dom';
import { List, ListItem, ListItemButton, ListItemIcon, ListItemText, Paper, Typography } from '@mui/material';
import type { MenuNode } from '../../resources/menu';
import { MenuIcon } from '../layout/menuIcons';
import { useListedMenu } from './useListedMenu';
import type { ScreenProps } from '../pages/screenProps';
import { ScreenHeading } from '../pages/ScreenHeading';

const findVisible = (nodes: MenuNode[], identifier: string): MenuNode | undefined => {
  for (const node of nodes) {
    if (node.identifier === identifier) return node;
    const found = findVisible(node.children, identifier);
    if (found) return found;
  }
  return undefined;
};

export const AreaIndexPage = ({ node }: ScreenProps) => {
  const translate = useTranslate();
  // with the configured resource types' entries (issue 9), as the sidebar shows them
  const listed = useListedMenu();
  const children = useMemo(() => (findVisible(listed, node.identifier)?.children ?? []).filter((child) => child.route), [listed, node.identifier]);
  return (
    <Paper sx={{ p: 3 }}>
      <ScreenHeading node={node} />
      <Typography sx={{ mb: 1 }}>{translate(children.length > 0 ? 'app.area.intro' : 'app.area.empty')}</Typography>
      <List dense sx={{ maxWidth: 480 }}>
        {children.map((child) => (
          <ListItem key={child.identifier} disablePadding>
            <ListItemButton component={RouterLink} to={child.route ?? '#'}>
              <ListItemIcon sx={{ minWidth: 32 }}>
                <MenuIcon node={child} />
              </ListItemIcon>
              <ListItemText primary={translate(`menu.${child.key}`)} />
            </ListItemButton>
          </ListItem>
        ))}
      </List>
    </Paper>
  );
};
