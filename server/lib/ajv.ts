// Request validation with two Ajv instances: JSON bodies are checked strictly (no type coercion, so
// "12" for a number is a 1003), query strings and path parameters are coerced (they are text on the wire).
// Unknown properties are refused, never silently removed (Fastify's default would drop them).
import { Ajv, type ErrorObject, type Options } from 'ajv';
import type { FastifySchemaCompiler } from 'fastify';
import type { Issue } from './errors';

const common: Options = { useDefaults: true, removeAdditional: false, allErrors: true, verbose: true, strict: false };
const bodyAjv = new Ajv({ ...common, coerceTypes: false });
const textAjv = new Ajv({ ...common, coerceTypes: 'array' });

export const validatorCompiler: FastifySchemaCompiler<Record<string, unknown>> = ({ schema, httpPart }) =>
  (httpPart === 'body' ? bodyAjv : textAjv).compile(schema);

const TYPE_MESSAGES: Record<string, string> = {
  string: 'validation.text',
  number: 'validation.number',
  integer: 'validation.integer',
  boolean: 'validation.boolean',
  array: 'validation.list',
  object: 'validation.invalid',
};

const fieldOf = (error: ErrorObject, extra?: string) =>
  [...error.instancePath.split('/').filter(Boolean), ...(extra ? [extra] : [])].join('.') || '(body)';

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
        const expected = String(error.params.type).split(',').find((type) => type !== 'null') ?? 'string';
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
