// Numbers of the dashboard in the console's language (Intl): counts, money in the account's currency,
// ratios as percentages, days as short dates.
import type { Locale } from '../../i18n';

const tag = (locale: Locale) => (locale === 'zh' ? 'zh-CN' : 'en-GB');

export const formatCount = (value: number | null | undefined, locale: Locale, fractionDigits = 0): string =>
  value === null || value === undefined ? '–' : new Intl.NumberFormat(tag(locale), { maximumFractionDigits: fractionDigits }).format(value);

export const formatCurrency = (value: number | null | undefined, currency: string, locale: Locale): string =>
  value === null || value === undefined ? '–' : new Intl.NumberFormat(tag(locale), { style: 'currency', currency }).format(value);

export const formatPercent = (value: number | null | undefined, locale: Locale): string =>
  value === null || value === undefined ? '–' : new Intl.NumberFormat(tag(locale), { style: 'percent', maximumFractionDigits: 1 }).format(value);

/** `YYYY-MM-DD` (a local day of the answer) as a short day, e.g. "23 Nov" / "11月23日". */
export const formatDay = (day: string, locale: Locale): string => {
  const [year, month, date] = day.split('-').map(Number);
  return new Intl.DateTimeFormat(tag(locale), { day: 'numeric', month: 'short', timeZone: 'UTC' }).format(new Date(Date.UTC(year, month - 1, date)));
};

export const formatTime = (iso: string, locale: Locale): string => new Intl.DateTimeFormat(tag(locale), { dateStyle: 'medium', timeStyle: 'short' }).format(new Date(iso));
