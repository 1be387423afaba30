// Catalogue completeness: en/zh parity (also enforced by the compiler), react-admin's ra.* strings
// complete in Chinese, every menu key titled, and every literal key the source uses present.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import englishMessages from 'ra-language-english';
import { catalogues } from '../../i18n';
import { walkMenu } from '../../resources/menu';
import { raChinese } from '../../src/i18n/raChinese';
import { messagesFor } from '../../src/providers/i18nProvider';

const leaves = (tree: unknown, prefix = ''): Map<string, string> => {
  const out = new Map<string, string>();
  for (const [key, value] of Object.entries(tree as Record<string, unknown>)) {
    const path = prefix ? `${prefix}.${key}` : key;
    if (typeof value === 'string') out.set(path, value);
    else for (const [k, v] of leaves(value, path)) out.set(k, v);
  }
  return out;
};

const placeholders = (text: string) => [...text.matchAll(/%\{(\w+)\}/g)].map((match) => match[1]).sort();

describe('catalogues', () => {
  const en = leaves(catalogues.en);
  const zh = leaves(catalogues.zh);

  it('have the same keys in English and Chinese', () => {
    expect([...zh.keys()].sort()).toEqual([...en.keys()].sort());
  });

  it('keep the same placeholders in both languages', () => {
    for (const [key, text] of en) expect(placeholders(zh.get(key) ?? ''), key).toEqual(placeholders(text));
  });

  it('title every menu key in both languages', () => {
    for (const node of walkMenu()) {
      expect(en.get(`menu.${node.key}`), node.key).toBeTruthy();
      expect(zh.get(`menu.${node.key}`), node.key).toBeTruthy();
    }
  });
});

describe("react-admin's ra.* strings", () => {
  const english = leaves(englishMessages);
  const chinese = leaves(raChinese);

  it('every key of ra-language-english is in raChinese, and nothing else', () => {
    expect([...english.keys()].filter((key) => !chinese.has(key))).toEqual([]);
    expect([...chinese.keys()].filter((key) => !english.has(key))).toEqual([]);
  });

  it('keeps placeholders and plural separators', () => {
    for (const [key, text] of english) {
      expect(placeholders(chinese.get(key) ?? ''), key).toEqual(placeholders(text));
      expect((chinese.get(key) ?? '').includes('||||'), key).toBe(text.includes('||||'));
    }
  });

  it('is translated (no English left except the blank null label)', () => {
    const untranslated = [...english].filter(([key, text]) => chinese.get(key) === text && text.trim() !== '').map(([key]) => key);
    expect(untranslated).toEqual(['ra.page.edit', 'ra.page.list', 'ra.page.show']); // pure placeholders
  });

  it('merges ra.* with our catalogue sections for each language', () => {
    const zhMessages = leaves(messagesFor('zh'));
    expect(zhMessages.get('ra.action.save')).toBe('保存');
    expect(zhMessages.get('app.changePassword.success')).toBe(leaves(catalogues.zh).get('app.changePassword.success'));
    expect(leaves(messagesFor('en')).get('ra.action.save')).toBe('Save');
  });
});

describe('keys used in the source', () => {
  const files = (dir: string): string[] =>
    readdirSync(dir).flatMap((name) => {
      const path = join(dir, name);
      return statSync(path).isDirectory() ? files(path) : /\.tsx?$/.test(name) ? [path] : [];
    });
  const en = leaves(catalogues.en);
  const ra = leaves(englishMessages);
  // A literal that starts with a catalogue section and a dot is a key, however it is used:
  // translate('x.y'), t('x.y'), notify('x.y'), label="x.y", message: 'x.y' in a declaration.
  const sections = [...Object.keys(catalogues.en), 'ra'];
  const keyLiteral = new RegExp(`(['"\`])((?:${sections.join('|')})\\.[A-Za-z0-9_]+(?:\\.[A-Za-z0-9_]+)*)\\1`, 'g');
  const used = () =>
    ['src', 'server', 'resources'].flatMap((dir) => files(dir)).flatMap((file) => [...readFileSync(file, 'utf8').matchAll(keyLiteral)].map((match) => ({ file, key: match[2] })));

  it('finds the keys (the scan itself works: a broken pattern would pass the next test on nothing)', () => {
    const keys = new Set(used().map((use) => use.key));
    for (const known of ['generic.tree.clear', 'app.changePassword.success', 'errors.network', 'ra.action.save']) expect(keys).toContain(known);
    expect(keys.size).toBeGreaterThan(200);
  });

  it("every literal key of src/, server/ and resources/ exists in the English catalogue (ra.* in react-admin's)", () => {
    // a group ('fleet.statuses') is a prefix the code completes with a value: it must exist as a group
    const groups = new Set(
      [...en.keys()].flatMap((key) =>
        key
          .split('.')
          .slice(1)
          .map((_, end, parts) => [key.split('.')[0], ...parts.slice(0, end)].join('.')),
      ),
    );
    const missing = used()
      .filter(({ key }) => !(key.startsWith('ra.') ? ra.has(key) : en.has(key) || groups.has(key)))
      .map(({ file, key }) => `${file}: ${key}`);
    expect(missing).toEqual([]);
  });

  it('English texts the product fixes are word for word', () => {
    expect(en.get('errors.loginFailed')).toBe('userName or password error!');
    expect(en.get('app.changePassword.success')).toBe('Change Password successfully!');
    expect(en.get('app.switchAccount.success')).toBe('Success!');
    expect(en.get('app.switchAccount.failed')).toBe('Failed');
    expect(en.get('app.changePassword.firstLogin')).toBe('You need to change your password after the first login');
    expect(en.get('app.changePassword.passwordExpired')).toBe('Your password has expired and you need to change it.');
    expect(en.get('errors.network')).toBe('Connection Failed, Please try again later');
    expect(en.get('errors.download')).toBe('Download failed');
    expect(en.get('validation.selectOne')).toBe('Please select one item at least');
  });
});
