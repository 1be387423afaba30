// The signed-out pages' translations: the catalogue sections they use (app, errors, validation) of the
// page's language only (./publicTextsEn.ts or ./publicTextsZh.ts, a small chunk each: the entry carries
// neither, issue 8's login budget), behind ra-core's I18nContext, without the rest of the catalogues,
// ra-i18n-polyglot, react-admin's `ra.*` strings or the resource registry (those come with the console
// after sign-in, see src/providers/consoleI18n.ts). Same rules: %{name} interpolation, `_` as the default
// text, else the key. No English fallback is needed: the Chinese sections are typed against the English
// ones (i18n/types.ts), so neither lacks a text.
import type { I18nProvider } from 'ra-core';
import type { Locale } from '../../i18n';
import type { AppMessages } from '../../i18n/en';
import type { Catalogue } from '../../i18n/types';

export type PublicTexts = Catalogue<Pick<AppMessages, 'app' | 'errors' | 'validation'>>;

// One loader per language: written as one conditional import, the build would preload both languages' chunks.
const LOADERS: Record<Locale, () => Promise<{ texts: PublicTexts }>> = {
  en: () => import('./publicTextsEn'),
  zh: () => import('./publicTextsZh'),
};

const LOCALES = [
  { locale: 'en', name: 'English' },
  { locale: 'zh', name: '中文' },
];

const lookup = (tree: unknown, key: string): string | undefined => {
  let node: unknown = tree;
  for (const part of key.split('.')) {
    if (node === null || typeof node !== 'object') return undefined;
    node = (node as Record<string, unknown>)[part];
  }
  return typeof node === 'string' ? node : undefined;
};

const interpolate = (text: string, values: Record<string, unknown>) => text.replace(/%\{(\w+)\}/g, (match, name: string) => (name in values ? String(values[name]) : match));

/** The translator over `texts` (the signed-out pages' and the http client's keys: `errors.*`, `app.http.*`). */
export const publicTranslator =
  (texts: () => PublicTexts | undefined) =>
  (key: string, values: Record<string, unknown> = {}): string => {
    const text = lookup(texts(), key);
    if (text !== undefined) return interpolate(text, values);
    return typeof values._ === 'string' ? interpolate(values._, values) : key;
  };

export interface PublicI18n {
  /** Translates with the page language's texts (answers keys until `ready`). */
  translate: (key: string, values?: Record<string, unknown>) => string;
  provider: I18nProvider;
  /** The texts have arrived (src/main.tsx renders nothing before). */
  ready: Promise<void>;
}

/** Starts loading the texts of `locale` (fixed for the page's lifetime) and answers their translator. */
export const createPublicI18n = (locale: Locale): PublicI18n => {
  let texts: PublicTexts | undefined;
  const translate = publicTranslator(() => texts);
  const ready = LOADERS[locale]().then((module) => {
    texts = module.texts;
  });
  return {
    translate,
    ready,
    provider: { translate, changeLocale: async () => undefined, getLocale: () => locale, getLocales: () => LOCALES },
  };
};
