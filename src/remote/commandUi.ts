// Pure rules of the remote control screens: how the catalogue's commands are grouped, the colour of
// each status, the parameter form's values <-> the wire params (validated by resources/commands.ts, the
// same rules the server applies), and the one-line parameter summary of the history.
import type { AppMessages } from '../../i18n/en';
import { BIN_HEIGHT } from '../../resources/fleetCatalogue';
import {
  COMMAND_GROUPS as GROUP_KEYS,
  COMMAND_PARAMS,
  COMMANDS,
  FILE_COMMANDS as CATALOGUE_FILE_COMMANDS,
  PENDING_STATUSES,
  RESENDABLE_STATUSES,
  type CommandGroup,
  type CommandParamsHint,
  type RemoteCommand,
} from '../../resources/commands';
import { normalizeCommandParams, validateCommandParams } from '../../resources/commandParams';
import type { FormErrors } from '../generic/formValidation';
import type { StatusColor } from '../generic/statusColors';

// The screens read `remote.commands|descriptions.<name>`, `remote.groups.<group>` and `remote.hints.<hint>`
// for the catalogue's entries: the English catalogue (the Chinese one is typed against it) must have
// exactly those labels, else this fails to compile.
type Remote = AppMessages['remote'];
type SameKeys<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const EVERY_COMMAND_LABELLED: [
  SameKeys<keyof Remote['commands'], RemoteCommand>,
  SameKeys<keyof Remote['descriptions'], RemoteCommand>,
  SameKeys<keyof Remote['groups'], CommandGroup>,
  CommandParamsHint extends keyof Remote['hints'] ? true : false,
] = [true, true, true, true];
void EVERY_COMMAND_LABELLED;

/** The RemoteControl tab's groups, each with its commands in catalogue order. */
export const COMMAND_GROUPS: ReadonlyArray<{ key: CommandGroup; commands: readonly RemoteCommand[] }> = GROUP_KEYS.map((key) => ({
  key,
  commands: COMMANDS.filter((entry) => entry.group === key).map((entry) => entry.name),
}));

/** Commands whose result is a file uploaded by the machine (`fileId`). */
export const FILE_COMMANDS: readonly string[] = CATALOGUE_FILE_COMMANDS;

const STATUS_COLORS: Readonly<Record<string, StatusColor>> = {
  notSent: 'warning',
  sending: 'info',
  sent: 'info',
  sendFailed: 'error',
  executedSuccessfully: 'success',
  executedFailed: 'error',
  cancelled: 'default',
};
export const commandStatusColor = (status: string): StatusColor => STATUS_COLORS[status] ?? 'default';

export const isPending = (status: string) => (PENDING_STATUSES as readonly string[]).includes(status);
export const isResendable = (status: string) => (RESENDABLE_STATUSES as readonly string[]).includes(status);

export const hasParams = (command: RemoteCommand) => Object.keys(COMMAND_PARAMS[command].fields).length > 0;
export const paramNames = (command: RemoteCommand) => Object.keys(COMMAND_PARAMS[command].fields);

export type ParamValues = Record<string, unknown>;

/** The form's first values: the machine's current bin heights and on/off times when known. */
export const initialParamValues = (command: RemoteCommand, machineRecord: Record<string, unknown> | null | undefined): ParamValues => {
  const values: ParamValues = {};
  for (const [name, field] of Object.entries(COMMAND_PARAMS[command].fields)) {
    const stored = machineRecord?.[name];
    if (field.type === 'boolean') values[name] = undefined;
    else values[name] = stored === null || stored === undefined ? '' : String(stored);
  }
  return values;
};

/** Form values as the call's params: numbers as numbers, empty left out, datetimes as ISO. */
export const toCommandParams = (command: RemoteCommand, values: ParamValues): Record<string, unknown> => {
  const params: Record<string, unknown> = {};
  for (const [name, field] of Object.entries(COMMAND_PARAMS[command].fields)) {
    let value = values[name];
    if (typeof value === 'string') value = value.trim();
    if (value === '' || value === undefined || value === null) continue;
    // 'abc' stays text, so validation answers "must be a number" instead of dropping it.
    if (field.type === 'number' && typeof value === 'string' && !Number.isNaN(Number(value))) value = Number(value);
    params[name] = value;
  }
  return params;
};

const BIN_HEIGHT_FIELDS = new Set(['binEmptyHeight', 'binFullHeight']);
const BOUND_MESSAGES = new Set(['validation.min', 'validation.max', 'validation.integer', 'validation.number']);

/** Client-side check of a command's params: errors per param name ({ message key, args }). */
export const validateParams = (command: RemoteCommand, values: ParamValues): FormErrors => {
  const errors: FormErrors = {};
  for (const issue of validateCommandParams(command, toCommandParams(command, values))) {
    const name = issue.field.replace(/^params\./, '');
    if (errors[name]) continue;
    // The height bound is one rule (docs/product-rules.md#validation-rules: above 10 and below 150), as the profile form says it.
    errors[name] =
      BIN_HEIGHT_FIELDS.has(name) && BOUND_MESSAGES.has(issue.message)
        ? { message: 'fleet.validation.binHeight', args: { min: BIN_HEIGHT.min - 1, max: BIN_HEIGHT.max + 1 } }
        : { message: issue.message, args: issue.values };
  }
  return errors;
};

/** The params to send (after validateParams found nothing). */
export const paramsToSend = (command: RemoteCommand, values: ParamValues) => normalizeCommandParams(command, toCommandParams(command, values));

/** Server issues (`params.onTime` or `onTime`) per param name, already translated by the server. */
export const serverParamErrors = (issues: ReadonlyArray<{ field: string; message: string }> | null | undefined): Record<string, string> => {
  const errors: Record<string, string> = {};
  for (const issue of issues ?? []) {
    const name = issue.field.replace(/^params\./, '');
    if (!(name in errors)) errors[name] = issue.message;
  }
  return errors;
};

type Translate = (key: string, options?: Record<string, unknown>) => string;

/** `HH:mm` stays; ISO instants become local 'yyyy-MM-dd HH:mm'. */
const showValue = (value: unknown, translate: Translate): string => {
  if (typeof value === 'boolean') return translate(value ? 'remote.values.on' : 'remote.values.off');
  if (typeof value === 'string' && /^\d{4}-\d{2}-\d{2}T/.test(value)) {
    const date = new Date(value);
    if (!Number.isNaN(date.getTime())) {
      const pad = (part: number) => String(part).padStart(2, '0');
      return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())} ${pad(date.getHours())}:${pad(date.getMinutes())}`;
    }
  }
  return String(value);
};

/** "On time 07:00 · Off time 22:00": declared params in their order, labels translated. */
export const summariseParams = (command: string, params: Record<string, unknown> | null | undefined, translate: Translate): string => {
  if (!params) return '';
  const declared = Object.hasOwn(COMMAND_PARAMS, command) ? Object.keys(COMMAND_PARAMS[command as RemoteCommand].fields) : [];
  const names = [...declared.filter((name) => name in params), ...Object.keys(params).filter((name) => !declared.includes(name))];
  return names
    .filter((name) => params[name] !== null && params[name] !== undefined && params[name] !== '')
    .map((name) => `${translate(`remote.params.${name}`, { _: name })} ${showValue(params[name], translate)}`)
    .join(' · ');
};
