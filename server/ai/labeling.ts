// Image labeling (docs/ai-training.md "Labeling"): the account's labels (names of digits, letters and
// underscores only), the sample pool page by page, labelling one or many samples at once (who and when kept),
// and the pool's counts per label.
import { and, asc, eq, inArray, isNull, sql } from 'drizzle-orm';
import { Type } from 'typebox';
import { DEFAULT_LABELS, isLabelName } from '../../resources/aiTraining';
import { callerOf } from '../auth/guard';
import { rowsOf, type Db } from '../db/client';
import { aiLabel, aiSample } from '../db/schema/aiTraining';
import { accountOf, fleetRoute, iso, PAGE_PROPERTIES, pageOf, withPaging } from '../fleet/access';
import { ok } from '../lib/envelope';
import { AppError, invalidField, pgErrorCode } from '../lib/errors';

const isUniqueViolation = (error: unknown) => pgErrorCode(error) === '23505';
import { Nullable, StrictObject, type TypedApp } from '../lib/typedApp';
import type { Services } from '../services';

export const LABELING_PERMISSION = 'service:imageLabeling';
/** Image classification corrects a sample's label where the model got it wrong (docs/ai-training.md#image-classification). */
const LABEL_WRITERS = [LABELING_PERMISSION, 'service:imageClassify'];
const POOL_READERS = [LABELING_PERMISSION, 'service:getSamples', 'service:imageClassify', 'service:trainingTask'];

/** docs/ai-training.md#labels */
export const checkLabelName = (field: string, name: string) => {
  if (!isLabelName(name)) throw invalidField(field, 'aiTraining.labelRule');
};

/** The account's labels in creation order; a new pool starts with the default ones. */
export const labelsOf = async (db: Db, account: number) => {
  let rows = await db.select().from(aiLabel).where(eq(aiLabel.licenseAccountId, account)).orderBy(asc(aiLabel.id));
  if (!rows.length) {
    await db
      .insert(aiLabel)
      .values(DEFAULT_LABELS.map((name) => ({ licenseAccountId: account, name })))
      .onConflictDoNothing();
    rows = await db.select().from(aiLabel).where(eq(aiLabel.licenseAccountId, account)).orderBy(asc(aiLabel.id));
  }
  return rows.map((row) => row.name);
};

export const labelCounts = async (db: Db, account: number) => {
  const rows = rowsOf<{ label: string | null; samples: number }>(
    await db.execute(sql`select label, count(*)::int as samples from ai_sample where license_account_id = ${account} group by label order by label nulls first`),
  );
  return rows.map((row) => ({ label: row.label, samples: Number(row.samples) }));
};

export const registerLabelingRoutes = (app: TypedApp, { db }: Services) => {
  app.get('/ai/label', fleetRoute('ai', "The account's labels (number keys pick them in this order) with the pool's counts per label", POOL_READERS, {}), async (request) => {
    const account = accountOf(callerOf(request));
    const [labels, counts] = [await labelsOf(db, account), await labelCounts(db, account)];
    return ok(request, { labels, counts });
  });

  app.post(
    '/ai/label',
    fleetRoute('ai', 'Adds a label: digits, letters and underscores only (1004); 2002 when the account has it already', [LABELING_PERMISSION], {
      body: StrictObject({ name: Type.String({ minLength: 1, maxLength: 32 }) }),
    }),
    async (request) => {
      const account = accountOf(callerOf(request));
      checkLabelName('name', request.body.name);
      await labelsOf(db, account);
      try {
        await db.insert(aiLabel).values({ licenseAccountId: account, name: request.body.name });
      } catch (error) {
        if (isUniqueViolation(error)) throw new AppError('2002');
        throw error;
      }
      return ok(request, await labelsOf(db, account));
    },
  );

  app.delete(
    '/ai/label',
    fleetRoute('ai', 'Removes a label; its samples become unlabelled', [LABELING_PERMISSION], { querystring: Type.Object({ name: Type.String({ minLength: 1, maxLength: 32 }) }) }),
    async (request) => {
      const account = accountOf(callerOf(request));
      await db.transaction(async (tx) => {
        await tx
          .update(aiSample)
          .set({ label: null, labelledBy: null, labelledTime: null })
          .where(and(eq(aiSample.licenseAccountId, account), eq(aiSample.label, request.query.name)));
        await tx.delete(aiLabel).where(and(eq(aiLabel.licenseAccountId, account), eq(aiLabel.name, request.query.name)));
      });
      return ok(request, await labelsOf(db, account));
    },
  );

  app.get(
    '/ai/sample/page',
    fleetRoute('ai', 'The sample pool, oldest first: all, unlabelled only (`unlabelled`), or of one label', POOL_READERS, {
      querystring: Type.Object({
        label: Type.Optional(Type.String({ maxLength: 32 })),
        unlabelled: Type.Optional(Type.Boolean()),
        ...PAGE_PROPERTIES,
      }),
    }),
    async (request) => {
      const account = accountOf(callerOf(request));
      const query = withPaging(request.query);
      const where = sql.join(
        [sql`s.license_account_id = ${account}`, ...(query.unlabelled ? [sql`s.label is null`] : []), ...(query.label && !query.unlabelled ? [sql`s.label = ${query.label}`] : [])],
        sql` and `,
      );
      const [rows, totals] = await Promise.all([
        db.execute(sql`
          select s.id, s.label, s.labelled_time, u.name as labelled_by, p.item_type, p.reject_reason, p.confidence, p.captured_time, r.term_no
          from ai_sample s join ai_picture p on p.id = s.picture_id join rvm r on r.id = p.rvm_id left join sys_user u on u.id = s.labelled_by
          where ${where} order by s.id limit ${query.pageSize} offset ${(query.pageNum - 1) * query.pageSize}`),
        db.execute(sql`select count(*)::int as total from ai_sample s where ${where}`),
      ]);
      type Row = {
        id: string | number;
        label: string | null;
        labelled_time: Date | string | null;
        labelled_by: string | null;
        item_type: string;
        reject_reason: number | null;
        confidence: number | null;
        captured_time: Date | string;
        term_no: string;
      };
      const list = rowsOf<Row>(rows).map((row) => ({
        id: Number(row.id),
        label: row.label,
        labelledBy: row.labelled_by,
        labelledTime: iso(row.labelled_time),
        itemType: row.item_type,
        rejectReason: row.reject_reason,
        confidence: row.confidence,
        capturedTime: iso(row.captured_time),
        termNo: row.term_no,
      }));
      return ok(request, pageOf(list, Number(rowsOf<{ total: number }>(totals)[0]?.total ?? 0), query));
    },
  );

  app.put(
    '/ai/sample/label',
    fleetRoute('ai', 'Labels samples (one or a selection) or, with `label` null, takes their label away; the caller is kept as who labelled them', LABEL_WRITERS, {
      body: StrictObject({
        ids: Type.Array(Type.Integer({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER }), { minItems: 1, maxItems: 1000 }),
        label: Nullable(Type.String({ minLength: 1, maxLength: 32 })),
      }),
    }),
    async (request) => {
      const caller = callerOf(request);
      const account = accountOf(caller);
      const { ids, label } = request.body;
      if (label !== null) {
        checkLabelName('label', label);
        if (!(await labelsOf(db, account)).includes(label)) throw invalidField('label', 'aiTraining.unknownLabel');
      }
      const updated = await db
        .update(aiSample)
        .set(label === null ? { label: null, labelledBy: null, labelledTime: null } : { label, labelledBy: caller.principal.userId, labelledTime: new Date() })
        .where(and(eq(aiSample.licenseAccountId, account), inArray(aiSample.id, ids)))
        .returning({ id: aiSample.id });
      return ok(request, { updated: updated.length, counts: await labelCounts(db, account) });
    },
  );
  void isNull;
};
