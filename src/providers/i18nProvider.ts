// ra-i18n-polyglot over react-admin's `ra.*` strings plus our catalogues (i18n/). The language is
// fixed for the page's lifetime: switching stores `lang` and reloads (SPEC section 4).
import polyglotI18nProvider from 'ra-i18n-polyglot';
import englishMessages from 'ra-language-english';
import type { I18nProvider, TranslationMessages } from 'ra-core';
import { catalogues, translate as translateCatalogue, type Locale } from '../../i18n';
import { raChinese } from '../i18n/raChinese';

export const AVAILABLE_LOCALES: Array<{ locale: Locale; name: string }> = [
  { locale: 'en', name: 'English' },
  { locale: 'zh', name: '中文' },
];

/** react-admin's strings and ours, merged at the top level (`ra` never clashes with our sections). */
export const messagesFor = (locale: Locale): TranslationMessages =>
  ({
    ...(locale === 'zh' ? raChinese : englishMessages),
    ...catalogues[locale],
  }) as unknown as TranslationMessages;

export const createI18nProvider = (locale: Locale): I18nProvider =>
  polyglotI18nProvider((requested) => messagesFor(requested === 'zh' ? 'zh' : 'en'), locale, AVAILABLE_LOCALES, {
    // A missing key renders as the key (or its `_` default) without a console warning per render.
    allowMissing: true,
  });

/** The catalogue translator for code outside React (http client): answers the key when missing. */
export const catalogueTranslator =
  (locale: Locale) =>
  (key: string, values?: Record<string, string | number>): string =>
    translateCatalogue(locale, key, values);
