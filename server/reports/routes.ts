// The Reports screen's calls (docs/reports.md "The calls"): a report's figures, its file, generating
// and listing kept files. Every call needs the menu permission of reports › report and sees the
// caller's license account only (another account's fleet answers 2003, machine 6001, file 2003).
import { and, asc, count, desc, eq, ilike, inArray } from 'drizzle-orm';
import type { FastifyReply, FastifySchema } from 'fastify';
import { Type } from 'typebox';
import { findMenuById } from '../../resources/menu';
import { REPORT_FORMATS, REPORT_KINDS, REPORT_LIMITS, type ReportKind } from '../../resources/reports';
import { callerOf } from '../auth/guard';
import type { Caller } from '../auth/principal';
import type { Db } from '../db/client';
import { fleet, rvm } from '../db/schema/fleet';
import { sysUser } from '../db/schema/system';
import { generatedReport } from '../db/schema/reports';
import { accountOf, PAGE_PROPERTIES, pageSizeUpTo, withPaging } from '../fleet/access';
import { envelopeSchema, failureResponses, ok } from '../lib/envelope';
import { AppError } from '../lib/errors';
import { FileAnswer, RowId, StrictObject, type TypedApp } from '../lib/typedApp';
import type { Services } from '../services';
import { generateReport, produceReport } from './generate';
import { RenderCancelled } from './renderInWorker';
import { queryReport } from './query';

/** The menu's reports › report entry (resources/menu.ts, id 3 of docs/product-rules.md#menu-tree): its identifier guards every call. */
export const REPORT_PERMISSION = findMenuById(3)!.children.find((node) => node.key === 'report')!.identifier;
const PERMISSIONS = [REPORT_PERMISSION] as const;

interface SelectionBody {
  report: ReportKind;
  from: string;
  to: string;
  utcOffsetMinutes?: number;
  fleetIds?: number[];
  machineIds?: number[];
}
const ids = (description: string) => Type.Optional(Type.Array(RowId(), { maxItems: 1000, uniqueItems: true, description }));
const SELECTION = {
  report: Type.Enum(REPORT_KINDS, { description: 'volumes | volumesDaily | acceptedRejects | barcodeRejects (docs/reports.md)' }),
  from: Type.String({ format: 'date-time', description: 'ISO instant, inclusive; a whole hour' }),
  to: Type.String({ format: 'date-time', description: `ISO instant, exclusive; a whole hour, at most ${REPORT_LIMITS.maxRangeDays} days after from` }),
  utcOffsetMinutes: Type.Optional(
    Type.Integer({ minimum: -840, maximum: 840, multipleOf: 60, description: 'Local days are cut at this offset (default: the one sent at sign-in, else 0)' }),
  ),
  fleetIds: ids('Only machines of these fleets and their sub-fleets'),
  machineIds: ids('Only these machines'),
};
const FILE_BODY = StrictObject({ ...SELECTION, format: Type.Enum(REPORT_FORMATS) });

const rowSchema = { type: 'object', additionalProperties: true } as const;
const dataSchema = {
  type: 'object',
  properties: {
    report: { type: 'string' },
    from: { type: 'string' },
    to: { type: 'string' },
    utcOffsetMinutes: { type: 'integer' },
    total: { type: 'integer' },
    pageNum: { type: 'integer' },
    pageSize: { type: 'integer' },
    rows: { type: 'array', items: rowSchema },
    totals: rowSchema,
    chart: { type: 'array', items: rowSchema },
  },
} as const;
const generatedSchema = {
  type: 'object',
  properties: {
    id: { type: 'integer' },
    report: { type: 'string' },
    params: { type: 'object', additionalProperties: true },
    format: { type: 'string' },
    fileName: { type: 'string' },
    size: { type: 'integer' },
    createdTime: { type: 'string' },
    producedBy: {
      type: 'object',
      properties: { kind: { type: 'string' }, userId: { type: ['integer', 'null'] }, userName: { type: ['string', 'null'] }, subscriptionId: { type: ['integer', 'null'] } },
    },
  },
} as const;

/** `schema`: the request's TypeBox body, querystring or params (`{}` for none); `data` the answer's resData, null for a file. */
const route = <Schema extends FastifySchema>(summary: string, schema: Schema, data: Record<string, unknown> | null) => ({
  config: { permissions: PERMISSIONS },
  schema: {
    tags: ['reports'],
    summary,
    description: `Needs ${REPORT_PERMISSION} (superAdmin passes). Scoped to the caller's license account. Definitions: docs/reports.md.`,
    security: [{ rvmToken: [] }],
    ...schema,
    response: { 200: data ? envelopeSchema(data) : FileAnswer(), ...failureResponses(true) },
  },
});

/** Every fleet and machine asked for must be the account's: 2003 / 6001 otherwise. */
const checkSelection = async (db: Db, account: number, body: SelectionBody) => {
  if (body.fleetIds?.length) {
    const [found] = await db
      .select({ n: count() })
      .from(fleet)
      .where(and(eq(fleet.licenseAccountId, account), inArray(fleet.id, body.fleetIds)));
    if (Number(found.n) !== body.fleetIds.length) throw new AppError('2003');
  }
  if (body.machineIds?.length) {
    const [found] = await db
      .select({ n: count() })
      .from(rvm)
      .where(and(eq(rvm.licenseAccountId, account), inArray(rvm.id, body.machineIds)));
    if (Number(found.n) !== body.machineIds.length) throw new AppError('6001');
  }
};

const selectionOf = (caller: Caller, body: SelectionBody) => ({
  accountId: accountOf(caller),
  report: body.report,
  from: new Date(body.from),
  to: new Date(body.to),
  fleetIds: body.fleetIds,
  machineIds: body.machineIds,
  utcOffsetMinutes: body.utcOffsetMinutes ?? caller.principal.utcOffsetMinutes ?? 0,
});

const sendFile = (reply: FastifyReply, file: { fileName: string; contentType: string; content: Buffer }) => {
  const ascii = file.fileName.replace(/[^\x20-\x7e]|["\\]/g, '_');
  reply.header('content-disposition', `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(file.fileName)}`);
  reply.header('x-content-type-options', 'nosniff');
  return reply.type(file.contentType).send(file.content);
};

/**
 * Runs `produce` with a signal that aborts when the caller's connection closes before the answer (a
 * cancelled download): the render thread is ended and nothing is answered to nobody.
 */
const untilCallerLeaves = async <T>(reply: FastifyReply, produce: (signal: AbortSignal) => Promise<T>, answer: (result: T) => unknown) => {
  const controller = new AbortController();
  const closed = () => {
    if (!reply.raw.writableFinished) controller.abort();
  };
  reply.raw.once('close', closed);
  try {
    return answer(await produce(controller.signal));
  } catch (error) {
    if (!(error instanceof RenderCancelled)) throw error;
    reply.log.info('report file cancelled by its caller');
    return reply.hijack();
  } finally {
    reply.raw.off('close', closed);
  }
};

export const registerReportRoutes = (app: TypedApp, { db }: Services) => {
  app.post(
    '/report/data',
    route(
      "One report's figures: a page of rows (machine reports sorted, most first), totals of the whole selection and the chart series",
      {
        body: StrictObject({
          ...SELECTION,
          ...PAGE_PROPERTIES,
          pageSize: pageSizeUpTo(REPORT_LIMITS.maxPageSize),
          sort: Type.Optional(Type.String({ maxLength: 24 })),
        }),
      },
      dataSchema,
    ),
    async (request) => {
      const caller = callerOf(request);
      const body = withPaging(request.body);
      const selection = selectionOf(caller, body);
      await checkSelection(db, selection.accountId, body);
      const range = { from: selection.from, to: selection.to, utcOffsetMinutes: selection.utcOffsetMinutes };
      const page = { pageNum: body.pageNum, pageSize: body.pageSize, sort: body.sort };
      const data = await queryReport(db, selection.report, selection, range, page);
      return ok(request, {
        ...data,
        from: range.from.toISOString(),
        to: range.to.toISOString(),
        utcOffsetMinutes: range.utcOffsetMinutes,
        pageNum: page.pageNum,
        pageSize: page.pageSize,
      });
    },
  );

  app.post('/report/export', route("A report as a CSV (UTF-8 with BOM) or XLSX file in the request's language, not kept", { body: FILE_BODY }, null), async (request, reply) => {
    const caller = callerOf(request);
    const selection = selectionOf(caller, request.body);
    await checkSelection(db, selection.accountId, request.body);
    return untilCallerLeaves(
      reply,
      (signal) => produceReport({ db }, { ...selection, format: request.body.format, language: caller.locale }, signal),
      (file) => sendFile(reply, file),
    );
  });

  app.post(
    '/report/generate',
    route(
      'Produces a report file and keeps it as a generated report (produced by the caller)',
      { body: FILE_BODY },
      {
        type: 'object',
        properties: { id: { type: 'integer' }, fileName: { type: 'string' }, size: { type: 'integer' } },
      },
    ),
    async (request, reply) => {
      const caller = callerOf(request);
      const selection = selectionOf(caller, request.body);
      await checkSelection(db, selection.accountId, request.body);
      return untilCallerLeaves(
        reply,
        (signal) => generateReport({ db }, { ...selection, format: request.body.format, language: caller.locale, producedBy: { kind: 'user', userId: caller.userId } }, signal),
        (file) => ok(request, { id: file.id, fileName: file.fileName, size: file.content.length }),
      );
    },
  );

  app.get(
    '/report/fleets',
    route(
      'The fleets of the account for the fleet filter: [{ id, name, parentId, level }], by level and name',
      {},
      {
        type: 'array',
        items: { type: 'object', properties: { id: { type: 'integer' }, name: { type: 'string' }, parentId: { type: ['integer', 'null'] }, level: { type: 'integer' } } },
      },
    ),
    async (request) => {
      const account = accountOf(callerOf(request));
      const rows = await db
        .select({ id: fleet.id, name: fleet.name, parentId: fleet.parentId, level: fleet.level })
        .from(fleet)
        .where(eq(fleet.licenseAccountId, account))
        .orderBy(asc(fleet.level), asc(fleet.name));
      return ok(request, rows);
    },
  );

  app.get(
    '/report/machines',
    route(
      'Machines of the account for the machine filter (at most 50): [{ id, name }] by RVM number',
      { querystring: StrictObject({ nameLike: Type.Optional(Type.String({ maxLength: 32 })), ids: Type.Optional(Type.Array(RowId(), { maxItems: 50 })) }) },
      { type: 'array', items: { type: 'object', properties: { id: { type: 'integer' }, name: { type: 'string' } } } },
    ),
    async (request) => {
      const account = accountOf(callerOf(request));
      const { nameLike, ids: wanted } = request.query;
      const rows = await db
        .select({ id: rvm.id, name: rvm.termNo })
        .from(rvm)
        .where(
          and(
            eq(rvm.licenseAccountId, account),
            nameLike ? ilike(rvm.termNo, `%${nameLike.replace(/[\\%_]/g, (c) => `\\${c}`)}%`) : undefined,
            wanted?.length ? inArray(rvm.id, wanted) : undefined,
          ),
        )
        .orderBy(asc(rvm.termNo), asc(rvm.id))
        .limit(50);
      return ok(request, rows);
    },
  );

  app.post(
    '/report/generated/page',
    route(
      'The generated reports of the account, newest first, with who or what produced them',
      { body: StrictObject({ ...PAGE_PROPERTIES }) },
      {
        type: 'object',
        properties: { list: { type: 'array', items: generatedSchema }, total: { type: 'integer' }, pageNum: { type: 'integer' }, pageSize: { type: 'integer' } },
      },
    ),
    async (request) => {
      const account = accountOf(callerOf(request));
      const { pageNum, pageSize } = withPaging(request.body);
      const [rows, [total]] = await Promise.all([
        db
          .select({
            id: generatedReport.id,
            report: generatedReport.report,
            params: generatedReport.params,
            format: generatedReport.format,
            fileName: generatedReport.fileName,
            size: generatedReport.size,
            createdTime: generatedReport.createdTime,
            userId: generatedReport.producedByUserId,
            userName: sysUser.realname,
            subscriptionId: generatedReport.producedBySubscriptionId,
          })
          .from(generatedReport)
          .leftJoin(sysUser, eq(sysUser.id, generatedReport.producedByUserId))
          .where(eq(generatedReport.licenseAccountId, account))
          .orderBy(desc(generatedReport.createdTime), desc(generatedReport.id))
          .limit(pageSize)
          .offset((pageNum - 1) * pageSize),
        db.select({ n: count() }).from(generatedReport).where(eq(generatedReport.licenseAccountId, account)),
      ]);
      const list = rows.map(({ userId, userName, subscriptionId, createdTime, ...row }) => ({
        ...row,
        createdTime: createdTime.toISOString(),
        producedBy:
          subscriptionId !== null
            ? { kind: 'subscription', subscriptionId, userId: null, userName: null }
            : { kind: 'user', userId, userName: userName ?? null, subscriptionId: null },
      }));
      return ok(request, { list, total: Number(total.n), pageNum, pageSize });
    },
  );

  app.get(
    '/report/generated/:id/file',
    route("Download a generated report; 2003 when it is not the account's", { params: Type.Object({ id: RowId() }) }, null),
    async (request, reply) => {
      const account = accountOf(callerOf(request));
      const [row] = await db
        .select()
        .from(generatedReport)
        .where(and(eq(generatedReport.id, request.params.id), eq(generatedReport.licenseAccountId, account)))
        .limit(1);
      if (!row) throw new AppError('2003');
      return sendFile(reply, row);
    },
  );
};
