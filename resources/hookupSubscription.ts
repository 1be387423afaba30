// Subscriptions of the API screens (csApi, ciApi, statusApi; docs/api-hookups.md "Subscriptions"): this app
// receives these events of its bound machines, of these fleets only when any are chosen. One declaration
// per family over hookup_subscription; the scope hook keeps each to its family and the caller's account.
import { FAMILY_EVENTS, FAMILY_SCREENS, type HookupFamily } from './hookupCatalogue';
import { defineResource } from './types';

const subscriptionDeclaration = <F extends HookupFamily>(family: F) => {
  const screen = FAMILY_SCREENS[family];
  const id = screen.menu.api;
  const events = FAMILY_EVENTS[family];
  const oneOf = `(?:${events.map((event) => event.replace('.', '\\.')).join('|')})`;
  return defineResource({
    name: screen.api,
    apiPath: `/hookup/${family}/subscription`,
    route: `/apis/${screen.api}`,
    menuId: id,
    table: 'hookup_subscription',
    nameField: 'events',
    scope: 'custom',
    fields: {
      id: { type: 'number', readOnly: true, views: ['show'] },
      appId: { type: 'reference', reference: screen.app, required: true, sortable: true, onDelete: 'cascade' },
      events: {
        type: 'text',
        required: true,
        maxLength: 200,
        options: events,
        display: 'optionList',
        defaultValue: events.join(', '),
        patterns: [{ regex: `^\\s*${oneOf}(\\s*,\\s*${oneOf})*\\s*$`, message: 'hookups.validation.events' }],
      },
      fleets: {
        type: 'multiReference',
        reference: 'fleet',
        through: { table: 'hookup_subscription_fleet', from: 'subscription_id', to: 'fleet_id' },
        display: 'chips',
        onDelete: 'setNull',
      },
      enabled: { type: 'boolean', sortable: true, defaultValue: true },
      createTime: { type: 'datetime', readOnly: true, sortable: true },
    },
    list: {
      columns: ['appId', 'events', 'fleets', 'enabled', 'createTime'],
      defaultSort: { field: 'createTime', order: 'DESC' },
      filters: [
        { name: 'appId', field: 'appId', operator: 'eq', alwaysOn: true },
        { name: 'enabled', field: 'enabled', operator: 'eq', alwaysOn: true },
      ],
    },
    permissions: {
      page: `${screen.api}:page`,
      show: `${screen.api}:page`,
      create: `${screen.api}:add`,
      edit: `${screen.api}:edit`,
      delete: `${screen.api}:delete`,
    },
    permissionIds: {
      [`${screen.api}:page`]: id * 100 + 1,
      [`${screen.api}:add`]: id * 100 + 2,
      [`${screen.api}:edit`]: id * 100 + 3,
      [`${screen.api}:delete`]: id * 100 + 4,
    },
  });
};

export const csApi = subscriptionDeclaration('cs');
export const ciApi = subscriptionDeclaration('ci');
export const statusApi = subscriptionDeclaration('status');
export const HOOKUP_SUBSCRIPTIONS = { cs: csApi, ci: ciApi, status: statusApi } as const;
