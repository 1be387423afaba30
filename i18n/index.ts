// Both catalogues and a tiny framework-free translator (used by the server; the console uses
// ra-i18n-polyglot over the same catalogues plus react-admin's own `ra.*` strings).
import { en } from './en';
import { zh } from './zh';

export type Locale = 'en' | 'zh';
export const LOCALES: readonly Locale[] = ['en', 'zh'];
export const catalogues = { en, zh } as const;

const lookup = (tree: unknown, key: string): string | undefined => {
  let node: unknown = tree;
  for (const part of key.split('.')) {
    if (node === null || typeof node !== 'object') return undefined;
    node = (node as Record<string, unknown>)[part];
  }
  return typeof node === 'string' ? node : undefined;
};

/** Translates `key` (e.g. 'errors.6'); interpolates %{name}; falls back to English, then the key. */
export const translate = (locale: Locale, key: string, values: Record<string, string | number> = {}): string => {
  const text = lookup(catalogues[locale], key) ?? lookup(catalogues.en, key) ?? key;
  return text.replace(/%\{(\w+)\}/g, (match, name: string) => (name in values ? String(values[name]) : match));
};

/** Picks the locale from a `lang` header or Accept-Language (zh* gives zh, anything else en). */
export const pickLocale = (lang?: string | string[] | null, acceptLanguage?: string | string[] | null): Locale => {
  const first = (value?: string | string[] | null) => (Array.isArray(value) ? value[0] : value) ?? '';
  const explicit = first(lang).trim().toLowerCase();
  if (explicit) return explicit.startsWith('zh') ? 'zh' : 'en';
  return first(acceptLanguage).trim().toLowerCase().startsWith('zh') ? 'zh' : 'en';
};
