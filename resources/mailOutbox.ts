import { defineResource } from './types';

/**
 * What a mail in the outbox came to: `sent` (accepted by SMTP), `failed` (`error` says why) or `notSent`
 * (no SMTP configured: kept here and in the server log only). Computed by server/resources/mailOutbox.ts.
 */
export const MAIL_STATUSES = ['sent', 'failed', 'notSent'] as const;

/** The latest mailing of a notification (report or event notification): every recipient's mail went out, or not. */
export const NOTIFICATION_RESULTS = ['sent', 'failed'] as const;

/**
 * System settings › Mails sent: the mail outbox (table mail_outbox, server/mail/mailer.ts), read-only,
 * newest first. Scope: the mails of the caller's license account (its notifications); a superAdmin also
 * sees those of no account (password-reset links, stored redacted). Its own permission, as it names
 * recipients. docs/reports.md "Trying a notification".
 */
export const mailOutbox = defineResource({
  name: 'mailOutbox',
  apiPath: '/mail-outbox',
  route: '/systemSettings/mailOutbox',
  menuId: 2107, // systemSettings (21) › mailOutbox, resources/menu.ts
  table: 'mail_outbox',
  nameField: 'subject',
  scope: 'custom',
  fields: {
    id: { type: 'number', readOnly: true, views: ['show'] },
    createdAt: { type: 'datetime', readOnly: true, sortable: true },
    recipient: { type: 'text', readOnly: true, sortable: true },
    subject: { type: 'text', readOnly: true },
    status: { type: 'enum', options: MAIL_STATUSES, readOnly: true, display: 'status' },
    sentAt: { type: 'datetime', readOnly: true, views: ['show'] },
    error: { type: 'text', readOnly: true },
    body: { type: 'textarea', readOnly: true, views: ['show'] },
  },
  list: {
    columns: ['createdAt', 'recipient', 'subject', 'status', 'error'],
    defaultSort: { field: 'createdAt', order: 'DESC' },
    filters: [
      { name: 'createdFrom', field: 'createdAt', operator: 'gte', alwaysOn: true },
      { name: 'createdTo', field: 'createdAt', operator: 'lte', alwaysOn: true },
      { name: 'recipientLike', field: 'recipient', operator: 'like', alwaysOn: true },
      { name: 'subjectLike', field: 'subject', operator: 'like' },
      { name: 'status', field: 'status', operator: 'eq' },
    ],
  },
  // No create, edit or delete: the server writes every row (server/mail/mailer.ts).
  permissions: { page: 'mailOutbox:page', show: 'mailOutbox:page' },
  // Permanent permission ids of this resource's buttons (roles store ids: never renumber, see resources/menu.ts).
  permissionIds: { 'mailOutbox:page': 210701 },
});
