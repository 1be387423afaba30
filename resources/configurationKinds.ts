// The machine configuration kinds (Service › refund, assortment, sorting, mainConfig; docs/machine-configuration.md):
// each a declared resource whose records are the configuration's items, versioned and packaged by the shared
// mechanism of ./machineConfiguration.ts. An item's declared unique fields name it: a repeated item is refused
// with 2002 naming the field and the value (a unique index per account is the guarantee).
import { group, payout } from './configurationGroups';
import { h30config, langConfig, MACHINE_LANGUAGES } from './configurationTexts';
import { ITEM_TYPES } from './fleetCatalogue';
import type { ConfigurationKind } from './machineConfiguration';
import { defineResource, type ResourceDeclaration } from './types';

const BARCODE = { regex: '^[0-9]{3,20}$', message: 'resources.assortment.validation.barcode' } as const;
const CURRENCY = { regex: '^[A-Z]{3}$', message: 'resources.refund.validation.currency' } as const;
// a group's name as resources/configurationGroups.ts allows it (no * and no comma)
const PRODUCT_GROUP = { regex: '^[^*,]+$', message: 'resources.group.validation.name' } as const;
const CLOCK = { regex: '^([01][0-9]|2[0-3]):[0-5][0-9]$', message: 'resources.mainConfig.validation.clock' } as const;

/** Materials an assortment product is made of (labels: resources.assortment.enums.material.<value>). */
export const MATERIALS = ['PET', 'HDPE', 'PP', 'PS', 'aluminium', 'steel', 'glass', 'carton', 'other'] as const;
/** Languages a machine's screen can start in (labels: resources.mainConfig.enums.language.<value>). */
export { MACHINE_LANGUAGES };
/** Refund decimals: 0 (JPY) to 3 (KWD). */
export const MAX_REFUND_DECIMALS = 3;

/** Button permission ids: <menu id> then 01 page, 02 add, 03 edit, 04 delete (roles store ids: never renumber). */
const permissionsOf = (name: string, menuId: number) => ({
  permissions: { page: `${name}:page`, show: `${name}:page`, create: `${name}:add`, edit: `${name}:edit`, delete: `${name}:delete`, export: `${name}:page` },
  permissionIds: { [`${name}:page`]: menuId * 100 + 1, [`${name}:add`]: menuId * 100 + 2, [`${name}:edit`]: menuId * 100 + 3, [`${name}:delete`]: menuId * 100 + 4 },
  // the generic list under the versions bar (src/configurations/ConfigurationList.tsx)
  customViews: { list: 'configurationList' },
});

/**
 * Refund values per item type, per product group (its products of that item type) or per product (a barcode): the
 * product's own overrides its group's, which overrides its type's (docs/machine-configuration.md#refund).
 */
export const refund = defineResource({
  name: 'refund',
  apiPath: '/configuration/refund',
  route: '/service/refund',
  menuId: 612,
  table: 'refund_item',
  nameField: 'itemType',
  scope: 'licenseAccount',
  fields: {
    id: { type: 'number', readOnly: true, views: ['show'] },
    itemType: { type: 'enum', options: ITEM_TYPES, required: true, unique: true, sortable: true },
    barcode: { type: 'text', minLength: 3, maxLength: 20, patterns: [BARCODE], unique: true, sortable: true },
    // the name of a product group (resources/configurationGroups.ts), not with a barcode (server/configurations/groupRules.ts)
    productGroup: { type: 'text', minLength: 1, maxLength: 32, patterns: [PRODUCT_GROUP], unique: true, sortable: true },
    // shown with the row's own decimals (0.1 with 2 decimals reads 0.10)
    value: { type: 'number', required: true, min: 0, max: 1000, scale: MAX_REFUND_DECIMALS, scaleField: 'decimals', sortable: true },
    // absent: the license account's currency (server/configurations/hooks.ts)
    currency: { type: 'text', minLength: 3, maxLength: 3, patterns: [CURRENCY], sortable: true },
    decimals: { type: 'number', integer: true, min: 0, max: MAX_REFUND_DECIMALS, required: true, defaultValue: 2 },
    updateTime: { type: 'datetime', readOnly: true, sortable: true },
  },
  list: {
    columns: ['itemType', 'productGroup', 'barcode', 'value', 'currency', 'decimals', 'updateTime'],
    defaultSort: { field: 'itemType', order: 'ASC' },
    filters: [
      { name: 'itemType', field: 'itemType', operator: 'in', alwaysOn: true },
      { name: 'barcodeLike', field: 'barcode', operator: 'like', alwaysOn: true },
      { name: 'productGroupLike', field: 'productGroup', operator: 'like' },
    ],
  },
  ...permissionsOf('refund', 612),
});

/** The products machines accept: a barcode not listed is rejected (reason 2) once an assortment is applied. */
export const assortment = defineResource({
  name: 'assortment',
  apiPath: '/configuration/assortment',
  route: '/service/assortment',
  menuId: 607,
  table: 'assortment_item',
  nameField: 'name',
  scope: 'licenseAccount',
  fields: {
    id: { type: 'number', readOnly: true, views: ['show'] },
    barcode: { type: 'text', required: true, minLength: 3, maxLength: 20, patterns: [BARCODE], unique: true, sortable: true },
    name: { type: 'text', required: true, minLength: 1, maxLength: 64, sortable: true },
    itemType: { type: 'enum', options: ITEM_TYPES, required: true, sortable: true },
    material: { type: 'enum', options: MATERIALS, required: true, sortable: true },
    volume: { type: 'number', integer: true, min: 1, max: 10_000, sortable: true },
    minWeight: { type: 'number', min: 0, max: 5000, scale: 1, required: true },
    maxWeight: { type: 'number', min: 0, max: 5000, scale: 1, required: true },
    refund: { type: 'number', min: 0, max: 1000, scale: MAX_REFUND_DECIMALS },
    updateTime: { type: 'datetime', readOnly: true, sortable: true },
  },
  rules: [{ kind: 'greaterThan', field: 'maxWeight', other: 'minWeight', message: 'resources.assortment.validation.weightRange' }],
  list: {
    columns: ['barcode', 'name', 'itemType', 'material', 'volume', 'minWeight', 'maxWeight', 'refund', 'updateTime'],
    defaultSort: { field: 'barcode', order: 'ASC' },
    filters: [
      { name: 'barcodeLike', field: 'barcode', operator: 'like', alwaysOn: true },
      { name: 'nameLike', field: 'name', operator: 'like', alwaysOn: true },
      { name: 'itemType', field: 'itemType', operator: 'in', alwaysOn: true },
      { name: 'material', field: 'material', operator: 'in' },
    ],
  },
  ...permissionsOf('assortment', 607),
});

/** Which bin each item type goes to. */
export const sorting = defineResource({
  name: 'sorting',
  apiPath: '/configuration/sorting',
  route: '/service/sorting',
  menuId: 613,
  table: 'sorting_item',
  nameField: 'itemType',
  scope: 'licenseAccount',
  fields: {
    id: { type: 'number', readOnly: true, views: ['show'] },
    itemType: { type: 'enum', options: ITEM_TYPES, required: true, unique: true, sortable: true },
    binNo: { type: 'number', integer: true, min: 1, max: 8, required: true, sortable: true },
    updateTime: { type: 'datetime', readOnly: true, sortable: true },
  },
  list: {
    columns: ['itemType', 'binNo', 'updateTime'],
    defaultSort: { field: 'itemType', order: 'ASC' },
    filters: [{ name: 'itemType', field: 'itemType', operator: 'in', alwaysOn: true }],
  },
  ...permissionsOf('sorting', 613),
});

/** Machine parameters per model (`*`: every model without its own): bin heights, opening hours, language, volume. */
export const mainConfig = defineResource({
  name: 'mainConfig',
  apiPath: '/configuration/main',
  route: '/service/mainConfig',
  menuId: 608,
  table: 'main_config',
  nameField: 'model',
  scope: 'licenseAccount',
  fields: {
    id: { type: 'number', readOnly: true, views: ['show'] },
    model: {
      type: 'text',
      required: true,
      minLength: 1,
      maxLength: 32,
      unique: true,
      patterns: [{ regex: '^(\\*|[A-Za-z0-9 ._-]+)$', message: 'resources.mainConfig.validation.model' }],
      sortable: true,
    },
    // bin heights in cm: above 10 and below 150 (docs/machine-configuration.md#main-config)
    binEmptyHeight: { type: 'number', integer: true, min: 11, max: 149, required: true },
    binFullHeight: { type: 'number', integer: true, min: 11, max: 149, required: true },
    almostFullPercent: { type: 'number', integer: true, min: 1, max: 100, required: true, defaultValue: 80 },
    alreadyFullPercent: { type: 'number', integer: true, min: 1, max: 100, required: true, defaultValue: 95 },
    onTime: { type: 'text', required: true, maxLength: 5, patterns: [CLOCK], defaultValue: '06:00' },
    offTime: { type: 'text', required: true, maxLength: 5, patterns: [CLOCK], defaultValue: '22:00' },
    language: { type: 'enum', options: MACHINE_LANGUAGES, required: true, defaultValue: 'en' },
    volume: { type: 'number', integer: true, min: 0, max: 100, required: true, defaultValue: 50 },
    updateTime: { type: 'datetime', readOnly: true, sortable: true },
  },
  rules: [
    { kind: 'greaterThan', field: 'binEmptyHeight', other: 'binFullHeight', message: 'resources.mainConfig.validation.emptyAboveFull' },
    { kind: 'notGreaterThan', field: 'almostFullPercent', other: 'alreadyFullPercent', message: 'resources.mainConfig.validation.almostNotAboveFull' },
    { kind: 'after', field: 'offTime', other: 'onTime', message: 'resources.mainConfig.validation.offAfterOn' },
  ],
  list: {
    columns: ['model', 'binEmptyHeight', 'binFullHeight', 'almostFullPercent', 'alreadyFullPercent', 'onTime', 'offTime', 'language', 'volume', 'updateTime'],
    defaultSort: { field: 'model', order: 'ASC' },
    filters: [{ name: 'modelLike', field: 'model', operator: 'like', alwaysOn: true }],
  },
  ...permissionsOf('mainConfig', 608),
});

export const CONFIGURATION_DECLARATIONS: readonly ResourceDeclaration[] = [assortment, mainConfig, refund, sorting, group, payout, langConfig, h30config];

/** Every configuration kind by its declaration's name, with the package resource type its versions become. */
export const CONFIGURATION_KINDS: Readonly<Record<string, ConfigurationKind>> = {
  refund: { declaration: refund, resourceType: 'refund' },
  assortment: { declaration: assortment, resourceType: 'assortment' },
  sorting: { declaration: sorting, resourceType: 'sorting' },
  mainConfig: { declaration: mainConfig, resourceType: 'main' },
  group: { declaration: group, resourceType: 'group' },
  payout: { declaration: payout, resourceType: 'payout' },
  langConfig: { declaration: langConfig, resourceType: 'lang' },
  h30config: { declaration: h30config, resourceType: 'h30config' },
};
