// Loading, error and empty states shared by the installation screens (every state announced to
// screen readers; the error offers a retry).
import type { ReactNode } from 'react';
import { useTranslate } from 'ra-core';
import { Alert, Box, Button, CircularProgress, Typography } from '@mui/material';

export const Loading = ({ label }: { label?: string }) => {
  const translate = useTranslate();
  return (
    <Box role="status" aria-live="polite" sx={{ display: 'flex', alignItems: 'center', gap: 1, p: 2 }} data-testid="loading">
      <CircularProgress size={20} />
      <Typography variant="body2" color="text.secondary">
        {label ?? translate('installation.common.loading')}
      </Typography>
    </Box>
  );
};

export const LoadError = ({ onRetry, message }: { onRetry?: () => void; message?: string }) => {
  const translate = useTranslate();
  return (
    <Alert
      severity="error"
      data-testid="load-error"
      action={
        onRetry ? (
          <Button color="inherit" size="small" onClick={onRetry}>
            {translate('installation.common.retry')}
          </Button>
        ) : undefined
      }
    >
      {message ?? translate('installation.common.loadFailed')}
    </Alert>
  );
};

export const EmptyState = ({ children }: { children: ReactNode }) => (
  <Typography color="text.secondary" sx={{ p: 2 }} data-testid="empty">
    {children}
  </Typography>
);

export interface LoadStateProps {
  isPending: boolean;
  error: unknown;
  onRetry?: () => void;
  /** Whether there is something to show (false shows `empty` once loaded). */
  hasData: boolean;
  empty?: ReactNode;
  children: ReactNode;
}

/** Error, first load, empty or the content (a reload keeps the content on screen). */
export const LoadState = ({ isPending, error, onRetry, hasData, empty, children }: LoadStateProps) => {
  if (error) return <LoadError onRetry={onRetry} />;
  if (isPending && !hasData) return <Loading />;
  if (!hasData) return <>{empty ?? null}</>;
  return <>{children}</>;
};
