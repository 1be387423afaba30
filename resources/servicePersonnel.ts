import { defineResource } from './types';

/** Access levels of service personnel (docs/service-personnel.md#access-levels). */
export const ACCESS_LEVELS = ['normal', 'advanced'] as const;
export type AccessLevel = (typeof ACCESS_LEVELS)[number];

/**
 * What a signed-in technician may do on a machine (docs/service-personnel.md#access-levels). Labels:
 * resources.personnelAccessLevel.enums.actions.<action>.
 */
export const SERVICE_ACTIONS = ['emptyBins', 'clean', 'viewCounters', 'clearAlarms', 'repair', 'calibrate', 'changeSettings', 'exportLogs', 'restart'] as const;
export type ServiceAction = (typeof SERVICE_ACTIONS)[number];

/** What a level may do while the account has saved no settings for it (docs/service-personnel.md#access-levels). */
export const DEFAULT_LEVEL_ACTIONS: Readonly<Record<AccessLevel, readonly ServiceAction[]>> = {
  normal: ['emptyBins', 'clean', 'viewCounters', 'clearAlarms'],
  advanced: SERVICE_ACTIONS,
};
/** Minutes of inactivity after which a machine signs a technician out, when no setting says otherwise. */
export const DEFAULT_SIGN_OUT_MINUTES = 30;

/** Login names: what a machine's keypad can type (docs/service-personnel.md#personnel). */
const LOGIN = { regex: '^[A-Za-z0-9._-]+$', message: 'resources.servicePersonnel.validation.loginName' } as const;
// Keypad passwords of 6 to 64 characters; hashed by the server before anything stores them.
const PASSWORD = { regex: '^\\S+$', message: 'resources.servicePersonnel.validation.password' } as const;
const actionList = `^\\s*(${SERVICE_ACTIONS.join('|')})(\\s*,\\s*(${SERVICE_ACTIONS.join('|')}))*\\s*$`;

/**
 * Service personnel (Service › personnalSetting, docs/service-personnel.md#personnel): who may sign in on a
 * machine's service menu. The password is write-only and stored as a salted scrypt hash
 * (server/resources/servicePersonnel.ts); packages carry the hash only.
 */
export const servicePersonnel = defineResource({
  name: 'servicePersonnel',
  apiPath: '/service-personnel',
  route: '/service/personnalSetting',
  menuId: 616, // service (6) › personnalSetting, resources/menu.ts
  table: 'service_personnel',
  nameField: 'loginName',
  scope: 'licenseAccount',
  fields: {
    id: { type: 'number', readOnly: true, views: ['show'] },
    loginName: { type: 'text', required: true, minLength: 2, maxLength: 32, unique: true, sortable: true, patterns: [LOGIN] },
    realName: { type: 'text', required: true, minLength: 1, maxLength: 64, sortable: true },
    accessLevel: { type: 'enum', options: ACCESS_LEVELS, required: true, sortable: true, defaultValue: 'normal', display: 'status' },
    company: { type: 'text', maxLength: 64, sortable: true },
    // Set on create; on edit optional (empty keeps the stored one, a new one replaces it); never answered. A keypad
    // password: its own lengths and pattern, not the console users' password rule.
    password: {
      type: 'password',
      requiredOnCreate: true,
      writeOnly: true,
      passwordRule: false,
      minLength: 6,
      maxLength: 64,
      patterns: [PASSWORD],
      views: ['create', 'edit'],
    },
    enabled: { type: 'boolean', sortable: true, defaultValue: true },
    createTime: { type: 'datetime', readOnly: true, sortable: true },
    updateTime: { type: 'datetime', readOnly: true, sortable: true },
  },
  list: {
    columns: ['loginName', 'realName', 'accessLevel', 'company', 'enabled', 'updateTime'],
    defaultSort: { field: 'loginName', order: 'ASC' },
    filters: [
      { name: 'loginNameLike', field: 'loginName', operator: 'like', alwaysOn: true },
      { name: 'realNameLike', field: 'realName', operator: 'like', alwaysOn: true },
      { name: 'accessLevel', field: 'accessLevel', operator: 'eq', alwaysOn: true },
      { name: 'companyLike', field: 'company', operator: 'like' },
      { name: 'enabled', field: 'enabled', operator: 'eq' },
    ],
  },
  permissions: {
    page: 'servicePersonnel:page',
    show: 'servicePersonnel:page',
    create: 'servicePersonnel:add',
    edit: 'servicePersonnel:edit',
    delete: 'servicePersonnel:delete',
    export: 'servicePersonnel:page',
  },
  // Permanent permission ids of this resource's buttons (roles store ids: never renumber, see resources/menu.ts).
  permissionIds: {
    'servicePersonnel:page': 61601,
    'servicePersonnel:add': 61602,
    'servicePersonnel:edit': 61603,
    'servicePersonnel:delete': 61604,
  },
  // the list under the personnel tabs (src/personnel/PersonnelLists.tsx)
  customViews: { list: 'servicePersonnelList' },
});

/**
 * Personnel settings: what each access level may do on a machine (docs/service-personnel.md#access-levels),
 * one record per level and license account; a level without one has DEFAULT_LEVEL_ACTIONS.
 */
export const personnelAccessLevel = defineResource({
  name: 'personnelAccessLevel',
  apiPath: '/personnel-access-level',
  route: '/service/personnalSetting/levels',
  menuId: 616,
  table: 'personnel_access_level',
  nameField: 'level',
  scope: 'licenseAccount',
  fields: {
    id: { type: 'number', readOnly: true, views: ['show'] },
    level: { type: 'enum', options: ACCESS_LEVELS, required: true, unique: true, sortable: true, display: 'status' },
    actions: {
      type: 'text',
      required: true,
      maxLength: 500,
      options: SERVICE_ACTIONS,
      display: 'optionList',
      patterns: [{ regex: actionList, message: 'resources.personnelAccessLevel.validation.actions' }],
    },
    signOutMinutes: { type: 'number', integer: true, min: 1, max: 480, required: true, defaultValue: DEFAULT_SIGN_OUT_MINUTES, sortable: true },
    description: { type: 'textarea', maxLength: 300 },
    updateTime: { type: 'datetime', readOnly: true, sortable: true },
  },
  list: {
    columns: ['level', 'actions', 'signOutMinutes', 'description', 'updateTime'],
    defaultSort: { field: 'level', order: 'DESC' },
    filters: [{ name: 'level', field: 'level', operator: 'eq', alwaysOn: true }],
  },
  permissions: {
    page: 'personnelAccessLevel:page',
    show: 'personnelAccessLevel:page',
    create: 'personnelAccessLevel:edit',
    edit: 'personnelAccessLevel:edit',
    delete: 'personnelAccessLevel:edit',
    export: 'personnelAccessLevel:page',
  },
  permissionIds: { 'personnelAccessLevel:page': 61606, 'personnelAccessLevel:edit': 61605 },
  customViews: { list: 'personnelAccessLevelList' },
});
