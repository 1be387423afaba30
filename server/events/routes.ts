// Events and event notifications: their lists and rule CRUD are the generic routes of their
// declarations (resources/event.ts, resources/eventNotification.ts); this adds the periodic job that
// mails the rules' recipients and a rule's "send now" (sendNow.ts).
import type { Services } from '../services';
import type { TypedApp } from '../lib/typedApp';
import { notifyEvents } from './notifications';
import { registerEventNotificationSendNow } from './sendNow';

export const NOTIFICATION_JOB = 'eventNotifications';

export const registerEventRoutes = (app: TypedApp, services: Services) => {
  services.jobs.add({ name: NOTIFICATION_JOB, everyMs: 30_000, run: (now) => notifyEvents(services, now, app.log) });
  registerEventNotificationSendNow(app, services);
};
