import { NOTIFICATION_RESULTS } from './mailOutbox';
import { REPORT_FORMATS, REPORT_KINDS } from './reports';
import { defineResource } from './types';

export const REPORT_PERIODS = ['weekly', 'monthly'] as const;
export const REPORT_LANGUAGES = ['en', 'zh'] as const;
/** What the scheduler did with a subscription's latest period (server/db/schema/reportNotifications.ts). */
export const REPORT_RUN_STATUSES = ['due', 'produced', 'mailed', 'skipped', 'failed'] as const;

/** Most recipients one subscription mails. */
export const MAX_REPORT_RECIPIENTS = 20;

/**
 * Report notification subscriptions (reports › notifications, docs/product-rules.md#menu-tree): "every week (Monday 00:00) or
 * month (the 1st, 00:00) in the license account's time zone, produce this report of these fleets (none:
 * all) for the period just over, keep it as a generated report and mail it to these recipients".
 * E-mail lists are comma-separated (docs/product-rules.md#validation-rules); the server checks each address and names the bad one
 * (server/resources/reportNotification.ts). The scheduler is server/reports/scheduler.ts.
 */
export const reportNotification = defineResource({
  name: 'reportNotification',
  apiPath: '/reportNotification',
  route: '/reports/notifications',
  menuId: 303, // reports (3) › notifications, resources/menu.ts
  table: 'report_notification',
  nameField: 'name',
  scope: 'licenseAccount',
  fields: {
    id: { type: 'number', readOnly: true, views: ['show'] },
    name: { type: 'text', required: true, minLength: 1, maxLength: 64, unique: true, sortable: true },
    report: { type: 'enum', options: REPORT_KINDS, required: true, sortable: true, defaultValue: 'volumes' },
    period: { type: 'enum', options: REPORT_PERIODS, required: true, sortable: true, defaultValue: 'weekly' },
    recipients: { type: 'text', required: true, maxLength: 1000 },
    fleets: {
      type: 'multiReference',
      reference: 'fleet',
      through: { table: 'report_notification_fleet', from: 'subscription_id', to: 'fleet_id' },
      display: 'chips',
    },
    format: { type: 'enum', options: REPORT_FORMATS, required: true, sortable: true, defaultValue: 'xlsx' },
    language: { type: 'enum', options: REPORT_LANGUAGES, required: true, sortable: true, defaultValue: 'en' },
    enabled: { type: 'boolean', sortable: true, defaultValue: true },
    // Computed by the server from the runs (readOnly: never accepted, shown in list and show views).
    lastStatus: { type: 'enum', options: REPORT_RUN_STATUSES, readOnly: true, display: 'status', views: ['show'] },
    lastProduced: { type: 'datetime', readOnly: true, sortable: true, views: ['show'] },
    // The latest mailing, by the scheduler or "send now" (docs/reports.md "Trying a notification").
    lastSent: { type: 'datetime', readOnly: true, sortable: true },
    lastResult: { type: 'enum', options: NOTIFICATION_RESULTS, readOnly: true, display: 'status' },
    lastError: { type: 'text', readOnly: true },
    nextDue: { type: 'datetime', readOnly: true },
    createTime: { type: 'datetime', readOnly: true, sortable: true },
  },
  list: {
    // Fleets, format, language, enabled, the last run and the last produced are on the record's page: more
    // columns (with the send now button's) do not fit 1280 px. A switched-off subscription shows no "next due".
    columns: ['name', 'report', 'period', 'recipients', 'lastSent', 'lastResult', 'nextDue'],
    defaultSort: { field: 'createTime', order: 'DESC' },
    filters: [
      { name: 'nameLike', field: 'name', operator: 'like', alwaysOn: true },
      { name: 'report', field: 'report', operator: 'eq', alwaysOn: true },
      { name: 'period', field: 'period', operator: 'eq' },
      { name: 'recipientsLike', field: 'recipients', operator: 'like' },
      { name: 'enabled', field: 'enabled', operator: 'eq' },
    ],
  },
  permissions: {
    page: 'reportNotification:page',
    show: 'reportNotification:page',
    create: 'reportNotification:add',
    edit: 'reportNotification:edit',
    delete: 'reportNotification:delete',
  },
  // Permanent permission ids of this resource's buttons (roles store ids: never renumber, see resources/menu.ts).
  permissionIds: {
    'reportNotification:page': 30301,
    'reportNotification:add': 30302,
    'reportNotification:edit': 30303,
    'reportNotification:delete': 30304,
  },
  // the generic views plus "send now" on each row and on the record's page (needs `edit`), src/resources/NotificationLists.tsx
  customViews: { list: 'reportNotificationList', show: 'reportNotificationShow', edit: 'reportNotificationEdit' },
});
