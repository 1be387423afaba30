import { defineResource } from './types';

/** Currencies a license account may pay refunds in (ISO 4217); labels in `resources.account.enums.currency`. */
export const ACCOUNT_CURRENCIES = ['HKD', 'CNY', 'MOP', 'TWD', 'SGD', 'USD', 'EUR', 'GBP'] as const;
export const DEFAULT_ACCOUNT_CURRENCY = 'HKD';

/** License accounts: the organisations that run machines (docs/product-rules.md#users-and-license-accounts). */
export const account = defineResource({
  name: 'account',
  apiPath: '/license-account',
  route: '/systemSettings/account',
  menuId: 2101,
  table: 'license_account',
  nameField: 'licenseAccountName',
  // A superAdmin sees every license account; anyone else the accounts they belong to.
  scope: 'custom',
  fields: {
    id: { type: 'number', readOnly: true, views: ['show'] },
    licenseAccountName: { type: 'text', required: true, minLength: 1, maxLength: 64, unique: true, sortable: true },
    businessUnit: { type: 'text', maxLength: 64, sortable: true },
    contact: { type: 'text', maxLength: 64 },
    // The ISO 4217 code refund values are shown in (the demo fleet's are Hong Kong dollars).
    currency: { type: 'enum', options: ACCOUNT_CURRENCIES, defaultValue: DEFAULT_ACCOUNT_CURRENCY },
    userCount: { type: 'number', readOnly: true, sortable: true },
    machineCount: { type: 'number', readOnly: true, sortable: true },
    fleetCount: { type: 'number', readOnly: true, sortable: true },
    createTime: { type: 'datetime', readOnly: true, sortable: true },
  },
  list: {
    columns: ['licenseAccountName', 'businessUnit', 'contact', 'userCount', 'machineCount', 'fleetCount', 'createTime'],
    defaultSort: { field: 'createTime', order: 'DESC' },
    filters: [
      { name: 'nameLike', field: 'licenseAccountName', operator: 'like', alwaysOn: true },
      { name: 'businessUnitLike', field: 'businessUnit', operator: 'like' },
    ],
  },
  permissions: { page: 'account:page', show: 'account:page', create: 'account:add', edit: 'account:edit', delete: 'account:delete', export: 'account:export' },
  // Permanent permission ids of this resource's buttons (roles store ids: never renumber, see resources/menu.ts).
  permissionIds: { 'account:page': 210101, 'account:add': 210102, 'account:edit': 210103, 'account:delete': 210104, 'account:export': 210105 },
});
