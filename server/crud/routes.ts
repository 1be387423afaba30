// The generic CRUD API (ARCHITECTURE.md "Generic CRUD") derived from each declaration: paths from
// `apiPath`, schemas from the fields, permissions from `permissions`; an absent action has no route.
// Route generics (not casts) type the bodies: the schemas are derived at start, so no static type provider
// can read them; Fastify has validated each body against its schema before the handler runs.
import { and, asc, inArray, sql } from 'drizzle-orm';
import type { FastifyInstance, FastifyReply, RouteShorthandOptions } from 'fastify';
import type { ServerConfig } from '../config';
import { callerOf } from '../auth/guard';
import type { Caller } from '../auth/principal';
import type { Db } from '../db/client';
import type { FileStorage } from '../files/storage';
import { envelopeSchema, failureResponses, ok } from '../lib/envelope';
import { AppError } from '../lib/errors';
import { exportListing, type ExportBody } from './export';
import type { ModelRegistry, ResourceModel } from './model';
import { containsCondition, expressionOf, filterConditions, orderByOf, scopeCondition } from './query';
import { checkResourceNameFilters } from './resourceNames';
import { countRecords, readOne, readRecords, readRecordsWith, readScalar } from './records';
import {
  batchDeleteBodySchema,
  createBodySchema,
  exportBodySchema,
  idParamsSchema,
  optionsAnswerSchema,
  optionsQuerySchema,
  pageAnswerSchema,
  pageBodySchema,
  recordSchema,
  updateBodySchema,
} from './schemas';
import { withDefaults } from './integrity';
import { createRecord, deleteRecords, updateRecord } from './write';

export interface CrudDeps {
  db: Db;
  models: ModelRegistry;
  config: ServerConfig;
  /** Where uploaded files are (server/files/storage.ts), once the file routes opened it. */
  fileStorage?: FileStorage;
}

export interface PageBody extends Record<string, unknown> {
  pageNum: number;
  pageSize: number;
  sort?: string;
  order?: 'ASC' | 'DESC';
}

export const OPTIONS_LIMIT = 50;

/** Permissions of every resource with a reference to `model` (its labels show in their lists). */
const referrerPermissions = (model: ResourceModel, models: ModelRegistry): string[] => {
  const referrers = [...models.values()].filter((other) => Object.values(other.declaration.fields).some((field) => field.reference === model.declaration.name && !field.virtual));
  return [...new Set(referrers.flatMap((other) => Object.values(other.declaration.permissions).filter((p): p is string => Boolean(p))))];
};

const route = (model: ResourceModel, summary: string, permissions: string[], schema: Record<string, unknown>, data: Record<string, unknown>) =>
  ({
    config: { permissions },
    schema: {
      tags: [model.declaration.name],
      summary,
      description: `Needs one of: ${permissions.join(', ')} (superAdmin passes).`,
      security: [{ rvmToken: [] }],
      ...schema,
      response: { 200: envelopeSchema(data), ...failureResponses(true) },
    },
  }) satisfies RouteShorthandOptions;

/** One page of the filtered, sorted list and the filtered total (the `<apiPath>/page` answer). */
export const readPage = async (db: Db, model: ResourceModel, caller: Caller, body: PageBody) => {
  const filters = filterConditions(model, body);
  const where = and(scopeCondition(model, caller), ...filters);
  const options = { where, orderBy: orderByOf(model, body.sort, body.order), limit: body.pageSize, offset: (body.pageNum - 1) * body.pageSize };
  const keptTotal = filters.length === 0 ? model.hooks.scopeTotal?.(caller) : undefined;
  if (keptTotal) {
    // The kept total rides on the page's own rows; a page past the end has none to carry it.
    // Nothing but the caller's scope in the statement: one kept plan serves every call (records.ts planOnce).
    const { records, extra } = await readRecordsWith(db, model, { ...options, planOnce: true }, { total: keptTotal });
    const total = extra ? Number(extra.total) : await readScalar(db, keptTotal);
    return { list: records, total, pageNum: body.pageNum, pageSize: body.pageSize };
  }
  // Both at once: on PostgreSQL two pooled connections (PGlite queues them in its worker).
  const [list, total] = await Promise.all([readRecords(db, model, options), countRecords(db, model, where)]);
  return { list, total, pageNum: body.pageNum, pageSize: body.pageSize };
};

const TEXT_NAMES = new Set(['text', 'textarea', 'email', 'phone', 'enum']);

/** Picker options and reference labels: `{ id, name }` by name part or ids, in the caller's scope (`<apiPath>/list`). */
export const readOptions = (db: Db, model: ResourceModel, caller: Caller, query: { nameLike?: string; ids?: string }) => {
  const name = expressionOf(model, model.declaration.nameField);
  // a number or reference as the name (a promotion item's position) is a label: answered and searched as text, sorted as itself
  const nameType = model.declaration.fields[model.declaration.nameField]?.type ?? 'text';
  const label = TEXT_NAMES.has(nameType) ? name : sql<string>`${name}::text`;
  const ids = query.ids ? query.ids.split(',').map((id) => Number(id.trim())) : [];
  return db
    .select({ id: model.id, name: label })
    .from(model.table)
    .where(
      and(
        scopeCondition(model, caller),
        query.nameLike ? containsCondition(label, query.nameLike, model.shortContains[model.declaration.nameField]) : undefined,
        ids.length ? inArray(model.id, ids) : undefined,
      ),
    )
    .orderBy(asc(name), asc(model.id))
    .limit(OPTIONS_LIMIT);
};

type Body = Record<string, unknown>;

/**
 * What each generic route does once its model and caller are known: the one implementation behind a
 * code-declared resource's routes and a configured type's (server/configuredTypes/recordRoutes.ts).
 * A model whose routes could not carry its schemas checks the body itself (`checkBody`) first.
 */
export const resourceActions = (deps: CrudDeps) => ({
  page: async (model: ResourceModel, caller: Caller, body: Body) => {
    const checked = { ...body };
    model.checkBody?.('page', checked, caller.locale);
    checkResourceNameFilters(model, deps.models, checked);
    // validated against the page schema: pageNum, pageSize, sort and order are what PageBody says
    return readPage(deps.db, model, caller, checked as PageBody);
  },
  options: (model: ResourceModel, caller: Caller, query: { nameLike?: string; ids?: string }) => readOptions(deps.db, model, caller, query),
  show: (model: ResourceModel, caller: Caller, id: number) => readOne(deps.db, model, caller, id),
  create: async (model: ResourceModel, caller: Caller, body: Body) => {
    // defaults first: a required field with a default may be absent, as on the create form
    const input = withDefaults(model, body);
    model.checkBody?.('create', input, caller.locale);
    const id = await createRecord(deps, caller, model, input);
    return readOne(deps.db, model, caller, id, false);
  },
  update: async (model: ResourceModel, caller: Caller, body: Body) => {
    const input = { ...body };
    model.checkBody?.('update', input, caller.locale);
    const id = await updateRecord(deps, caller, model, input);
    return readOne(deps.db, model, caller, id, false);
  },
  delete: (model: ResourceModel, caller: Caller, ids: number[]) => deleteRecords(deps, caller, model, ids),
  export: (model: ResourceModel, caller: Caller, body: Body, reply: FastifyReply) => {
    const checked = { ...body };
    model.checkBody?.('export', checked, caller.locale);
    checkResourceNameFilters(model, deps.models, checked);
    // validated against the export schema (format, columns, sort, order)
    return exportListing(deps, caller, model, checked as ExportBody, reply);
  },
});

export const registerResourceRoutes = (app: FastifyInstance, deps: CrudDeps, model: ResourceModel) => {
  const actions = resourceActions(deps);
  const { apiPath, permissions } = model.declaration;
  const record = recordSchema(model);
  const nullData = { type: 'null' };

  if (permissions.page) {
    app.post<{ Body: Body }>(
      `${apiPath}/page`,
      route(model, 'One page of the filtered, sorted list', [permissions.page], { body: pageBodySchema(model) }, pageAnswerSchema(model)),
      async (request) => ok(request, await actions.page(model, callerOf(request), request.body)),
    );
  }

  const pickerPermissions = [permissions.page, permissions.show, permissions.create, permissions.edit].filter((p): p is string => Boolean(p));
  // Whoever may see a list that references this resource may read the labels of its ids there.
  const labelPermissions = referrerPermissions(model, deps.models).filter((p) => !pickerPermissions.includes(p));
  if (pickerPermissions.length) {
    app.get<{ Querystring: { nameLike?: string; ids?: string } }>(
      `${apiPath}/list`,
      route(
        model,
        `Options for pickers and reference labels (at most ${OPTIONS_LIMIT}); \`ids=\` alone also for holders of a referencing resource's permission`,
        [...new Set([...pickerPermissions, ...labelPermissions])],
        { querystring: optionsQuerySchema },
        optionsAnswerSchema,
      ),
      async (request) => {
        const caller = callerOf(request);
        const { query } = request;
        if ((!query.ids || query.nameLike) && !(await caller.can(pickerPermissions))) throw new AppError('4003');
        return ok(request, await actions.options(model, caller, query));
      },
    );
  }

  if (permissions.show) {
    app.get<{ Params: { id: number } }>(`${apiPath}/:id`, route(model, 'One record', [permissions.show], { params: idParamsSchema }, record), async (request) =>
      ok(request, await actions.show(model, callerOf(request), request.params.id)),
    );
  }

  if (permissions.create) {
    app.post<{ Body: Body }>(apiPath, route(model, 'Create a record', [permissions.create], { body: createBodySchema(model) }, record), async (request) =>
      ok(request, await actions.create(model, callerOf(request), request.body)),
    );
  }

  if (permissions.edit) {
    app.put<{ Body: Body }>(
      apiPath,
      route(model, 'Update a record (absent fields keep their value)', [permissions.edit], { body: updateBodySchema(model) }, record),
      async (request) => ok(request, await actions.update(model, callerOf(request), request.body)),
    );
  }

  if (permissions.delete) {
    app.delete<{ Querystring: { id: number } }>(apiPath, route(model, 'Delete a record', [permissions.delete], { querystring: idParamsSchema }, nullData), async (request) => {
      await actions.delete(model, callerOf(request), [request.query.id]);
      return ok(request, null);
    });
    app.post<{ Body: { ids: number[] } }>(
      `${apiPath}/batchDelete`,
      route(
        model,
        'Delete several records in one transaction (all or nothing)',
        [permissions.delete],
        { body: batchDeleteBodySchema },
        {
          type: 'object',
          properties: { deleted: { type: 'integer' } },
        },
      ),
      async (request) => ok(request, { deleted: await actions.delete(model, callerOf(request), request.body.ids) }),
    );
  }

  if (permissions.export) {
    const options = route(model, 'Export the filtered list as CSV or XLSX (labels in the request language)', [permissions.export], { body: exportBodySchema(model) }, {});
    options.schema.response = { 200: { description: 'The file (text/csv or XLSX)', type: 'string', format: 'binary' }, ...failureResponses(true) };
    app.post<{ Body: Body }>(`${apiPath}/export`, options, async (request, reply) => actions.export(model, callerOf(request), request.body, reply));
  }
};

/** The routes of every code-declared model (configured types have theirs in server/configuredTypes/recordRoutes.ts). */
export const registerCrudRoutes = (app: FastifyInstance, deps: CrudDeps, codeModels: ModelRegistry) => {
  for (const model of codeModels.values()) registerResourceRoutes(app, deps, model);
};
