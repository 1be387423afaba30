import { BIN_HEIGHT, RVM_STATES, RVM_STATUSES } from './fleetCatalogue';
import { defineResource } from './types';

const TIME_OF_DAY = { regex: '^([01][0-9]|2[0-3]):[0-5][0-9]$', message: 'fleet.validation.timeOfDay' } as const;
/** RVM numbers and serial numbers: a serial number is also the machine's MQTT user name and topic level, so no `+ # /`. */
const IDENTIFIER = { regex: '^[A-Za-z0-9_-]+$', message: 'fleet.validation.identifier' } as const;
const binHeight = { type: 'number', integer: true, min: BIN_HEIGHT.min, max: BIN_HEIGHT.max } as const;
const percent = { type: 'number', integer: true, min: 1, max: 100 } as const;
/** Health flags of the home dashboard (docs/dashboard.md): computed by the server, filterable, shown nowhere as columns. */
const flag = { type: 'boolean', readOnly: true, views: [] } as const;

/**
 * The home dashboard's definitions (docs/dashboard.md#card-definitions), shared by the server (cards, machine-list filters) and the
 * console (card texts). Times are windows ending now; see docs/dashboard.md for each card.
 */
export const HOME_LIMITS = {
  /** "Down more than 1 hour": status Down since more than this. */
  downHours: 1,
  /** "Offline more than 1 week". */
  offlineDays: 7,
  /** "Not used in the last 24 hours": no consumer session in this window. */
  notUsedHours: 24,
  /** "High reject rate": more than `minItems` items AND more than `rate` of them rejected in `hours`. */
  highReject: { hours: 24, minItems: 10, rate: 0.4 },
  /** "Needs clean": no completed service (cleaning) session ended in this window. */
  cleaningDays: 7,
  /** Averages per day: over the complete days of the last 4 weeks. */
  averageDays: 28,
  /** Reject-rate average: over the complete days of the last 30 days. */
  rejectRateAverageDays: 30,
  /** Reject-rate curve: the complete days of the last 7 days. */
  rejectRateCurveDays: 7,
} as const;

/**
 * Reverse vending machines ("term", docs/product-rules.md#entities-and-fields). The list lives on the fleet management screen; the
 * record is the machine page's ProfileSetting tab. Live state (status, online, last session) is
 * written by the server only. The fleet filter includes sub-fleets (server hook `filter`).
 */
export const machine = defineResource({
  name: 'machine',
  apiPath: '/rvm',
  // Its own route (react-admin's create/edit/show live below it); the list itself is embedded in the
  // fleet management screen, and "show" is the machine page (/installation/rvmpage/<id>).
  route: '/installation/rvm',
  // The ProfileSetting tab (rvmpage 202 > 20202), where a machine record is edited: its buttons sit
  // there (permanent ids 20202nn below). 201 (fleetManagement) holds the fleet declaration's buttons.
  menuId: 20202,
  table: 'rvm',
  nameField: 'termNo',
  notFoundCode: '6001', // the machine does not exist (docs/product-rules.md#error-catalogue)
  scope: 'licenseAccount',
  fields: {
    id: { type: 'number', readOnly: true, views: ['show'] },
    termNo: { type: 'text', required: true, minLength: 1, maxLength: 32, patterns: [IDENTIFIER], unique: true, sortable: true },
    serialNumber: { type: 'text', required: true, minLength: 1, maxLength: 32, patterns: [IDENTIFIER], sortable: true },
    termType: { type: 'text', required: true, minLength: 1, maxLength: 32, sortable: true },
    fleetId: { type: 'reference', reference: 'fleet', required: true, sortable: true, onDelete: 'restrict' },
    currentSts: { type: 'enum', options: RVM_STATUSES, readOnly: true, display: 'status', sortable: true },
    statusSince: { type: 'datetime', readOnly: true, sortable: true },
    online: { type: 'boolean', readOnly: true, sortable: true },
    sts: { type: 'enum', options: RVM_STATES, sortable: true, defaultValue: 'active' },
    localAreaId: { type: 'text', maxLength: 64, sortable: true },
    address: { type: 'text', maxLength: 200, sortable: true },
    softwareVersion: { type: 'text', maxLength: 32, sortable: true },
    simNo: { type: 'text', maxLength: 32 },
    macAddress: { type: 'text', maxLength: 17, patterns: [{ regex: '^([0-9A-Fa-f]{2}:){5}[0-9A-Fa-f]{2}$', message: 'fleet.validation.macAddress' }] },
    longitude: { type: 'number', min: -180, max: 180 },
    latitude: { type: 'number', min: -90, max: 90 },
    installDate: { type: 'date', sortable: true },
    activationDate: { type: 'date', sortable: true },
    binCount: { type: 'number', integer: true, min: 1, max: 8, defaultValue: 1 },
    binEmptyHeight: binHeight,
    binFullHeight: binHeight,
    binAlmostFull: percent,
    binAlreadyFull: percent,
    onTime: { type: 'text', maxLength: 5, patterns: [TIME_OF_DAY] },
    offTime: { type: 'text', maxLength: 5, patterns: [TIME_OF_DAY] },
    lastSessionTime: { type: 'datetime', readOnly: true, sortable: true },
    note: { type: 'textarea', maxLength: 500 },
    createTime: { type: 'datetime', readOnly: true, sortable: true },
    // Computed by the server (server/resources/machine.ts) with the HOME_LIMITS definitions.
    full: flag,
    highRejectRate: flag,
    needsClean: flag,
    profileMismatch: flag,
    quarantined: flag,
    octopusOffline: flag,
    alipayOffline: flag,
  },
  list: {
    // status, status time and last session change as machines report (docs/fleet.md "Live pages")
    refreshSeconds: 30,
    columns: ['termNo', 'serialNumber', 'termType', 'fleetId', 'currentSts', 'statusSince', 'localAreaId', 'address', 'softwareVersion', 'lastSessionTime'],
    defaultSort: { field: 'termNo', order: 'ASC' },
    filters: [
      { name: 'termNoLike', field: 'termNo', operator: 'like', alwaysOn: true },
      { name: 'currentSts', field: 'currentSts', operator: 'eq', alwaysOn: true },
      // Fleet ids; the server adds their sub-fleets (the console may send the selected fleet alone).
      { name: 'fleetId', field: 'fleetId', operator: 'in', alwaysOn: true },
      { name: 'termType', field: 'termType', operator: 'eq' },
      { name: 'localAreaId', field: 'localAreaId', operator: 'eq' },
      { name: 'addressLike', field: 'address', operator: 'like' },
      { name: 'softwareVersion', field: 'softwareVersion', operator: 'eq' },
      { name: 'serialNumberLike', field: 'serialNumber', operator: 'like' },
      { name: 'sts', field: 'sts', operator: 'eq' },
      // The home dashboard's cards open the list with these (docs/dashboard.md). The three time
      // filters take the window's start: e.g. downSince = now - 1 h means "Down since before then".
      { name: 'downSince', field: 'statusSince', operator: 'lte' },
      { name: 'offlineSince', field: 'statusSince', operator: 'lte' },
      { name: 'notUsedSince', field: 'lastSessionTime', operator: 'lte' },
      { name: 'full', field: 'full', operator: 'eq' },
      { name: 'highRejectRate', field: 'highRejectRate', operator: 'eq' },
      { name: 'needsClean', field: 'needsClean', operator: 'eq' },
      { name: 'profileMismatch', field: 'profileMismatch', operator: 'eq' },
      { name: 'quarantined', field: 'quarantined', operator: 'eq' },
      { name: 'octopusOffline', field: 'octopusOffline', operator: 'eq' },
      { name: 'alipayOffline', field: 'alipayOffline', operator: 'eq' },
    ],
  },
  permissions: {
    page: 'machine:page',
    show: 'machine:page',
    create: 'machine:add',
    edit: 'machine:edit',
    delete: 'machine:delete',
    export: 'machine:export',
  },
  // Permanent permission ids of this resource's buttons (roles store ids: never renumber, see resources/menu.ts).
  permissionIds: { 'machine:page': 2020201, 'machine:add': 2020202, 'machine:edit': 2020203, 'machine:delete': 2020204, 'machine:export': 2020205 },
  customViews: { list: 'fleetManagement', show: 'machinePage' },
  rules: [
    // docs/product-rules.md#validation-rules: the sensor reads a larger distance when the bin is empty.
    { kind: 'greaterThan', field: 'binEmptyHeight', other: 'binFullHeight', message: 'fleet.validation.binEmptyAboveFull' },
    { kind: 'notGreaterThan', field: 'binAlmostFull', other: 'binAlreadyFull', message: 'fleet.validation.almostFullNotAboveFull' },
    { kind: 'after', field: 'offTime', other: 'onTime', message: 'validation.endAfterStart' },
  ],
});

/** The fields the machine page's ProfileSetting tab shows and edits. */
export const PROFILE_FIELDS = [
  'fleetId',
  'sts',
  'localAreaId',
  'address',
  'simNo',
  'longitude',
  'latitude',
  'installDate',
  'activationDate',
  'binEmptyHeight',
  'binFullHeight',
  'binAlmostFull',
  'binAlreadyFull',
  'onTime',
  'offTime',
  'note',
] as const;
