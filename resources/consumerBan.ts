import { defineResource } from './types';

/** How a banned consumer is recognised at a machine (docs/service-personnel.md#bans). */
export const CONSUMER_KINDS = ['userId', 'card', 'voucher'] as const;
export type ConsumerKind = (typeof CONSUMER_KINDS)[number];

/** Why a machine refused a consumer session (the protocol's `session.refusal`, docs/machine-protocol.md). */
export const SESSION_REFUSALS = ['banned'] as const;

/**
 * Ban management (Service › banManagement, docs/service-personnel.md#bans): a consumer refused by the
 * account's machines until the ban's end. One ban per consumer (kind and id) and account; its end is after
 * its start. The bans in force become a package (POST /consumer-ban/package) that machines obey.
 */
export const consumerBan = defineResource({
  name: 'consumerBan',
  apiPath: '/consumer-ban',
  route: '/service/banManagement',
  menuId: 619, // service (6) › banManagement, resources/menu.ts
  table: 'consumer_ban',
  nameField: 'consumerId',
  scope: 'licenseAccount',
  fields: {
    id: { type: 'number', readOnly: true, views: ['show'] },
    consumerKind: { type: 'enum', options: CONSUMER_KINDS, required: true, sortable: true, defaultValue: 'userId' },
    consumerId: {
      type: 'text',
      required: true,
      minLength: 1,
      maxLength: 32,
      sortable: true,
      patterns: [{ regex: '^\\S+$', message: 'resources.consumerBan.validation.consumerId' }],
    },
    reason: { type: 'text', required: true, minLength: 1, maxLength: 200 },
    startTime: { type: 'datetime', required: true, sortable: true },
    endTime: { type: 'datetime', required: true, sortable: true },
    // derived by the server: active, upcoming, ended (server/resources/consumerBan.ts)
    state: { type: 'enum', options: ['upcoming', 'active', 'ended'], readOnly: true, display: 'status', sortable: true },
    creator: { type: 'reference', reference: 'user', readOnly: true, onDelete: 'setNull' },
    createTime: { type: 'datetime', readOnly: true, sortable: true },
  },
  list: {
    columns: ['consumerKind', 'consumerId', 'reason', 'startTime', 'endTime', 'state', 'creator'],
    defaultSort: { field: 'createTime', order: 'DESC' },
    filters: [
      { name: 'consumerIdLike', field: 'consumerId', operator: 'like', alwaysOn: true },
      { name: 'consumerKind', field: 'consumerKind', operator: 'eq', alwaysOn: true },
      { name: 'state', field: 'state', operator: 'eq', alwaysOn: true },
      { name: 'reasonLike', field: 'reason', operator: 'like' },
    ],
  },
  rules: [{ kind: 'after', field: 'endTime', other: 'startTime', message: 'resources.consumerBan.validation.endAfterStart' }],
  permissions: {
    page: 'consumerBan:page',
    show: 'consumerBan:page',
    create: 'consumerBan:add',
    edit: 'consumerBan:edit',
    delete: 'consumerBan:delete',
    export: 'consumerBan:page',
  },
  permissionIds: {
    'consumerBan:page': 61901,
    'consumerBan:add': 61902,
    'consumerBan:edit': 61903,
    'consumerBan:delete': 61904,
    'consumerBan:package': 61905,
  },
  extraPermissions: { 'consumerBan:package': 'resources.consumerBan.actions.makePackage' },
  customViews: { list: 'consumerBanList' },
});
