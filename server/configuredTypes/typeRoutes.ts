// Managing configured types (superAdmin only, else 4003), and the active types a signed-in user may
// use (the console asks after sign-in and whenever a type is unknown to it). Every change is
// visible on this instance when the call answers, on the others within POLL_MS.
// Bodies are typed by route generics: their schema is the shared CONFIGURED_TYPE_SCHEMA (resources/configuredTypes.ts), which the
// console validates with too, and ConfiguredType is its type; the app's validator has checked the body before the handler.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { CONFIGURED_ACTIONS, CONFIGURED_TYPE_SCHEMA, customPermission, EXPORT_FORMAT, type ConfiguredType } from '../../resources/configuredTypes';
import { callerOf } from '../auth/guard';
import { envelopeSchema, failureResponses, ok } from '../lib/envelope';
import { AppError } from '../lib/errors';
import type { Services } from '../services';
import type { ConfiguredTypeRegistry } from './registry';
import { definitionOnly } from './definitionRow';
import { deleteType, saveType, saveTypes, type StoreContext } from './store';

const definitionSchema = CONFIGURED_TYPE_SCHEMA as unknown as Record<string, unknown>;
const updateSchema = {
  ...definitionSchema,
  properties: {
    ...(CONFIGURED_TYPE_SCHEMA.properties as Record<string, unknown>),
    confirmArchive: { type: 'boolean', description: "Go ahead although fields with data are removed or change kind: their values move to the records' archive" },
  },
};
const exportFileSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['format', 'types'],
  properties: {
    format: { type: 'string', enum: [EXPORT_FORMAT] },
    version: { type: 'integer', enum: [1] },
    types: { type: 'array', minItems: 1, maxItems: 100, items: definitionSchema },
    confirmArchive: { type: 'boolean' },
  },
};
const typeAnswer = { type: 'object', additionalProperties: true, description: 'ConfiguredType (resources/configuredTypes.ts) with status and version' };

/** superAdmin only, checked before the body is validated (a refused caller learns nothing about the body). */
const onlySuperAdmin = async (request: FastifyRequest) => {
  if (!callerOf(request).principal.superAdmin) throw new AppError('4003');
};

const route = (summary: string, parts: Record<string, unknown>, data: Record<string, unknown>, who = 'superAdmin only (4003 otherwise)') => ({
  ...(who.startsWith('superAdmin') ? { preValidation: onlySuperAdmin } : {}),
  schema: { tags: ['configured types'], summary, description: who, security: [{ rvmToken: [] }], ...parts, response: { 200: envelopeSchema(data), ...failureResponses(true) } },
});

export const registerTypeRoutes = (app: FastifyInstance, services: Services, registry: ConfiguredTypeRegistry) => {
  const superAdmin = (request: FastifyRequest) => {
    const caller = callerOf(request);
    if (!caller.principal.superAdmin) throw new AppError('4003');
    return caller;
  };
  const contextOf = (request: FastifyRequest): StoreContext => {
    const caller = superAdmin(request);
    return { db: services.db, locale: caller.locale, userId: caller.userId, codeNames: new Set(registry.codeModels.keys()), actor: caller };
  };
  const answerOf = async (name: string) => {
    await registry.refresh();
    const entry = registry.all().find((candidate) => candidate.type.name === name);
    if (!entry) throw new AppError('9402');
    return entry.type;
  };

  app.get('/resource-types', route('Every configured type, active and archived', {}, { type: 'array', items: typeAnswer }), async (request) => {
    superAdmin(request);
    await registry.refresh();
    return ok(
      request,
      registry.all().map((entry) => entry.type),
    );
  });

  app.get(
    '/resource-types/active',
    route('The active types the caller may use (any of their actions granted)', {}, { type: 'array', items: typeAnswer }, 'Any signed-in user'),
    async (request) => {
      const caller = callerOf(request);
      const visible: ConfiguredType[] = [];
      for (const entry of registry.all()) {
        if (entry.type.status !== 'active') continue;
        if (await caller.can(CONFIGURED_ACTIONS.map((action) => customPermission(entry.type.name, action)))) visible.push(entry.type);
      }
      return ok(request, visible);
    },
  );

  app.post<{ Body: ConfiguredType }>(
    '/resource-types',
    route('Create a type: its routes, indexes and permission rows exist when this answers', { body: definitionSchema }, typeAnswer),
    async (request) => {
      const type = request.body;
      await saveType(contextOf(request), type, 'create');
      return ok(request, await answerOf(type.name));
    },
  );

  app.put<{ Body: ConfiguredType & { confirmArchive?: boolean } }>(
    '/resource-types',
    route('Change a type (9401 when fields with data would be lost, unless confirmArchive); also restores an archived one', { body: updateSchema }, typeAnswer),
    async (request) => {
      const { confirmArchive, ...type } = request.body;
      await saveType(contextOf(request), type, 'update', confirmArchive === true);
      return ok(request, await answerOf(type.name));
    },
  );

  app.delete<{ Querystring: { name: string } }>(
    '/resource-types',
    route(
      'Delete a type; one with records is archived instead',
      { querystring: { type: 'object', required: ['name'], properties: { name: { type: 'string', maxLength: 40 } } } },
      { type: 'null' },
    ),
    async (request) => {
      await deleteType(contextOf(request), request.query.name);
      await registry.refresh();
      return ok(request, null);
    },
  );

  app.get<{ Querystring: { names?: string } }>(
    '/resource-types/export',
    {
      preValidation: onlySuperAdmin,
      schema: {
        tags: ['configured types'],
        summary: 'The definitions as a file for POST /resource-types/import (all types when names is absent)',
        description: 'superAdmin only (4003 otherwise)',
        security: [{ rvmToken: [] }],
        querystring: { type: 'object', properties: { names: { type: 'string', maxLength: 2000, description: 'Comma-separated type names' } } },
        response: { 200: { description: `{ format: "${EXPORT_FORMAT}", version: 1, types }`, type: 'string', format: 'binary' }, ...failureResponses(true) },
      },
    },
    async (request, reply) => {
      superAdmin(request);
      await registry.refresh();
      const names = request.query.names
        ?.split(',')
        .map((name) => name.trim())
        .filter(Boolean);
      const entries = registry.all().filter((entry) => (names?.length ? names.includes(entry.type.name) : true));
      if (names?.some((name) => !entries.some((entry) => entry.type.name === name))) throw new AppError('9402');
      const file = { format: EXPORT_FORMAT, version: 1, types: entries.map((entry) => definitionOnly(entry.type)) };
      const filename = `resource-types-${new Date().toISOString().slice(0, 10)}.json`;
      reply.header('content-disposition', `attachment; filename="${filename}"`);
      // A download (JSON inside), not an answer: octet-stream, so no client mistakes it for the envelope.
      return reply.type('application/octet-stream').send(JSON.stringify(file, null, 2));
    },
  );

  app.post<{ Body: { types: ConfiguredType[]; confirmArchive?: boolean } }>(
    '/resource-types/import',
    route(
      'Create or update the types of an export file, all or nothing',
      { body: exportFileSchema },
      { type: 'object', properties: { created: { type: 'array', items: { type: 'string' } }, updated: { type: 'array', items: { type: 'string' } } } },
    ),
    async (request) => {
      const { types, confirmArchive } = request.body;
      const outcome = await saveTypes(contextOf(request), types, confirmArchive === true);
      await registry.refresh();
      return ok(request, outcome);
    },
  );
};
