// The generic CRUD contract (ARCHITECTURE.md "Generic CRUD") for every configured type at once:
// Fastify cannot add routes after start, so each call is registered once with the type as a path
// parameter and resolves it per request: unknown or archived type 2003, an action the type does not
// offer 4004, the action's permission `custom:<name>:<action>` (superAdmin passes) else 4003, the
// caller's license account only. What each route then does is the engine's (server/crud/routes.ts
// resourceActions), the same code a code-declared resource runs; the type's model checks the body.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Action } from '../../resources/types';
import { callerOf } from '../auth/guard';
import type { Caller } from '../auth/principal';
import type { Services } from '../services';
import { envelopeSchema, failureResponses, ok } from '../lib/envelope';
import { AppError } from '../lib/errors';
import { OPTIONS_LIMIT, resourceActions } from '../crud/routes';
import { batchDeleteBodySchema, optionsAnswerSchema, optionsQuerySchema } from '../crud/schemas';
import { customPermission, TYPE_NAME_PATTERN } from '../../resources/configuredTypes';
import type { ConfiguredModel } from './model';
import type { ConfiguredTypeRegistry } from './registry';

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

type Body = Record<string, unknown>;
interface TypeParams {
  type: string;
}

export const registerConfiguredRecordRoutes = (app: FastifyInstance, services: Services, registry: ConfiguredTypeRegistry) => {
  // The engine's own actions (server/crud/routes.ts), with every model the registry knows for references and deletes.
  // The file storage is read when used: the file routes open it after these routes are registered.
  const actions = resourceActions({
    db: services.db,
    config: services.config,
    models: registry.models(),
    get fileStorage() {
      return services.fileStorage;
    },
  });

  /** The type of the call and the caller, once the caller may run `actions` (any one) on it. */
  // The permission first (before the body or query is validated), from the name alone: a caller without
  // it learns nothing about which types exist, as the guard's `config.permissions` does for code routes.
  const permitted = (wanted: Action[]) => async (request: FastifyRequest<{ Params: Partial<TypeParams> }>) => {
    const name = request.params.type ?? '';
    await callerOf(request).require(wanted.map((action) => customPermission(name, action)));
  };
  const resolve = async (request: FastifyRequest<{ Params: TypeParams }>, wanted: Action[]): Promise<{ model: ConfiguredModel; caller: Caller }> => {
    const caller = callerOf(request);
    const name = request.params.type;
    const entry = TYPE_NAME.test(name) ? await registry.lookup(name) : undefined;
    if (!entry) throw new AppError('2003');
    const offered = wanted.filter((action) => entry.type.actions.includes(action));
    if (offered.length === 0) throw new AppError('4004');
    if (offered.length < wanted.length) await caller.require(offered.map((action) => customPermission(name, action)));
    return { model: entry.model, caller };
  };

  app.post<{ Params: TypeParams; Body: Body | undefined }>(
    '/custom/:type/page',
    {
      onRequest: permitted(['page']),
      schema: schema(
        'One page of the filtered, sorted list',
        'page',
        { params: typeParams, body: anyBody('{ pageNum, pageSize, sort?, order?, ...filters }') },
        { type: 'object', properties: { list: { type: 'array', items: anyRecord }, total: { type: 'integer' }, pageNum: { type: 'integer' }, pageSize: { type: 'integer' } } },
      ),
    },
    async (request) => {
      const { model, caller } = await resolve(request, ['page']);
      return ok(request, await actions.page(model, caller, request.body ?? {}));
    },
  );

  app.get<{ Params: TypeParams; Querystring: { nameLike?: string; ids?: string } }>(
    '/custom/:type/list',
    {
      onRequest: permitted(['page', 'show', 'create', 'edit']),
      schema: schema(
        `Options for pickers and reference labels (at most ${OPTIONS_LIMIT})`,
        'page|show|create|edit',
        { params: typeParams, querystring: optionsQuerySchema },
        optionsAnswerSchema,
      ),
    },
    async (request) => {
      const { model, caller } = await resolve(request, ['page', 'show', 'create', 'edit']);
      const rows = await actions.options(model, caller, request.query);
      return ok(
        request,
        rows.map((row) => ({ id: row.id, name: row.name === null ? null : String(row.name) })),
      );
    },
  );

  app.get<{ Params: TypeParams & { id: number } }>(
    '/custom/:type/:id',
    { onRequest: permitted(['show']), schema: schema('One record', 'show', { params: idTypeParams }, anyRecord) },
    async (request) => {
      const { model, caller } = await resolve(request, ['show']);
      return ok(request, await actions.show(model, caller, request.params.id));
    },
  );

  app.post<{ Params: TypeParams; Body: Body | undefined }>(
    '/custom/:type',
    { onRequest: permitted(['create']), schema: schema('Create a record', 'create', { params: typeParams, body: anyBody('The record (no id)') }, anyRecord) },
    async (request) => {
      const { model, caller } = await resolve(request, ['create']);
      return ok(request, await actions.create(model, caller, request.body ?? {}));
    },
  );

  app.put<{ Params: TypeParams; Body: Body | undefined }>(
    '/custom/:type',
    {
      onRequest: permitted(['edit']),
      schema: schema('Update a record (absent fields keep their value)', 'edit', { params: typeParams, body: anyBody('The record with its id') }, anyRecord),
    },
    async (request) => {
      const { model, caller } = await resolve(request, ['edit']);
      return ok(request, await actions.update(model, caller, request.body ?? {}));
    },
  );

  app.delete<{ Params: TypeParams; Querystring: { id: number } }>(
    '/custom/:type',
    { onRequest: permitted(['delete']), schema: schema('Delete a record', 'delete', { params: typeParams, querystring: idQuery }, { type: 'null' }) },
    async (request) => {
      const { model, caller } = await resolve(request, ['delete']);
      await actions.delete(model, caller, [request.query.id]);
      return ok(request, null);
    },
  );

  app.post<{ Params: TypeParams; Body: { ids: number[] } }>(
    '/custom/:type/batchDelete',
    {
      onRequest: permitted(['delete']),
      schema: schema(
        'Delete several records in one transaction (all or nothing)',
        'delete',
        { params: typeParams, body: batchDeleteBodySchema },
        { type: 'object', properties: { deleted: { type: 'integer' } } },
      ),
    },
    async (request) => {
      const { model, caller } = await resolve(request, ['delete']);
      return ok(request, { deleted: await actions.delete(model, caller, request.body.ids) });
    },
  );

  const exportSchema = schema(
    'Export the filtered list as CSV or XLSX (labels in the request language)',
    'export',
    { params: typeParams, body: anyBody('{ format: csv|xlsx, columns?, sort?, order?, utcOffsetMinutes?, ...filters }') },
    {},
  );
  exportSchema.response = { 200: { description: 'The file (text/csv or XLSX)', type: 'string', format: 'binary' }, ...failureResponses(true) };
  app.post<{ Params: TypeParams; Body: Body | undefined }>('/custom/:type/export', { onRequest: permitted(['export']), schema: exportSchema }, async (request, reply) => {
    const { model, caller } = await resolve(request, ['export']);
    return actions.export(model, caller, request.body ?? {}, reply);
  });
};
