// Number formats of the installation screens, in the console's language.
import type { Locale } from '../../i18n';

const tag = (locale: Locale) => (locale === 'zh' ? 'zh-CN' : 'en-GB');

/**
 * Refund values in the license account's currency (ISO 4217, the session's `currency`), e.g. "HK$0.80", with
 * the currency's own decimals; two decimals without a currency (a session stored before the server said it)
 * or with a code Intl does not know.
 */
export const formatMoney = (value: number | null | undefined, locale: Locale, currency?: string | null): string => {
  if (value === null || value === undefined) return '';
  if (currency) {
    try {
      return new Intl.NumberFormat(tag(locale), { style: 'currency', currency }).format(value);
    } catch {
      // a malformed code (RangeError): the plain number below
    }
  }
  return new Intl.NumberFormat(tag(locale), { minimumFractionDigits: 2, maximumFractionDigits: 2 }).format(value);
};

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
