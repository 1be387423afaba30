// Header greeting with the user's drop-down: Edit Password, the current license account (opens the
// switch dialog) and Exit (logout, then a reload on the login page). The greeting is text and the
// drop-down's button is the chevron beside it, named "User menu": a button showing the greeting but
// named otherwise would contradict what a speech-input user sees (WCAG 2.5.3, label in name).
import { useId, useState } from 'react';
import { useAuthProvider, useTranslate } from 'ra-core';
import { Box, Divider, IconButton, ListItemIcon, ListItemText, Menu, MenuItem, Typography } from '@mui/material';
import ExpandMore from '@mui/icons-material/ExpandMore';
import PasswordIcon from '@mui/icons-material/Password';
import SwapIcon from '@mui/icons-material/SwapHoriz';
import LogoutIcon from '@mui/icons-material/Logout';
import { useAccountDialogs } from '../auth/AccountDialogs';
import { useConsoleServices } from '../layout/ConsoleServices';

export const UserMenu = () => {
  const translate = useTranslate();
  const authProvider = useAuthProvider();
  const { session, reload } = useConsoleServices();
  const { openChangePassword, openSwitchAccount } = useAccountDialogs();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const menuId = useId();
  const accountName = session.getAccountName();

  const choose = (action: () => void) => () => {
    setAnchor(null);
    action();
  };
  const logout = async () => {
    try {
      await authProvider?.logout({});
    } finally {
      reload('/login');
    }
  };

  return (
    <>
      <Box sx={{ display: 'flex', alignItems: 'center' }}>
        <Typography component="span" sx={{ fontSize: 14, fontWeight: 500, whiteSpace: 'nowrap', pl: 1 }}>
          {translate('app.header.greeting', { name: session.getRealName() })}
        </Typography>
        <IconButton
          color="inherit"
          size="small"
          aria-haspopup="menu"
          aria-controls={anchor ? menuId : undefined}
          aria-expanded={Boolean(anchor)}
          aria-label={translate('app.header.userMenu')}
          data-testid="user-menu"
          onClick={(event) => setAnchor(event.currentTarget)}
        >
          <ExpandMore />
        </IconButton>
      </Box>
      <Menu
        id={menuId}
        anchorEl={anchor}
        open={Boolean(anchor)}
        onClose={() => setAnchor(null)}
        anchorOrigin={{ vertical: 'bottom', horizontal: 'right' }}
        transformOrigin={{ vertical: 'top', horizontal: 'right' }}
      >
        <MenuItem onClick={choose(openChangePassword)}>
          <ListItemIcon>
            <PasswordIcon fontSize="small" />
          </ListItemIcon>
          <ListItemText>{translate('app.header.editPassword')}</ListItemText>
        </MenuItem>
        <MenuItem onClick={choose(openSwitchAccount)} data-testid="license-account">
          <ListItemIcon>
            <SwapIcon fontSize="small" />
          </ListItemIcon>
          <ListItemText>{translate('app.header.licenseAccount', { name: accountName || '—' })}</ListItemText>
        </MenuItem>
        <Divider />
        <MenuItem onClick={choose(() => void logout())}>
          <ListItemIcon>
            <LogoutIcon fontSize="small" />
          </ListItemIcon>
          <ListItemText>{translate('app.header.logout')}</ListItemText>
        </MenuItem>
      </Menu>
    </>
  );
};
