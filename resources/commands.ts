// Remote commands (SPEC 2 "Remote control actions", SPEC 4 statuses): the catalogue shared by the
// server (validation, state machine) and the console (forms, labels). Framework-neutral: codes and
// declarations only; labels live in i18n. Parameters use the declaration field format of types.ts,
// so validation.ts checks them the same way in the console form and on the server.
import { machine } from './machine';
import type { CrossFieldRule, FieldDeclaration } from './types';
import { validateRecord, type ValidationIssue } from './validation';

export const REMOTE_COMMANDS = [
  'restart',
  'close',
  'open',
  'clearAlarms',
  'setOnOffTime',
  'maintenance',
  'uiServiceReset',
  'uiCounterReset',
  'downloadLogs',
  'remoteDiagnosis',
  'restartC750',
  'binHeight',
] as const;
export type RemoteCommand = (typeof REMOTE_COMMANDS)[number];

/** SPEC 4 "remote command action history statuses", plus cancelled (by an operator before execution). */
export const COMMAND_STATUSES = ['notSent', 'sending', 'sent', 'sendFailed', 'executedSuccessfully', 'executedFailed', 'cancelled'] as const;
export type CommandStatus = (typeof COMMAND_STATUSES)[number];

/** Not finished yet: these may be cancelled. */
export const PENDING_STATUSES = ['notSent', 'sending', 'sent'] as const satisfies readonly CommandStatus[];
/** Ended badly: these may be sent again (a new command with `resendOf`). */
export const RESENDABLE_STATUSES = ['sendFailed', 'executedFailed', 'cancelled'] as const satisfies readonly CommandStatus[];
/** What "resend failed" of a batch picks up (cancelled ones were stopped on purpose). */
export const FAILED_STATUSES = ['sendFailed', 'executedFailed'] as const satisfies readonly CommandStatus[];

/** A command not delivered within this many hours becomes sendFailed (reason `expired`). */
export const COMMAND_EXPIRY_HOURS = 24;
/** The same command to the same machine again within this many seconds answers 8001 (server env COMMAND_REPEAT_SECONDS). */
export const COMMAND_REPEAT_SECONDS_DEFAULT = 10;
/** Most machines one batch may address (ids or a resolved filter). */
export const BATCH_MAX_MACHINES = 10_000;

export interface CommandParamsDeclaration {
  fields: Record<string, FieldDeclaration>;
  rules?: readonly CrossFieldRule[];
}

const required = <T extends FieldDeclaration>(field: T) => ({ ...field, required: true }) as const;
// The machine record already states the SPEC 5 bin and on/off rules: the commands that change
// those values reuse its fields and rules, so the bounds exist once.
const machineRules = (...fields: string[]) => (machine.rules ?? []).filter((rule) => fields.includes(rule.field));
const BIN_FIELDS = ['binEmptyHeight', 'binFullHeight', 'binAlmostFull', 'binAlreadyFull'] as const;
const NONE: CommandParamsDeclaration = { fields: {} };

export const COMMAND_PARAMS: Readonly<Record<RemoteCommand, CommandParamsDeclaration>> = {
  restart: NONE,
  close: NONE,
  open: NONE,
  clearAlarms: NONE,
  setOnOffTime: {
    fields: { onTime: required(machine.fields.onTime), offTime: required(machine.fields.offTime) },
    rules: machineRules('offTime'),
  },
  maintenance: { fields: { enabled: { type: 'boolean', required: true } } },
  uiServiceReset: NONE,
  uiCounterReset: NONE,
  downloadLogs: {
    fields: { from: { type: 'datetime' }, to: { type: 'datetime' } },
    rules: [{ kind: 'after', field: 'to', other: 'from', message: 'validation.endAfterStart' }],
  },
  remoteDiagnosis: NONE,
  restartC750: NONE,
  binHeight: {
    fields: Object.fromEntries(BIN_FIELDS.map((name) => [name, required(machine.fields[name])])),
    rules: machineRules(...BIN_FIELDS),
  },
};

/** Every command except the C750 restart: what a model missing from MODEL_CAPABILITIES supports. */
export const COMMON_COMMANDS: readonly RemoteCommand[] = REMOTE_COMMANDS.filter((command) => command !== 'restartC750');

/**
 * Commands per machine model (`rvm.termType`). H30 and T9 carry a C750 unit; the S1's bins have no
 * adjustable level sensor, so it takes no bin height setting.
 */
export const MODEL_CAPABILITIES: Readonly<Record<string, readonly RemoteCommand[]>> = {
  H30: [...COMMON_COMMANDS, 'restartC750'],
  T9: [...COMMON_COMMANDS, 'restartC750'],
  S1: COMMON_COMMANDS.filter((command) => command !== 'binHeight'),
  M5: COMMON_COMMANDS,
};

export const isRemoteCommand = (value: unknown): value is RemoteCommand => (REMOTE_COMMANDS as readonly unknown[]).includes(value);

export const commandsOf = (termType: string): readonly RemoteCommand[] =>
  Object.hasOwn(MODEL_CAPABILITIES, termType) ? MODEL_CAPABILITIES[termType] : COMMON_COMMANDS;

export const supportsCommand = (termType: string, command: string): boolean =>
  isRemoteCommand(command) && commandsOf(termType).includes(command);

/**
 * Issues of a command's parameters (fields named `params.<name>`): unknown names (1004), then the
 * declaration's field and cross-field rules. Empty when valid.
 */
export const validateCommandParams = (command: RemoteCommand, params: Record<string, unknown>): ValidationIssue[] => {
  const declaration = COMMAND_PARAMS[command];
  const unknown: ValidationIssue[] = Object.keys(params)
    .filter((name) => !Object.hasOwn(declaration.fields, name))
    .map((name) => ({ field: name, message: 'validation.unknownField', values: { field: name }, code: '1004' }));
  return [...unknown, ...validateRecord(declaration, params, 'create')].map((issue) => ({ ...issue, field: `params.${issue.field}` }));
};

/** The parameters as the machine gets them: only declared ones, datetimes as ISO 8601 (call after validation). */
export const normalizeCommandParams = (command: RemoteCommand, params: Record<string, unknown>): Record<string, unknown> => {
  const fields = COMMAND_PARAMS[command].fields;
  const result: Record<string, unknown> = {};
  for (const [name, field] of Object.entries(fields)) {
    const value = params[name];
    if (value === undefined || value === null || value === '') continue;
    result[name] = field.type === 'datetime' && typeof value === 'string' ? new Date(value).toISOString() : value;
  }
  return result;
};

/** A command as the API answers it (docs/ARCHITECTURE.md "Remote commands"): date-times are ISO strings on the wire. */
export interface CommandRecord {
  id: number;
  rvmId: number;
  termNo: string;
  batchId: number | null;
  command: string;
  params: Record<string, unknown>;
  status: string;
  statusReason: string | null;
  /** The machine's answer: `{ success, message, fileId }`. */
  result: unknown;
  fileId: number | null;
  createdBy: number | null;
  createdByName: string | null;
  createdTime: string;
  expiresTime: string;
  sentTime: string | null;
  ackTime: string | null;
  finishedTime: string | null;
  updatedTime: string;
  attempts: number;
  resendOf: number | null;
}
