// The header (docs/product-rules.md#screens-and-routes): sidebar toggle, product name, the account name (home route only),
// the language switch and the greeting with the user drop-down.
import { useTranslate } from 'ra-core';
import { LoadingIndicator } from 'react-admin';
import { useLocation } from 'react-router-dom';
import { AppBar, Box, IconButton, Toolbar, Tooltip, Typography } from '@mui/material';
import MenuIcon from '@mui/icons-material/Menu';
import MenuOpenIcon from '@mui/icons-material/MenuOpen';
import { useConsoleServices } from '../layout/ConsoleServices';
import { LanguageSwitch } from '../layout/LanguageSwitch';
import { UserMenu } from './UserMenu';
import type { SidebarState } from '../layout/sidebarState';

/** The account name area belongs to the home route only (docs/product-rules.md#screens-and-routes). */
export const isHomeRoute = (pathname: string) => pathname === '/index' || pathname.startsWith('/index/');

export const AppHeader = ({ sidebar, onToggleSidebar }: { sidebar: SidebarState; onToggleSidebar: () => void }) => {
  const translate = useTranslate();
  const { pathname } = useLocation();
  const { session } = useConsoleServices();
  const toggleLabel = translate(sidebar.opened ? 'app.header.collapseSidebar' : 'app.header.expandSidebar');
  const accountName = session.getAccountName();
  return (
    <AppBar position="sticky" color="inherit" elevation={1}>
      <Toolbar variant="dense" sx={{ gap: 1, minHeight: 50 }}>
        <Tooltip title={toggleLabel}>
          <IconButton edge="start" onClick={onToggleSidebar} aria-label={toggleLabel} aria-expanded={sidebar.opened} data-testid="sidebar-toggle">
            {sidebar.opened ? <MenuOpenIcon /> : <MenuIcon />}
          </IconButton>
        </Tooltip>
        <Typography component="span" variant="h6" sx={{ fontSize: 18, fontWeight: 600, whiteSpace: 'nowrap' }}>
          {translate('app.title')}
        </Typography>
        {isHomeRoute(pathname) && accountName && (
          <Typography component="span" data-testid="account-name" sx={{ ml: 2, color: 'text.secondary', fontSize: 14, whiteSpace: 'nowrap' }}>
            {translate('app.header.accountName', { name: accountName })}
          </Typography>
        )}
        <Box sx={{ flex: 1 }} />
        <LoadingIndicator />
        <LanguageSwitch />
        <UserMenu />
      </Toolbar>
    </AppBar>
  );
};
