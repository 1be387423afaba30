// Remote commands (docs/product-rules.md#catalogues, statuses in docs/product-rules.md#statuses): the catalogue every layer
// iterates: the server (validation, OpenAPI enums, state machine, side effects), the console (buttons,
// groups, icons, forms, labels), the audit actions and the generated command table of
// docs/machine-protocol.md. Framework-neutral: codes and declarations only; labels live in i18n.
// Parameters use the declaration field format of types.ts, so validation.ts checks them the same way in
// the console form and on the server.
//
// Adding a command: its entry in COMMANDS, and its label and description in i18n/en/remote.ts and
// i18n/zh/remote.ts (`commands.<name>`, `descriptions.<name>`; a missing one fails the console's type check,
// src/remote/commandUi.ts). No other file: the server stores the machine's answers for any command, and a
// success writes params to the machine record when the entry says `storesParams`. The simulated machine
// (server/simulator/commands.ts) answers "Done" to a command it has no behaviour for.
import { machine } from './machine';
import type { CrossFieldRule, FieldDeclaration } from './types';

export interface CommandParamsDeclaration {
  fields: Record<string, FieldDeclaration>;
  rules?: readonly CrossFieldRule[];
}

/** The RemoteControl tab's button groups, in order (labels `remote.groups.<group>`). */
export const COMMAND_GROUPS = ['power', 'alarmsUi', 'schedule', 'diagnostics', 'bins'] as const;
export type CommandGroup = (typeof COMMAND_GROUPS)[number];
/** The console's command icons (src/remote/commandIcons.ts draws each): a new command may reuse any. */
export type CommandIcon = 'restart' | 'lock' | 'lockOpen' | 'alarmsOff' | 'schedule' | 'build' | 'screen' | 'counter' | 'download' | 'diagnosis' | 'unit' | 'height';
/** Hints under a parameter form (`remote.hints.<hint>`). */
export type CommandParamsHint = 'time' | 'logRange' | 'binHeights';

export interface CommandDefinition<Name extends string = string> {
  name: Name;
  group: CommandGroup;
  icon: CommandIcon;
  /** None when absent. */
  params?: CommandParamsDeclaration;
  paramsHint?: CommandParamsHint;
  /** Only these models (`rvm.termType`) take it; absent: every model, a model the catalogue does not know included. */
  onlyModels?: readonly string[];
  /** Every model but these. */
  exceptModels?: readonly string[];
  /** The machine uploads a file (a `file` message) as its result: the history offers it for download. */
  uploadsFile?: true;
  /** A success writes the params to the machine record's fields of the same names (server/commands/store.ts). */
  storesParams?: true;
}

const required = <T extends FieldDeclaration>(field: T) => ({ ...field, required: true }) as const;
// The machine record already states the bin and on/off rules (docs/product-rules.md#validation-rules): the commands that change
// those values reuse its fields and rules, so the bounds exist once.
const machineRules = (...fields: string[]) => (machine.rules ?? []).filter((rule) => fields.includes(rule.field));
const BIN_FIELDS = ['binEmptyHeight', 'binFullHeight', 'binAlmostFull', 'binAlreadyFull'] as const;
const NONE: CommandParamsDeclaration = { fields: {} };

const defineCommand = <Name extends string>(name: Name, definition: Omit<CommandDefinition, 'name'>): CommandDefinition<Name> => ({ name, ...definition });

/** Every remote command, in the console's order (within a group, and in the bulk command picker). */
export const COMMANDS = [
  defineCommand('restart', { group: 'power', icon: 'restart' }),
  defineCommand('close', { group: 'power', icon: 'lock' }),
  defineCommand('open', { group: 'power', icon: 'lockOpen' }),
  defineCommand('clearAlarms', { group: 'alarmsUi', icon: 'alarmsOff' }),
  defineCommand('setOnOffTime', {
    group: 'schedule',
    icon: 'schedule',
    params: { fields: { onTime: required(machine.fields.onTime), offTime: required(machine.fields.offTime) }, rules: machineRules('offTime') },
    paramsHint: 'time',
    storesParams: true,
  }),
  defineCommand('maintenance', { group: 'schedule', icon: 'build', params: { fields: { enabled: { type: 'boolean', required: true } } } }),
  defineCommand('uiServiceReset', { group: 'alarmsUi', icon: 'screen' }),
  defineCommand('uiCounterReset', { group: 'alarmsUi', icon: 'counter' }),
  defineCommand('downloadLogs', {
    group: 'diagnostics',
    icon: 'download',
    params: {
      fields: { from: { type: 'datetime' }, to: { type: 'datetime' } },
      rules: [{ kind: 'after', field: 'to', other: 'from', message: 'validation.endAfterStart' }],
    },
    paramsHint: 'logRange',
    uploadsFile: true,
  }),
  defineCommand('remoteDiagnosis', { group: 'diagnostics', icon: 'diagnosis', uploadsFile: true }),
  // H30 and T9 carry a C750 unit.
  defineCommand('restartC750', { group: 'diagnostics', icon: 'unit', onlyModels: ['H30', 'T9'] }),
  // The S1's bins have no adjustable level sensor.
  defineCommand('binHeight', {
    group: 'bins',
    icon: 'height',
    params: { fields: Object.fromEntries(BIN_FIELDS.map((name) => [name, required(machine.fields[name])])), rules: machineRules(...BIN_FIELDS) },
    paramsHint: 'binHeights',
    exceptModels: ['S1'],
    storesParams: true,
  }),
] as const;

export type RemoteCommand = (typeof COMMANDS)[number]['name'];
export const REMOTE_COMMANDS: readonly RemoteCommand[] = COMMANDS.map((entry) => entry.name);
const BY_NAME: ReadonlyMap<string, CommandDefinition<RemoteCommand>> = new Map(COMMANDS.map((entry) => [entry.name, entry]));
export const commandDefinition = (name: RemoteCommand): CommandDefinition<RemoteCommand> => BY_NAME.get(name)!;

export const COMMAND_PARAMS: Readonly<Record<RemoteCommand, CommandParamsDeclaration>> = Object.fromEntries(COMMANDS.map((entry) => [entry.name, entry.params ?? NONE])) as Record<
  RemoteCommand,
  CommandParamsDeclaration
>;

/** Remote command statuses (docs/product-rules.md#statuses), plus cancelled (by an operator before execution). */
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

const takes = (entry: CommandDefinition, termType: string) =>
  (entry.onlyModels === undefined || entry.onlyModels.includes(termType)) && !(entry.exceptModels ?? []).includes(termType);

/** The commands a model the catalogue names nowhere takes: those without `onlyModels`. */
export const COMMON_COMMANDS: readonly RemoteCommand[] = COMMANDS.filter((entry) => entry.onlyModels === undefined).map((entry) => entry.name);

export const isRemoteCommand = (value: unknown): value is RemoteCommand => typeof value === 'string' && BY_NAME.has(value);

/** The commands of a machine model (`rvm.termType`), in catalogue order. */
export const commandsOf = (termType: string): readonly RemoteCommand[] => COMMANDS.filter((entry) => takes(entry, termType)).map((entry) => entry.name);

export const supportsCommand = (termType: string, command: string): boolean => isRemoteCommand(command) && takes(commandDefinition(command), termType);

/** The commands whose result is a file the machine uploaded (`fileId`). */
export const FILE_COMMANDS: readonly RemoteCommand[] = COMMANDS.filter((entry) => entry.uploadsFile).map((entry) => entry.name);

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
