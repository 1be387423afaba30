// Checking and shaping a remote command's parameters (resources/commands.ts declares them). Apart from the
// catalogue: validation brings the pattern engine (re2js), which the console's first screens must not load
// because the audit log's declaration names the commands (lazyLoading.test.ts keeps that budget).
import { COMMAND_PARAMS, type RemoteCommand } from './commands';
import { validateRecord, type ValidationIssue } from './validation';

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
