// The Promotion area (docs/promotions.md): what a machine's screen shows while nobody recycles. A promotion
// resource is one screen's worth of media (promotion 1 on top, promotion 2 below, the logo), each file checked
// on upload for its exact size and format by the file engine (resources/types.ts `dimensions`, docs/files.md
// "Media sizes"). An option schedules resources, in order with a duration each, for fleets or models; the
// default promotion is what a machine shows when no option applies. Deploying turns them into a package.
import { defineResource } from './types';

const MB = 1024 * 1024;
/** Promotion videos may be large; the package upload limit (docs/product-rules.md#validation-rules). */
export const PROMOTION_MAX_BYTES = 50 * MB;
/** Pictures and videos of the two promotion areas; the logo is a picture (docs/promotions.md#sizes-and-formats). */
export const PROMOTION_FORMATS = ['image/jpeg', 'image/png', 'video/mp4'] as const;
export const LOGO_FORMATS = ['image/jpeg', 'image/png'] as const;

/** The three areas of a machine's screen and their exact sizes in pixels (docs/promotions.md#sizes-and-formats). */
export const PROMOTION_SLOTS = {
  promotion1: { width: 1080, height: 1110 },
  promotion2: { width: 1080, height: 610 },
  logo: { width: 280, height: 100 },
} as const;
export type PromotionSlot = keyof typeof PROMOTION_SLOTS;

/** Days of the week as an option stores them (ISO order, Monday first). */
export const WEEK_DAYS = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'] as const;
export type WeekDay = (typeof WEEK_DAYS)[number];

const DAY = `(?:${WEEK_DAYS.join('|')})`;
const MODEL = '[A-Za-z0-9 ._-]+';

const buttons = (prefix: string, menuId: number) =>
  ({
    [`${prefix}:page`]: menuId * 100 + 1,
    [`${prefix}:add`]: menuId * 100 + 2,
    [`${prefix}:edit`]: menuId * 100 + 3,
    [`${prefix}:delete`]: menuId * 100 + 4,
  }) as const;

const actions = (prefix: string) => ({
  page: `${prefix}:page`,
  show: `${prefix}:page`,
  create: `${prefix}:add`,
  edit: `${prefix}:edit`,
  delete: `${prefix}:delete`,
  export: `${prefix}:page`,
});

/** Promotion › promotionResource (11301): one screen's media. */
export const promotionResource = defineResource({
  name: 'promotionResource',
  apiPath: '/promotion/resource',
  route: '/promotion/promotionResource',
  menuId: 11301, // promotion (113) › promotionResource, resources/menu.ts
  table: 'promotion_resource',
  nameField: 'name',
  scope: 'licenseAccount',
  fields: {
    id: { type: 'number', readOnly: true, views: ['show'] },
    name: { type: 'text', required: true, minLength: 1, maxLength: 64, unique: true, sortable: true },
    promotion1: { type: 'file', required: true, maxBytes: PROMOTION_MAX_BYTES, accept: PROMOTION_FORMATS, dimensions: PROMOTION_SLOTS.promotion1 },
    promotion2: { type: 'file', maxBytes: PROMOTION_MAX_BYTES, accept: PROMOTION_FORMATS, dimensions: PROMOTION_SLOTS.promotion2 },
    logo: { type: 'image', maxBytes: 5 * MB, accept: LOGO_FORMATS, dimensions: PROMOTION_SLOTS.logo },
    description: { type: 'textarea', maxLength: 500 },
    createTime: { type: 'datetime', readOnly: true, sortable: true },
  },
  list: {
    columns: ['name', 'promotion1', 'promotion2', 'logo', 'createTime'],
    defaultSort: { field: 'createTime', order: 'DESC' },
    filters: [{ name: 'nameLike', field: 'name', operator: 'like', alwaysOn: true }],
  },
  permissions: actions('promotionResource'),
  permissionIds: buttons('promotionResource', 11301),
  // the generic show view with the machine-screen preview below it (src/promotions/)
  customViews: { show: 'promotionResourceShow' },
});

/** Promotion › createPromotionOption (11303): when, where and in which order resources play. */
export const promotionOption = defineResource({
  name: 'promotionOption',
  apiPath: '/promotion/option',
  route: '/promotion/createPromotionOption',
  menuId: 11303, // promotion (113) › createPromotionOption, resources/menu.ts
  table: 'promotion_option',
  nameField: 'name',
  scope: 'licenseAccount',
  // fields with a default take it when absent on create (their columns are NOT NULL with the same default)
  fields: {
    id: { type: 'number', readOnly: true, views: ['show'] },
    name: { type: 'text', required: true, minLength: 1, maxLength: 64, unique: true, sortable: true },
    startDate: { type: 'date', required: true, sortable: true },
    endDate: { type: 'date', required: true, sortable: true },
    days: {
      type: 'text',
      maxLength: 40,
      options: WEEK_DAYS,
      display: 'optionList',
      defaultValue: WEEK_DAYS.join(', '),
      patterns: [{ regex: `^\\s*${DAY}(\\s*,\\s*${DAY})*\\s*$`, message: 'resources.promotionOption.validation.days' }],
    },
    startHour: { type: 'number', integer: true, min: 0, max: 23, defaultValue: 0, sortable: true },
    endHour: { type: 'number', integer: true, min: 1, max: 24, defaultValue: 24, sortable: true },
    fleets: {
      type: 'multiReference',
      reference: 'fleet',
      through: { table: 'promotion_option_fleet', from: 'option_id', to: 'fleet_id' },
      display: 'chips',
      onDelete: 'setNull',
    },
    models: { type: 'text', maxLength: 500, patterns: [{ regex: `^\\s*${MODEL}(\\s*,\\s*${MODEL})*\\s*$`, message: 'resources.deploymentPackage.validation.modelList' }] },
    description: { type: 'textarea', maxLength: 500 },
    createTime: { type: 'datetime', readOnly: true, sortable: true },
  },
  rules: [
    { kind: 'notGreaterThan', field: 'startDate', other: 'endDate', message: 'resources.promotionOption.validation.dates' },
    { kind: 'greaterThan', field: 'endHour', other: 'startHour', message: 'resources.promotionOption.validation.hours' },
  ],
  list: {
    columns: ['name', 'startDate', 'endDate', 'days', 'startHour', 'endHour', 'fleets', 'models', 'createTime'],
    defaultSort: { field: 'createTime', order: 'DESC' },
    filters: [{ name: 'nameLike', field: 'name', operator: 'like', alwaysOn: true }],
  },
  permissions: actions('promotionOption'),
  permissionIds: buttons('promotionOption', 11303),
  customViews: { list: 'promotionOptionList' },
});

/** An option's items: which resource plays, in which place, for how long (the Items tab of createPromotionOption). */
export const promotionItem = defineResource({
  name: 'promotionItem',
  apiPath: '/promotion/item',
  route: '/promotion/createPromotionOption/items',
  menuId: 11303,
  table: 'promotion_item',
  nameField: 'position',
  scope: 'licenseAccount',
  fields: {
    id: { type: 'number', readOnly: true, views: ['show'] },
    optionId: { type: 'reference', reference: 'promotionOption', required: true, sortable: true, onDelete: 'cascade' },
    position: { type: 'number', integer: true, min: 1, max: 99, defaultValue: 1, sortable: true },
    resourceId: { type: 'reference', reference: 'promotionResource', required: true, sortable: true },
    durationSeconds: { type: 'number', integer: true, min: 1, max: 3600, defaultValue: 15, display: 'duration', sortable: true },
  },
  list: {
    columns: ['optionId', 'position', 'resourceId', 'durationSeconds'],
    defaultSort: { field: 'position', order: 'ASC' },
    filters: [{ name: 'optionId', field: 'optionId', operator: 'eq', alwaysOn: true }],
  },
  permissions: actions('promotionItem'),
  permissionIds: {
    'promotionItem:page': 1130305,
    'promotionItem:add': 1130306,
    'promotionItem:edit': 1130307,
    'promotionItem:delete': 1130308,
  },
  customViews: { list: 'promotionItemList' },
});

/** Promotion › defaultPromotion (11304): what a machine shows when no option applies; one per license account. */
export const defaultPromotion = defineResource({
  name: 'defaultPromotion',
  apiPath: '/promotion/default',
  route: '/promotion/defaultPromotion',
  menuId: 11304, // promotion (113) › defaultPromotion, resources/menu.ts
  table: 'default_promotion',
  nameField: 'resourceId',
  scope: 'licenseAccount',
  fields: {
    id: { type: 'number', readOnly: true, views: ['show'] },
    resourceId: { type: 'reference', reference: 'promotionResource', required: true },
    durationSeconds: { type: 'number', integer: true, min: 1, max: 3600, defaultValue: 15, display: 'duration' },
    updateTime: { type: 'datetime', readOnly: true, sortable: true },
  },
  list: {
    columns: ['resourceId', 'durationSeconds', 'updateTime'],
    defaultSort: { field: 'updateTime', order: 'DESC' },
    filters: [],
  },
  permissions: actions('defaultPromotion'),
  permissionIds: buttons('defaultPromotion', 11304),
});

/**
 * Promotion › promotionDeployment (11302) is a screen, not a declaration: guarded by its menu entry's identifier,
 * deploying also needs the deployments engine's own permissions (docs/promotions.md#deploying).
 */
export const PROMOTION_DEPLOYMENT_PERMISSION = 'promotion:promotionDeployment';

export const PROMOTION_RESOURCES = [promotionResource, promotionOption, promotionItem, defaultPromotion] as const;
