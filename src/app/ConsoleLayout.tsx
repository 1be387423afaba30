// The layout (docs/product-rules.md#screens-and-routes): dark narrow left menu, header bar, content area whose width is the window
// width minus the sidebar width minus 20 px. Hosts the account dialogs.
import { useReducer, type ReactNode } from 'react';
import { Loading, SkipNavigationButton } from 'react-admin';
import { useLocation } from 'react-router-dom';
import { Box, Typography } from '@mui/material';
import { AccountDialogsProvider, useAccountDialogs } from '../auth/AccountDialogs';
import { AppHeader } from './AppHeader';
import { ScreenErrorBoundary } from '../layout/ScreenErrorBoundary';
import { WithScreenTexts } from '../layout/ScreenTexts';
import { SideMenu } from './SideMenu';
import { CONTENT_GAP, useSidebarState } from '../layout/sidebarState';
import { useSessionRefresh } from './useSessionRefresh';
import { ChunkSuspense } from '../pages/ChunkBoundary';
import { HOME_ROUTE } from './screens';

// The home dashboard's cards render with the console's own texts; any other screen waits for the screens' (./ScreenTexts.tsx).
const HOME_PATHS: ReadonlySet<string> = new Set(['/', HOME_ROUTE]);
const ScreenTextsGate = ({ pathname, children }: { pathname: string; children: ReactNode }) =>
  HOME_PATHS.has(pathname.replace(/\/+$/, '') || '/') ? children : <WithScreenTexts>{children}</WithScreenTexts>;

const Shell = ({ children }: { children: ReactNode }) => {
  const [sidebar, toggleSidebar] = useSidebarState();
  const { pathname } = useLocation();
  const { passwordChangeForced } = useAccountDialogs();
  const [, rerender] = useReducer((count: number) => count + 1, 0);
  useSessionRefresh(rerender);
  return (
    <Box sx={{ display: 'flex', minHeight: '100vh', bgcolor: '#f0f2f5' }} data-testid="layout">
      <SkipNavigationButton />
      <SideMenu sidebar={sidebar} />
      <Box sx={{ flex: 1, minWidth: 0, display: 'flex', flexDirection: 'column' }}>
        <AppHeader sidebar={sidebar} onToggleSidebar={toggleSidebar} />
        <Box
          component="main"
          id="main-content"
          tabIndex={-1}
          data-testid="content"
          // the route the content shows (committed with it), for tests waiting for a screen after a navigation
          data-path={pathname}
          sx={{
            width: `calc(100vw - ${sidebar.width}px - ${CONTENT_GAP}px)`,
            p: 2,
            boxSizing: 'border-box',
            outline: 'none',
          }}
        >
          {/* react-admin's page title (list, show, edit, create) is portalled here; hidden when empty */}
          <Typography component="h1" variant="h5" id="react-admin-title" data-testid="page-title" sx={{ mb: 1, '&:empty': { display: 'none' } }} />
          {/* behind a forced password change no screen: its calls would be refused and show errors under the dialog */}
          {!passwordChangeForced && (
            <ScreenErrorBoundary resetKey={pathname}>
              <ChunkSuspense fallback={<Loading />}>
                <ScreenTextsGate pathname={pathname}>{children}</ScreenTextsGate>
              </ChunkSuspense>
            </ScreenErrorBoundary>
          )}
        </Box>
      </Box>
    </Box>
  );
};

export const ConsoleLayout = ({ children }: { children?: ReactNode }) => (
  <AccountDialogsProvider>
    <Shell>{children}</Shell>
  </AccountDialogsProvider>
);
