// Display formats (docs/ARCHITECTURE.md#console-http-client): date-times as 'YYYY-MM-DD HH:mm:ss' in local time. The http
// client already converts ISO strings in answers; this also covers values that bypassed it.
import { format, isValid, parseISO } from 'date-fns';

const SHOWN_DATE_TIME = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/;

export const formatDateTime = (value: unknown): string => {
  if (value === null || value === undefined || value === '') return '';
  if (typeof value === 'string' && SHOWN_DATE_TIME.test(value)) return value;
  const date = value instanceof Date ? value : typeof value === 'number' ? new Date(value) : parseISO(String(value));
  return isValid(date) ? format(date, 'yyyy-MM-dd HH:mm:ss') : String(value);
};

export const formatDate = (value: unknown): string => formatDateTime(value).slice(0, 10);

/** Bytes as a short human figure (export progress when the size is unknown). */
export const formatBytes = (bytes: number): string => {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
};

/** Whole percent of a download, or null when the total size is unknown. */
export const percentOf = (loaded: number, total?: number): number | null => (total && total > 0 ? Math.min(100, Math.round((loaded / total) * 100)) : null);

/** A number with exactly `digits` decimals (a record's own, e.g. a refund's `decimals`), in the browser's number format as NumberField shows it. */
export const formatScaled = (value: unknown, digits: unknown): string => {
  if (value === null || value === undefined || value === '' || !Number.isFinite(Number(value))) return '';
  const places = typeof digits === 'number' && Number.isInteger(digits) && digits >= 0 && digits <= 20 ? digits : undefined;
  return new Intl.NumberFormat(undefined, places === undefined ? undefined : { minimumFractionDigits: places, maximumFractionDigits: places }).format(Number(value));
};
