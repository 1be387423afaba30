// Request validation with two Ajv instances: JSON bodies are checked strictly (no type coercion, so
// "12" for a number is a 1003), query strings and path parameters are coerced (they are text on the wire).
// Unknown properties are refused, never silently removed (Fastify's default would drop them).
// Before any schema, registerInputGuards refuses what no route can take (1004, the field named): a NUL
// character anywhere in the parameters, query or body (PostgreSQL cannot store it in text), and JSON
// nested deeper than MAX_JSON_DEPTH (no route may overflow the stack); an empty JSON body is no body.
import { Ajv, type ErrorObject, type Options } from 'ajv';
import type { FastifyInstance, FastifySchemaCompiler } from 'fastify';
import { invalid, type Issue } from './errors';

const common: Options = { useDefaults: true, removeAdditional: false, allErrors: true, verbose: true, strict: false };
const bodyAjv = new Ajv({ ...common, coerceTypes: false });
const textAjv = new Ajv({ ...common, coerceTypes: 'array' });

// ISO 8601 instants (a zone is required: a bare local time would be read in the server's zone) and days.
const ISO_INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})$/;
const ISO_DAY = /^\d{4}-\d{2}-\d{2}$/;
for (const ajv of [bodyAjv, textAjv]) {
  ajv.addFormat('date-time', { type: 'string', validate: (value: string) => ISO_INSTANT.test(value) && !Number.isNaN(Date.parse(value)) });
  ajv.addFormat('date', { type: 'string', validate: (value: string) => ISO_DAY.test(value) && !Number.isNaN(Date.parse(value)) });
}

export const validatorCompiler: FastifySchemaCompiler<Record<string, unknown>> = ({ schema, httpPart }) => (httpPart === 'body' ? bodyAjv : textAjv).compile(schema);

const TYPE_MESSAGES: Record<string, string> = {
  string: 'validation.text',
  number: 'validation.number',
  integer: 'validation.integer',
  boolean: 'validation.boolean',
  array: 'validation.list',
  object: 'validation.invalid',
};

const fieldOf = (error: ErrorObject, extra?: string) => [...error.instancePath.split('/').filter(Boolean), ...(extra ? [extra] : [])].join('.') || '(body)';

/** Ajv errors as catalogue issues: required 1001, length 1002, type 1003, the rest (unknown field, enum, range, pattern) 1004. */
export const issuesFromAjv = (errors: readonly ErrorObject[]): Issue[] =>
  errors.map((error): Issue => {
    const parent = (error.parentSchema ?? {}) as { minLength?: number; maxLength?: number; type?: string | string[] };
    switch (error.keyword) {
      case 'required':
        return { field: fieldOf(error, String(error.params.missingProperty)), message: 'validation.required', code: '1001' };
      case 'minLength':
      case 'maxLength': {
        // An empty string where at least one character is needed is a missing value.
        if (error.keyword === 'minLength' && error.data === '') return { field: fieldOf(error), message: 'validation.required', code: '1001' };
        const min = parent.minLength ?? 0;
        return parent.maxLength === undefined
          ? { field: fieldOf(error), message: 'validation.minLength', values: { min }, code: '1002' }
          : { field: fieldOf(error), message: 'validation.lengthBetween', values: { min, max: parent.maxLength }, code: '1002' };
      }
      case 'minItems':
        return error.data !== undefined && Array.isArray(error.data) && error.data.length === 0
          ? { field: fieldOf(error), message: 'validation.required', code: '1001' }
          : { field: fieldOf(error), message: 'validation.invalid', code: '1002' };
      case 'maxItems':
        return { field: fieldOf(error), message: 'validation.invalid', code: '1002' };
      case 'type': {
        if (error.instancePath === '' && (error.data === undefined || error.data === null)) {
          return { field: '(body)', message: 'validation.required', code: '1001' };
        }
        const expected =
          String(error.params.type)
            .split(',')
            .find((type) => type !== 'null') ?? 'string';
        return { field: fieldOf(error), message: TYPE_MESSAGES[expected] ?? 'validation.invalid', code: '1003' };
      }
      case 'additionalProperties':
        return {
          field: fieldOf(error, String(error.params.additionalProperty)),
          message: 'validation.unknownField',
          values: { field: String(error.params.additionalProperty) },
          code: '1004',
        };
      case 'enum':
        return { field: fieldOf(error), message: 'validation.enum', code: '1004' };
      case 'format':
        return error.params.format === 'date-time' || error.params.format === 'date'
          ? { field: fieldOf(error), message: 'validation.date', code: '1003' }
          : { field: fieldOf(error), message: 'validation.invalid', code: '1004' };
      case 'minimum':
      case 'exclusiveMinimum':
        return { field: fieldOf(error), message: 'validation.min', values: { min: Number(error.params.limit) }, code: '1004' };
      case 'maximum':
      case 'exclusiveMaximum':
        return { field: fieldOf(error), message: 'validation.max', values: { max: Number(error.params.limit) }, code: '1004' };
      default:
        return { field: fieldOf(error), message: 'validation.invalid', code: '1004' };
    }
  });

/** Deepest JSON nesting accepted in a request body (the body itself is level 1). */
export const MAX_JSON_DEPTH = 32;

/** Whether `text` (JSON) opens more than `limit` arrays/objects inside each other; brackets in strings do not count. */
export const jsonDeeperThan = (text: string, limit: number): boolean => {
  let depth = 0;
  let inString = false;
  for (let index = 0; index < text.length; index++) {
    const char = text.charCodeAt(index);
    if (inString) {
      if (char === 0x5c)
        index++; // backslash: skip the escaped character
      else if (char === 0x22) inString = false;
    } else if (char === 0x22) inString = true;
    else if (char === 0x5b || char === 0x7b) {
      if (++depth > limit) return true;
    } else if (char === 0x5d || char === 0x7d) depth--;
  }
  return false;
};

const NUL = '\u0000';
const shown = (key: string) => key.replaceAll(NUL, '\\0');

/** The field (dot path, like validation issues) of a string or key holding a NUL, else null. Iterative: no stack to overflow. */
export const fieldWithNul = (value: unknown, root: string): string | null => {
  const pending: Array<[unknown, string]> = [[value, root]];
  while (pending.length) {
    const [current, path] = pending.pop() as [unknown, string];
    if (typeof current === 'string') {
      if (current.includes(NUL)) return path || '(body)';
    } else if (current && typeof current === 'object' && !ArrayBuffer.isView(current)) {
      for (const [key, inner] of Object.entries(current)) {
        const field = path ? `${path}.${shown(key)}` : shown(key);
        if (key.includes(NUL)) return field;
        pending.push([inner, field]);
      }
    }
  }
  return null;
};

const parameterError = (field: string) => invalid([{ field, message: 'validation.invalid', code: '1004' }]);

/** Central input rules for every route (see the file comment); call before any route is registered. */
export const registerInputGuards = (app: FastifyInstance) => {
  // Fastify's own parser, prototype-poisoning protection as by default ('error'), after the empty and depth checks.
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    const text = body as string;
    // Other clients send `content-type: application/json` with no body (e.g. PUT …?id=1): that is no body.
    if (text.trim() === '') return done(null, undefined);
    if (jsonDeeperThan(text, MAX_JSON_DEPTH)) return done(parameterError('(body)'), undefined);
    return parseJson(request, text, done);
  });
  app.addHook('preValidation', async (request) => {
    const field = fieldWithNul(request.params, '') ?? fieldWithNul(request.query, '') ?? fieldWithNul(request.body, '');
    if (field !== null) throw parameterError(field);
  });
};
