// `<html lang>` of the console language, in a module without the catalogues: the login page's
// language switch uses it too.
import type { Locale } from '../../i18n';

/** The `<html lang>` of a console language (BCP 47): screen readers pick their voice and rules by it. */
export const htmlLangOf = (locale: Locale): string => (locale === 'zh' ? 'zh-CN' : 'en');

/**
 * Says the page's language on the document (index.html starts as `en`): on load, for the stored
 * language, and again when the language is switched (before the reload that follows).
 */
export const applyDocumentLanguage = (locale: Locale, root: { lang: string } | undefined = globalThis.document?.documentElement) => {
  if (root) root.lang = htmlLangOf(locale);
};
