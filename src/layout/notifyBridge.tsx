// The http client's toasts through react-admin's notification queue. <BridgedNotification> (the
// Admin's `notification` component, mounted on every page of the console) registers react-admin's
// notify as the sink of ./notifySink.ts; earlier toasts wait.
import { useEffect } from 'react';
import { useNotify } from 'ra-core';
import { Notification } from 'react-admin';
import { registerNotifySink } from './notifySink';

export { bridgedNotify } from './notifySink';

export const BridgedNotification = () => {
  const notify = useNotify();
  // `_` makes polyglot show the already translated text as is, without a missing-key lookup.
  useEffect(() => registerNotifySink((message, options) => notify(message, { ...options, messageArgs: { _: message } })), [notify]);
  return <Notification />;
};
