// Report notification subscriptions, what the declaration cannot say: every recipient is checked on
// its own (the message names the address that is wrong), the list is stored in one spelling ("a, b",
// no duplicates), and the list columns "last status", "last produced" and "next due" are computed in
// SQL from the scheduler's runs (server/reports/scheduler.ts) in the account's time zone.
import { getTableName, sql } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';
import { MAX_REPORT_RECIPIENTS } from '../../resources/reportNotification';
import type { ResourceHooks, Values } from '../crud/hooks';
import type { reportNotification } from '../db/schema/reportNotifications';
import { invalidField } from '../lib/errors';
import { recipientsOf } from '../reports/notificationMail';
import { REPORT_TIME_ZONE } from '../reports/notificationPeriods';

/**
 * One address: a local part and a domain of dot-separated labels ending in a top-level domain of
 * letters, 128 characters at most (the mail outbox's recipient column).
 */
const ADDRESS = /^[A-Za-z0-9.!#$%&'*+/=?^_`{|}~-]{1,64}@(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?\.)+[A-Za-z]{2,24}$/;

/** The first problem of a recipients list, as a field issue (1004), or nothing. */
export const checkRecipients = (list: string) => {
  const items = list.split(',').map((item) => item.trim());
  if (items.some((item) => item === '') && items.some((item) => item !== '')) {
    return invalidField('recipients', 'notifications.validation.emptyRecipient');
  }
  const bad = items.find((item) => item.length > 128 || !ADDRESS.test(item));
  if (bad !== undefined) return invalidField('recipients', 'notifications.validation.badRecipient', '1004', { address: bad.slice(0, 80) });
  if (recipientsOf(list).length > MAX_REPORT_RECIPIENTS) {
    return invalidField('recipients', 'notifications.validation.tooManyRecipients', '1004', { max: MAX_REPORT_RECIPIENTS });
  }
  return undefined;
};

const normalize = (values: Values) => {
  if (typeof values.recipients !== 'string') return;
  const problem = checkRecipients(values.recipients);
  if (problem) throw problem;
  values.recipients = recipientsOf(values.recipients).join(', ');
};

/** Computed timestamps come from the drivers as text; the wire wants ISO (a Date becomes one). */
const toDate = (value: string | Date) => new Date(value);

/** A new notification was never sent (the engine stamps readOnly datetimes with the create time). */
export const neverSent = (values: Values) => {
  values.lastSent = null;
};

export const reportNotificationHooks: ResourceHooks = {
  beforeCreate: async (_context, _input, values) => (normalize(values), neverSent(values)),
  beforeUpdate: async (_context, _id, _input, values) => normalize(values),
  computed: (table: PgTable) => {
    const subscriptions = table as typeof reportNotification;
    // Qualified by hand: Drizzle writes a top-level column of a one-table select unqualified, which
    // inside a subquery on the runs would name the run's own column.
    const outer = (column: string) => sql.raw(`"${getTableName(subscriptions)}"."${column}"`);
    const zone = REPORT_TIME_ZONE;
    // The next local Monday / 1st at 00:00 after now (date_trunc on the local wall clock, back to an instant).
    const nextBoundary = sql`(case when ${outer('period')} = 'weekly'
        then date_trunc('week', now() at time zone ${zone}) + interval '1 week'
        else date_trunc('month', now() at time zone ${zone}) + interval '1 month' end) at time zone ${zone}`;
    return {
      lastStatus: sql<string>`(select r.status from report_notification_run r where r.subscription_id = ${outer('id')}
        order by r.period_end desc, r.id desc limit 1)`,
      lastProduced: sql<Date>`(select max(r.produced_time) from report_notification_run r where r.subscription_id = ${outer('id')})`.mapWith(toDate),
      nextDue: sql<Date>`(case when ${outer('enabled')} then ${nextBoundary} end)`.mapWith(toDate),
    };
  },
};
