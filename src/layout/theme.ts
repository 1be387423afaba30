// Light content theme beside the dark sidebar (SPEC section 2), built on react-admin's default.
import { defaultTheme, type RaThemeOptions } from 'react-admin';
import { SIDEBAR_COLORS } from './SideMenu';

export const consoleTheme: RaThemeOptions = {
  ...defaultTheme,
  palette: {
    ...defaultTheme.palette,
    // A darker blue than the sidebar's highlight: enough contrast for text on white.
    primary: { main: '#1f6fd1' },
    secondary: { main: SIDEBAR_COLORS.background },
    background: { default: '#f0f2f5' },
  },
  sidebar: { width: 240, closedWidth: 40 },
  components: {
    ...defaultTheme.components,
    // The list toolbar wraps its buttons below the filters instead of squeezing the filters into a column.
    RaListToolbar: { styleOverrides: { root: { flexWrap: 'wrap' } } },
  },
};
