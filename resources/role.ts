import { defineResource } from './types';

export const role = defineResource({
  name: 'role',
  apiPath: '/role',
  route: '/systemSettings/role',
  menuId: 2103,
  table: 'sys_role',
  nameField: 'name',
  scope: 'licenseAccount',
  fields: {
    id: { type: 'number', readOnly: true, views: ['show'] },
    name: { type: 'text', required: true, minLength: 1, maxLength: 32, unique: true, sortable: true },
    description: { type: 'textarea', maxLength: 200 },
    permissions: {
      type: 'multiReference',
      reference: 'permission',
      through: { table: 'sys_role_permission', from: 'role_id', to: 'permission_id' },
      display: 'tree',
      views: ['show', 'edit', 'create'],
    },
    createTime: { type: 'datetime', readOnly: true, sortable: true },
  },
  // Permanent permission ids of this resource's buttons (roles store ids: never renumber, see resources/menu.ts).
  permissionIds: { 'role:page': 210301, 'role:add': 210302, 'role:edit': 210303, 'role:delete': 210304, 'role:export': 210305 },
  list: {
    columns: ['name', 'description', 'createTime'],
    defaultSort: { field: 'createTime', order: 'DESC' },
    filters: [{ name: 'nameLike', field: 'name', operator: 'like', alwaysOn: true }],
  },
  permissions: { page: 'role:page', show: 'role:page', create: 'role:add', edit: 'role:edit', delete: 'role:delete', export: 'role:export' },
});
