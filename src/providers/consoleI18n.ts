// The console's i18nProvider (ra-i18n-polyglot over react-admin's `ra.*` strings plus our catalogues),
// without importing a catalogue: the console loads the one of its language only (./messagesEn.ts or
// ./messagesZh.ts, a chunk each), see src/main.tsx, and that in two parts (issue 8's home budget): with
// the console, the sections of the shell and the home dashboard; the whole catalogue (every screen's
// sections) when a screen other than home, or the home's charts, first need it (src/layout/ScreenTexts.tsx). The language is fixed for the page's lifetime:
// switching stores `lang` and reloads (docs/product-rules.md#sign-in-and-session).
import polyglotI18nProvider from 'ra-i18n-polyglot';
import type { I18nProvider, TranslationMessages } from 'ra-core';
import type { Locale } from '../../i18n';
import { RESOURCES } from '../../resources';
import { resourceNameOf } from './registry';
import { applyDocumentLanguage } from './documentLanguage';

export const AVAILABLE_LOCALES: Array<{ locale: Locale; name: string }> = [
  { locale: 'en', name: 'English' },
  { locale: 'zh', name: '中文' },
];

/**
 * react-admin looks some labels up by resource name (`resources.<name>.name` in delete confirmations,
 * the empty page…), and a resource's name is its route (src/providers/registry.ts): alias each
 * declaration's labels under its route name too.
 */
const routeAliases = (labels: Record<string, unknown>) =>
  Object.fromEntries(RESOURCES.filter((declaration) => declaration.name in labels).map((declaration) => [resourceNameOf(declaration), labels[declaration.name]]));

/** react-admin's strings and ours, merged at the top level (`ra` never clashes with our sections). */
export const mergeMessages = (ours: { resources: unknown }, raMessages: object): TranslationMessages => {
  const resources = ours.resources as Record<string, unknown>;
  return { ...raMessages, ...ours, resources: { ...resources, ...routeAliases(resources) } } as unknown as TranslationMessages;
};

/** The provider over `messagesOf(locale)`, starting in `locale`; `<html lang>` follows the language. */
export const createConsoleI18nProvider = (locale: Locale, messagesOf: (locale: Locale) => TranslationMessages): I18nProvider => {
  const provider = polyglotI18nProvider((requested) => messagesOf(requested === 'zh' ? 'zh' : 'en'), locale, AVAILABLE_LOCALES, {
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

/** The console's messages in the page's language (./messagesEn.ts, ./messagesZh.ts). */
export interface ConsoleMessages {
  /** react-admin's strings and the sections of the shell and the home dashboard's cards. */
  core: TranslationMessages;
  /** react-admin's strings and the whole catalogue: a chunk of its own (`messages-<lang>-screens`). */
  loadAll: () => Promise<TranslationMessages>;
}

/** The screens' texts: whether they are in the translator, and getting them there (once; again after a failure). */
export interface ScreenTexts {
  ready: () => boolean;
  load: () => Promise<void>;
}

/**
 * The messages the console's translator reads (`current`), starting with the core ones; `load()` fetches
 * the whole catalogue, then `apply()` (which rebuilds the translator from `current`) runs before it resolves.
 */
export const createScreenTexts = (messages: ConsoleMessages, apply: () => Promise<void>): ScreenTexts & { current: () => TranslationMessages } => {
  let current = messages.core;
  let ready = false;
  let loading: Promise<void> | undefined;
  return {
    current: () => current,
    ready: () => ready,
    load: () =>
      (loading ??= messages.loadAll().then(
        async (all) => {
          current = all;
          await apply();
          ready = true;
        },
        (error: unknown) => {
          loading = undefined; // a Reload after a failed chunk tries again
          throw error;
        },
      )),
  };
};
