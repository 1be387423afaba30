import { ALARM_CODES } from './event';
import { NOTIFICATION_RESULTS } from './mailOutbox';
import { defineResource } from './types';

const list = (item: string) => `^\\s*${item}(\\s*,\\s*${item})*\\s*$`;
// Longest first, so a code never stops at a shorter one's prefix (am_code_PK_1 in am_code_PK_17).
const KNOWN_CODE = `(?:${[...ALARM_CODES].sort((a, b) => b.length - a.length).join('|')})`;
// Each address fits the mail outbox's recipient column (128): local part, domain, top-level domain.
const EMAIL = '[^\\s@,]{1,64}@[^\\s@,]{1,40}\\.[^\\s@,.]{2,20}';

/**
 * Alarm e-mail rules (service › event notifications): "when any of these alarm codes is raised on
 * machines of these fleets (none: all fleets, sub-fleets included), mail these recipients; remind
 * every N hours while it stays open (0: never); mail again when it clears". Alarm-code lists
 * and e-mail lists are comma-separated (docs/product-rules.md#validation-rules). The mails are
 * sent by server/events/notifications.ts.
 */
export const eventNotification = defineResource({
  name: 'eventNotification',
  apiPath: '/eventNotification',
  route: '/service/eventNotifications',
  menuId: 603, // service (6) › eventNotifications, resources/menu.ts
  table: 'event_notification_rule',
  nameField: 'name',
  scope: 'licenseAccount',
  fields: {
    id: { type: 'number', readOnly: true, views: ['show'] },
    name: { type: 'text', required: true, minLength: 1, maxLength: 64, unique: true, sortable: true },
    alarmCodes: {
      type: 'text',
      required: true,
      maxLength: 2000,
      // picked from the alarm catalogue with the alarms' texts (labels: resources.eventNotification.enums.alarmCodes)
      options: ALARM_CODES,
      display: 'optionList',
      patterns: [
        { regex: list('am_code_PK_[0-9]+'), message: 'events.validation.alarmCodeList' },
        { regex: list(KNOWN_CODE), message: 'events.validation.unknownAlarmCode' },
      ],
    },
    fleets: {
      type: 'multiReference',
      reference: 'fleet',
      through: { table: 'event_notification_rule_fleet', from: 'rule_id', to: 'fleet_id' },
      display: 'chips',
    },
    recipients: { type: 'text', required: true, maxLength: 1000, patterns: [{ regex: list(EMAIL), message: 'events.validation.emailList' }] },
    reminderHours: { type: 'number', integer: true, min: 0, max: 720, sortable: true, defaultValue: 0 },
    notifyOnClear: { type: 'boolean', sortable: true, defaultValue: true },
    enabled: { type: 'boolean', sortable: true, defaultValue: true },
    createTime: { type: 'datetime', readOnly: true, sortable: true },
    // The latest mailing, by the job or "send now" (docs/reports.md "Trying a notification").
    lastSent: { type: 'datetime', readOnly: true, sortable: true },
    lastResult: { type: 'enum', options: NOTIFICATION_RESULTS, readOnly: true, display: 'status' },
    lastError: { type: 'text', readOnly: true },
  },
  list: {
    // reminderHours, notifyOnClear, lastError and createTime are on the record's page: more columns (with the
    // send now button's) do not fit 1280 px
    columns: ['name', 'alarmCodes', 'fleets', 'recipients', 'enabled', 'lastSent', 'lastResult'],
    defaultSort: { field: 'createTime', order: 'DESC' },
    filters: [
      { name: 'nameLike', field: 'name', operator: 'like', alwaysOn: true },
      { name: 'alarmCodesLike', field: 'alarmCodes', operator: 'like', alwaysOn: true },
      { name: 'recipientsLike', field: 'recipients', operator: 'like' },
      { name: 'enabled', field: 'enabled', operator: 'eq' },
    ],
  },
  permissions: {
    page: 'eventNotification:page',
    show: 'eventNotification:page',
    create: 'eventNotification:add',
    edit: 'eventNotification:edit',
    delete: 'eventNotification:delete',
  },
  // Permanent permission ids of this resource's buttons (roles store ids: never renumber, see resources/menu.ts).
  permissionIds: {
    'eventNotification:page': 60301,
    'eventNotification:add': 60302,
    'eventNotification:edit': 60303,
    'eventNotification:delete': 60304,
  },
  // the generic views plus "send now" on each row and on the record's page (needs `edit`), src/resources/NotificationLists.tsx
  customViews: { list: 'eventNotificationList', show: 'eventNotificationShow', edit: 'eventNotificationEdit' },
});
