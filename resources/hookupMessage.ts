// The transactions screens (csApiTransaction, ciApiTransaction, statusApiTransaction): the outbox of one
// family, read-only, with resend and replay (docs/api-hookups.md "Resend and replay"). The machine's
// number and the last answer's status are computed by server/hookups/resources.ts.
import { FAMILY_EVENTS, FAMILY_SCREENS, SEND_STATUSES, type HookupFamily } from './hookupCatalogue';
import { defineResource } from './types';

const messageDeclaration = <F extends HookupFamily>(family: F) => {
  const screen = FAMILY_SCREENS[family];
  const id = screen.menu.transactions;
  return defineResource({
    name: screen.transactions,
    apiPath: `/hookup/${family}/message`,
    route: `/apis/${screen.transactions}`,
    menuId: id,
    table: 'hookup_message',
    nameField: 'messageId',
    scope: 'custom',
    fields: {
      id: { type: 'number', readOnly: true, views: ['show'] },
      messageId: { type: 'text', readOnly: true, sortable: true, unique: true, display: 'excerpt' },
      appId: { type: 'reference', reference: screen.app, readOnly: true, sortable: true, onDelete: 'cascade' },
      termNo: { type: 'text', readOnly: true, sortable: true, link: '/installation/rvmpage/:rvmId/Overview' },
      // the machine filter's field; the machine is shown as termNo (a link)
      rvmId: { type: 'reference', reference: 'machine', readOnly: true, views: [], onDelete: 'cascade' },
      eventType: { type: 'enum', options: FAMILY_EVENTS[family], readOnly: true, sortable: true },
      eventTime: { type: 'datetime', readOnly: true, sortable: true },
      status: { type: 'enum', options: SEND_STATUSES, readOnly: true, sortable: true, display: 'status' },
      attempts: { type: 'number', integer: true, readOnly: true, sortable: true },
      lastSendTime: { type: 'datetime', readOnly: true, sortable: true },
      lastResponseStatus: { type: 'number', integer: true, readOnly: true, views: ['show'] },
      lastResponseExcerpt: { type: 'text', readOnly: true, views: ['show'] },
      /** The answer's status and the start of its text (computed), for the list. */
      lastResponse: { type: 'text', readOnly: true, views: ['list'], display: 'excerpt' },
      nextAttemptTime: { type: 'datetime', readOnly: true, views: ['show'] },
      // the message body as sent (JSON text, computed)
      body: { type: 'textarea', readOnly: true, views: ['show'] },
    },
    list: {
      // the app, the whole answer and the body are on the record's page: more columns do not fit 1280 px
      columns: ['messageId', 'termNo', 'eventTime', 'status', 'attempts', 'lastSendTime', 'lastResponse'],
      defaultSort: { field: 'eventTime', order: 'DESC' },
      filters: [
        { name: 'status', field: 'status', operator: 'eq', alwaysOn: true },
        { name: 'appId', field: 'appId', operator: 'eq', alwaysOn: true },
        { name: 'rvmId', field: 'rvmId', operator: 'eq', alwaysOn: true },
        { name: 'eventFrom', field: 'eventTime', operator: 'gte', alwaysOn: true },
        { name: 'eventTo', field: 'eventTime', operator: 'lte', alwaysOn: true },
        { name: 'messageId', field: 'messageId', operator: 'eq' },
        { name: 'eventType', field: 'eventType', operator: 'eq' },
      ],
      refreshSeconds: 10,
    },
    // No create, edit or delete: the server writes messages; resend and replay are their own calls.
    permissions: { page: `${screen.transactions}:page`, show: `${screen.transactions}:page`, export: `${screen.transactions}:export` },
    extraPermissions: { [`${screen.transactions}:resend`]: 'hookups.permissions.resend' },
    permissionIds: {
      [`${screen.transactions}:page`]: id * 100 + 1,
      [`${screen.transactions}:export`]: id * 100 + 2,
      [`${screen.transactions}:resend`]: id * 100 + 3,
    },
    customViews: { list: 'hookupMessageList' },
  });
};

export const csApiTransaction = messageDeclaration('cs');
export const ciApiTransaction = messageDeclaration('ci');
export const statusApiTransaction = messageDeclaration('status');
export const HOOKUP_MESSAGES = { cs: csApiTransaction, ci: ciApiTransaction, status: statusApiTransaction } as const;
