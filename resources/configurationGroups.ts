// Machine configuration kinds Service › group and Service › payout (docs/machine-configuration.md#group and
// #payout): groups of machines (by model and/or fleet) or of products (barcodes) that other configurations
// apply to, and the payout methods enabled for a machine group or for every machine (`*`), with their
// parameters. Both are kinds of the shared mechanism (./machineConfiguration.ts), registered in
// ./configurationKinds.ts; the rules a declaration cannot say are in server/configurations/kindRules.ts.
import { PAYOUT_METHODS } from './fleetCatalogue';
import { defineResource } from './types';

/** What a group holds (labels: resources.group.enums.kind.<value>). */
export const GROUP_KINDS = ['machines', 'products'] as const;
/** The payout methods an operator enables; a consumer can always cancel (userCancelledPayment is no method to enable). */
export const CONFIGURABLE_PAYOUT_METHODS = PAYOUT_METHODS.filter((method) => method !== 'userCancelledPayment');
/** Payout methods that print a voucher (a validity in days applies to them only). */
export const VOUCHER_PAYOUT_METHODS = ['receipt', 'supermarket', 'ticket'] as const;
/** A payout item for every machine (no group of its own). */
export const EVERY_MACHINE = '*';

// Machine models as the machines' `termType` spells them, comma-separated (as a package's adapted models).
const MODEL = '[A-Za-z0-9 ._-]+';
const MODEL_LIST = { regex: `^\\s*${MODEL}(\\s*,\\s*${MODEL})*\\s*$`, message: 'resources.deploymentPackage.validation.modelList' } as const;
const BARCODE_LIST = { regex: '^\\s*[0-9]{3,20}(\\s*,\\s*[0-9]{3,20})*\\s*$', message: 'resources.group.validation.barcodes' } as const;
const GROUP_NAME = { regex: '^[^*,]+$', message: 'resources.group.validation.name' } as const;
const PAYOUT_GROUP = { regex: '^(\\*|[^*,]+)$', message: 'resources.payout.validation.group' } as const;

/** Button permission ids: <menu id> then 01 page, 02 add, 03 edit, 04 delete (roles store ids: never renumber). */
const permissionsOf = (name: string, menuId: number) => ({
  permissions: { page: `${name}:page`, show: `${name}:page`, create: `${name}:add`, edit: `${name}:edit`, delete: `${name}:delete`, export: `${name}:page` },
  permissionIds: { [`${name}:page`]: menuId * 100 + 1, [`${name}:add`]: menuId * 100 + 2, [`${name}:edit`]: menuId * 100 + 3, [`${name}:delete`]: menuId * 100 + 4 },
  // the generic list under the versions bar (src/configurations/ConfigurationList.tsx)
  customViews: { list: 'configurationList' },
});

/** A group of machines (models and/or fleets) or of products (barcodes), named once per account. */
export const group = defineResource({
  name: 'group',
  apiPath: '/configuration/group',
  route: '/service/group',
  menuId: 610,
  table: 'configuration_group',
  nameField: 'name',
  scope: 'licenseAccount',
  fields: {
    id: { type: 'number', readOnly: true, views: ['show'] },
    name: { type: 'text', required: true, minLength: 1, maxLength: 32, unique: true, patterns: [GROUP_NAME], sortable: true },
    kind: { type: 'enum', options: GROUP_KINDS, required: true, defaultValue: 'machines', sortable: true },
    // machines: models and/or fleets; products: barcodes (server/configurations/kindRules.ts)
    models: { type: 'text', maxLength: 500, patterns: [MODEL_LIST] },
    fleets: {
      type: 'multiReference',
      reference: 'fleet',
      through: { table: 'configuration_group_fleet', from: 'group_id', to: 'fleet_id' },
      display: 'chips',
    },
    barcodes: { type: 'textarea', maxLength: 2000, patterns: [BARCODE_LIST] },
    description: { type: 'textarea', maxLength: 500 },
    updateTime: { type: 'datetime', readOnly: true, sortable: true },
  },
  list: {
    columns: ['name', 'kind', 'models', 'fleets', 'barcodes', 'description', 'updateTime'],
    defaultSort: { field: 'name', order: 'ASC' },
    filters: [
      { name: 'nameLike', field: 'name', operator: 'like', alwaysOn: true },
      { name: 'kind', field: 'kind', operator: 'in', alwaysOn: true },
    ],
  },
  ...permissionsOf('group', 610),
});

/** A payout method enabled (or not) for a machine group or every machine (`*`), with its parameters. */
export const payout = defineResource({
  name: 'payout',
  apiPath: '/configuration/payout',
  route: '/service/payout',
  menuId: 611,
  table: 'payout_method_config',
  nameField: 'method',
  scope: 'licenseAccount',
  fields: {
    id: { type: 'number', readOnly: true, views: ['show'] },
    // a machine group's name (kind machines), or * for every machine
    machineGroup: { type: 'text', required: true, minLength: 1, maxLength: 32, unique: true, patterns: [PAYOUT_GROUP], defaultValue: EVERY_MACHINE, sortable: true },
    method: { type: 'enum', options: CONFIGURABLE_PAYOUT_METHODS, required: true, unique: true, sortable: true },
    enabled: { type: 'boolean', required: true, defaultValue: true, sortable: true },
    // in the account's currency: a session's refund outside them cannot take this method
    minAmount: { type: 'number', min: 0, max: 10_000, scale: 2 },
    maxAmount: { type: 'number', min: 0, max: 10_000, scale: 2 },
    // receipt, supermarket and ticket vouchers only
    validityDays: { type: 'number', integer: true, min: 1, max: 3650 },
    // donation only: donation institutes' names, comma-separated
    institutes: { type: 'textarea', maxLength: 500 },
    updateTime: { type: 'datetime', readOnly: true, sortable: true },
  },
  rules: [{ kind: 'greaterThan', field: 'maxAmount', other: 'minAmount', message: 'resources.payout.validation.amountRange' }],
  list: {
    columns: ['machineGroup', 'method', 'enabled', 'minAmount', 'maxAmount', 'validityDays', 'institutes', 'updateTime'],
    defaultSort: { field: 'machineGroup', order: 'ASC' },
    filters: [
      { name: 'machineGroupLike', field: 'machineGroup', operator: 'like', alwaysOn: true },
      { name: 'method', field: 'method', operator: 'in', alwaysOn: true },
      { name: 'enabled', field: 'enabled', operator: 'eq' },
    ],
  },
  ...permissionsOf('payout', 611),
});
