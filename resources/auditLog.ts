import { REMOTE_COMMANDS } from './commands';
import { defineResource } from './types';

/** Writes of the resource engine (server/crud). */
export const WRITE_ACTIONS = ['create', 'update', 'delete'] as const;
/** Security events: sign-in (success or failure), sign-out, passwords set by their user, an administrator or a reset link. */
export const SECURITY_ACTIONS = ['signIn', 'signOut', 'passwordChange', 'passwordReset', 'passwordResetByLink'] as const;
/** Operator actions on machines (server/commands, server/gateway), as the remote control screens have always recorded them. */
export const MACHINE_ACTIONS = [
  ...REMOTE_COMMANDS.map((command) => `command.${command}` as const),
  'command.cancel',
  'gateway.rotateSecret',
  'gateway.rotateEnrollmentKey',
] as const;
export const AUDIT_ACTIONS = [...WRITE_ACTIONS, ...SECURITY_ACTIONS, ...MACHINE_ACTIONS] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];

/** success/failure for writes and security events; the rest are the remote commands' own outcomes. */
export const AUDIT_OUTCOMES = ['success', 'failure', 'queued', 'partial', 'refused', 'cancelled', 'done'] as const;
export type AuditOutcome = (typeof AUDIT_OUTCOMES)[number];

/**
 * The code-declared resources entries name (a configured type's entries name the type and show its name
 * as it is). tests/server/auditLog.test.ts checks that every writable declaration is listed.
 */
export const AUDITED_RESOURCES = [
  'account',
  'user',
  'role',
  'permission',
  'fleet',
  'machine',
  'eventNotification',
  'reportNotification',
  'deploymentPackage',
  'deployment',
  // machine configuration (docs/machine-configuration.md), personnel and bans (docs/service-personnel.md)
  'refund',
  'assortment',
  'sorting',
  'mainConfig',
  'langConfig',
  'h30config',
  'group',
  'payout',
  // the configuration-template store (docs/machine-configuration.md#generate-config-file)
  'configTemplate',
  'configTemplateContent',
  'servicePersonnel',
  'personnelAccessLevel',
  'consumerBan',
  // promotions (docs/promotions.md)
  'promotionResource',
  'promotionOption',
  'promotionItem',
  'defaultPromotion',
  // APIs area (docs/api-hookups.md): apps and subscriptions by family, secrets and resends of the transactions screens
  'csThridApp',
  'ciThridApp',
  'statusThridApp',
  'csApi',
  'ciApi',
  'statusApi',
  'csApiTransaction',
  'ciApiTransaction',
  'statusApiTransaction',
  // not the engine's records: resource type definitions (server/configuredTypes/audit.ts) and saved filters (server/savedFilters/routes.ts)
  'resourceType',
  'savedFilter',
] as const;

/** Audited names that are no resource of the engine: a configured type may not take one (its entries would mix with theirs). */
export const AUDIT_ONLY_RESOURCES: readonly string[] = ['resourceType', 'savedFilter'];

/**
 * System settings › Audit log (docs/audit-log.md): read-only, newest first. Scope: the caller's license
 * account; a superAdmin also sees the entries of no account (failed sign-ins with unknown user names),
 * server/resources/auditLog.ts. `changes` is JSON text (before/after of the changed fields), `details`
 * the command's target and parameters; the show view renders both (src/resources/AuditLogShow.tsx).
 */
export const auditLog = defineResource({
  name: 'auditLog',
  apiPath: '/audit-entry',
  route: '/systemSettings/auditLog',
  menuId: 2106, // systemSettings (21) › auditLog, resources/menu.ts
  table: 'audit_log',
  nameField: 'userName',
  scope: 'custom',
  fields: {
    id: { type: 'number', readOnly: true, views: ['show'] },
    time: { type: 'datetime', readOnly: true, sortable: true },
    userName: { type: 'text', readOnly: true, sortable: true },
    userId: { type: 'number', integer: true, readOnly: true, views: ['show'] },
    action: { type: 'enum', options: AUDIT_ACTIONS, readOnly: true, sortable: true },
    resource: { type: 'enum', options: AUDITED_RESOURCES, display: 'resourceName', readOnly: true, sortable: true },
    recordId: { type: 'number', integer: true, readOnly: true, sortable: true },
    outcome: { type: 'enum', options: AUDIT_OUTCOMES, readOnly: true },
    address: { type: 'text', readOnly: true },
    changes: { type: 'textarea', readOnly: true, views: ['show'] },
    details: { type: 'textarea', readOnly: true, views: ['show'] },
  },
  list: {
    columns: ['time', 'userName', 'action', 'resource', 'recordId', 'outcome', 'address'],
    defaultSort: { field: 'time', order: 'DESC' },
    filters: [
      { name: 'timeFrom', field: 'time', operator: 'gte', alwaysOn: true },
      { name: 'timeTo', field: 'time', operator: 'lte', alwaysOn: true },
      { name: 'userNameLike', field: 'userName', operator: 'like', alwaysOn: true },
      { name: 'action', field: 'action', operator: 'in', alwaysOn: true },
      { name: 'resource', field: 'resource', operator: 'in', alwaysOn: true },
      { name: 'recordId', field: 'recordId', operator: 'eq' },
      { name: 'address', field: 'address', operator: 'eq' },
      { name: 'outcome', field: 'outcome', operator: 'eq' },
    ],
  },
  // No create, edit or delete: entries are written by the server only, and removed by retention.
  permissions: { page: 'auditLog:page', show: 'auditLog:page', export: 'auditLog:export' },
  // Permanent permission ids of this resource's buttons (roles store ids: never renumber, see resources/menu.ts).
  permissionIds: { 'auditLog:page': 210601, 'auditLog:export': 210602 },
  customViews: { show: 'auditLogShow' },
});
