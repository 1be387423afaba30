// The toast area of the signed-out pages (react-admin's <Notification> comes with the console): the
// http client's toasts (./notifySink.ts) and ra-core's useNotify, one at a time, in a MUI snackbar of
// the toast's colour. The message is translated (an i18n key or an already translated text). The
// snackbar's code (with its transitions) comes with the first toast, not with the login page (issue 8).
import { lazy, useEffect, useState } from 'react';
import { useNotificationContext, useNotify, useTranslate, type NotificationPayload } from 'ra-core';
import { registerNotifySink } from './notifySink';
import { ChunkErrorBoundary, ChunkSuspense } from '../pages/ChunkBoundary';

const Snackbar = lazy(() => import('@mui/material/Snackbar'));

const DEFAULT_DURATION_MS = 4000;

export const PublicNotification = () => {
  const translate = useTranslate();
  const notify = useNotify();
  const { notifications, takeNotification } = useNotificationContext();
  const [shown, setShown] = useState<NotificationPayload | undefined>();
  const [open, setOpen] = useState(false);

  useEffect(() => registerNotifySink((message, options) => notify(message, { ...options, messageArgs: { _: message } })), [notify]);
  useEffect(() => {
    if (notifications.length > 0 && !open) {
      setShown(takeNotification() ?? undefined);
      setOpen(true);
    }
  }, [notifications, open, takeNotification]);

  if (!shown) return null;
  const { type, message, notificationOptions = {} } = shown;
  const { autoHideDuration = DEFAULT_DURATION_MS, messageArgs } = notificationOptions;
  const text = typeof message === 'string' ? translate(message, messageArgs) : message;
  const color = type === 'error' || type === 'success' || type === 'warning' || type === 'info' ? type : 'info';
  return (
    <ChunkErrorBoundary>
      <ChunkSuspense fallback={null}>
        <Snackbar
          open={open}
          message={text}
          anchorOrigin={{ vertical: 'bottom', horizontal: 'center' }}
          autoHideDuration={autoHideDuration ?? null}
          onClose={(_event, reason) => reason !== 'clickaway' && setOpen(false)}
          slotProps={{
            transition: { onExited: () => setShown(undefined) },
            content: { sx: (theme) => ({ bgcolor: theme.palette[color].main, color: theme.palette[color].contrastText }) },
          }}
        />
      </ChunkSuspense>
    </ChunkErrorBoundary>
  );
};
