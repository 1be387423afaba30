// Batches: one command to many machines, chosen by ids or by the machine list's filter (resolved by
// the generic list's own filtering, fleet sub-trees included), its progress, and "resend failed".
import { and, count, eq, inArray, notExists, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { FastifyBaseLogger, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { BATCH_MAX_MACHINES, COMMAND_STATUSES, FAILED_STATUSES, type RemoteCommand } from '../../resources/commands';
import { callerOf } from '../auth/guard';
import type { Caller } from '../auth/principal';
import { listingWhere } from '../crud/query';
import { pageBodySchema } from '../crud/schemas';
import { rvm } from '../db/schema/fleet';
import { rvmCommand, rvmCommandBatch } from '../db/schema/liveFleet';
import { accountOf, iso, PAGE_PROPERTIES, withPaging } from '../fleet/access';
import { localeOf, ok } from '../lib/envelope';
import { AppError, invalidField } from '../lib/errors';
import { RowId, StrictObject, StringEnum, type TypedApp } from '../lib/typedApp';
import type { Services } from '../services';
import { deliverInBackground, queueCommands, refusalToWire, type QueueOutcome, type QueueRequest, type Target } from './create';
import { batchAnswerSchema, commandRecordSchema, readCommands } from './records';
import { actorOf, checkedParams, COMMAND_PROPERTY, commandRoute as route, ID_PARAMS, PARAMS_PROPERTY } from './shared';

type JsonSchema = Record<string, unknown>;

const targetColumns = { id: rvm.id, termNo: rvm.termNo, termType: rvm.termType };

/** The machine list's filter body without paging (and without sorting, which selects nothing); listingWhere reads it. */
const filterSchema = (services: Services) => {
  const model = services.models.get('machine');
  if (!model) return Type.Unsafe<Record<string, unknown>>(StrictObject({}));
  const schema = pageBodySchema(model);
  const { pageNum: _pageNum, pageSize: _pageSize, sort: _sort, order: _order, ...filters } = schema.properties as Record<string, JsonSchema>;
  return Type.Unsafe<Record<string, unknown>>({ ...schema, properties: filters, description: 'The filters POST /rvm/page accepts (fleetId includes sub-fleets)' });
};

const resolveFilter = async (services: Services, caller: Caller, filter: Record<string, unknown>): Promise<Target[]> => {
  const model = services.models.get('machine');
  if (!model) throw invalidField('filter', 'validation.invalid');
  const targets = await services.db
    .select(targetColumns)
    .from(rvm)
    .where(listingWhere(model, caller, filter))
    .orderBy(rvm.id)
    .limit(BATCH_MAX_MACHINES + 1);
  if (targets.length > BATCH_MAX_MACHINES) throw invalidField('filter', 'validation.max', '1004', { max: BATCH_MAX_MACHINES });
  return targets;
};

const resolveIds = async (services: Services, account: number, ids: number[]) => {
  const unique = [...new Set(ids)];
  const targets = await services.db
    .select(targetColumns)
    .from(rvm)
    .where(and(inArray(rvm.id, unique), eq(rvm.licenseAccountId, account)))
    .orderBy(rvm.id);
  const found = new Set(targets.map((target) => target.id));
  return { targets, missing: unique.filter((id) => !found.has(id)) };
};

const answer = (request: FastifyRequest, queue: QueueRequest, outcome: QueueOutcome) => ({
  batchId: outcome.batchId,
  total: queue.targets.length + (queue.missing?.length ?? 0),
  queued: outcome.queued.length,
  refused: outcome.refused.map(refusalToWire(localeOf(request))),
});

const queueBatch = async (services: Services, request: FastifyRequest, log: FastifyBaseLogger, queue: QueueRequest) => {
  if (queue.targets.length + (queue.missing?.length ?? 0) === 0) return { batchId: null, total: 0, queued: 0, refused: [] };
  const outcome = await queueCommands(services.db, services, actorOf(callerOf(request)), queue);
  void deliverInBackground(
    services,
    outcome.queued.map((row) => row.rvmId),
    log,
  );
  return answer(request, queue, outcome);
};

export const registerBatchRoutes = (app: TypedApp, services: Services) => {
  const { db } = services;

  app.post(
    '/rvm/command/batch',
    route(
      `One command to many machines: ids (at most ${BATCH_MAX_MACHINES}) or the machine list's filter, exactly one of them. Machines refused (6001 not the account's, 8000, 8001) are listed, the others queued`,
      {
        body: StrictObject({
          command: COMMAND_PROPERTY,
          params: Type.Optional(PARAMS_PROPERTY),
          ids: Type.Optional(Type.Array(RowId(), { minItems: 1, maxItems: BATCH_MAX_MACHINES })),
          filter: Type.Optional(filterSchema(services)),
        }),
      },
      batchAnswerSchema,
    ),
    async (request) => {
      const caller = callerOf(request);
      const body = request.body;
      if ((body.ids === undefined) === (body.filter === undefined)) {
        throw body.ids === undefined ? invalidField('ids', 'validation.selectOne', '1001') : invalidField('filter', 'validation.invalid', '1004');
      }
      const params = checkedParams(body.command, body.params);
      const account = accountOf(caller);
      const { targets, missing } = body.ids ? await resolveIds(services, account, body.ids) : { targets: await resolveFilter(services, caller, body.filter ?? {}), missing: [] };
      const selection = body.ids ? { ids: [...new Set(body.ids)] } : { filter: body.filter };
      return ok(request, await queueBatch(services, request, request.log, { command: body.command, params, targets, missing, batch: { selection } }));
    },
  );

  const batchOf = async (account: number, id: number) => {
    const [batch] = await db
      .select()
      .from(rvmCommandBatch)
      .where(and(eq(rvmCommandBatch.id, id), eq(rvmCommandBatch.licenseAccountId, account)));
    if (!batch) throw new AppError('2003');
    return batch;
  };

  app.get(
    '/rvm/command/batch/:id',
    route(
      'A batch: what was sent, how many commands are in each status, and its commands (paged, optionally one status)',
      { params: ID_PARAMS, querystring: StrictObject({ ...PAGE_PROPERTIES, status: Type.Optional(StringEnum(COMMAND_STATUSES)) }) },
      {
        type: 'object',
        properties: {
          batch: {
            type: 'object',
            properties: {
              id: { type: 'integer' },
              command: { type: 'string' },
              params: { type: 'object', additionalProperties: true },
              machineCount: { type: 'integer' },
              createdByName: { type: ['string', 'null'] },
              createdTime: { type: 'string', format: 'date-time' },
            },
          },
          counts: { type: 'object', properties: Object.fromEntries(COMMAND_STATUSES.map((status) => [status, { type: 'integer' }])) },
          list: { type: 'array', items: commandRecordSchema },
          total: { type: 'integer' },
        },
      },
    ),
    async (request) => {
      const account = accountOf(callerOf(request));
      const { id } = request.params;
      const { pageNum, pageSize, status } = withPaging(request.query);
      const batch = await batchOf(account, id);
      const inBatch = and(eq(rvmCommand.licenseAccountId, account), eq(rvmCommand.batchId, id));
      const listed = and(inBatch, status ? eq(rvmCommand.status, status) : undefined);
      const [byStatus, list, [{ total }]] = await Promise.all([
        db.select({ status: rvmCommand.status, n: count() }).from(rvmCommand).where(inBatch).groupBy(rvmCommand.status),
        readCommands(db, listed, { limit: pageSize, offset: (pageNum - 1) * pageSize }),
        db.select({ total: count() }).from(rvmCommand).where(listed),
      ]);
      const counts = Object.fromEntries(COMMAND_STATUSES.map((name) => [name, 0]));
      for (const row of byStatus) counts[row.status] = Number(row.n);
      return ok(request, {
        batch: {
          id: batch.id,
          command: batch.command,
          params: batch.params,
          machineCount: batch.machineCount,
          createdByName: batch.createdByName,
          createdTime: iso(batch.createdTime),
        },
        counts,
        list,
        total: Number(total),
      });
    },
  );

  app.post(
    '/rvm/command/batch/:id/resendFailed',
    route(
      "Send the batch's failed commands (sendFailed, executedFailed; not resent yet) again, as a new batch; answers like batch creation",
      { params: ID_PARAMS },
      batchAnswerSchema,
    ),
    async (request) => {
      const account = accountOf(callerOf(request));
      const batch = await batchOf(account, request.params.id);
      const resend = alias(rvmCommand, 'resend');
      const failed = await db
        .select({ commandId: rvmCommand.id, ...targetColumns })
        .from(rvmCommand)
        .innerJoin(rvm, eq(rvm.id, rvmCommand.rvmId))
        .where(
          and(
            eq(rvmCommand.batchId, batch.id),
            eq(rvmCommand.licenseAccountId, account),
            inArray(rvmCommand.status, [...FAILED_STATUSES]),
            notExists(
              db
                .select({ one: sql`1` })
                .from(resend)
                .where(eq(resend.resendOf, rvmCommand.id)),
            ),
          ),
        );
      return ok(
        request,
        await queueBatch(services, request, request.log, {
          command: batch.command as RemoteCommand,
          params: (batch.params ?? {}) as Record<string, unknown>,
          targets: failed.map(({ id, termNo, termType }) => ({ id, termNo, termType })),
          resendOf: new Map(failed.map((row) => [row.id, row.commandId])),
          batch: { selection: { resendOf: batch.id } },
        }),
      );
    },
  );
};
