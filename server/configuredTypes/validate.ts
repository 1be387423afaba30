// Validation of configured records: the type's compiled JSON schemas (the generic CRUD schemas of
// server/crud/schemas.ts, compiled once per type version), then resources/validation.ts (patterns,
// cross-field rules), then what a declaration cannot say (decimals). Issue messages that are the
// type's own (pattern and rule messages) are answered in the request language from the definition.
import { Ajv, type ValidateFunction } from 'ajv';
import { validateRecord } from '../../resources/validation';
import type { Locale } from '../../i18n';
import { issuesFromAjv } from '../lib/ajv';
import { AppError, invalid, type Issue } from '../lib/errors';
import { createBodySchema, exportBodySchema, pageBodySchema, updateBodySchema } from '../crud/schemas';
import type { ConfiguredModel } from './model';

// Bodies as server/lib/ajv.ts checks them: no coercion, unknown properties refused, ISO formats.
const ajv = new Ajv({ useDefaults: true, removeAdditional: false, allErrors: true, verbose: true, strict: false, coerceTypes: false });
const ISO_INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})$/;
const ISO_DAY = /^\d{4}-\d{2}-\d{2}$/;
ajv.addFormat('date-time', { type: 'string', validate: (value: string) => ISO_INSTANT.test(value) && !Number.isNaN(Date.parse(value)) });
ajv.addFormat('date', { type: 'string', validate: (value: string) => ISO_DAY.test(value) && !Number.isNaN(Date.parse(value)) });

export const compileSchema = (schema: Record<string, unknown>) => ajv.compile(schema);

export interface RecordValidators {
  create: ValidateFunction;
  update: ValidateFunction;
  page: ValidateFunction;
  export: ValidateFunction;
}

export const compileValidators = (model: ConfiguredModel): RecordValidators => ({
  create: ajv.compile(createBodySchema(model)),
  update: ajv.compile(updateBodySchema(model)),
  page: ajv.compile(pageBodySchema(model)),
  export: ajv.compile(exportBodySchema(model)),
});

/** Drops a replaced version's compiled schemas from Ajv's cache (it keeps every schema it compiled). */
export const releaseValidators = (validators: RecordValidators) => {
  for (const validator of Object.values(validators)) ajv.removeSchema(validator.schema as object);
};

/** The type's own texts replace its message keys; catalogue keys stay for the error handler. */
export const localizeIssues = (model: ConfiguredModel, locale: Locale, issues: Issue[]): Issue[] =>
  issues.map((issue) => {
    const text = model.texts?.(locale, issue.message);
    return text === undefined ? issue : { ...issue, message: text, values: undefined };
  });

/** Throws the 1001-1004 failure of a body that does not fit `validator` (its defaults are applied in place). */
export const checkBody = (validator: ValidateFunction, model: ConfiguredModel, locale: Locale, body: unknown) => {
  if (!validator(body)) throw invalid(localizeIssues(model, locale, issuesFromAjv(validator.errors ?? [])));
};

/** Field and rule issues of a record (create: the whole record; edit: the fields sent). */
export const recordIssues = (model: ConfiguredModel, input: Record<string, unknown>, mode: 'create' | 'edit'): Issue[] =>
  validateRecord(model.declaration, input, mode);

export const throwIssues = (model: ConfiguredModel, locale: Locale, issues: Issue[]) => {
  if (issues.length) throw invalid(localizeIssues(model, locale, issues));
};

/** 2002 naming the field (its label and the value, in the request language) another record of the license account holds. */
export const duplicateValue = (model: ConfiguredModel, locale: Locale, field: string, value: unknown) =>
  new AppError('2002', {
    issues: [{ field, message: 'validation.unique', values: { label: model.texts?.(locale, `resources.${model.declaration.name}.fields.${field}`) ?? field, value: value === undefined || value === null ? '' : String(value) } }],
  });
