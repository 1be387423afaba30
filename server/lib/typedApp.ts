// Typed routes: route modules take a TypedApp, whose route schemas are TypeBox types, so a handler's
// request.body, request.query and request.params are typed by the very schema that validates them.
// TypeBox types are plain JSON Schema, checked by the app's own validator compiler (lib/ajv.ts).
// The helpers below write the JSON Schema forms the app has always used (e.g. `type: ['string', 'null']`,
// not anyOf), so validation issues and the OpenAPI document stay as they were.
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyBaseLogger, FastifyInstance, RawReplyDefaultExpression, RawRequestDefaultExpression, RawServerDefault } from 'fastify';
import { Type, type Static, type TObjectOptions, type TProperties, type TSchema, type TSchemaOptions } from 'typebox';

export type TypedApp = FastifyInstance<
  RawServerDefault,
  RawRequestDefaultExpression<RawServerDefault>,
  RawReplyDefaultExpression<RawServerDefault>,
  FastifyBaseLogger,
  TypeBoxTypeProvider
>;

/** The same instance, its routes typed by their TypeBox schemas. */
export const typedApp = (app: FastifyInstance): TypedApp => app.withTypeProvider<TypeBoxTypeProvider>();

/** A row id (PostgreSQL integer): 1 to 2^31 - 1. */
export const RowId = (options: TSchemaOptions = {}) => Type.Integer({ minimum: 1, maximum: 2147483647, ...options });

/** An object refusing unknown properties (1004); those not wrapped in Type.Optional are required (1001). */
export const StrictObject = <Properties extends TProperties>(properties: Properties, options: TObjectOptions = {}) =>
  Type.Object(properties, { ...options, additionalProperties: false });

/**
 * `schema` or null, as a `type` list: anyOf would answer a wrong value with one issue per branch
 * instead of one 1003.
 */
export const Nullable = <Schema extends TSchema & { type: string }>(schema: Schema) => Type.Unsafe<Static<Schema> | null>({ ...schema, type: [schema.type, 'null'] });

/** One of `values`, typed as their union (`type: 'string'` kept: a non-text is also a 1003 issue). */
export const StringEnum = <const Values extends string[]>(values: readonly [...Values], options: TSchemaOptions = {}) => Type.Enum(values, { ...options, type: 'string' });

/** One of `values`, or null. */
export const NullableStringEnum = <const Values extends readonly string[]>(values: Values, options: TSchemaOptions = {}) =>
  Type.Unsafe<Values[number] | null>({ ...options, type: ['string', 'null'], enum: [...values, null] });

/** A file answer: its bytes with their own content type (documented as a binary string). */
export const FileAnswer = () => Type.Unsafe<Buffer>({ description: 'The file (Content-Disposition: attachment)', type: 'string', format: 'binary' });

/** An object whose properties are checked elsewhere (a saved filter, a command's parameters). */
export const AnyObject = (options: TSchemaOptions = {}) => Type.Unsafe<Record<string, unknown>>({ ...options, type: 'object' });
