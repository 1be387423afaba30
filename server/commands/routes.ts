// Remote control routes (docs/ARCHITECTURE.md "Remote commands"): send a command to one machine,
// list, resend and cancel commands, download files machines uploaded. Batches, the live stream and
// the audit log have their own modules, registered from here. All need the RemoteControl permission
// and see the caller's license account only.
import { and, count, desc, eq, inArray, sql, type SQL } from 'drizzle-orm';
import { Type } from 'typebox';
import { COMMAND_STATUSES, PENDING_STATUSES, REMOTE_COMMANDS, RESENDABLE_STATUSES, type RemoteCommand } from '../../resources/commands';
import { callerOf } from '../auth/guard';
import { rvmCommand, rvmFile } from '../db/schema/liveFleet';
import { accountOf, findMachine, MACHINE_ID, PAGE_PROPERTIES, pageOf, withPaging } from '../fleet/access';
import { failureResponses, ok } from '../lib/envelope';
import { AppError } from '../lib/errors';
import { FileAnswer, Nullable, NullableStringEnum, StrictObject, type TypedApp } from '../lib/typedApp';
import type { Services } from '../services';
import { recordAudit, registerAuditRoutes } from './audit';
import { registerBatchRoutes } from './batch';
import { deliverInBackground, queueCommands, settleDeliveries } from './create';
import { commandRecordSchema, readCommands } from './records';
import { actorOf, checkedParams, COMMAND_PERMISSIONS, COMMAND_PROPERTY, commandOf, commandRoute as route, ID_PARAMS, PARAMS_PROPERTY } from './shared';
import { expireCommands } from './store';
import { registerCommandStream } from './stream';

export const registerCommandRoutes = (app: TypedApp, services: Services) => {
  const { db } = services;
  services.jobs.add({ name: 'expireCommands', everyMs: 30_000, run: (now) => expireCommands(services.db, now) });
  // Background deliveries of batches finish before the database closes.
  app.addHook('onClose', () => settleDeliveries(services));

  app.post(
    '/rvm/command',
    route(
      'Send a remote command to one machine: 8000 when its model lacks the command, 8001 when the same command went to it within COMMAND_REPEAT_SECONDS',
      { body: StrictObject({ rvmId: MACHINE_ID, command: COMMAND_PROPERTY, params: Type.Optional(PARAMS_PROPERTY) }) },
      commandRecordSchema,
    ),
    async (request) => {
      const caller = callerOf(request);
      const { rvmId, command } = request.body;
      const params = checkedParams(command, request.body.params);
      const machine = await findMachine(db, caller, rvmId);
      const actor = actorOf(caller);
      const outcome = await queueCommands(db, services, actor, { command, params, targets: [machine] });
      if (outcome.refused.length) throw new AppError(outcome.refused[0].code);
      await deliverInBackground(services, [rvmId], request.log);
      return ok(request, await commandOf(db, actor.account, outcome.queued[0].id));
    },
  );

  app.post(
    '/rvm/command/page',
    route(
      'Commands, newest first, filtered by machine, batch, status and command',
      {
        body: StrictObject({
          ...PAGE_PROPERTIES,
          rvmId: Type.Optional(Nullable(MACHINE_ID)),
          batchId: Type.Optional(Nullable(Type.Integer({ minimum: 1 }))),
          status: Type.Optional(NullableStringEnum(COMMAND_STATUSES)),
          command: Type.Optional(NullableStringEnum(REMOTE_COMMANDS)),
        }),
      },
      {
        type: 'object',
        properties: { list: { type: 'array', items: commandRecordSchema }, total: { type: 'integer' }, pageNum: { type: 'integer' }, pageSize: { type: 'integer' } },
      },
    ),
    async (request) => {
      const caller = callerOf(request);
      const body = withPaging(request.body);
      const account = accountOf(caller);
      if (body.rvmId) await findMachine(db, caller, body.rvmId);
      const where: SQL | undefined = and(
        eq(rvmCommand.licenseAccountId, account),
        body.rvmId ? eq(rvmCommand.rvmId, body.rvmId) : undefined,
        body.batchId ? eq(rvmCommand.batchId, body.batchId) : undefined,
        body.status ? eq(rvmCommand.status, body.status) : undefined,
        body.command ? eq(rvmCommand.command, body.command) : undefined,
      );
      const [list, [{ total }]] = await Promise.all([
        readCommands(db, where, { limit: body.pageSize, offset: (body.pageNum - 1) * body.pageSize }),
        db.select({ total: count() }).from(rvmCommand).where(where),
      ]);
      return ok(request, pageOf(list, Number(total), body));
    },
  );

  app.post(
    '/rvm/command/:id/resend',
    route('Send a failed or cancelled command again (a new command with resendOf); 5001 for other statuses', { params: ID_PARAMS }, commandRecordSchema),
    async (request) => {
      const caller = callerOf(request);
      const actor = actorOf(caller);
      const original = await commandOf(db, actor.account, request.params.id);
      if (!(RESENDABLE_STATUSES as readonly string[]).includes(original.status)) throw new AppError('5001');
      const machine = await findMachine(db, caller, original.rvmId);
      const outcome = await queueCommands(db, services, actor, {
        command: original.command as RemoteCommand,
        params: original.params,
        targets: [machine],
        resendOf: new Map([[machine.id, original.id]]),
      });
      if (outcome.refused.length) throw new AppError(outcome.refused[0].code);
      await deliverInBackground(services, [machine.id], request.log);
      return ok(request, await commandOf(db, actor.account, outcome.queued[0].id));
    },
  );

  app.post(
    '/rvm/command/:id/cancel',
    route(
      'Cancel a command that has not finished (notSent, sending, sent); 5001 for other statuses. A later answer of the machine is ignored',
      { params: ID_PARAMS },
      commandRecordSchema,
    ),
    async (request) => {
      const actor = actorOf(callerOf(request));
      const { id } = request.params;
      const cancelled = await db.transaction(async (tx) => {
        const [row] = await tx
          .update(rvmCommand)
          .set({ status: 'cancelled', statusReason: 'cancelled', finishedTime: new Date(), updatedTime: sql`now()` })
          .where(and(eq(rvmCommand.id, id), eq(rvmCommand.licenseAccountId, actor.account), inArray(rvmCommand.status, [...PENDING_STATUSES])))
          .returning({ id: rvmCommand.id, rvmId: rvmCommand.rvmId, batchId: rvmCommand.batchId, command: rvmCommand.command });
        if (!row) return false;
        await recordAudit(tx, actor, {
          action: 'command.cancel',
          target: { rvmIds: [row.rvmId], ...(row.batchId === null ? {} : { batchId: row.batchId }), commandIds: [row.id] },
          detail: { command: row.command },
          outcome: 'cancelled',
        });
        return true;
      });
      // Distinguish "not yours / no such command" (2003) from "already finished" (5001).
      const record = await commandOf(db, actor.account, id);
      if (!cancelled) throw new AppError('5001');
      return ok(request, record);
    },
  );

  app.get(
    '/rvm/file/:id',
    {
      config: { permissions: COMMAND_PERMISSIONS },
      schema: {
        tags: ['commands'],
        summary: "Download a file a machine uploaded (logs, diagnosis); 2003 when it is not the account's",
        description: `Needs one of: ${COMMAND_PERMISSIONS.join(', ')} (superAdmin passes). Answers the bytes with their content type and file name.`,
        security: [{ rvmToken: [] }],
        params: ID_PARAMS,
        response: { 200: FileAnswer(), ...failureResponses(true) },
      },
    },
    async (request, reply) => {
      const account = accountOf(callerOf(request));
      const [file] = await db
        .select()
        .from(rvmFile)
        .where(and(eq(rvmFile.id, request.params.id), eq(rvmFile.licenseAccountId, account)))
        .orderBy(desc(rvmFile.id))
        .limit(1);
      if (!file) throw new AppError('2003');
      const ascii = file.name.replace(/[^\x20-\x7e]|["\\]/g, '_');
      reply.header('content-disposition', `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(file.name)}`);
      // Machines chose the type: never let a browser sniff the bytes into something else.
      reply.header('x-content-type-options', 'nosniff');
      return reply.type(file.contentType).send(file.content);
    },
  );

  registerBatchRoutes(app, services);
  registerCommandStream(app, services);
  registerAuditRoutes(app, services);
};
