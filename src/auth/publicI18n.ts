// The signed-out pages' translations: the catalogue sections they use (app, errors, validation)
// behind ra-core's I18nContext, without the rest of the catalogues, ra-i18n-polyglot, react-admin's
// `ra.*` strings or the resource registry (those come with the console after sign-in, see
// src/providers/i18nProvider.ts). Same rules: %{name} interpolation, English when a text is missing,
// `_` as the default text, else the key.
import type { I18nProvider } from 'ra-core';
import type { Locale } from '../../i18n';
import { app as enApp } from '../../i18n/en/app';
import { errors as enErrors } from '../../i18n/en/errors';
import { validation as enValidation } from '../../i18n/en/validation';
import { app as zhApp } from '../../i18n/zh/app';
import { errors as zhErrors } from '../../i18n/zh/errors';
import { validation as zhValidation } from '../../i18n/zh/validation';

const PUBLIC_CATALOGUES = {
  en: { app: enApp, errors: enErrors, validation: enValidation },
  zh: { app: zhApp, errors: zhErrors, validation: zhValidation },
} as const;

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

const interpolate = (text: string, values: Record<string, unknown>) =>
  text.replace(/%\{(\w+)\}/g, (match, name: string) => (name in values ? String(values[name]) : match));

/** The translator of the signed-out pages and of the http client's messages (`errors.*`, `app.http.*`). */
export const publicTranslator =
  (locale: Locale) =>
  (key: string, values: Record<string, unknown> = {}): string => {
    const text = lookup(PUBLIC_CATALOGUES[locale], key) ?? lookup(PUBLIC_CATALOGUES.en, key);
    if (text !== undefined) return interpolate(text, values);
    return typeof values._ === 'string' ? interpolate(values._, values) : key;
  };

export const createPublicI18nProvider = (locale: Locale): I18nProvider => ({
  translate: publicTranslator(locale),
  changeLocale: async () => undefined,
  getLocale: () => locale,
  getLocales: () => LOCALES,
});
