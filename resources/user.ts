import { defineResource } from './types';

const NO_CHINESE = { regex: '[\\u3400-\\u9fff]', message: 'validation.noChinese', negate: true } as const;
/** A user name is typed at sign-in: no spaces anywhere (leading, trailing or inside). */
const NO_SPACES = { regex: '\\s', message: 'validation.noSpaces', negate: true } as const;

export const user = defineResource({
  name: 'user',
  apiPath: '/user',
  route: '/systemSettings/user',
  menuId: 2102,
  table: 'sys_user',
  nameField: 'name',
  // Users belong to license accounts through license_account_user_relation; the server's user hook
  // scopes the list to users of the caller's current license account.
  scope: 'custom',
  fields: {
    id: { type: 'number', readOnly: true, views: ['show'] },
    realname: { type: 'text', required: true, minLength: 1, maxLength: 32, sortable: true },
    name: { type: 'text', required: true, minLength: 2, maxLength: 8, patterns: [NO_CHINESE, NO_SPACES], unique: true, sortable: true },
    localAreaId: { type: 'text', maxLength: 64, sortable: true },
    phone: { type: 'phone', maxLength: 20 },
    email: { type: 'email', maxLength: 128, sortable: true },
    roles: { type: 'multiReference', reference: 'role', through: { table: 'sys_user_role', from: 'user_id', to: 'role_id' }, display: 'chips' },
    licenseAccounts: {
      type: 'multiReference',
      reference: 'account',
      through: { table: 'license_account_user_relation', from: 'user_id', to: 'license_account_id' },
      display: 'chips',
    },
    enabled: { type: 'boolean', views: ['list', 'show', 'edit'], sortable: true },
    password: { type: 'password', requiredOnCreate: true, writeOnly: true, views: ['create'] },
    confirmPassword: { type: 'password', requiredOnCreate: true, writeOnly: true, virtual: true, views: ['create'] },
    sysUserId: { type: 'reference', reference: 'user', readOnly: true, views: ['list', 'show'], onDelete: 'setNull' },
    createTime: { type: 'datetime', readOnly: true, sortable: true },
  },
  list: {
    columns: ['realname', 'name', 'localAreaId', 'phone', 'email', 'roles', 'enabled', 'sysUserId', 'createTime'],
    defaultSort: { field: 'createTime', order: 'DESC' },
    filters: [
      { name: 'nameLike', field: 'name', operator: 'like', alwaysOn: true },
      { name: 'realnameLike', field: 'realname', operator: 'like', alwaysOn: true },
      { name: 'emailLike', field: 'email', operator: 'like' },
      { name: 'localAreaId', field: 'localAreaId', operator: 'eq' },
      { name: 'enabled', field: 'enabled', operator: 'eq' },
      { name: 'createTimeFrom', field: 'createTime', operator: 'gte' },
      { name: 'createTimeTo', field: 'createTime', operator: 'lte' },
    ],
  },
  permissions: { page: 'user:page', show: 'user:page', create: 'user:add', edit: 'user:edit', delete: 'user:delete', export: 'user:export' },
  // Permanent permission ids of this resource's buttons (roles store ids: never renumber, see resources/menu.ts).
  permissionIds: {
    'user:page': 210201,
    'user:add': 210202,
    'user:edit': 210203,
    'user:delete': 210204,
    'user:export': 210205,
    'user:resetPassword': 210206,
    'user:disable': 210207,
  },
  extraPermissions: { 'user:resetPassword': 'resources.user.actions.resetPassword', 'user:disable': 'resources.user.actions.disable' },
  customViews: { list: 'userList' },
  rules: [{ kind: 'equals', field: 'confirmPassword', other: 'password', message: 'validation.passwordMismatch' }],
});
