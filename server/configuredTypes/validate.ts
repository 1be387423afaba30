// The bodies of configured records' requests against the type's compiled JSON schemas (the generic CRUD
// schemas of server/crud/schemas.ts, compiled once per type version): Fastify routes cannot carry a schema
// per type, so the model checks them (crud/model.ts `checkBody`). Everything after that is the engine's own
// write path (server/crud/write.ts). The type's own messages are answered in the request language.
import { Ajv, type ValidateFunction } from 'ajv';
import type { Locale } from '../../i18n';
import { issuesFromAjv } from '../lib/ajv';
import { invalid } from '../lib/errors';
import type { BodyKind } from '../crud/model';
import { localizeIssues } from '../crud/write';
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

/** The model's body check (crud/model.ts `checkBody`): the 1001-1004 failure of a body that does not fit, defaults applied in place. */
export const bodyChecker = (model: ConfiguredModel, validators: RecordValidators) => (kind: BodyKind, body: Record<string, unknown>, locale: Locale) => {
  const validator = validators[kind];
  if (!validator(body)) throw invalid(localizeIssues(model, locale, issuesFromAjv(validator.errors ?? [])));
};
