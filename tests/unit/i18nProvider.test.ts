// The console's i18nProvider around ra-i18n-polyglot (src/providers/consoleI18n.ts, i18nProvider.ts,
// documentLanguage.ts): `<html lang>` follows the language, unknown locales fall back to English,
// missing keys show as the key, and the catalogue translator for code outside React (issue 13).
import { afterEach, describe, expect, it, vi } from 'vitest';
import englishMessages from 'ra-language-english';
import { translate } from '../../i18n';
import { AVAILABLE_LOCALES, applyDocumentLanguage, catalogueTranslator, createI18nProvider, htmlLangOf, messagesFor } from '../../src/providers/i18nProvider';
import { createConsoleI18nProvider, createScreenTexts, mergeMessages } from '../../src/providers/consoleI18n';
import { raChinese } from '../../src/i18n/raChinese';

const globals = globalThis as { document?: { documentElement: { lang: string } } };
afterEach(() => {
  delete globals.document;
});

/** A stand-in for the page's document (the unit project runs in node). */
const fakeDocument = () => {
  globals.document = { documentElement: { lang: 'en' } };
  return globals.document.documentElement;
};

describe('<html lang>', () => {
  it('is zh-CN for Chinese and en for English', () => {
    expect(htmlLangOf('zh')).toBe('zh-CN');
    expect(htmlLangOf('en')).toBe('en');
  });

  it('is written on the given root, on the page document by default, and skipped without one', () => {
    const root = { lang: 'en' };
    applyDocumentLanguage('zh', root);
    expect(root.lang).toBe('zh-CN');
    const page = fakeDocument();
    applyDocumentLanguage('zh');
    expect(page.lang).toBe('zh-CN');
    delete globals.document;
    expect(() => applyDocumentLanguage('zh')).not.toThrow();
  });

  it('follows the provider: its starting language, then every switch (an unknown one counts as English)', async () => {
    const page = fakeDocument();
    const provider = createI18nProvider('zh');
    expect(page.lang).toBe('zh-CN');
    await provider.changeLocale('en');
    expect(page.lang).toBe('en');
    await provider.changeLocale('zh');
    expect(page.lang).toBe('zh-CN');
    await provider.changeLocale('fr');
    expect(page.lang).toBe('en');
  });
});

describe('the console i18nProvider', () => {
  it('offers English and Chinese, translates react-admin and our keys in the starting language', () => {
    expect(AVAILABLE_LOCALES).toEqual([
      { locale: 'en', name: 'English' },
      { locale: 'zh', name: '中文' },
    ]);
    const zh = createI18nProvider('zh');
    expect(zh.getLocale()).toBe('zh');
    expect(zh.translate('ra.action.save')).toBe(raChinese.ra.action.save);
    expect(zh.translate('generic.tree.clear')).toBe(translate('zh', 'generic.tree.clear'));
    const en = createI18nProvider('en');
    expect(en.translate('ra.action.save')).toBe(englishMessages.ra.action.save);
    expect(en.getLocales?.()).toEqual(AVAILABLE_LOCALES);
  });

  it('shows a missing key as the key, or its _ default', () => {
    const en = createI18nProvider('en');
    expect(en.translate('no.such.key')).toBe('no.such.key');
    expect(en.translate('no.such.key', { _: 'Fallback' })).toBe('Fallback');
  });

  it('shows a missing key without a console warning (one per render otherwise)', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const error = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    try {
      const en = createI18nProvider('en');
      expect(en.translate('no.such.key')).toBe('no.such.key');
      expect([...warn.mock.calls, ...error.mock.calls]).toEqual([]);
    } finally {
      warn.mockRestore();
      error.mockRestore();
    }
  });

  it('asks for English messages for any language other than Chinese', async () => {
    const asked: string[] = [];
    const provider = createConsoleI18nProvider('en', (locale) => {
      asked.push(locale);
      return messagesFor(locale);
    });
    await provider.changeLocale('fr');
    await provider.changeLocale('zh');
    expect(asked).toContain('en');
    expect(asked.at(-1)).toBe('zh');
    expect(asked).not.toContain('fr');
    expect(provider.translate('ra.action.save')).toBe(raChinese.ra.action.save);
  });

  it('merges react-admin strings with our sections, and aliases resource labels under their route names', () => {
    const merged = mergeMessages({ resources: { user: { name: 'User' }, notDeclared: { name: 'X' } }, menu: { home: 'Home' } } as never, {
      ra: { action: { save: 'Save' } },
    }) as unknown as Record<string, Record<string, unknown>>;
    expect(merged.ra).toEqual({ action: { save: 'Save' } });
    expect(merged.menu).toEqual({ home: 'Home' });
    const resources = merged.resources;
    expect(resources.user).toEqual({ name: 'User' });
    expect(resources.notDeclared).toEqual({ name: 'X' });
    // the user declaration's route name (systemSettings/user) carries the same labels
    const aliases = Object.keys(resources).filter((key) => key !== 'user' && key !== 'notDeclared');
    expect(aliases).toEqual([expect.stringMatching(/\/user$/)]);
    expect(resources[aliases[0]]).toEqual({ name: 'User' });
  });
});

describe('catalogueTranslator', () => {
  it('translates with values in the given language and answers the key when missing', () => {
    expect(catalogueTranslator('zh')('generic.tree.clear')).toBe('清空');
    expect(catalogueTranslator('en')('generic.tree.clear')).toBe('Clear');
    expect(catalogueTranslator('en')('no.such.key')).toBe('no.such.key');
  });
});

// Issue 8's home budget: the console starts with the shell's and the home's sections and gets the rest
// (every screen's) when a screen first needs them (src/layout/ScreenTexts.tsx).
describe('the console catalogue in two parts', () => {
  it("translates the shell at once and a screen's keys once their part is loaded, in both languages", async () => {
    const { messages: english } = await import('../../src/providers/messagesEn');
    const { messages: chinese } = await import('../../src/providers/messagesZh');
    const parts = { en: english, zh: chinese } as const;
    for (const locale of ['en', 'zh'] as const) {
      const messages = parts[locale];
      fakeDocument();
      const texts = createScreenTexts(messages, () => provider.changeLocale(locale));
      const provider = createConsoleI18nProvider(locale, () => texts.current());
      expect(provider.translate('menu.home')).toBe(translate(locale, 'menu.home'));
      expect(provider.translate('ra.action.save')).toBe(locale === 'zh' ? raChinese.ra.action.save : englishMessages.ra.action.save);
      // a screen's section is not there yet
      expect(provider.translate('deployments.backToList')).toBe('deployments.backToList');
      expect(texts.ready()).toBe(false);
      const loading = texts.load();
      expect(texts.load()).toBe(loading); // fetched once
      await loading;
      expect(texts.ready()).toBe(true);
      expect(provider.translate('deployments.backToList')).toBe(translate(locale, 'deployments.backToList'));
      expect(provider.translate('resources.user.fields.realname')).toBe(translate(locale, 'resources.user.fields.realname'));
    }
  });

  it('tries again after a failed load (a Reload after a chunk error)', async () => {
    const loadAll = vi.fn().mockRejectedValueOnce(new Error('Failed to fetch dynamically imported module')).mockResolvedValue(messagesFor('en'));
    const apply = vi.fn(async () => undefined);
    const texts = createScreenTexts({ core: messagesFor('en'), loadAll }, apply);
    await expect(texts.load()).rejects.toThrow('Failed to fetch');
    expect([texts.ready(), apply.mock.calls.length]).toEqual([false, 0]);
    await texts.load();
    expect([texts.ready(), apply.mock.calls.length, loadAll.mock.calls.length]).toEqual([true, 1, 2]);
  });
});
