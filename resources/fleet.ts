import type { RvmStatus } from './fleetCatalogue';
import { defineResource } from './types';

/** A node of `GET /fleet/tree` (the server builds it, the fleet management screen draws it). */
export interface FleetNode {
  id: number;
  name: string;
  level: number;
  parentId: number | null;
  createTime: string | null;
  machineCount: number;
  totalMachineCount: number;
  statusCounts: Record<RvmStatus, number>;
  children: FleetNode[];
}

/**
 * The fleet tree of a license account (docs/product-rules.md#entities-and-fields). `level` is derived from the
 * parent on create and move. Deleting answers 5003 while sub-fleets exist and 6000 while machines do
 * (docs/product-rules.md#validation-rules: a fleet goes only once its sub-fleets and machines are gone).
 */
export const fleet = defineResource({
  name: 'fleet',
  apiPath: '/fleet',
  // Its own route for react-admin's create/edit/show; the tree is shown on the fleet management screen.
  route: '/installation/fleet',
  menuId: 201,
  table: 'fleet',
  nameField: 'name',
  scope: 'licenseAccount',
  fields: {
    id: { type: 'number', readOnly: true, views: ['show'] },
    name: { type: 'text', required: true, minLength: 1, maxLength: 64, sortable: true },
    parentId: { type: 'treeParent', reference: 'fleet' },
    level: { type: 'number', integer: true, readOnly: true, sortable: true },
    /** Machines directly in this fleet (GET /fleet/tree answers totals with sub-fleets). */
    machineCount: { type: 'number', integer: true, readOnly: true, sortable: true },
    createTime: { type: 'datetime', readOnly: true, sortable: true },
  },
  list: {
    columns: ['name', 'level', 'machineCount', 'createTime'],
    defaultSort: { field: 'name', order: 'ASC' },
    filters: [
      { name: 'nameLike', field: 'name', operator: 'like', alwaysOn: true },
      { name: 'level', field: 'level', operator: 'eq' },
    ],
    tree: true,
  },
  customViews: { list: 'fleetManagement' },
  permissions: {
    page: 'fleet:page',
    show: 'fleet:page',
    create: 'fleet:add',
    edit: 'fleet:edit',
    delete: 'fleet:delete',
  },
  // Permanent permission ids of this resource's buttons (roles store ids: never renumber, see resources/menu.ts).
  permissionIds: { 'fleet:page': 20101, 'fleet:add': 20102, 'fleet:edit': 20103, 'fleet:delete': 20104 },
});
