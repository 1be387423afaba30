// Events and event notifications: their lists and rule CRUD are the generic routes of their
// declarations (resources/event.ts, resources/eventNotification.ts); this adds the periodic job that
// mails the rules' recipients.
import type { FastifyInstance } from 'fastify';
import type { Services } from '../services';
import { notifyEvents } from './notifications';

export const NOTIFICATION_JOB = 'eventNotifications';

export const registerEventRoutes = (app: FastifyInstance, services: Services) => {
  services.jobs.add({ name: NOTIFICATION_JOB, everyMs: 30_000, run: (now) => notifyEvents(services, now, app.log) });
};
