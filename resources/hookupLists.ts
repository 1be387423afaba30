// Read-only lists of the APIs area (docs/api-hookups.md "Tracing-code lists", "Notification list").
import { RVM_STATUSES } from './fleetCatalogue';
import { NOTIFICATION_CHANNELS, SEND_STATUSES, TC_OUTCOMES } from './hookupCatalogue';
import { defineResource } from './types';

/** Machines bound to an enabled vendorConnect app (scope hook: server/hookups/resources.ts). */
export const tcRvmList = defineResource({
  name: 'tcRvmList',
  apiPath: '/hookup/tc/rvm',
  route: '/apis/tcRvmList',
  menuId: 1210,
  table: 'rvm',
  nameField: 'termNo',
  scope: 'custom',
  notFoundCode: '6001',
  fields: {
    id: { type: 'number', readOnly: true, views: ['show'] },
    termNo: { type: 'text', readOnly: true, sortable: true, unique: true, link: '/installation/rvmpage/:id/Overview' },
    fleetId: { type: 'reference', reference: 'fleet', readOnly: true, sortable: true },
    currentSts: { type: 'enum', options: RVM_STATUSES, readOnly: true, sortable: true, display: 'status' },
    schemeApp: { type: 'text', readOnly: true },
    redeemed: { type: 'number', integer: true, readOnly: true },
    refused: { type: 'number', integer: true, readOnly: true },
    lastSessionTime: { type: 'datetime', readOnly: true, sortable: true },
  },
  list: {
    columns: ['termNo', 'fleetId', 'currentSts', 'schemeApp', 'redeemed', 'refused', 'lastSessionTime'],
    defaultSort: { field: 'termNo', order: 'ASC' },
    filters: [
      { name: 'termNoLike', field: 'termNo', operator: 'like', alwaysOn: true },
      { name: 'fleetId', field: 'fleetId', operator: 'in', alwaysOn: true },
      { name: 'currentSts', field: 'currentSts', operator: 'eq', alwaysOn: true },
    ],
  },
  permissions: { page: 'tcRvmList:page', show: 'tcRvmList:page', export: 'tcRvmList:export' },
  permissionIds: { 'tcRvmList:page': 121001, 'tcRvmList:export': 121002 },
});

/** Tracing-code outcomes of consumer session items (view hookup_tc_transaction). */
export const tcTransactionList = defineResource({
  name: 'tcTransactionList',
  apiPath: '/hookup/tc/transaction',
  route: '/apis/tcTransactionList',
  menuId: 1211,
  table: 'hookup_tc_transaction',
  nameField: 'termNo',
  scope: 'licenseAccount',
  fields: {
    id: { type: 'number', readOnly: true, views: ['show'] },
    termNo: { type: 'text', readOnly: true, sortable: true, link: '/installation/rvmpage/:rvmId/ConsumerSessions' },
    rvmId: { type: 'reference', reference: 'machine', readOnly: true, views: [], onDelete: 'cascade' },
    time: { type: 'datetime', readOnly: true, sortable: true },
    barcode: { type: 'text', readOnly: true },
    itemType: { type: 'text', readOnly: true },
    outcome: { type: 'enum', options: TC_OUTCOMES, readOnly: true, sortable: true, display: 'status' },
    refund: { type: 'number', readOnly: true, scale: 2 },
  },
  list: {
    columns: ['time', 'termNo', 'barcode', 'itemType', 'outcome', 'refund'],
    defaultSort: { field: 'time', order: 'DESC' },
    filters: [
      { name: 'outcome', field: 'outcome', operator: 'eq', alwaysOn: true },
      { name: 'rvmId', field: 'rvmId', operator: 'eq', alwaysOn: true },
      { name: 'timeFrom', field: 'time', operator: 'gte', alwaysOn: true },
      { name: 'timeTo', field: 'time', operator: 'lte', alwaysOn: true },
      { name: 'barcode', field: 'barcode', operator: 'eq' },
    ],
  },
  permissions: { page: 'tcTransactionList:page', show: 'tcTransactionList:page', export: 'tcTransactionList:export' },
  permissionIds: { 'tcTransactionList:page': 121101, 'tcTransactionList:export': 121102 },
});

/** Every outbound notification (view hookup_notification). */
export const notificationList = defineResource({
  name: 'notificationList',
  apiPath: '/hookup/notification',
  route: '/apis/notificationList',
  menuId: 1212,
  table: 'hookup_notification',
  nameField: 'label',
  scope: 'licenseAccount',
  fields: {
    id: { type: 'number', readOnly: true, views: ['show'] },
    time: { type: 'datetime', readOnly: true, sortable: true },
    channel: { type: 'enum', options: NOTIFICATION_CHANNELS, readOnly: true, sortable: true },
    target: { type: 'text', readOnly: true },
    subject: { type: 'text', readOnly: true },
    status: { type: 'enum', options: SEND_STATUSES, readOnly: true, sortable: true, display: 'status' },
    attempts: { type: 'number', integer: true, readOnly: true },
    detail: { type: 'text', readOnly: true },
    reference: { type: 'text', readOnly: true, views: ['show'] },
    label: { type: 'text', readOnly: true, views: [] },
  },
  list: {
    columns: ['time', 'channel', 'target', 'subject', 'status', 'attempts', 'detail'],
    defaultSort: { field: 'time', order: 'DESC' },
    filters: [
      { name: 'channel', field: 'channel', operator: 'eq', alwaysOn: true },
      { name: 'status', field: 'status', operator: 'eq', alwaysOn: true },
      { name: 'timeFrom', field: 'time', operator: 'gte', alwaysOn: true },
      { name: 'timeTo', field: 'time', operator: 'lte', alwaysOn: true },
    ],
  },
  permissions: { page: 'notificationList:page', show: 'notificationList:page', export: 'notificationList:export' },
  permissionIds: { 'notificationList:page': 121201, 'notificationList:export': 121202 },
});
