// ra-i18n-polyglot over react-admin's `ra.*` strings plus our catalogues (i18n/). The language is
// fixed for the page's lifetime: switching stores `lang` and reloads (SPEC section 4).
import polyglotI18nProvider from 'ra-i18n-polyglot';
import englishMessages from 'ra-language-english';
import type { I18nProvider, TranslationMessages } from 'ra-core';
import { catalogues, translate as translateCatalogue, type Locale } from '../../i18n';
import { raChinese } from '../i18n/raChinese';
import { RESOURCES } from '../../resources';
import { resourceNameOf } from '../generic/registry';

export const AVAILABLE_LOCALES: Array<{ locale: Locale; name: string }> = [
  { locale: 'en', name: 'English' },
  { locale: 'zh', name: '中文' },
];

/**
 * react-admin looks some labels up by resource name (`resources.<name>.name` in delete confirmations,
 * the empty page…), and a resource's name is its route (src/generic/registry.ts): alias each
 * declaration's labels under its route name too.
 */
const routeAliases = (labels: Record<string, unknown>) =>
  Object.fromEntries(RESOURCES.filter((declaration) => declaration.name in labels).map((declaration) => [resourceNameOf(declaration), labels[declaration.name]]));

/** react-admin's strings and ours, merged at the top level (`ra` never clashes with our sections). */
export const messagesFor = (locale: Locale): TranslationMessages => {
  const ours = catalogues[locale];
  const resources = ours.resources as Record<string, unknown>;
  return {
    ...(locale === 'zh' ? raChinese : englishMessages),
    ...ours,
    resources: { ...resources, ...routeAliases(resources) },
  } as unknown as TranslationMessages;
};

/** The `<html lang>` of a console language (BCP 47): screen readers pick their voice and rules by it. */
export const htmlLangOf = (locale: Locale): string => (locale === 'zh' ? 'zh-CN' : 'en');

/**
 * Says the page's language on the document (index.html starts as `en`): on load, for the stored
 * language, and again when the language is switched (before the reload that follows).
 */
export const applyDocumentLanguage = (locale: Locale, root: { lang: string } | undefined = globalThis.document?.documentElement) => {
  if (root) root.lang = htmlLangOf(locale);
};

export const createI18nProvider = (locale: Locale): I18nProvider => {
  const provider = polyglotI18nProvider((requested) => messagesFor(requested === 'zh' ? 'zh' : 'en'), locale, AVAILABLE_LOCALES, {
    // A missing key renders as the key (or its `_` default) without a console warning per render.
    allowMissing: true,
  });
  applyDocumentLanguage(locale);
  return {
    ...provider,
    changeLocale: async (next, options) => {
      await provider.changeLocale(next, options);
      applyDocumentLanguage(next === 'zh' ? 'zh' : 'en');
    },
  };
};

/** The catalogue translator for code outside React (http client): answers the key when missing. */
export const catalogueTranslator =
  (locale: Locale) =>
  (key: string, values?: Record<string, string | number>): string =>
    translateCatalogue(locale, key, values);
