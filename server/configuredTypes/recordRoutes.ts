// The generic CRUD contract (ARCHITECTURE.md "Generic CRUD") for every configured type at once:
// Fastify cannot add routes after start, so each call is registered once with the type as a path
// parameter and resolves it per request: unknown or archived type 2003, an action the type does not
// offer 4004, the action's permission `custom:<name>:<action>` (superAdmin passes) else 4003, the
// caller's license account only. Paging, reading, deleting and export are server/crud's own code.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Action } from '../../resources/types';
import { callerOf } from '../auth/guard';
import type { Caller } from '../auth/principal';
import type { Services } from '../services';
import { envelopeSchema, failureResponses, ok } from '../lib/envelope';
import { AppError } from '../lib/errors';
import { exportListing, type ExportBody } from '../crud/export';
import { readOne } from '../crud/records';
import { OPTIONS_LIMIT, readOptions, readPage, type PageBody } from '../crud/routes';
import { batchDeleteBodySchema, optionsAnswerSchema, optionsQuerySchema } from '../crud/schemas';
import { deleteRecords } from '../crud/write';
import { customPermission, TYPE_NAME_PATTERN } from '../../resources/configuredTypes';
import type { ConfiguredEntry, ConfiguredTypeRegistry } from './registry';
import { checkBody } from './validate';
import { createConfiguredRecord, updateConfiguredRecord } from './records';

const TYPE_NAME = new RegExp(TYPE_NAME_PATTERN);
const typeParam = { type: 'string', maxLength: 40, description: 'The configured type name' };
const typeParams = { type: 'object', required: ['type'], properties: { type: typeParam } };
const idTypeParams = { type: 'object', required: ['type', 'id'], properties: { type: typeParam, id: { type: 'integer', minimum: 0, maximum: 2147483647 } } };
const idQuery = { type: 'object', required: ['id'], properties: { id: { type: 'integer', minimum: 0, maximum: 2147483647 } } };
const anyRecord = { type: 'object', additionalProperties: true, description: "The type's fields (GET /resource-types/active describes them) plus id, createdTime, updatedTime" };
const anyBody = (description: string) => ({ type: 'object', additionalProperties: true, description });

const schema = (summary: string, action: string, parts: Record<string, unknown>, data: Record<string, unknown>) => ({
  tags: ['configured types'],
  summary,
  description: `Needs \`custom:<type>:${action}\` (superAdmin passes). Unknown or archived type: 2003; an action the type does not offer: 4004. Validated by the type's definition (1001-1004).`,
  security: [{ rvmToken: [] }],
  ...parts,
  response: { 200: envelopeSchema(data), ...failureResponses(true) },
});

export const registerConfiguredRecordRoutes = (app: FastifyInstance, services: Services, registry: ConfiguredTypeRegistry) => {
  const { db } = services;

  /** The type of the call and the caller, once the caller may run `actions` (any one) on it. */
  // The permission first (before the body or query is validated), from the name alone: a caller without
  // it learns nothing about which types exist, as the guard's `config.permissions` does for code routes.
  const permitted = (actions: Action[]) => async (request: FastifyRequest) => {
    const name = (request.params as { type?: string }).type ?? '';
    await callerOf(request).require(actions.map((action) => customPermission(name, action)));
  };
  const resolve = async (request: FastifyRequest, actions: Action[]): Promise<{ entry: ConfiguredEntry; caller: Caller }> => {
    const caller = callerOf(request);
    const name = (request.params as { type: string }).type;
    const entry = TYPE_NAME.test(name) ? await registry.lookup(name) : undefined;
    if (!entry) throw new AppError('2003');
    const offered = actions.filter((action) => entry.type.actions.includes(action));
    if (offered.length === 0) throw new AppError('4004');
    if (offered.length < actions.length) await caller.require(offered.map((action) => customPermission(name, action)));
    return { entry, caller };
  };
  const depsOf = () => ({ db, config: services.config, models: registry.models() });

  app.post('/custom/:type/page', { onRequest: permitted(['page']), schema: schema('One page of the filtered, sorted list', 'page', { params: typeParams, body: anyBody('{ pageNum, pageSize, sort?, order?, ...filters }') }, { type: 'object', properties: { list: { type: 'array', items: anyRecord }, total: { type: 'integer' }, pageNum: { type: 'integer' }, pageSize: { type: 'integer' } } }) }, async (request) => {
    const { entry, caller } = await resolve(request, ['page']);
    const body = { ...((request.body as Record<string, unknown> | undefined) ?? {}) };
    checkBody(entry.validators.page, entry.model, caller.locale, body);
    // checkBody validated pageNum, pageSize, sort and order against the type's page schema
    return ok(request, await readPage(db, entry.model, caller, body as PageBody));
  });

  app.get('/custom/:type/list', { onRequest: permitted(['page', 'show', 'create', 'edit']), schema: schema(`Options for pickers and reference labels (at most ${OPTIONS_LIMIT})`, 'page|show|create|edit', { params: typeParams, querystring: optionsQuerySchema }, optionsAnswerSchema) }, async (request) => {
    const { entry, caller } = await resolve(request, ['page', 'show', 'create', 'edit']);
    const rows = await readOptions(db, entry.model, caller, request.query as { nameLike?: string; ids?: string });
    return ok(request, rows.map((row) => ({ id: row.id, name: row.name === null ? null : String(row.name) })));
  });

  app.get('/custom/:type/:id', { onRequest: permitted(['show']), schema: schema('One record', 'show', { params: idTypeParams }, anyRecord) }, async (request) => {
    const { entry, caller } = await resolve(request, ['show']);
    return ok(request, await readOne(db, entry.model, caller, (request.params as { id: number }).id));
  });

  app.post('/custom/:type', { onRequest: permitted(['create']), schema: schema('Create a record', 'create', { params: typeParams, body: anyBody('The record (no id)') }, anyRecord) }, async (request) => {
    const { entry, caller } = await resolve(request, ['create']);
    const id = await createConfiguredRecord(db, registry.models(), caller, entry, request.body ?? {});
    return ok(request, await readOne(db, entry.model, caller, id, false));
  });

  app.put('/custom/:type', { onRequest: permitted(['edit']), schema: schema('Update a record (absent fields keep their value)', 'edit', { params: typeParams, body: anyBody('The record with its id') }, anyRecord) }, async (request) => {
    const { entry, caller } = await resolve(request, ['edit']);
    const id = await updateConfiguredRecord(db, registry.models(), caller, entry, request.body ?? {});
    return ok(request, await readOne(db, entry.model, caller, id, false));
  });

  app.delete('/custom/:type', { onRequest: permitted(['delete']), schema: schema('Delete a record', 'delete', { params: typeParams, querystring: idQuery }, { type: 'null' }) }, async (request) => {
    const { entry, caller } = await resolve(request, ['delete']);
    await deleteRecords(depsOf(), caller, entry.model, [(request.query as { id: number }).id]);
    return ok(request, null);
  });

  app.post('/custom/:type/batchDelete', { onRequest: permitted(['delete']), schema: schema('Delete several records in one transaction (all or nothing)', 'delete', { params: typeParams, body: batchDeleteBodySchema }, { type: 'object', properties: { deleted: { type: 'integer' } } }) }, async (request) => {
    const { entry, caller } = await resolve(request, ['delete']);
    return ok(request, { deleted: await deleteRecords(depsOf(), caller, entry.model, (request.body as { ids: number[] }).ids) });
  });

  const exportSchema = schema('Export the filtered list as CSV or XLSX (labels in the request language)', 'export', { params: typeParams, body: anyBody('{ format: csv|xlsx, columns?, sort?, order?, utcOffsetMinutes?, ...filters }') }, {});
  exportSchema.response = { 200: { description: 'The file (text/csv or XLSX)', type: 'string', format: 'binary' }, ...failureResponses(true) };
  app.post('/custom/:type/export', { onRequest: permitted(['export']), schema: exportSchema }, async (request, reply) => {
    const { entry, caller } = await resolve(request, ['export']);
    const body = { ...((request.body as Record<string, unknown> | undefined) ?? {}) };
    checkBody(entry.validators.export, entry.model, caller.locale, body);
    return exportListing(depsOf(), caller, entry.model, body as ExportBody, reply);
  });
};
