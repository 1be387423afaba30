// Fastify JSON schemas derived from a declaration: they drive request validation (unknown fields
// and wrong types are refused by Ajv) and the OpenAPI document. The richer rules (patterns,
// cross-field, password) are checked afterwards by resources/validation.ts `validateRecord`.
import type { FieldDeclaration, FilterDeclaration, ResourceDeclaration } from '../../resources/types';
import type { ResourceModel } from './model';
import { namesResource, resourceNameSchema } from './resourceNames';

type JsonSchema = Record<string, unknown>;

const nullable = (schema: JsonSchema): JsonSchema => {
  if (Array.isArray(schema.enum)) return { ...schema, enum: [...(schema.enum as unknown[]), null] };
  return { ...schema, type: [schema.type as string, 'null'] };
};

/** Ids are PostgreSQL integer (int4) columns. */
const MAX_ID = 2147483647;

/** The schema of one value of a field (without null). */
export const valueSchema = (field: FieldDeclaration, forRequest: boolean): JsonSchema => {
  switch (field.type) {
    case 'number':
      return {
        type: field.integer ? 'integer' : 'number',
        ...(forRequest && field.min !== undefined ? { minimum: field.min } : {}),
        ...(forRequest && field.max !== undefined ? { maximum: field.max } : {}),
      };
    case 'boolean':
      return { type: 'boolean' };
    case 'enum':
      return { enum: [...(field.options ?? [])] };
    case 'reference':
    case 'treeParent':
      return { type: 'integer', maximum: MAX_ID };
    // an uploaded file's id (docs/files.md)
    case 'image':
    case 'file':
      return { type: 'integer', minimum: 1, maximum: MAX_ID };
    case 'multiReference':
      return { type: 'array', items: { type: 'integer', maximum: MAX_ID }, ...(forRequest ? { maxItems: 10_000 } : {}) };
    case 'date':
    case 'datetime':
      return forRequest ? { type: 'string', maxLength: 40 } : { type: 'string', format: field.type === 'date' ? 'date' : 'date-time' };
    default:
      return {
        type: 'string',
        ...(forRequest && field.minLength ? { minLength: field.minLength } : {}),
        ...(forRequest && field.maxLength ? { maxLength: field.maxLength } : {}),
      };
  }
};

const fieldSchema = (field: FieldDeclaration, forRequest: boolean): JsonSchema => {
  const schema = valueSchema(field, forRequest);
  return field.type === 'multiReference' ? schema : nullable(schema);
};

/** A record as answered. */
export const recordSchema = (model: ResourceModel): JsonSchema => ({
  type: 'object',
  properties: Object.fromEntries(model.readable.map((name) => [name, fieldSchema(model.declaration.fields[name], false)])),
});

const writeSchema = (model: ResourceModel, names: string[], required: string[]): JsonSchema => ({
  type: 'object',
  additionalProperties: false,
  required,
  properties: Object.fromEntries(names.map((name) => [name, fieldSchema(model.declaration.fields[name], true)])),
});

export const createBodySchema = (model: ResourceModel): JsonSchema => {
  const { fields } = model.declaration;
  return writeSchema(
    model,
    model.creatable,
    model.creatable.filter((name) => fields[name].required || fields[name].requiredOnCreate),
  );
};

export const updateBodySchema = (model: ResourceModel): JsonSchema => {
  const schema = writeSchema(model, model.editable, ['id']);
  return { ...schema, properties: { id: { type: 'integer', minimum: 0, maximum: MAX_ID }, ...(schema.properties as JsonSchema) } };
};

const filterSchema = (filter: FilterDeclaration, field: FieldDeclaration): JsonSchema => {
  const value = valueSchema(field.type === 'multiReference' ? { type: 'reference' } : field, false);
  // a resource name: also a configured type's (checked against the live types, server/crud/resourceNames.ts)
  const single = field.type === 'date' || field.type === 'datetime' ? { type: 'string', maxLength: 40 } : namesResource(field) ? resourceNameSchema : value;
  switch (filter.operator) {
    case 'like':
      return { type: ['string', 'null'], maxLength: 200 };
    case 'in':
      return { type: ['array', 'null'], items: single, maxItems: 1000 };
    case 'range':
      return { type: ['array', 'null'], items: nullable(single), minItems: 2, maxItems: 2 };
    default:
      return nullable(single);
  }
};

export const sortableFields = (model: ResourceModel): string[] =>
  Object.entries(model.declaration.fields)
    .filter(([name, field]) => field.sortable && (model.columns[name] || model.computed[name]))
    .map(([name]) => name);

const listingProperties = (model: ResourceModel): JsonSchema => {
  const declaration: ResourceDeclaration = model.declaration;
  const sortable = sortableFields(model);
  return {
    ...(sortable.length ? { sort: { type: 'string', enum: sortable } } : {}),
    order: { type: 'string', enum: ['ASC', 'DESC'] },
    ...Object.fromEntries(declaration.list.filters.map((filter) => [filter.name, filterSchema(filter, declaration.fields[filter.field])])),
  };
};

export const pageBodySchema = (model: ResourceModel): JsonSchema => ({
  type: 'object',
  additionalProperties: false,
  properties: {
    pageNum: { type: 'integer', minimum: 1, default: 1 },
    pageSize: { type: 'integer', minimum: 1, maximum: 500, default: 20 },
    ...listingProperties(model),
  },
});

export const exportBodySchema = (model: ResourceModel): JsonSchema => ({
  type: 'object',
  additionalProperties: false,
  required: ['format'],
  properties: {
    format: { type: 'string', enum: ['csv', 'xlsx'] },
    /** Dates are written in the caller's local time. */
    utcOffsetMinutes: { type: 'integer', minimum: -840, maximum: 840 },
    /** The columns to write, in this order (the console sends its visible columns); default the declaration's list columns. */
    columns: { type: 'array', minItems: 1, maxItems: model.readable.length, uniqueItems: true, items: { type: 'string', enum: [...model.readable] } },
    ...listingProperties(model),
  },
});

export const pageAnswerSchema = (model: ResourceModel): JsonSchema => ({
  type: 'object',
  properties: {
    list: { type: 'array', items: recordSchema(model) },
    total: { type: 'integer' },
    pageNum: { type: 'integer' },
    pageSize: { type: 'integer' },
  },
});

export const optionsQuerySchema: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  properties: {
    nameLike: { type: 'string', maxLength: 200 },
    ids: { type: 'string', maxLength: 2000, pattern: '^\\s*\\d+(\\s*,\\s*\\d+)*\\s*$' },
  },
};

export const optionsAnswerSchema: JsonSchema = {
  type: 'array',
  items: { type: 'object', properties: { id: { type: 'integer' }, name: { type: ['string', 'null'] } } },
};

export const idParamsSchema: JsonSchema = {
  type: 'object',
  required: ['id'],
  properties: { id: { type: 'integer', minimum: 0, maximum: 2147483647 } },
};

export const batchDeleteBodySchema: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['ids'],
  properties: { ids: { type: 'array', minItems: 1, maxItems: 1000, items: { type: 'integer', minimum: 0, maximum: 2147483647 } } },
};
