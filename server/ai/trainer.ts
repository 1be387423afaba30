// The training worker (docs/ai-training.md "Trainer"): takes the oldest queuing task from the database
// (`for update skip locked`: each task goes to one trainer, however many run on however many machines),
// reads the account's labelled samples from the file storage, trains on a worker thread (train.worker.ts)
// while writing each epoch's figures to the task, stops after the epoch in which the task was cancelled,
// and stores the model as an AI package (deployment_package, resource type `ai`). A trainer whose heartbeat
// stops (crash, machine gone) leaves its task to be queued again by any other.
import { createHash, randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import { Readable } from 'node:stream';
import type { Worker } from 'node:worker_threads';
import { and, eq, sql } from 'drizzle-orm';
import { rowsOf, type Db } from '../db/client';
import { aiTrainingTask } from '../db/schema/aiTraining';
import { deploymentPackage } from '../db/schema/deployments';
import { uploadedFile } from '../db/schema/files';
import type { FileStorage } from '../files/storage';
import { startWorkerThread } from '../lib/workerThread';
import type { LabelledInput } from './classifier';
import { pictureInput } from './pictureInput';
import type { TrainJob, TrainMessage } from './train.worker';

/** A task whose trainer said nothing for this long is queued again. */
export const STALE_AFTER_MS = 120_000;
export const HOLD_OUT = 0.2;

export interface TrainerOptions {
  db: Db;
  storage: FileStorage;
  name?: string;
  log?: (line: string) => void;
  /** Aborted when the trainer stops: the thread is ended and the task goes back to the queue. */
  signal?: AbortSignal;
}

type TaskRow = typeof aiTrainingTask.$inferSelect;

/** Claims the oldest queuing task (and first requeues those whose trainer went silent). */
export const claimTask = async (db: Db, worker: string): Promise<TaskRow | null> => {
  await db.execute(sql`
    update ai_training_task set status = 'queuing', worker = null, updated_time = now()
    where status = 'inProgress' and heartbeat_time < now() - ${`${STALE_AFTER_MS / 1000} seconds`}::interval`);
  await db.execute(sql`
    update ai_training_task set status = 'canceled', completed_time = now(), updated_time = now()
    where status = 'canceling' and (heartbeat_time is null or heartbeat_time < now() - ${`${STALE_AFTER_MS / 1000} seconds`}::interval)`);
  const [row] = rowsOf<{ id: number }>(
    await db.execute(sql`
      update ai_training_task set status = 'inProgress', worker = ${worker}, heartbeat_time = now(), started_time = now(), updated_time = now(),
        progress = '[]'::jsonb, expected_remaining_seconds = null
      where id = (select id from ai_training_task where status = 'queuing' order by created_time, id limit 1 for update skip locked)
      returning id`),
  );
  if (!row) return null;
  const [task] = await db.select().from(aiTrainingTask).where(eq(aiTrainingTask.id, row.id));
  return task ?? null;
};

const streamToBuffer = async (stream: Readable) => {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
};

/** The account's labelled samples, decoded, with their label names in a stable order. */
export const loadSamples = async (db: Db, storage: FileStorage, account: number) => {
  const rows = rowsOf<{ label: string; key: string }>(
    await db.execute(sql`
      select s.label, p.storage_key as key from ai_sample s join ai_picture p on p.id = s.picture_id
      where s.license_account_id = ${account} and s.label is not null order by s.id`),
  );
  const labels = [...new Set(rows.map((row) => row.label))].sort();
  const samples: LabelledInput[] = [];
  for (const row of rows) {
    const body = await storage.get(row.key);
    if (!body) continue; // a picture whose bytes are gone is left out
    samples.push({ input: await pictureInput(await streamToBuffer(body)), label: labels.indexOf(row.label) });
  }
  return { labels, samples };
};

const finish = (db: Db, id: number, values: Partial<typeof aiTrainingTask.$inferInsert>) =>
  db
    .update(aiTrainingTask)
    .set({ ...values, completedTime: new Date(), updatedTime: new Date(), expectedRemainingSeconds: 0 })
    .where(eq(aiTrainingTask.id, id));

/** Stores the model file and its AI package; the package id. */
const storeModel = async (db: Db, storage: FileStorage, task: TaskRow, file: Buffer) => {
  const key = `${task.licenseAccountId}/${randomUUID()}`;
  await storage.put(key, Readable.from([file]), 'application/json');
  const models = rowsOf<{ term_type: string }>(await db.execute(sql`select distinct term_type from rvm where license_account_id = ${task.licenseAccountId} order by 1`));
  return db.transaction(async (tx) => {
    const [stored] = await tx
      .insert(uploadedFile)
      .values({
        licenseAccountId: task.licenseAccountId,
        uploadedBy: task.createdBy,
        name: `${task.newModelName}.json`,
        mimeType: 'application/json',
        size: file.length,
        sha256: createHash('sha256').update(file).digest('hex'),
        storageKey: key,
        saved: true,
      })
      .returning({ id: uploadedFile.id });
    const [created] = await tx
      .insert(deploymentPackage)
      .values({
        licenseAccountId: task.licenseAccountId,
        name: task.newModelName,
        resourceType: 'ai',
        version: `1.0.${task.id}`,
        adaptedModels: models.map((row) => row.term_type).join(',') || 'any',
        file: stored.id,
        description: `Trained by task ${task.id} from ${task.basicModel}`,
        creator: task.createdBy,
        lastEditor: task.createdBy,
      })
      .returning({ id: deploymentPackage.id });
    return created.id;
  });
};

const STOPPED = 'trainer stopped';

const trainOnThread = (job: TrainJob, onEpoch: (message: Extract<TrainMessage, { type: 'epoch' }>) => Promise<boolean>, signal?: AbortSignal) =>
  new Promise<Extract<TrainMessage, { type: 'done' }>>((resolve, reject) => {
    const worker: Worker = startWorkerThread(new URL('./train.worker.js', import.meta.url), new URL('./train.worker.ts', import.meta.url), null);
    const onAbort = () => end(() => reject(new Error(STOPPED)));
    const end = (settle: () => void) => {
      signal?.removeEventListener('abort', onAbort);
      void worker.terminate();
      settle();
    };
    signal?.addEventListener('abort', onAbort, { once: true });
    worker.on('message', (message: TrainMessage) => {
      if (message.type === 'epoch')
        void onEpoch(message).then(
          (stop) => stop && worker.postMessage({ type: 'stop' }),
          () => undefined,
        );
      else if (message.type === 'done') end(() => resolve(message));
      else end(() => reject(new Error(message.message)));
    });
    worker.on('error', (error) => end(() => reject(error)));
    worker.postMessage(
      { type: 'train', job },
      job.samples.map((sample) => sample.input.buffer as ArrayBuffer),
    );
  });

/** Trains one claimed task to its end (succeeded, failed or canceled). */
export const runTask = async ({ db, storage, log, signal }: TrainerOptions, task: TaskRow) => {
  try {
    const { labels, samples } = await loadSamples(db, storage, task.licenseAccountId);
    if (labels.length < 2 || samples.length < 10) {
      await finish(db, task.id, { status: 'executionFailed', failure: 'Not enough labelled samples (at least two labels are needed)' });
      return;
    }
    await db.update(aiTrainingTask).set({ labels, updatedTime: new Date() }).where(eq(aiTrainingTask.id, task.id));
    const progress: NonNullable<TaskRow['progress']> = [];
    const outcome = await trainOnThread(
      { samples, labels, epochs: task.epochs, holdOut: HOLD_OUT, meta: { taskId: task.id, basicModel: task.basicModel } },
      async (epoch) => {
        progress.push({ epoch: epoch.epoch, loss: epoch.loss, accuracy: epoch.accuracy, seconds: epoch.seconds });
        const remaining = Math.round((epoch.seconds / epoch.epoch) * (epoch.epochs - epoch.epoch));
        const [row] = await db
          .update(aiTrainingTask)
          .set({ progress, expectedRemainingSeconds: remaining, heartbeatTime: new Date(), updatedTime: new Date() })
          .where(eq(aiTrainingTask.id, task.id))
          .returning({ status: aiTrainingTask.status });
        log?.(`task ${task.id}: epoch ${epoch.epoch}/${epoch.epochs} loss ${epoch.loss.toFixed(3)} accuracy ${epoch.accuracy.toFixed(3)}`);
        return row?.status === 'canceling';
      },
      signal,
    );
    const figures = { accuracy: outcome.accuracy, confusion: outcome.confusion, trainCount: outcome.trainCount, testCount: outcome.testCount };
    if (outcome.stopped) {
      await finish(db, task.id, { status: 'canceled', ...figures });
      return;
    }
    const packageId = await storeModel(db, storage, task, Buffer.from(outcome.file));
    await db
      .update(aiTrainingTask)
      .set({ status: 'executionSucceeded', packageId, ...figures, completedTime: new Date(), updatedTime: new Date(), expectedRemainingSeconds: 0 })
      .where(and(eq(aiTrainingTask.id, task.id), sql`${aiTrainingTask.status} in ('inProgress', 'canceling')`));
    log?.(`task ${task.id}: held-out accuracy ${(outcome.accuracy * 100).toFixed(1)} %, package ${packageId}`);
  } catch (error) {
    const message = String((error as Error)?.message ?? error).slice(0, 500);
    if (message === STOPPED) {
      // another trainer takes it from the start (a cancel asked meanwhile still holds)
      await db.execute(
        sql`update ai_training_task set status = case when status = 'canceling' then 'canceled' else 'queuing' end, worker = null, updated_time = now() where id = ${task.id}`,
      );
      return;
    }
    log?.(`task ${task.id} failed: ${message}`);
    await finish(db, task.id, { status: 'executionFailed', failure: message });
  }
};

/** Takes and trains tasks until stopped; polls every `everyMs` while the queue is empty. */
export const startTrainer = (options: TrainerOptions & { everyMs?: number }) => {
  const name = options.name ?? `${hostname()}:${process.pid}`;
  const abort = new AbortController();
  let stopped = false;
  let wake: (() => void) | undefined;
  const loop = (async () => {
    while (!stopped) {
      const task = await claimTask(options.db, name).catch((error: unknown) => {
        options.log?.(`claim failed: ${String(error)}`);
        return null;
      });
      if (task) await runTask({ ...options, signal: abort.signal }, task);
      else await new Promise<void>((resolve) => ((wake = resolve), setTimeout(resolve, options.everyMs ?? 2000).unref()));
    }
  })();
  return {
    name,
    async stop() {
      stopped = true;
      abort.abort();
      wake?.();
      await loop;
    },
  };
};
