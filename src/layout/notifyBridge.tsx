// The http client lives outside React but its toasts must go through react-admin's notification
// queue. <BridgedNotification> (the Admin's `notification` component, mounted on every page,
// the login page included) registers react-admin's notify as the sink; earlier toasts wait.
import { useEffect } from 'react';
import { useNotify } from 'ra-core';
import { Notification } from 'react-admin';
import type { Notify } from '../providers/http';

type Pending = Parameters<Notify>;
let sink: Notify | null = null;
const pending: Pending[] = [];

export const bridgedNotify: Notify = (message, options) => {
  if (sink) sink(message, options);
  else pending.push([message, options]);
};

export const BridgedNotification = () => {
  const notify = useNotify();
  useEffect(() => {
    // `_` makes polyglot show the already translated text as is, without a missing-key lookup.
    sink = (message, options) => notify(message, { ...options, messageArgs: { _: message } });
    for (const [message, options] of pending.splice(0)) sink(message, options);
    return () => {
      sink = null;
    };
  }, [notify]);
  return <Notification />;
};
