import { ALARMS, ALARM_CATEGORIES, ALARM_SEVERITIES } from './fleetCatalogue';
import { defineResource } from './types';

/** Every code of the alarm catalogue (labels: `fleet.alarms.<code>`). */
export const ALARM_CODES = ALARMS.map((alarm) => alarm.code);

/**
 * Machine alarm events across the fleet (service › events), read-only: machines raise and clear
 * them. `termNo`, `fleetId`, `duration` and `open` are computed by the server hook
 * (server/resources/event.ts), which also widens the fleet filter to sub-fleets.
 */
export const event = defineResource({
  name: 'event',
  apiPath: '/event',
  route: '/service/events',
  menuId: 602, // service (6) › events, resources/menu.ts
  table: 'rvm_event',
  nameField: 'code',
  scope: 'licenseAccount',
  fields: {
    id: { type: 'number', readOnly: true, views: ['show'] },
    termNo: { type: 'text', readOnly: true, sortable: true, link: '/installation/rvmpage/:rvmId/EventHistory' },
    // The machine filter's field; the machine is shown as termNo (a link), so no view repeats it.
    rvmId: { type: 'reference', reference: 'machine', readOnly: true, views: [], onDelete: 'cascade' },
    fleetId: { type: 'reference', reference: 'fleet', readOnly: true, views: ['show'] },
    code: { type: 'enum', options: ALARM_CODES, readOnly: true, sortable: true, display: 'valueLabel' },
    category: { type: 'enum', options: ALARM_CATEGORIES, readOnly: true, sortable: true },
    severity: { type: 'enum', options: ALARM_SEVERITIES, readOnly: true, sortable: true, display: 'status' },
    raisedTime: { type: 'datetime', readOnly: true, sortable: true },
    clearedTime: { type: 'datetime', readOnly: true, sortable: true },
    /** Seconds from raised to cleared, or to now while open. */
    duration: { type: 'number', integer: true, readOnly: true, sortable: true, display: 'duration' },
    open: { type: 'boolean', readOnly: true, views: ['show'] },
    detail: { type: 'text', readOnly: true },
  },
  list: {
    columns: ['termNo', 'code', 'category', 'severity', 'raisedTime', 'clearedTime', 'duration', 'detail'],
    defaultSort: { field: 'raisedTime', order: 'DESC' },
    filters: [
      { name: 'code', field: 'code', operator: 'in', alwaysOn: true },
      // Fleet ids; the server adds their sub-fleets, as the machine list does.
      { name: 'fleetId', field: 'fleetId', operator: 'in', alwaysOn: true },
      { name: 'rvmId', field: 'rvmId', operator: 'eq', alwaysOn: true },
      { name: 'open', field: 'open', operator: 'eq', alwaysOn: true },
      { name: 'raisedFrom', field: 'raisedTime', operator: 'gte', alwaysOn: true },
      { name: 'raisedTo', field: 'raisedTime', operator: 'lte', alwaysOn: true },
      { name: 'category', field: 'category', operator: 'eq' },
      { name: 'severity', field: 'severity', operator: 'eq' },
    ],
  },
  // No create, edit or delete: those routes and buttons do not exist.
  permissions: { page: 'event:page', show: 'event:page', export: 'event:export' },
  // Permanent permission ids of this resource's buttons (roles store ids: never renumber, see resources/menu.ts).
  permissionIds: { 'event:page': 60201, 'event:export': 60202 },
});
