// Machine configuration kinds Service › langConfig and Service › h30config (docs/machine-configuration.md#lang-config
// and #h30-config): the texts a machine's screen shows, per language and text key, and the settings of the H30
// model, per setting key. Both are kinds of the shared mechanism (./machineConfiguration.ts), registered in
// ./configurationKinds.ts; a setting's value is checked against its key's type and range in
// server/configurations/kindRules.ts.
import { defineResource } from './types';

/** Languages a machine's screen can show (labels: resources.<kind>.enums.language.<value>); main config picks one. */
export const MACHINE_LANGUAGES = ['en', 'zh', 'zhHant'] as const;

/** The texts of a machine's screen an operator can set (labels: resources.langConfig.enums.textKey.<value>). */
export const MACHINE_TEXT_KEYS = [
  'welcome',
  'insertItem',
  'itemAccepted',
  'itemRejected',
  'sessionTotal',
  'choosePayout',
  'printReceipt',
  'thankYou',
  'binFull',
  'outOfService',
  'closed',
  'consumerRefused',
] as const;
export type MachineTextKey = (typeof MACHINE_TEXT_KEYS)[number];

/** The longest screen text. */
export const MACHINE_TEXT_MAX = 500;

/** An H30 setting: a whole number in a range, or a switch (`on` / `off`). */
export type H30Setting = { type: 'number'; min: number; max: number } | { type: 'switch' };

/** The settings of the H30 model with their type and range (labels: resources.h30config.enums.setting.<key>). */
export const H30_SETTINGS = {
  conveyorSpeed: { type: 'number', min: 1, max: 10 },
  compaction: { type: 'switch' },
  maxItemsPerSession: { type: 'number', min: 1, max: 500 },
  idleTimeoutSeconds: { type: 'number', min: 10, max: 600 },
  cameraExposure: { type: 'number', min: 1, max: 100 },
  screenBrightness: { type: 'number', min: 10, max: 100 },
  printerEnabled: { type: 'switch' },
} as const satisfies Record<string, H30Setting>;
export type H30SettingKey = keyof typeof H30_SETTINGS;
export const H30_SETTING_KEYS = Object.keys(H30_SETTINGS) as H30SettingKey[];
/** The machine model the H30 settings are for (a machine's `termType`). */
export const H30_MODEL = 'H30';

/** A switch's values. */
export const SWITCH_VALUES = ['on', 'off'] as const;

/**
 * Why `value` does not fit the setting (an i18n key and its values), or null when it does: a number setting takes a
 * whole number in its range written in digits, a switch `on` or `off`.
 */
export const h30ValueIssue = (setting: string, value: string): { message: string; values?: Record<string, number> } | null => {
  const declared: H30Setting | undefined = (H30_SETTINGS as Record<string, H30Setting>)[setting];
  if (!declared) return null;
  if (declared.type === 'switch') return (SWITCH_VALUES as readonly string[]).includes(value) ? null : { message: 'resources.h30config.validation.switch' };
  const number = /^[0-9]{1,4}$/.test(value) ? Number(value) : NaN;
  return number >= declared.min && number <= declared.max ? null : { message: 'resources.h30config.validation.range', values: { min: declared.min, max: declared.max } };
};

/** Button permission ids: <menu id> then 01 page, 02 add, 03 edit, 04 delete (roles store ids: never renumber). */
const permissionsOf = (name: string, menuId: number) => ({
  permissions: { page: `${name}:page`, show: `${name}:page`, create: `${name}:add`, edit: `${name}:edit`, delete: `${name}:delete`, export: `${name}:page` },
  permissionIds: { [`${name}:page`]: menuId * 100 + 1, [`${name}:add`]: menuId * 100 + 2, [`${name}:edit`]: menuId * 100 + 3, [`${name}:delete`]: menuId * 100 + 4 },
  // the generic list under the versions bar (src/configurations/ConfigurationList.tsx)
  customViews: { list: 'configurationList' },
});

/** A text of the machine's screen in one language: one per (text key, language). */
export const langConfig = defineResource({
  name: 'langConfig',
  apiPath: '/configuration/lang',
  route: '/service/langConfig',
  menuId: 609,
  table: 'lang_text',
  nameField: 'text',
  scope: 'licenseAccount',
  fields: {
    id: { type: 'number', readOnly: true, views: ['show'] },
    // together they name the item (one unique index on both: docs/machine-configuration.md#lang-config)
    textKey: { type: 'enum', options: MACHINE_TEXT_KEYS, required: true, unique: true, sortable: true },
    language: { type: 'enum', options: MACHINE_LANGUAGES, required: true, unique: true, sortable: true, defaultValue: 'en' },
    text: { type: 'textarea', required: true, minLength: 1, maxLength: MACHINE_TEXT_MAX, display: 'excerpt' },
    updateTime: { type: 'datetime', readOnly: true, sortable: true },
  },
  list: {
    columns: ['textKey', 'language', 'text', 'updateTime'],
    defaultSort: { field: 'textKey', order: 'ASC' },
    filters: [
      { name: 'textKey', field: 'textKey', operator: 'in', alwaysOn: true },
      { name: 'language', field: 'language', operator: 'in', alwaysOn: true },
      { name: 'textLike', field: 'text', operator: 'like', alwaysOn: true },
    ],
  },
  ...permissionsOf('langConfig', 609),
});

/** A setting of the H30 model: one per setting key, its value checked against the key's type and range. */
export const h30config = defineResource({
  name: 'h30config',
  apiPath: '/configuration/h30',
  route: '/service/h30config',
  menuId: 614,
  table: 'h30_setting',
  nameField: 'setting',
  scope: 'licenseAccount',
  fields: {
    id: { type: 'number', readOnly: true, views: ['show'] },
    setting: { type: 'enum', options: H30_SETTING_KEYS, required: true, unique: true, sortable: true },
    // a whole number in the setting's range, or on / off (server/configurations/kindRules.ts)
    value: { type: 'text', required: true, minLength: 1, maxLength: 8, sortable: true },
    updateTime: { type: 'datetime', readOnly: true, sortable: true },
  },
  list: {
    columns: ['setting', 'value', 'updateTime'],
    defaultSort: { field: 'setting', order: 'ASC' },
    filters: [{ name: 'setting', field: 'setting', operator: 'in', alwaysOn: true }],
  },
  ...permissionsOf('h30config', 614),
});
