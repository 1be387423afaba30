// ra-i18n-polyglot over react-admin's `ra.*` strings plus our catalogues (i18n/), both languages at
// hand (tests, tools). The console itself loads the catalogue of its language only (./consoleI18n.ts).
// The language is fixed for the page's lifetime: switching stores `lang` and reloads (docs/product-rules.md#sign-in-and-session).
import englishMessages from 'ra-language-english';
import type { I18nProvider, TranslationMessages } from 'ra-core';
import { catalogues, translate as translateCatalogue, type Locale } from '../../i18n';
import { raChinese } from '../i18n/raChinese';
import { createConsoleI18nProvider, mergeMessages } from './consoleI18n';

export { AVAILABLE_LOCALES } from './consoleI18n';
export { applyDocumentLanguage, htmlLangOf } from './documentLanguage';

/** react-admin's strings and ours, merged at the top level (`ra` never clashes with our sections). */
export const messagesFor = (locale: Locale): TranslationMessages => mergeMessages(catalogues[locale], locale === 'zh' ? raChinese : englishMessages);

export const createI18nProvider = (locale: Locale): I18nProvider => createConsoleI18nProvider(locale, messagesFor);

/** The catalogue translator for code outside React (http client): answers the key when missing. */
export const catalogueTranslator =
  (locale: Locale) =>
  (key: string, values?: Record<string, string | number>): string =>
    translateCatalogue(locale, key, values);
