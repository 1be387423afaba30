// CSV (UTF-8 with BOM, so Excel opens Chinese) and XLSX exports of every filtered row (up to
// exportMaxRows), streamed batch by batch. Headers and enum values in the caller's language,
// references as their labels, files and images by their names, datetimes in the caller's local time.
import { PassThrough, Readable } from 'node:stream';
import { and, eq, inArray } from 'drizzle-orm';
import type { FastifyReply } from 'fastify';
import { translate, type Locale } from '../../i18n';
import { formatDuration, valueWithLabel } from '../../resources/display';
import type { Caller } from '../auth/principal';
import type { Db } from '../db/client';
import { uploadedFile } from '../db/schema/files';
import type { CrudDeps } from './routes';
import type { ResourceModel } from './model';
import { listingWhere, orderByOf } from './query';
import { labelsOf, readRecords, type WireRecord } from './records';

export interface ExportBody extends Record<string, unknown> {
  format: 'csv' | 'xlsx';
  sort?: string;
  order?: 'ASC' | 'DESC';
  utcOffsetMinutes?: number;
  /** Readable fields in the order to write them (validated by exportBodySchema). */
  columns?: string[];
}

const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

const pad = (value: number) => String(value).padStart(2, '0');

/** 'YYYY-MM-DD HH:mm:ss' at the caller's UTC offset (the console's display format). */
export const localDateTime = (iso: string, utcOffsetMinutes: number) => {
  const date = new Date(Date.parse(iso) + utcOffsetMinutes * 60_000);
  return `${date.getUTCFullYear()}-${pad(date.getUTCMonth() + 1)}-${pad(date.getUTCDate())} ${pad(date.getUTCHours())}:${pad(date.getUTCMinutes())}:${pad(date.getUTCSeconds())}`;
};

/** Quotes when needed; a leading = + - @ is neutralised so a spreadsheet never runs a cell as a formula. */
export const csvCell = (value: string) => {
  const safe = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
};

type Cell = string | number;

/** The model's own text (configured types), else the catalogue's. */
const textOf = (model: ResourceModel, locale: Locale, key: string) => model.texts?.(locale, key) ?? translate(locale, key);

/** `{ id -> name }` of the uploaded files of the caller's account among `ids` (what a file or image field shows). */
const fileNamesOf = async (db: Db, caller: Caller, ids: number[]): Promise<Map<number, string>> => {
  if (!ids.length) return new Map();
  const account = caller.principal.licenseAccountId;
  const rows = await db
    .select({ id: uploadedFile.id, name: uploadedFile.name })
    .from(uploadedFile)
    .where(and(inArray(uploadedFile.id, [...new Set(ids)]), account === null ? undefined : eq(uploadedFile.licenseAccountId, account)));
  return new Map(rows.map((row) => [row.id, row.name]));
};

const isFileField = (type: string) => type === 'file' || type === 'image';

/** Turns records into rows of display values, resolving reference labels and file names once per batch. */
const rowFormatter = (deps: CrudDeps, caller: Caller, model: ResourceModel, locale: Locale, columns: string[], utcOffsetMinutes: number) => {
  const { name, fields } = model.declaration;
  const labelFor = (key: string, fallback: string) => {
    const text = textOf(model, locale, key);
    return text === key ? fallback : text;
  };
  return async (records: WireRecord[]): Promise<Cell[][]> => {
    const labels = new Map<string, Map<number, string>>();
    const fileNames = new Map<string, Map<number, string>>();
    for (const column of columns) {
      const field = fields[column];
      if (isFileField(field.type)) {
        const ids = records.map((record) => record[column]).filter((id): id is number => typeof id === 'number');
        fileNames.set(column, await fileNamesOf(deps.db, caller, ids));
        continue;
      }
      if (!field.reference) continue;
      const ids = records.flatMap((record) => {
        const value = record[column];
        return (Array.isArray(value) ? value : [value]).filter((id): id is number => typeof id === 'number');
      });
      labels.set(column, await labelsOf(deps.db, deps.models, field.reference, ids));
    }
    return records.map((record) =>
      columns.map((column): Cell => {
        const value = record[column];
        const field = fields[column];
        if (value === null || value === undefined) return '';
        if (isFileField(field.type)) return fileNames.get(column)?.get(value as number) ?? String(value);
        if (field.reference) {
          const names = labels.get(column) ?? new Map<number, string>();
          return (Array.isArray(value) ? value : [value]).map((id) => names.get(id as number) ?? String(id)).join(', ');
        }
        if (field.type === 'enum') {
          // a value naming a resource (the audit log's): a configured type by its own label, singular
          const named = field.display === 'resourceName' ? deps.models.get(String(value))?.texts?.(locale, `resources.${String(value)}.name`) : undefined;
          const label = labelFor(`resources.${name}.enums.${column}.${String(value)}`, named?.split('||||')[0].trim() || String(value));
          return field.display === 'valueLabel' ? valueWithLabel(value, label) : label;
        }
        if (field.display === 'duration') return formatDuration(value);
        // booleans: the field's own labels if any, else Yes / No in the caller's language
        if (field.type === 'boolean') return labelFor(`resources.${name}.enums.${column}.${String(value)}`, labelFor(`generic.boolean.${String(value)}`, String(value)));
        if (field.type === 'datetime' && typeof value === 'string') return localDateTime(value, utcOffsetMinutes);
        return typeof value === 'number' ? value : String(value);
      }),
    );
  };
};

export const exportListing = async (deps: CrudDeps, caller: Caller, model: ResourceModel, body: ExportBody, reply: FastifyReply) => {
  const { name, list } = model.declaration;
  const locale = caller.locale;
  // the caller's visible columns in their order, else the declaration's list columns
  const columns = (body.columns ?? list.columns).filter((column) => model.readable.includes(column));
  const headers = columns.map((column) => textOf(model, locale, `resources.${name}.fields.${column}`));
  const where = listingWhere(model, caller, body);
  const orderBy = orderByOf(model, body.sort, body.order);
  const format = rowFormatter(deps, caller, model, locale, columns, body.utcOffsetMinutes ?? caller.principal.utcOffsetMinutes ?? 0);
  const cap = deps.config.exportMaxRows;
  const BATCH = deps.config.exportBatchRows;

  // The first batch is read before answering, so a failure still gets an envelope.
  const first = await readRecords(deps.db, model, { where, orderBy, limit: Math.min(BATCH, cap) });
  async function* batches() {
    let batch = first;
    for (let offset = 0; batch.length > 0;) {
      yield await format(batch);
      offset += batch.length;
      if (batch.length < BATCH || offset >= cap) return;
      batch = await readRecords(deps.db, model, { where, orderBy, limit: Math.min(BATCH, cap - offset), offset });
    }
  }

  const stamp = new Date().toISOString().replace(/[-:]/g, '').replace('T', '-').slice(0, 15);
  const filename = `${name}-${stamp}.${body.format}`;
  reply.header('content-disposition', `attachment; filename="${filename}"; filename*=UTF-8''${encodeURIComponent(filename)}`);

  if (body.format === 'csv') {
    async function* lines() {
      yield `\uFEFF${headers.map(csvCell).join(',')}\r\n`;
      for await (const rows of batches()) yield rows.map((row) => row.map((cell) => csvCell(String(cell))).join(',')).join('\r\n') + '\r\n';
    }
    return reply.type('text/csv; charset=utf-8').send(Readable.from(lines()));
  }

  // loaded on the first workbook: most starts (and every test server) never write one
  const { default: ExcelJS } = await import('exceljs');
  const stream = new PassThrough();
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({ stream, useStyles: false, useSharedStrings: false });
  const sheet = workbook.addWorksheet(textOf(model, locale, `resources.${name}.name`).split('||||')[0].trim().slice(0, 31) || name);
  void (async () => {
    sheet.addRow(headers).commit();
    for await (const rows of batches()) for (const row of rows) sheet.addRow(row).commit();
    sheet.commit();
    await workbook.commit();
  })().catch((error: unknown) => {
    reply.log.error({ err: error }, 'export failed while streaming');
    stream.destroy(error as Error);
  });
  return reply.type(XLSX_TYPE).send(stream);
};
