// Renders one report as a CSV or XLSX file and stores it as a generated report (docs/reports.md).
// Called by the report screen's "Generate" and by the notification scheduler (subscriptions).
import { translate, type Locale } from '../../i18n';
import { REPORT_COLUMNS, REPORT_NAMES, type ReportFormat, type ReportKind } from '../../resources/reports';
import { csvCell, localDateTime } from '../crud/export';
import { generatedReport } from '../db/schema/reports';
import type { Services } from '../services';
import { queryReport, type ReportData, type ReportRange, type ReportScope } from './query';
import { renderInWorker } from './renderInWorker';

export type { ReportFormat, ReportKind } from '../../resources/reports';
export type ReportProducer = { kind: 'user'; userId: number } | { kind: 'subscription'; subscriptionId: number };

export interface GenerateReportInput {
  accountId: number;
  report: ReportKind;
  from: Date;
  to: Date;
  fleetIds?: number[];
  machineIds?: number[];
  format: ReportFormat;
  language: 'en' | 'zh';
  producedBy: ReportProducer;
  /** Local days and times of the file (default 0 = UTC; the screen sends the browser's). */
  utcOffsetMinutes?: number;
}

export interface GeneratedReportFile {
  id: number;
  fileName: string;
  contentType: string;
  content: Buffer;
}

export interface RenderedReport {
  fileName: string;
  contentType: string;
  content: Buffer;
}

export const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
export const CSV_TYPE = 'text/csv; charset=utf-8';

/** A column's header in the file's language. */
export const columnLabel = (locale: Locale, column: string): string => {
  if (column.startsWith('material:')) return translate(locale, `fleet.itemTypes.${column.slice('material:'.length)}`);
  return translate(locale, `reports.columns.${column}`);
};

type Cell = string | number | null;

/** A row as file cells: numbers stay numbers (spreadsheets sum them), codes become labels. */
const cellsOf = (locale: Locale, columns: readonly string[], row: Record<string, unknown>, offset: number): Cell[] =>
  columns.map((column) => {
    const value = row[column];
    if (value === null || value === undefined) return column === 'barcode' ? translate(locale, 'reports.file.noBarcode') : '';
    if (column === 'time') return localDateTime(String(value), offset);
    if (column === 'reason') return `${value} ${translate(locale, `fleet.rejectReasons.${value}`)}`;
    if (column === 'itemType') return translate(locale, `fleet.itemTypes.${value}`);
    if (column === 'rejectRate') return Math.round(Number(value) * 10_000) / 100; // percent, 2 decimals
    return typeof value === 'number' ? value : String(value);
  });

/** Header, the rows, then a total row (reports that have one). */
export const tableOf = (locale: Locale, data: ReportData, offset: number): { header: string[]; rows: Cell[][] } => {
  const columns = REPORT_COLUMNS[data.report];
  const header = columns.map((column) => (column === 'rejectRate' ? `${columnLabel(locale, column)} (%)` : columnLabel(locale, column)));
  const rows = data.rows.map((row) => cellsOf(locale, columns, row, offset));
  if (data.report !== 'barcodeRejects') {
    const total = cellsOf(locale, columns, data.totals, offset);
    total[0] = translate(locale, 'reports.totalRow');
    rows.push(total);
  }
  return { header, rows };
};

const localDay = (date: Date, offset: number) => localDateTime(date.toISOString(), offset).slice(0, 10);

/** The file name: `<report name>_<first local day>_<last local day>.<format>`. */
export const fileNameOf = (report: ReportKind, range: ReportRange, format: ReportFormat) =>
  `${REPORT_NAMES[report]}_${localDay(range.from, range.utcOffsetMinutes)}_${localDay(new Date(range.to.getTime() - 1), range.utcOffsetMinutes)}.${format}`;

/** The file bytes of a report's figures. */
export const renderReport = async (data: ReportData, range: ReportRange, format: ReportFormat, locale: Locale): Promise<RenderedReport> => {
  const { header, rows } = tableOf(locale, data, range.utcOffsetMinutes);
  const fileName = fileNameOf(data.report, range, format);
  if (format === 'csv') {
    const lines = [header, ...rows].map((row) => row.map((cell) => csvCell(cell === null ? '' : String(cell))).join(','));
    return { fileName, contentType: CSV_TYPE, content: Buffer.from(`\uFEFF${lines.join('\r\n')}\r\n`, 'utf8') };
  }
  const { default: ExcelJS } = await import('exceljs'); // loaded on the first workbook, not at the server's start
  const workbook = new ExcelJS.Workbook();
  const sheet = workbook.addWorksheet(translate(locale, 'reports.file.sheet'));
  sheet.addRow(header).font = { bold: true };
  for (const row of rows) sheet.addRow(row);
  sheet.columns.forEach((column) => (column.width = 18));
  sheet.views = [{ state: 'frozen', ySplit: 1 }];
  return { fileName, contentType: XLSX_TYPE, content: Buffer.from(await workbook.xlsx.writeBuffer()) };
};

/** Every row of a report (no paging), rendered off the request loop. 9300/9301/9302 as the screen's calls. */
export const produceReport = async (services: Pick<Services, 'db'>, input: Omit<GenerateReportInput, 'producedBy'>, signal?: AbortSignal): Promise<RenderedReport> => {
  const scope: ReportScope = { accountId: input.accountId, fleetIds: input.fleetIds, machineIds: input.machineIds };
  const range: ReportRange = { from: input.from, to: input.to, utcOffsetMinutes: input.utcOffsetMinutes ?? 0 };
  const data = await queryReport(services.db, input.report, scope, range, null);
  return renderInWorker({ data, range, format: input.format, locale: input.language }, signal);
};

/**
 * Produces the report and stores it as a generated report of the account. The caller has checked
 * that the fleets and machines are the account's (a foreign id only ever selects nothing here).
 */
export async function generateReport(services: Pick<Services, 'db'>, input: GenerateReportInput, signal?: AbortSignal): Promise<GeneratedReportFile> {
  const file = await produceReport(services, input, signal);
  const [row] = await services.db
    .insert(generatedReport)
    .values({
      licenseAccountId: input.accountId,
      report: input.report,
      params: {
        from: input.from.toISOString(),
        to: input.to.toISOString(),
        fleetIds: input.fleetIds ?? [],
        machineIds: input.machineIds ?? [],
        language: input.language,
        utcOffsetMinutes: input.utcOffsetMinutes ?? 0,
      },
      format: input.format,
      fileName: file.fileName,
      contentType: file.contentType,
      content: file.content,
      size: file.content.length,
      producedByUserId: input.producedBy.kind === 'user' ? input.producedBy.userId : null,
      producedBySubscriptionId: input.producedBy.kind === 'subscription' ? input.producedBy.subscriptionId : null,
    })
    .returning({ id: generatedReport.id });
  return { id: row.id, ...file };
}
