// Business constants of the fleet (docs/product-rules.md#statuses and #catalogues), shared by the server, the demo seed and
// the console. Every value has its label in i18n `fleet.*` (e.g. `fleet.statuses.Up`,
// `fleet.alarms.am_code_PK_17`), so this file holds codes only, never texts.

/** Live machine status values (docs/product-rules.md#statuses). */
export const RVM_STATUSES = ['Up', 'Offline', 'Down', 'Sleep'] as const;
export type RvmStatus = (typeof RVM_STATUSES)[number];

/** Administrative state of a machine record: active machines count in the fleet figures. */
export const RVM_STATES = ['active', 'inactive'] as const;

export const ITEM_TYPES = ['plasticBottle', 'can', 'glass', 'plasticCup', 'flat', 'others'] as const;
export type ItemType = (typeof ITEM_TYPES)[number];

/** Payout methods (docs/product-rules.md#catalogues), plus the donation to a donation institute. */
export const PAYOUT_METHODS = ['loyaltyAccount', 'supermarket', 'receipt', 'octopus', 'alipayHK', 'ticket', 'thirdPartyPayment', 'userCancelledPayment', 'donation'] as const;
export type PayoutMethod = (typeof PAYOUT_METHODS)[number];

/** Consumer reject reason codes (docs/product-rules.md#catalogues) (labels: `fleet.rejectReasons.<code>`). */
export const REJECT_REASON_CODES = [1, 2, 3, 4, 5, 6, 10, 11, 12, 13, 15, 16, 18, 19, 20, 21, 22, 23, 99, 101, 102, 103] as const;
export type RejectReasonCode = (typeof REJECT_REASON_CODES)[number];

/** Service session cleaning outcomes (docs/product-rules.md#statuses). */
export const CLEANING_OUTCOMES = ['completed', 'aborted', 'failed'] as const;
export type CleaningOutcome = (typeof CLEANING_OUTCOMES)[number];

export const ALARM_SEVERITIES = ['info', 'warning', 'error'] as const;
export type AlarmSeverity = (typeof ALARM_SEVERITIES)[number];

/** Alarm categories (docs/product-rules.md#catalogues) (labels: `fleet.alarmCategories.<category>`). */
export const ALARM_CATEGORIES = [
  'bin',
  'printer',
  'reader',
  'door',
  'sorter',
  'compactor',
  'sensor',
  'camera',
  'conveyor',
  'paymentReader',
  'cheating',
  'communication',
  'software',
  'power',
  'maintenance',
] as const;
export type AlarmCategory = (typeof ALARM_CATEGORIES)[number];

export interface AlarmDefinition {
  code: string;
  category: AlarmCategory;
  severity: AlarmSeverity;
  /** The machine cannot take containers while this alarm is open (its status becomes Down). */
  blocking: boolean;
}

// [number, category, severity, blocking]; numbers are stable: they are what machines report.
const ALARM_ROWS: ReadonlyArray<readonly [number, AlarmCategory, AlarmSeverity, boolean]> = [
  [1, 'bin', 'warning', false],
  [2, 'bin', 'warning', false],
  [3, 'bin', 'warning', false],
  [4, 'bin', 'info', false],
  [5, 'bin', 'error', true],
  [6, 'bin', 'warning', false],
  [7, 'printer', 'error', false],
  [8, 'printer', 'info', false],
  [9, 'printer', 'error', false],
  [10, 'printer', 'error', false],
  [11, 'printer', 'warning', false],
  [12, 'reader', 'error', true],
  [13, 'reader', 'warning', false],
  [14, 'reader', 'error', true],
  [15, 'reader', 'warning', false],
  [16, 'reader', 'error', true],
  [17, 'door', 'error', true],
  [18, 'door', 'error', true],
  [19, 'door', 'error', true],
  [20, 'door', 'warning', false],
  [21, 'door', 'error', true],
  [22, 'sorter', 'error', true],
  [23, 'sorter', 'error', true],
  [24, 'sorter', 'error', true],
  [25, 'sorter', 'warning', false],
  [26, 'sorter', 'error', true],
  [27, 'compactor', 'error', true],
  [28, 'compactor', 'error', true],
  [29, 'compactor', 'error', true],
  [30, 'compactor', 'warning', false],
  [31, 'compactor', 'error', true],
  [32, 'sensor', 'error', true],
  [33, 'sensor', 'warning', false],
  [34, 'sensor', 'warning', false],
  [35, 'sensor', 'error', true],
  [36, 'sensor', 'warning', false],
  [37, 'sensor', 'warning', false],
  [38, 'sensor', 'warning', false],
  [39, 'camera', 'error', true],
  [40, 'camera', 'error', true],
  [41, 'camera', 'warning', false],
  [42, 'camera', 'error', true],
  [43, 'camera', 'warning', false],
  [44, 'conveyor', 'error', true],
  [45, 'conveyor', 'error', true],
  [46, 'conveyor', 'warning', false],
  [47, 'conveyor', 'error', true],
  [48, 'paymentReader', 'error', false],
  [49, 'paymentReader', 'error', false],
  [50, 'paymentReader', 'error', false],
  [51, 'paymentReader', 'warning', false],
  [52, 'paymentReader', 'error', false],
  [53, 'cheating', 'warning', false],
  [54, 'cheating', 'warning', false],
  [55, 'cheating', 'warning', false],
  [56, 'cheating', 'warning', false],
  [57, 'communication', 'error', false],
  [58, 'communication', 'error', false],
  [59, 'communication', 'warning', false],
  [60, 'communication', 'warning', false],
  [61, 'software', 'error', false],
  [62, 'software', 'warning', false],
  [63, 'software', 'warning', false],
  [64, 'software', 'warning', false],
  [65, 'power', 'error', true],
  [66, 'power', 'warning', false],
  [67, 'power', 'error', true],
  [68, 'maintenance', 'info', false],
  [69, 'maintenance', 'info', false],
  [70, 'maintenance', 'info', false],
];

export const alarmCode = (number: number) => `am_code_PK_${number}`;

export const ALARMS: readonly AlarmDefinition[] = ALARM_ROWS.map(([number, category, severity, blocking]) => ({
  code: alarmCode(number),
  category,
  severity,
  blocking,
}));

const ALARMS_BY_CODE = new Map(ALARMS.map((alarm) => [alarm.code, alarm]));
export const findAlarm = (code: string): AlarmDefinition | undefined => ALARMS_BY_CODE.get(code);

/** Well-known alarms the server and the seed raise themselves. */
export const KNOWN_ALARMS = {
  binFull: [alarmCode(1), alarmCode(2), alarmCode(3)],
  binAlmostFull: alarmCode(4),
  printerPaperLow: alarmCode(8),
  cheatingPulledBack: alarmCode(53),
  octopusOffline: alarmCode(48),
  alipayOffline: alarmCode(50),
  communicationOffline: alarmCode(57),
  softwareUpgradeFailed: alarmCode(61),
  chamberNeedsCleaning: alarmCode(68),
} as const;

/** Why a machine message was quarantined (docs/machine-protocol.md; labels: `fleet.quarantineReasons.<reason>`). */
export const QUARANTINE_REASONS = ['unknownMachine', 'malformedContent', 'schemaViolation', 'unknownAlarmCode', 'invalidTimestamp', 'outOfOrder', 'valueOutOfRange'] as const;
export type QuarantineReason = (typeof QUARANTINE_REASONS)[number];

/**
 * Kinds of machine messages: the last level of their MQTT topic (docs/machine-protocol.md; labels:
 * `fleet.messageTypes.<type>`). `unknown` stands for a topic level the protocol does not have.
 */
export const MESSAGE_TYPES = [
  'hello',
  'goodbye',
  'heartbeat',
  'status',
  'bins',
  'alarm',
  'session',
  'service',
  'commandAck',
  'commandResult',
  'file',
  'deployStatus',
  'unknown',
] as const;
export type MessageType = (typeof MESSAGE_TYPES)[number];

/** Bin height bound (docs/product-rules.md#validation-rules): a whole number above 10 and below 150 (centimetres). */
export const BIN_HEIGHT = { min: 11, max: 149 } as const;

/** Colour variants of the generated item pictures (`<itemType>/<variant>`, 0-based). */
export const PICTURE_VARIANTS = 8;

/** Kinds of search hits, each opening a different console page. */
export const SEARCH_HIT_TYPES = ['machine', 'consumerSession'] as const;
