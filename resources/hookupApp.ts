// Third-party apps (docs/api-hookups.md "Third-party apps"): one declaration per API family, all over
// hookup_app. A family's screen shows and creates the API types of that family (a standard app is on all
// three); the scope hook (server/hookups/resources.ts) keeps each to its types and the caller's account.
import { FAMILY_API_TYPES, FAMILY_SCREENS, type HookupFamily } from './hookupCatalogue';
import { defineResource } from './types';

// Each address fits a mail's recipient column (128), as the notification rules' lists.
const EMAIL = '[^\\s@,]{1,64}@[^\\s@,]{1,40}\\.[^\\s@,.]{2,20}';
const EMAIL_LIST = `^\\s*${EMAIL}(\\s*,\\s*${EMAIL})*\\s*$`;
/** http(s) only; the server also parses it (server/hookups/resources.ts). */
export const HOOKUP_URL_PATTERN = '^https?://[^\\s/?#]+[^\\s]*$';

const appDeclaration = <F extends HookupFamily>(family: F) => {
  const screen = FAMILY_SCREENS[family];
  const id = screen.menu.app;
  return defineResource({
    name: screen.app,
    apiPath: `/hookup/${family}/app`,
    route: `/apis/${screen.app}`,
    menuId: id,
    table: 'hookup_app',
    nameField: 'name',
    scope: 'custom',
    fields: {
      id: { type: 'number', readOnly: true, views: ['show'] },
      name: { type: 'text', required: true, minLength: 1, maxLength: 64, unique: true, sortable: true },
      url: { type: 'text', required: true, maxLength: 500, patterns: [{ regex: HOOKUP_URL_PATTERN, message: 'hookups.validation.url' }] },
      apiType: { type: 'enum', options: FAMILY_API_TYPES[family], required: true, sortable: true, defaultValue: FAMILY_API_TYPES[family][1] },
      fleets: {
        type: 'multiReference',
        reference: 'fleet',
        through: { table: 'hookup_app_fleet', from: 'app_id', to: 'fleet_id' },
        display: 'chips',
        onDelete: 'setNull',
      },
      enabled: { type: 'boolean', sortable: true, defaultValue: true },
      ownerEmails: { type: 'text', maxLength: 1000, patterns: [{ regex: EMAIL_LIST, message: 'hookups.validation.emailList' }] },
      dockingTime: { type: 'datetime', readOnly: true, sortable: true },
      lastSuccessTime: { type: 'datetime', readOnly: true, sortable: true },
      failingSince: { type: 'datetime', readOnly: true, views: ['show'] },
      /** Whether the first secret may still be revealed (computed). */
      secretPending: { type: 'boolean', readOnly: true, views: [] },
      createdBy: { type: 'reference', reference: 'user', readOnly: true, views: ['show'], onDelete: 'setNull' },
    },
    list: {
      // the last success and the creator are on the record's page: more columns do not fit 1280 px
      columns: ['name', 'url', 'apiType', 'fleets', 'enabled', 'dockingTime'],
      defaultSort: { field: 'dockingTime', order: 'DESC' },
      filters: [
        { name: 'nameLike', field: 'name', operator: 'like', alwaysOn: true },
        { name: 'apiType', field: 'apiType', operator: 'eq', alwaysOn: true },
        { name: 'urlLike', field: 'url', operator: 'like' },
        { name: 'enabled', field: 'enabled', operator: 'eq' },
      ],
    },
    permissions: {
      page: `${screen.app}:page`,
      show: `${screen.app}:page`,
      create: `${screen.app}:add`,
      edit: `${screen.app}:edit`,
      delete: `${screen.app}:delete`,
    },
    extraPermissions: { [`${screen.app}:secret`]: 'hookups.permissions.secret' },
    // Permanent permission ids (roles store ids: never renumber, see resources/menu.ts).
    permissionIds: {
      [`${screen.app}:page`]: id * 100 + 1,
      [`${screen.app}:add`]: id * 100 + 2,
      [`${screen.app}:edit`]: id * 100 + 3,
      [`${screen.app}:delete`]: id * 100 + 4,
      [`${screen.app}:secret`]: id * 100 + 5,
    },
    customViews: { list: 'hookupAppList' },
  });
};

export const csThridApp = appDeclaration('cs');
export const ciThridApp = appDeclaration('ci');
export const statusThridApp = appDeclaration('status');
export const HOOKUP_APPS = { cs: csThridApp, ci: ciThridApp, status: statusThridApp } as const;
