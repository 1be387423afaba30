// Number formats of the installation screens, in the console's language.
import type { Locale } from '../../../i18n';

const tag = (locale: Locale) => (locale === 'zh' ? 'zh-CN' : 'en-GB');

/** Refund values: two decimals (the payout currency is the machine's, not shown by the server). */
export const formatMoney = (value: number | null | undefined, locale: Locale): string =>
  value === null || value === undefined ? '' : new Intl.NumberFormat(tag(locale), { minimumFractionDigits: 2, maximumFractionDigits: 2 }).format(value);

/** A ratio 0..1 as a whole percent. */
export const formatRatio = (value: number | null | undefined, locale: Locale): string =>
  value === null || value === undefined ? '' : new Intl.NumberFormat(tag(locale), { style: 'percent', maximumFractionDigits: 1 }).format(value);

/**
 * A period between two server times (`yyyy-MM-dd HH:mm:ss`): the end without its date when it falls on the start's
 * day, as most sessions do, so a list spends one column on it.
 */
export const formatPeriod = (start: string | null | undefined, end: string | null | undefined): string => {
  if (!start || !end) return start || end || '';
  const sameDay = start.length >= 10 && end.slice(0, 10) === start.slice(0, 10) && end.length > 11;
  return `${start} – ${sameDay ? end.slice(11) : end}`;
};
