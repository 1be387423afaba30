// Training tasks (docs/ai-training.md "Training tasks"): create (basic model, a new model name that differs
// from it, type), list, detail with live progress, cancel. At most one unfinished task per account: its
// partial unique index makes a second one 9250 (9290 while the first is being cancelled), whatever instance
// takes the request. A task is queued for the trainers (server/ai/trainer.ts) in the transaction creating it.
import { and, desc, eq, sql } from 'drizzle-orm';
import { Type } from 'typebox';
import { AI_TASK_CANCELLABLE, AI_TASK_TYPES, MIN_TRAINING_SAMPLES, MODEL_NAME, type AiTaskStatus } from '../../resources/aiTraining';
import { callerOf } from '../auth/guard';
import { rowsOf, type Db } from '../db/client';
import { aiTrainingTask } from '../db/schema/aiTraining';
import { deploymentPackage } from '../db/schema/deployments';
import { accountOf, fleetRoute, iso, PAGE_PROPERTIES, pageOf, withPaging } from '../fleet/access';
import { ok } from '../lib/envelope';
import { AppError, invalidField, pgErrorCode } from '../lib/errors';
import { RowId, StrictObject, StringEnum, type TypedApp } from '../lib/typedApp';
import type { Services } from '../services';

export const TRAINING_PERMISSION = 'service:trainingTask';
export const NO_BASIC_MODEL = 'none';
const DEFAULT_EPOCHS = 10;

type TaskRow = typeof aiTrainingTask.$inferSelect;

export const taskAnswer = (row: TaskRow) => ({
  id: row.id,
  basicModel: row.basicModel,
  newModelName: row.newModelName,
  taskType: row.taskType,
  status: row.status,
  epochs: row.epochs,
  labels: row.labels,
  progress: row.progress,
  accuracy: row.accuracy,
  confusion: row.confusion,
  trainCount: row.trainCount,
  testCount: row.testCount,
  expectedRemainingSeconds: row.expectedRemainingSeconds,
  worker: row.worker,
  startedTime: iso(row.startedTime),
  completedTime: iso(row.completedTime),
  failure: row.failure,
  packageId: row.packageId,
  createdTime: iso(row.createdTime),
});

/** The refusal for a second task: 9290 while the unfinished one is being cancelled, else 9250. */
const busy = async (db: Db, account: number) => {
  const [row] = await db
    .select({ status: aiTrainingTask.status })
    .from(aiTrainingTask)
    .where(
      and(eq(aiTrainingTask.licenseAccountId, account), sql`${aiTrainingTask.status} in ('inPreparation', 'toBeSent', 'sending', 'sent', 'queuing', 'inProgress', 'canceling')`),
    )
    .limit(1);
  return row ? new AppError(row.status === 'canceling' ? '9290' : '9250') : null;
};

export interface NewTask {
  basicModel: string;
  newModelName: string;
  taskType: (typeof AI_TASK_TYPES)[number];
  epochs?: number;
}

/** Checks the rules of docs/ai-training.md#training-tasks and queues the task. */
export const createTask = async (db: Db, account: number, userId: number | null, body: NewTask) => {
  if (!MODEL_NAME.test(body.newModelName)) throw invalidField('newModelName', 'aiTraining.modelNameRule');
  if (body.newModelName === body.basicModel) throw invalidField('newModelName', 'aiTraining.sameModelName');
  const refusal = await busy(db, account);
  if (refusal) throw refusal;
  // the pool is being rebuilt while a get-samples run goes on: what it would train on is not settled yet
  const [running] = rowsOf<{ id: number }>(await db.execute(sql`select id from ai_sample_job where license_account_id = ${account} and status = 'running' limit 1`));
  if (running) throw new AppError('9280');
  // the built-in trainer trains image classifiers; no machine uploads what a motion model learns from
  const [pool] = rowsOf<{ samples: number; labels: number }>(
    await db.execute(sql`select count(*)::int as samples, count(distinct label)::int as labels from ai_sample where license_account_id = ${account} and label is not null`),
  );
  if (body.taskType === 'motion' || Number(pool?.samples ?? 0) < MIN_TRAINING_SAMPLES || Number(pool?.labels ?? 0) < 2) throw new AppError('9200');
  const [taken] = await db
    .select({ id: deploymentPackage.id })
    .from(deploymentPackage)
    .where(and(eq(deploymentPackage.licenseAccountId, account), eq(deploymentPackage.name, body.newModelName)));
  if (taken) throw invalidField('newModelName', 'aiTraining.modelNameTaken');
  try {
    return await db.transaction(async (tx) => {
      const [row] = await tx
        .insert(aiTrainingTask)
        .values({
          licenseAccountId: account,
          basicModel: body.basicModel,
          newModelName: body.newModelName,
          taskType: body.taskType,
          status: 'inPreparation',
          epochs: body.epochs ?? DEFAULT_EPOCHS,
          createdBy: userId,
        })
        .returning();
      // the built-in trainers read the pool themselves: nothing to send, straight to their queue
      const [queued] = await tx.update(aiTrainingTask).set({ status: 'queuing', updatedTime: new Date() }).where(eq(aiTrainingTask.id, row.id)).returning();
      return queued;
    });
  } catch (error) {
    if (pgErrorCode(error) === '23505') throw (await busy(db, account)) ?? new AppError('9250');
    throw error;
  }
};

/** Queued: canceled at once; in progress: canceling, until its trainer stops after the epoch. Else 5001. */
export const cancelTask = async (db: Db, account: number, id: number) => {
  const [row] = await db
    .select()
    .from(aiTrainingTask)
    .where(and(eq(aiTrainingTask.id, id), eq(aiTrainingTask.licenseAccountId, account)));
  if (!row) throw new AppError('2003');
  if (!AI_TASK_CANCELLABLE.includes(row.status as AiTaskStatus)) throw new AppError('5001');
  const next = row.status === 'inProgress' ? 'canceling' : 'canceled';
  const [updated] = await db
    .update(aiTrainingTask)
    .set({ status: next, updatedTime: new Date(), ...(next === 'canceled' ? { completedTime: new Date() } : {}) })
    .where(and(eq(aiTrainingTask.id, id), eq(aiTrainingTask.status, row.status)))
    .returning();
  if (!updated) throw new AppError('5001');
  return updated;
};

export const registerTaskRoutes = (app: TypedApp, { db }: Services) => {
  app.get(
    '/ai/training-task/page',
    fleetRoute('ai', "The account's training tasks, newest first", [TRAINING_PERMISSION], { querystring: Type.Object({ ...PAGE_PROPERTIES }) }),
    async (request) => {
      const account = accountOf(callerOf(request));
      const query = withPaging(request.query);
      const rows = await db
        .select()
        .from(aiTrainingTask)
        .where(eq(aiTrainingTask.licenseAccountId, account))
        .orderBy(desc(aiTrainingTask.id))
        .limit(query.pageSize)
        .offset((query.pageNum - 1) * query.pageSize);
      const [total] = rowsOf<{ total: number }>(await db.execute(sql`select count(*)::int as total from ai_training_task where license_account_id = ${account}`));
      return ok(request, pageOf(rows.map(taskAnswer), Number(total?.total ?? 0), query));
    },
  );

  app.get(
    '/ai/training-task/:id',
    fleetRoute('ai', 'One training task with its epochs so far; 2003 when not the caller’s', [TRAINING_PERMISSION], { params: Type.Object({ id: RowId() }) }),
    async (request) => {
      const [row] = await db
        .select()
        .from(aiTrainingTask)
        .where(and(eq(aiTrainingTask.id, request.params.id), eq(aiTrainingTask.licenseAccountId, accountOf(callerOf(request)))));
      if (!row) throw new AppError('2003');
      return ok(request, taskAnswer(row));
    },
  );

  app.get('/ai/basic-models', fleetRoute('ai', 'The models a task can start from: none, or an AI package of the account', [TRAINING_PERMISSION], {}), async (request) => {
    const account = accountOf(callerOf(request));
    const rows = await db
      .select({ name: deploymentPackage.name })
      .from(deploymentPackage)
      .where(and(eq(deploymentPackage.licenseAccountId, account), eq(deploymentPackage.resourceType, 'ai')))
      .orderBy(deploymentPackage.name);
    return ok(request, [NO_BASIC_MODEL, ...rows.map((row) => row.name)]);
  });

  app.post(
    '/ai/training-task',
    fleetRoute(
      'ai',
      'Queues a training task. 9250 while another is unfinished, 9290 while one is being cancelled, 9280 while a get-samples run goes on, 9200 without enough labelled samples (or for a motion model); the new model name must differ from the basic one (1004)',
      [TRAINING_PERMISSION],
      {
        body: StrictObject({
          basicModel: Type.String({ minLength: 1, maxLength: 64 }),
          newModelName: Type.String({ minLength: 1, maxLength: 64 }),
          taskType: StringEnum([...AI_TASK_TYPES]),
          epochs: Type.Optional(Type.Integer({ minimum: 1, maximum: 100 })),
        }),
      },
    ),
    async (request) => {
      const caller = callerOf(request);
      return ok(request, taskAnswer(await createTask(db, accountOf(caller), caller.principal.userId, request.body)));
    },
  );

  app.post(
    '/ai/training-task/:id/cancel',
    fleetRoute('ai', 'Cancels a task: queued ones at once, one in progress after its current epoch (canceling); 5001 when it is over', [TRAINING_PERMISSION], {
      params: Type.Object({ id: RowId() }),
    }),
    async (request) => ok(request, taskAnswer(await cancelTask(db, accountOf(callerOf(request)), request.params.id))),
  );
};
