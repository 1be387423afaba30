// The http client lives outside React; its toasts go to whichever toast area is mounted (react-admin's
// in the console, ./PublicNotification.tsx on the signed-out pages). Toasts before one is mounted wait.
// No React or react-admin here, so the login page's bundle does not carry react-admin's notification.
import type { Notify } from '../providers/http';

type Pending = Parameters<Notify>;
let sink: Notify | null = null;
const pending: Pending[] = [];

export const bridgedNotify: Notify = (message, options) => {
  if (sink) sink(message, options);
  else pending.push([message, options]);
};

/** Makes `notify` the toast area (earlier toasts are shown now); answers the unregistration. */
export const registerNotifySink = (notify: Notify): (() => void) => {
  sink = notify;
  for (const [message, options] of pending.splice(0)) notify(message, options);
  return () => {
    if (sink === notify) sink = null;
  };
};
