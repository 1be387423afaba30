// The left menu (docs/product-rules.md#menu-tree): dark, built from resources/menu.ts filtered by
// docs/product-rules.md#permission-model (canAccess, ./useListedMenu.ts).
// Expanded (240 px): icons and titles, parents expand/collapse their children in place.
// Collapsed (40 px): icons only with tooltips; a parent opens its children in a pop-up menu.
import { useEffect, useState, type MouseEvent } from 'react';
import { Link, useLocation } from 'react-router-dom';
import { useTranslate } from 'ra-core';
import { Box, Collapse, List, ListItem, ListItemButton, ListItemIcon, ListItemText, Menu, MenuItem, Tooltip } from '@mui/material';
import ExpandLess from '@mui/icons-material/ExpandLess';
import ExpandMore from '@mui/icons-material/ExpandMore';
import type { MenuNode } from '../../resources/menu';
import { useListedMenu } from './useListedMenu';
import { isActiveRoute } from '../layout/menuHighlight';
import { MenuIcon } from '../layout/menuIcons';
import type { SidebarState } from '../layout/sidebarState';

import { SIDEBAR_COLORS } from '../layout/sidebarColors';

export { SIDEBAR_COLORS };

const itemSx = (depth: number, collapsed: boolean) => ({
  minHeight: 44,
  pl: collapsed ? '8px' : `${12 + depth * 16}px`,
  pr: collapsed ? '8px' : '12px',
  color: SIDEBAR_COLORS.text,
  '&:hover': { bgcolor: SIDEBAR_COLORS.hover },
  '&.Mui-focusVisible': { bgcolor: SIDEBAR_COLORS.hover, outline: `2px solid ${SIDEBAR_COLORS.active}`, outlineOffset: -2 },
  '&.Mui-selected, &.Mui-selected:hover': { bgcolor: SIDEBAR_COLORS.hover, color: SIDEBAR_COLORS.active },
  '& .MuiListItemIcon-root': { color: 'inherit', minWidth: collapsed ? 24 : 32, justifyContent: 'center' },
});

const containsActive = (node: MenuNode, pathname: string): boolean => isActiveRoute(node.route, pathname) || node.children.some((child) => containsActive(child, pathname));

/** Descendants that can be opened, flattened for the collapsed pop-up menu. */
const linkedDescendants = (node: MenuNode, depth = 0): Array<{ node: MenuNode; depth: number }> =>
  node.children.flatMap((child) => [...(child.route ? [{ node: child, depth }] : []), ...linkedDescendants(child, depth + 1)]);

interface EntryProps {
  node: MenuNode;
  depth: number;
  collapsed: boolean;
  pathname: string;
}

const LeafEntry = ({ node, depth, collapsed, pathname }: EntryProps) => {
  const translate = useTranslate();
  const title = translate(`menu.${node.key}`);
  return (
    <Tooltip title={title} placement="right" disableHoverListener={!collapsed} disableFocusListener={!collapsed}>
      <ListItemButton
        component={Link}
        to={node.route ?? '#'}
        selected={isActiveRoute(node.route, pathname)}
        aria-label={collapsed ? title : undefined}
        data-menu-key={node.key}
        sx={itemSx(depth, collapsed)}
      >
        <ListItemIcon>
          <MenuIcon node={node} />
        </ListItemIcon>
        {!collapsed && <ListItemText primary={title} slotProps={{ primary: { fontSize: 14 } }} />}
      </ListItemButton>
    </Tooltip>
  );
};

const ParentEntry = ({ node, depth, collapsed, pathname }: EntryProps) => {
  const translate = useTranslate();
  const title = translate(`menu.${node.key}`);
  const active = containsActive(node, pathname);
  const [expanded, setExpanded] = useState(active);
  // Navigating into an area (link, back button, typed URL) opens it; leaving does not close it.
  useEffect(() => {
    if (active) setExpanded(true);
  }, [active]);
  const [popupAnchor, setPopupAnchor] = useState<HTMLElement | null>(null);
  const listId = `menu-children-${node.identifier.replace(/[^A-Za-z0-9]/g, '-')}`;

  if (collapsed) {
    return (
      <>
        <Tooltip title={title} placement="right">
          <ListItemButton
            selected={active}
            aria-label={title}
            aria-haspopup="menu"
            aria-expanded={Boolean(popupAnchor)}
            aria-controls={popupAnchor ? listId : undefined}
            data-menu-key={node.key}
            onClick={(event: MouseEvent<HTMLElement>) => setPopupAnchor(event.currentTarget)}
            sx={itemSx(depth, true)}
          >
            <ListItemIcon>
              <MenuIcon node={node} />
            </ListItemIcon>
          </ListItemButton>
        </Tooltip>
        <Menu
          id={listId}
          anchorEl={popupAnchor}
          open={Boolean(popupAnchor)}
          onClose={() => setPopupAnchor(null)}
          anchorOrigin={{ vertical: 'top', horizontal: 'right' }}
          transformOrigin={{ vertical: 'top', horizontal: 'left' }}
          slotProps={{ paper: { sx: { bgcolor: SIDEBAR_COLORS.background, color: SIDEBAR_COLORS.text, maxHeight: '80vh' } } }}
        >
          {linkedDescendants(node).map(({ node: child, depth: childDepth }) => (
            <MenuItem
              key={child.identifier}
              component={Link}
              to={child.route ?? '#'}
              selected={isActiveRoute(child.route, pathname)}
              onClick={() => setPopupAnchor(null)}
              sx={{ pl: 2 + childDepth * 2, fontSize: 14, '&.Mui-selected': { color: SIDEBAR_COLORS.active } }}
            >
              {translate(`menu.${child.key}`)}
            </MenuItem>
          ))}
        </Menu>
      </>
    );
  }

  return (
    <>
      <ListItemButton
        onClick={() => setExpanded((value) => !value)}
        aria-expanded={expanded}
        aria-controls={listId}
        data-menu-key={node.key}
        sx={{ ...itemSx(depth, false), ...(active ? { color: '#f4f4f5' } : {}) }}
      >
        <ListItemIcon>
          <MenuIcon node={node} />
        </ListItemIcon>
        <ListItemText primary={title} slotProps={{ primary: { fontSize: 14 } }} />
        {expanded ? <ExpandLess fontSize="small" /> : <ExpandMore fontSize="small" />}
      </ListItemButton>
      <Collapse in={expanded} timeout="auto" unmountOnExit>
        <List id={listId} disablePadding sx={{ bgcolor: SIDEBAR_COLORS.nested }}>
          <MenuEntries nodes={node.children} depth={depth + 1} collapsed={false} pathname={pathname} />
        </List>
      </Collapse>
    </>
  );
};

/** Each entry is a list item (`<li>`) of its `<ul>`: a parent's item also holds its sub-list. */
const MenuEntries = ({ nodes, ...rest }: Omit<EntryProps, 'node'> & { nodes: MenuNode[] }) => (
  <>
    {nodes.map((node) => (
      <ListItem key={node.identifier} disablePadding sx={{ display: 'block' }}>
        {node.children.length > 0 ? <ParentEntry node={node} {...rest} /> : <LeafEntry node={node} {...rest} />}
      </ListItem>
    ))}
  </>
);

export const SideMenu = ({ sidebar }: { sidebar: SidebarState }) => {
  const translate = useTranslate();
  const { pathname } = useLocation();
  // resources/menu.ts plus an entry per configured resource type (issue 9) under its menu parent
  const nodes = useListedMenu();
  return (
    <Box
      component="nav"
      aria-label={translate('app.header.mainMenu')}
      data-testid="sidebar"
      data-collapsed={sidebar.collapse}
      sx={{
        width: sidebar.width,
        flexShrink: 0,
        position: 'sticky',
        top: 0,
        height: '100vh',
        overflowX: 'hidden',
        overflowY: 'auto',
        bgcolor: SIDEBAR_COLORS.background,
        transition: 'width 0.2s',
      }}
    >
      <List disablePadding>
        <MenuEntries nodes={nodes} depth={0} collapsed={sidebar.collapse} pathname={pathname} />
      </List>
    </Box>
  );
};
