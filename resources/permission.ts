import { defineResource } from './types';

export const permission = defineResource({
  name: 'permission',
  apiPath: '/permission',
  route: '/systemSettings/permission',
  menuId: 2104,
  table: 'sys_permission',
  nameField: 'name',
  // One permission tree for the whole installation: identifiers are what the code checks.
  scope: 'global',
  fields: {
    id: { type: 'number', readOnly: true, views: ['list', 'show'], sortable: true },
    name: { type: 'text', required: true, minLength: 1, maxLength: 64, sortable: true },
    parentId: { type: 'treeParent', reference: 'permission' },
    type: { type: 'enum', required: true, options: ['directory', 'menu', 'button'], sortable: true },
    identifier: {
      type: 'text',
      required: true,
      minLength: 1,
      maxLength: 128,
      patterns: [{ regex: '^[A-Za-z0-9:_*.-]+$', message: 'validation.identifier' }],
      sortable: true,
    },
    sort: { type: 'number', integer: true, min: 0, max: 99999, sortable: true, defaultValue: 0 },
    description: { type: 'textarea', maxLength: 200 },
  },
  list: {
    columns: ['name', 'type', 'identifier', 'sort', 'description'],
    defaultSort: { field: 'sort', order: 'ASC' },
    filters: [
      { name: 'nameLike', field: 'name', operator: 'like', alwaysOn: true },
      { name: 'identifierLike', field: 'identifier', operator: 'like' },
      { name: 'type', field: 'type', operator: 'eq' },
    ],
    tree: true,
  },
  permissions: { page: 'permission:page', show: 'permission:page', create: 'permission:add', edit: 'permission:edit', delete: 'permission:delete' },
  // Permanent permission ids of this resource's buttons (roles store ids: never renumber, see resources/menu.ts).
  permissionIds: { 'permission:page': 210401, 'permission:add': 210402, 'permission:edit': 210403, 'permission:delete': 210404 },
});
