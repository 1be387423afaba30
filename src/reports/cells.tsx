// How the report table shows each column (the server's files label them the same way).
import type { Locale } from '../../i18n';
import { formatCount, formatPercent } from '../dashboard/format';
import type { ReportRow } from './types';

type Translate = (key: string, options?: Record<string, unknown>) => string;

export const columnLabel = (translate: Translate, column: string): string =>
  column.startsWith('material:') ? translate(`fleet.itemTypes.${column.slice('material:'.length)}`) : translate(`reports.columns.${column}`);

/** `YYYY-MM-DD` as the language's date (the answer's local day, no time zone shift). */
export const formatLocalDay = (day: string, locale: Locale): string => {
  const [year, month, date] = day.split('-').map(Number);
  return new Intl.DateTimeFormat(locale === 'zh' ? 'zh-CN' : 'en-GB', { dateStyle: 'medium', timeZone: 'UTC' }).format(new Date(Date.UTC(year, month - 1, date)));
};

export const cellText = (translate: Translate, locale: Locale, column: string, row: ReportRow): string => {
  const value = row[column];
  if (value === null || value === undefined) return column === 'barcode' ? translate('reports.file.noBarcode') : '–';
  switch (column) {
    case 'rejectRate':
      return formatPercent(Number(value), locale);
    case 'day':
      return formatLocalDay(String(value), locale);
    case 'reason':
      return `${value} ${translate(`fleet.rejectReasons.${value}`)}`;
    case 'itemType':
      return translate(`fleet.itemTypes.${value}`);
    case 'time':
    case 'termNo':
    case 'fleetName':
    case 'barcode':
      return String(value);
    default:
      return typeof value === 'number' ? formatCount(value, locale) : String(value);
  }
};

export const isNumeric = (column: string) => !['time', 'termNo', 'fleetName', 'barcode', 'itemType', 'reason', 'day'].includes(column);
