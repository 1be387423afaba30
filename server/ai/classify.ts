// Image classification (docs/ai-training.md#image-classification): what a trained model says about the
// samples of the pool. The model (an AI package a training task made) is run over the pool on a worker thread
// (classify.worker.ts) and its label and confidence per sample are stored in ai_prediction; the review pages
// through them (all, wrong ones, low confidence, by label) and counts them into a confusion matrix
// (confusion.ts). Corrections go through the labeling call (labeling.ts), which this screen may also use.
import { Readable } from 'node:stream';
import { sql } from 'drizzle-orm';
import { Type } from 'typebox';
import { CLASSIFY_CHUNK, CLASSIFY_SHOWN, LOW_CONFIDENCE } from '../../resources/aiTraining';
import { callerOf } from '../auth/guard';
import { rowsOf, type Db } from '../db/client';
import { aiPrediction } from '../db/schema/aiTraining';
import type { FileStorage } from '../files/storage';
import { accountOf, fleetRoute, iso, PAGE_PROPERTIES, pageOf, withPaging } from '../fleet/access';
import { ok } from '../lib/envelope';
import { AppError } from '../lib/errors';
import { RowId, StrictObject, StringEnum, type TypedApp } from '../lib/typedApp';
import { startWorkerThread } from '../lib/workerThread';
import type { Services } from '../services';
import { pictureInput } from './pictureInput';
import type { ClassifyJob, ClassifyMessage } from './classify.worker';
import { confusionOf, type PairCount } from './confusion';
import { labelsOf } from './labeling';

export const CLASSIFY_PERMISSION = 'service:imageClassify';

interface TrainedModel {
  packageId: number;
  name: string;
  version: string;
  taskId: number;
  accuracy: number | null;
  labels: string[];
  storageKey: string | null;
}

/** The account's models made by training tasks, newest first (another account's package is not among them). */
const trainedModels = async (db: Db, account: number, packageId?: number): Promise<TrainedModel[]> => {
  const rows = rowsOf<{ package_id: number; name: string; version: string; task_id: number; accuracy: number | null; labels: string[]; storage_key: string | null }>(
    await db.execute(sql`
      select p.id as package_id, p.name, p.version, t.id as task_id, t.accuracy, t.labels, f.storage_key
      from ai_training_task t join deployment_package p on p.id = t.package_id left join uploaded_file f on f.id = p.file_id
      where t.license_account_id = ${account} and p.license_account_id = ${account} and t.status = 'executionSucceeded'
        ${packageId === undefined ? sql`` : sql`and p.id = ${packageId}`}
      order by t.id desc`),
  );
  return rows.map((row) => ({
    packageId: Number(row.package_id),
    name: row.name,
    version: row.version,
    taskId: Number(row.task_id),
    accuracy: row.accuracy === null ? null : Number(row.accuracy),
    labels: row.labels,
    storageKey: row.storage_key,
  }));
};

const modelOf = async (db: Db, account: number, packageId: number) => {
  const [model] = await trainedModels(db, account, packageId);
  if (!model) throw new AppError('2003');
  return model;
};

const readAll = async (body: Readable) => {
  const chunks: Buffer[] = [];
  for await (const chunk of body) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
};

const classifyOnThread = (job: ClassifyJob) =>
  new Promise<Extract<ClassifyMessage, { type: 'done' }>>((resolve, reject) => {
    const worker = startWorkerThread(new URL('./classify.worker.js', import.meta.url), new URL('./classify.worker.ts', import.meta.url), null);
    const end = (settle: () => void) => void worker.terminate().finally(settle);
    worker.once('message', (message: ClassifyMessage) => end(() => (message.type === 'done' ? resolve(message) : reject(new Error(message.message)))));
    worker.once('error', (error) => end(() => reject(error)));
    worker.postMessage(job, [job.model.buffer as ArrayBuffer, ...job.inputs.map((input) => input.buffer as ArrayBuffer)]);
  });

/**
 * Runs the model over up to CLASSIFY_CHUNK pool samples it has no prediction for yet and stores its answers;
 * how many it predicted and how many are still left.
 */
export const classifyPool = async (db: Db, storage: FileStorage, account: number, packageId: number) => {
  const model = await modelOf(db, account, packageId);
  const pending = rowsOf<{ id: number; key: string }>(
    await db.execute(sql`
      select s.id, p.storage_key as key from ai_sample s join ai_picture p on p.id = s.picture_id
      where s.license_account_id = ${account}
        and not exists (select 1 from ai_prediction x where x.package_id = ${packageId} and x.sample_id = s.id)
      order by s.id limit ${CLASSIFY_CHUNK}`),
  );
  const modelBody = model.storageKey ? await storage.get(model.storageKey) : null;
  if (!modelBody) throw new AppError('2003');
  const modelFile = await readAll(modelBody);
  const ids: number[] = [];
  const inputs: Float32Array[] = [];
  for (const row of pending) {
    const body = await storage.get(row.key);
    if (!body) continue; // a picture whose bytes are gone is left out
    ids.push(Number(row.id));
    inputs.push(await pictureInput(await readAll(body)));
  }
  if (ids.length) {
    const { labels, guesses } = await classifyOnThread({ model: new Uint8Array(modelFile), inputs });
    await db
      .insert(aiPrediction)
      .values(guesses.map((guess, at) => ({ licenseAccountId: account, packageId, sampleId: ids[at], label: labels[guess.label], confidence: guess.confidence })))
      .onConflictDoNothing();
  }
  const [left] = rowsOf<{ left: number }>(
    await db.execute(sql`
      select count(*)::int as left from ai_sample s where s.license_account_id = ${account}
        and not exists (select 1 from ai_prediction x where x.package_id = ${packageId} and x.sample_id = s.id)`),
  );
  // pictures whose bytes are gone stay unpredicted: not counted as left, or the console would ask forever
  return { predicted: ids.length, remaining: Math.max(0, Number(left?.left ?? 0) - (pending.length - ids.length)) };
};

/** The confusion matrix of a model over the pool's labelled samples it has predictions for. */
export const confusionFor = async (db: Db, account: number, packageId: number) => {
  const model = await modelOf(db, account, packageId);
  const pairs = rowsOf<{ actual: string; predicted: string; count: number }>(
    await db.execute(sql`
      select s.label as actual, x.label as predicted, count(*)::int as count
      from ai_prediction x join ai_sample s on s.id = x.sample_id
      where x.package_id = ${packageId} and x.license_account_id = ${account} and s.label is not null
      group by s.label, x.label`),
  ).map((row): PairCount => ({ actual: row.actual, predicted: row.predicted, count: Number(row.count) }));
  const [counts] = rowsOf<{ pool: number; predicted: number }>(
    await db.execute(sql`
      select count(*)::int as pool, count(x.id)::int as predicted
      from ai_sample s left join ai_prediction x on x.sample_id = s.id and x.package_id = ${packageId}
      where s.license_account_id = ${account}`),
  );
  return { ...confusionOf(pairs, [...model.labels, ...(await labelsOf(db, account))]), pool: Number(counts?.pool ?? 0), predicted: Number(counts?.predicted ?? 0) };
};

const MODEL_ID = RowId({ description: 'The AI package a training task made (GET /ai/classify/models)' });

export const registerClassifyRoutes = (app: TypedApp, services: Services) => {
  const { db } = services;
  app.get('/ai/classify/models', fleetRoute('ai', 'The models training tasks made, newest first, with their held-out accuracy', [CLASSIFY_PERMISSION], {}), async (request) => {
    const models = await trainedModels(db, accountOf(callerOf(request)));
    return ok(
      request,
      models.map(({ storageKey: _key, ...model }) => model),
    );
  });

  app.post(
    '/ai/classify/run',
    fleetRoute('ai', `Runs a model over up to ${CLASSIFY_CHUNK} pool samples it has not seen yet (on a worker thread); ask again while \`remaining\` > 0`, [CLASSIFY_PERMISSION], {
      body: StrictObject({ packageId: MODEL_ID }),
    }),
    async (request) => {
      // the file storage is set up by the files plugin, after these routes are registered: read it per request
      const storage = services.fileStorage;
      if (!storage) throw new AppError('9602');
      return ok(request, await classifyPool(db, storage, accountOf(callerOf(request)), request.body.packageId));
    },
  );

  app.get(
    '/ai/classify/confusion',
    fleetRoute(
      'ai',
      'True label (rows) × predicted label (columns) over the labelled samples the model has predicted, with precision and recall per label',
      [CLASSIFY_PERMISSION],
      {
        querystring: Type.Object({ packageId: MODEL_ID }),
      },
    ),
    async (request) => ok(request, await confusionFor(db, accountOf(callerOf(request)), request.query.packageId)),
  );

  app.get(
    '/ai/classify/page',
    fleetRoute(
      'ai',
      `The pool samples with the model's label and confidence: all, wrong ones (labelled otherwise), or low confidence (below ${LOW_CONFIDENCE}, lowest first); \`label\` and \`predicted\` narrow it`,
      [CLASSIFY_PERMISSION],
      {
        querystring: Type.Object({
          packageId: MODEL_ID,
          shown: Type.Optional(StringEnum([...CLASSIFY_SHOWN])),
          label: Type.Optional(Type.String({ minLength: 1, maxLength: 32 })),
          predicted: Type.Optional(Type.String({ minLength: 1, maxLength: 32 })),
          ...PAGE_PROPERTIES,
        }),
      },
    ),
    async (request) => {
      const account = accountOf(callerOf(request));
      await modelOf(db, account, request.query.packageId);
      const query = withPaging(request.query);
      const where = sql.join(
        [
          sql`x.license_account_id = ${account} and x.package_id = ${query.packageId}`,
          ...(query.shown === 'wrong' ? [sql`s.label is not null and s.label <> x.label`] : []),
          ...(query.shown === 'lowConfidence' ? [sql`x.confidence < ${LOW_CONFIDENCE}`] : []),
          ...(query.label ? [sql`s.label = ${query.label}`] : []),
          ...(query.predicted ? [sql`x.label = ${query.predicted}`] : []),
        ],
        sql` and `,
      );
      const order = query.shown === 'lowConfidence' ? sql`x.confidence, s.id` : sql`s.id`;
      const [rows, totals] = await Promise.all([
        db.execute(sql`
          select s.id, s.label, x.label as predicted, x.confidence, u.name as labelled_by, p.captured_time, r.term_no
          from ai_prediction x join ai_sample s on s.id = x.sample_id join ai_picture p on p.id = s.picture_id join rvm r on r.id = p.rvm_id
            left join sys_user u on u.id = s.labelled_by
          where ${where} order by ${order} limit ${query.pageSize} offset ${(query.pageNum - 1) * query.pageSize}`),
        db.execute(sql`select count(*)::int as total from ai_prediction x join ai_sample s on s.id = x.sample_id where ${where}`),
      ]);
      type Row = { id: number; label: string | null; predicted: string; confidence: number; labelled_by: string | null; captured_time: Date | string; term_no: string };
      const list = rowsOf<Row>(rows).map((row) => ({
        id: Number(row.id),
        label: row.label,
        predicted: row.predicted,
        confidence: Number(row.confidence),
        labelledBy: row.labelled_by,
        capturedTime: iso(row.captured_time),
        termNo: row.term_no,
      }));
      return ok(request, pageOf(list, Number(rowsOf<{ total: number }>(totals)[0]?.total ?? 0), query));
    },
  );
};
