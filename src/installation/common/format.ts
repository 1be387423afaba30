// Number formats of the installation screens, in the console's language.
import type { Locale } from '../../../i18n';

const tag = (locale: Locale) => (locale === 'zh' ? 'zh-CN' : 'en-GB');

/** Refund values: two decimals (the payout currency is the machine's, not shown by the server). */
export const formatMoney = (value: number | null | undefined, locale: Locale): string =>
  value === null || value === undefined ? '' : new Intl.NumberFormat(tag(locale), { minimumFractionDigits: 2, maximumFractionDigits: 2 }).format(value);

/** A ratio 0..1 as a whole percent. */
export const formatRatio = (value: number | null | undefined, locale: Locale): string =>
  value === null || value === undefined ? '' : new Intl.NumberFormat(tag(locale), { style: 'percent', maximumFractionDigits: 1 }).format(value);
