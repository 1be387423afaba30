// AI training (docs/ai-training.md): item pictures machines upload, the sample pool collected from them by a
// get-samples job, the labels operators give them, and training tasks, which are also the trainers' job queue.
import { sql } from 'drizzle-orm';
import { bigint, index, integer, jsonb, pgTable, real, smallint, timestamp, uniqueIndex, varchar } from 'drizzle-orm/pg-core';
import { deploymentPackage } from './deployments';
import { rvm } from './fleet';
import { licenseAccount, sysUser } from './system';

const at = (name: string) => timestamp(name, { withTimezone: true });
const account = () =>
  integer('license_account_id')
    .notNull()
    .references(() => licenseAccount.id, { onDelete: 'cascade' });
const user = (name: string) => integer(name).references(() => sysUser.id, { onDelete: 'set null' });

/** A picture a machine took of an item it saw; the bytes are in the file storage under `storage_key`. */
export const aiPicture = pgTable(
  'ai_picture',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedByDefaultAsIdentity(),
    licenseAccountId: account(),
    rvmId: integer('rvm_id')
      .notNull()
      .references(() => rvm.id, { onDelete: 'cascade' }),
    /** The consumer session (its `sessionId` on the machine) and the item's `seq` in it. */
    sessionRef: varchar('session_ref', { length: 64 }).notNull(),
    seq: smallint('seq').notNull(),
    /** What the machine took the item for, its reject reason (null: accepted) and its model's confidence (0..1). */
    itemType: varchar('item_type', { length: 16 }).notNull(),
    rejectReason: smallint('reject_reason'),
    confidence: real('confidence'),
    storageKey: varchar('storage_key', { length: 200 }).notNull(),
    size: integer('size').notNull(),
    capturedTime: at('captured_time').notNull(),
    receivedTime: at('received_time').notNull().defaultNow(),
  },
  (t) => [uniqueIndex('ai_picture_item_uq').on(t.rvmId, t.sessionRef, t.seq), index('ai_picture_account_time_idx').on(t.licenseAccountId, t.capturedTime)],
);

/** A get-samples run: at most one runs per license account (the partial unique index answers 9100). */
export const aiSampleJob = pgTable(
  'ai_sample_job',
  {
    id: integer('id').primaryKey().generatedByDefaultAsIdentity(),
    licenseAccountId: account(),
    /** running | done | failed */
    status: varchar('status', { length: 16 }).notNull(),
    filter: jsonb('filter').notNull(),
    total: integer('total').notNull().default(0),
    processed: integer('processed').notNull().default(0),
    added: integer('added').notNull().default(0),
    /** The last picture id taken: the next chunk starts after it. */
    cursor: bigint('cursor', { mode: 'number' }),
    failure: varchar('failure', { length: 500 }),
    createdBy: user('created_by'),
    createdTime: at('created_time').notNull().defaultNow(),
    finishedTime: at('finished_time'),
  },
  (t) => [
    uniqueIndex('ai_sample_job_running_uq')
      .on(t.licenseAccountId)
      .where(sql`${t.status} = 'running'`),
  ],
);

/** A picture in the account's sample pool, with the label an operator gave it. */
export const aiSample = pgTable(
  'ai_sample',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedByDefaultAsIdentity(),
    licenseAccountId: account(),
    pictureId: bigint('picture_id', { mode: 'number' })
      .notNull()
      .references(() => aiPicture.id, { onDelete: 'cascade' }),
    jobId: integer('job_id').references(() => aiSampleJob.id, { onDelete: 'set null' }),
    label: varchar('label', { length: 32 }),
    labelledBy: user('labelled_by'),
    labelledTime: at('labelled_time'),
    addedTime: at('added_time').notNull().defaultNow(),
  },
  (t) => [uniqueIndex('ai_sample_picture_uq').on(t.licenseAccountId, t.pictureId), index('ai_sample_account_label_idx').on(t.licenseAccountId, t.label, t.id)],
);

/** The labels of an account's pool, in the order their number keys pick them. */
export const aiLabel = pgTable(
  'ai_label',
  {
    id: integer('id').primaryKey().generatedByDefaultAsIdentity(),
    licenseAccountId: account(),
    name: varchar('name', { length: 32 }).notNull(),
    createdTime: at('created_time').notNull().defaultNow(),
  },
  (t) => [uniqueIndex('ai_label_account_name_uq').on(t.licenseAccountId, t.name)],
);

/**
 * A training task, and the trainers' queue: a trainer claims the oldest `queuing` task with
 * `for update skip locked`, so each task is trained once whatever the number of trainers.
 */
export const aiTrainingTask = pgTable(
  'ai_training_task',
  {
    id: integer('id').primaryKey().generatedByDefaultAsIdentity(),
    licenseAccountId: account(),
    basicModel: varchar('basic_model', { length: 64 }).notNull(),
    newModelName: varchar('new_model_name', { length: 64 }).notNull(),
    /** classification | motion */
    taskType: varchar('task_type', { length: 16 }).notNull(),
    /** AI_TASK_STATUSES (resources/aiTraining.ts) */
    status: varchar('status', { length: 24 }).notNull(),
    epochs: integer('epochs').notNull(),
    /** The labels trained, in output order, and the samples per label. */
    labels: jsonb('labels').$type<string[]>().notNull().default([]),
    /** One entry per finished epoch: { epoch, loss, accuracy, seconds }. */
    progress: jsonb('progress').$type<Array<{ epoch: number; loss: number; accuracy: number; seconds: number }>>().notNull().default([]),
    accuracy: real('accuracy'),
    confusion: jsonb('confusion').$type<number[][]>(),
    trainCount: integer('train_count'),
    testCount: integer('test_count'),
    expectedRemainingSeconds: integer('expected_remaining_seconds'),
    worker: varchar('worker', { length: 64 }),
    heartbeatTime: at('heartbeat_time'),
    startedTime: at('started_time'),
    completedTime: at('completed_time'),
    failure: varchar('failure', { length: 500 }),
    packageId: integer('package_id').references(() => deploymentPackage.id, { onDelete: 'set null' }),
    createdBy: user('created_by'),
    createdTime: at('created_time').notNull().defaultNow(),
    updatedTime: at('updated_time').notNull().defaultNow(),
  },
  (t) => [
    // one unfinished task per account: a second one is 9250 (or 9290 while one is being cancelled)
    uniqueIndex('ai_training_task_active_uq')
      .on(t.licenseAccountId)
      .where(sql`${t.status} in ('inPreparation', 'toBeSent', 'sending', 'sent', 'queuing', 'inProgress', 'canceling')`),
    index('ai_training_task_queue_idx')
      .on(t.createdTime)
      .where(sql`${t.status} = 'queuing'`),
    index('ai_training_task_account_idx').on(t.licenseAccountId, t.createdTime),
  ],
);

/**
 * What a trained model (an AI package made by a training task) answered for a sample of the pool: its label and
 * confidence. Image classification reviews these and counts them into a confusion matrix (server/ai/classify.ts).
 */
export const aiPrediction = pgTable(
  'ai_prediction',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedByDefaultAsIdentity(),
    licenseAccountId: account(),
    packageId: integer('package_id')
      .notNull()
      .references(() => deploymentPackage.id, { onDelete: 'cascade' }),
    sampleId: bigint('sample_id', { mode: 'number' })
      .notNull()
      .references(() => aiSample.id, { onDelete: 'cascade' }),
    label: varchar('label', { length: 32 }).notNull(),
    confidence: real('confidence').notNull(),
    predictedTime: at('predicted_time').notNull().defaultNow(),
  },
  (t) => [uniqueIndex('ai_prediction_model_sample_uq').on(t.packageId, t.sampleId), index('ai_prediction_account_idx').on(t.licenseAccountId, t.packageId)],
);
