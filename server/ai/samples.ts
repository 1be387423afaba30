// Get samples (docs/ai-training.md "Get samples"): an operator collects machine pictures into the account's
// sample pool by machines or fleets, time range, item type, reject reason and model confidence. The run is a
// row in ai_sample_job (one running per account: its partial unique index answers 9100) that the periodic job
// works through in chunks, any instance taking it (`for update skip locked`), its progress on the row.
import { and, desc, eq, sql, type SQL } from 'drizzle-orm';
import { Type, type Static } from 'typebox';
import { MAX_SAMPLES_PER_RUN } from '../../resources/aiTraining';
import { ITEM_TYPES } from '../../resources/fleetCatalogue';
import { callerOf } from '../auth/guard';
import { rowsOf, type Db } from '../db/client';
import { aiSampleJob } from '../db/schema/aiTraining';
import { accountOf, fleetRoute, iso } from '../fleet/access';
import { ok } from '../lib/envelope';
import { AppError, pgErrorCode } from '../lib/errors';

const isUniqueViolation = (error: unknown) => pgErrorCode(error) === '23505';
import { Nullable, StrictObject, StringEnum, type TypedApp } from '../lib/typedApp';
import type { Services } from '../services';

export const SAMPLES_JOB = 'aiSamples';
const CHUNK = 500;
export const GET_SAMPLES_PERMISSION = 'service:getSamples';

export const SampleFilter = StrictObject({
  rvmIds: Type.Optional(Type.Array(Type.Integer({ minimum: 1, maximum: 2147483647 }), { maxItems: 1000 })),
  fleetIds: Type.Optional(Type.Array(Type.Integer({ minimum: 1, maximum: 2147483647 }), { maxItems: 200 })),
  from: Type.Optional(Nullable(Type.String({ format: 'date-time' }))),
  to: Type.Optional(Nullable(Type.String({ format: 'date-time' }))),
  itemTypes: Type.Optional(Type.Array(StringEnum([...ITEM_TYPES]), { maxItems: ITEM_TYPES.length })),
  /** 0 stands for accepted items (no reject reason). */
  rejectReasons: Type.Optional(Type.Array(Type.Integer({ minimum: 0, maximum: 999 }), { maxItems: 50 })),
  minConfidence: Type.Optional(Nullable(Type.Number({ minimum: 0, maximum: 1 }))),
  maxConfidence: Type.Optional(Nullable(Type.Number({ minimum: 0, maximum: 1 }))),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_SAMPLES_PER_RUN })),
});
export type SampleFilter = Static<typeof SampleFilter>;

/** The pictures a filter selects, of one account (alias `p`). */
export const pictureConditions = (account: number, filter: SampleFilter): SQL => {
  const conditions: SQL[] = [sql`p.license_account_id = ${account}`];
  const list = (values: readonly (number | string)[]) =>
    sql.join(
      values.map((value) => sql`${value}`),
      sql`, `,
    );
  if (filter.rvmIds?.length) conditions.push(sql`p.rvm_id in (${list(filter.rvmIds)})`);
  if (filter.fleetIds?.length) conditions.push(sql`p.rvm_id in (select r.id from rvm r where r.license_account_id = ${account} and r.fleet_id in (${list(filter.fleetIds)}))`);
  if (filter.from) conditions.push(sql`p.captured_time >= ${filter.from}`);
  if (filter.to) conditions.push(sql`p.captured_time < ${filter.to}`);
  if (filter.itemTypes?.length) conditions.push(sql`p.item_type in (${list(filter.itemTypes)})`);
  if (filter.rejectReasons?.length) conditions.push(sql`coalesce(p.reject_reason, 0) in (${list(filter.rejectReasons)})`);
  if (filter.minConfidence !== undefined && filter.minConfidence !== null) conditions.push(sql`p.confidence >= ${filter.minConfidence}`);
  if (filter.maxConfidence !== undefined && filter.maxConfidence !== null) conditions.push(sql`p.confidence <= ${filter.maxConfidence}`);
  return sql.join(conditions, sql` and `);
};

const jobAnswer = (row: typeof aiSampleJob.$inferSelect) => ({
  id: row.id,
  status: row.status,
  filter: row.filter,
  total: row.total,
  processed: row.processed,
  added: row.added,
  failure: row.failure,
  createdTime: iso(row.createdTime),
  finishedTime: iso(row.finishedTime),
});

/** Starts a run: its total counted now (at most the limit), its work done by the job. 9100 while one runs. */
export const startSampleJob = async (db: Db, account: number, userId: number | null, filter: SampleFilter) => {
  const limit = filter.limit ?? MAX_SAMPLES_PER_RUN;
  const [counted] = rowsOf<{ total: number }>(
    await db.execute(sql`select count(*)::int as total from (select 1 from ai_picture p where ${pictureConditions(account, filter)} limit ${limit}) x`),
  );
  try {
    const [row] = await db
      .insert(aiSampleJob)
      .values({ licenseAccountId: account, status: 'running', filter: { ...filter, limit }, total: Number(counted?.total ?? 0), createdBy: userId })
      .returning();
    return row;
  } catch (error) {
    if (isUniqueViolation(error)) throw new AppError('9100');
    throw error;
  }
};

/** One chunk of one running job (any account), in one transaction; false when there was none to do. */
export const advanceSampleJobs = async (db: Db): Promise<boolean> =>
  db.transaction(async (tx) => {
    const [job] = rowsOf<{ id: number; license_account_id: number; filter: SampleFilter & { limit: number }; processed: number; total: number; cursor: string | null }>(
      await tx.execute(sql`
        select id, license_account_id, filter, processed, total, cursor from ai_sample_job where status = 'running'
        order by id limit 1 for update skip locked`),
    );
    if (!job) return false;
    const remaining = Math.max(0, Math.min(job.total, job.filter.limit) - job.processed);
    const [step] = rowsOf<{ last: string | null; seen: number; added: number }>(
      await tx.execute(sql`
        with batch as (
          select p.id from ai_picture p where ${pictureConditions(job.license_account_id, job.filter)} and p.id > ${Number(job.cursor ?? 0)}
          order by p.id limit ${Math.min(CHUNK, remaining)}
        ), added as (
          insert into ai_sample (license_account_id, picture_id, job_id) select ${job.license_account_id}, id, ${job.id} from batch
          on conflict do nothing returning 1
        )
        select (select max(id) from batch)::text as last, (select count(*) from batch)::int as seen, (select count(*) from added)::int as added`),
    );
    const seen = Number(step?.seen ?? 0);
    const finished = seen === 0 || job.processed + seen >= Math.min(job.total, job.filter.limit);
    await tx.execute(sql`
      update ai_sample_job set processed = processed + ${seen}, added = added + ${Number(step?.added ?? 0)},
        cursor = coalesce(${step?.last ?? null}::bigint, cursor),
        status = ${finished ? 'done' : 'running'}, finished_time = ${finished ? sql`now()` : null}
      where id = ${job.id}`);
    return true;
  });

export const registerSampleRoutes = (app: TypedApp, { db, jobs }: Services) => {
  // a run takes ~CHUNK pictures per tick: 5,000 in ten ticks
  jobs.add({
    name: SAMPLES_JOB,
    everyMs: 1000,
    runAtStart: true,
    run: async () => {
      for (let chunk = 0; chunk < 4 && (await advanceSampleJobs(db)); chunk++);
    },
  });

  app.post(
    '/ai/sample/collect',
    fleetRoute('ai', 'Starts collecting machine pictures into the sample pool (a job with progress); 9100 while a run is going on', [GET_SAMPLES_PERMISSION], {
      body: SampleFilter,
    }),
    async (request) => {
      const caller = callerOf(request);
      const row = await startSampleJob(db, accountOf(caller), caller.principal.userId, request.body);
      return ok(request, jobAnswer(row));
    },
  );

  app.get('/ai/sample/jobs', fleetRoute('ai', 'The last get-samples runs of the account, newest first, with their progress', [GET_SAMPLES_PERMISSION], {}), async (request) => {
    const rows = await db
      .select()
      .from(aiSampleJob)
      .where(eq(aiSampleJob.licenseAccountId, accountOf(callerOf(request))))
      .orderBy(desc(aiSampleJob.id))
      .limit(20);
    return ok(request, rows.map(jobAnswer));
  });

  app.post('/ai/sample/preview', fleetRoute('ai', 'How many pictures a filter selects now, per item type', [GET_SAMPLES_PERMISSION], { body: SampleFilter }), async (request) => {
    const account = accountOf(callerOf(request));
    const rows = rowsOf<{ item_type: string; pictures: number; pooled: number }>(
      await db.execute(sql`
          select p.item_type, count(*)::int as pictures, count(s.id)::int as pooled from ai_picture p
          left join ai_sample s on s.picture_id = p.id and s.license_account_id = ${account}
          where ${pictureConditions(account, request.body)} group by p.item_type order by p.item_type`),
    );
    return ok(
      request,
      rows.map((row) => ({ itemType: row.item_type, pictures: Number(row.pictures), pooled: Number(row.pooled) })),
    );
  });
  void and;
};
