// The console's stored password (docs/product-rules.md#sign-in-and-session), contained: the 7-day cookie only for
// "remember password", SameSite=Strict, Secure over HTTPS, and nothing on the server reads it.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { decryptPassword, encryptPassword } from '../../src/providers/crypto';
import { createSession, documentCookieJar, PASSWORD_COOKIE, type CookieJar, type LoginAnswer } from '../../src/providers/session';

const ANSWER: LoginAnswer = {
  accountName: 'Default',
  userId: 1,
  realName: 'Admin',
  tokenInfo: { tokenName: 'rvm-token', tokenValue: 'tok' },
  userInfo: { superAdmin: true, permissions: [] },
};

const NOW = new Date('2024-06-01T10:00:00Z');

const memoryStorage = () => {
  const data = new Map<string, string>();
  return {
    data,
    getItem: (key: string) => data.get(key) ?? null,
    setItem: (key: string, value: string) => void data.set(key, value),
    removeItem: (key: string) => void data.delete(key),
  };
};

const memoryJar = () => {
  const jar = new Map<string, { value: string; expires: Date }>();
  const cookies: CookieJar = {
    get: (name) => jar.get(name)?.value,
    set: (name, value, expires) => void jar.set(name, { value, expires }),
    remove: (name) => void jar.delete(name),
  };
  return { jar, cookies };
};

/** A document whose `cookie` setter records every assignment (what the browser would parse). */
const recordingDocument = (protocol: string) => {
  const written: string[] = [];
  const doc = {
    location: { protocol },
    get cookie() {
      return written.length ? written[written.length - 1].split(';')[0] : '';
    },
    set cookie(value: string) {
      written.push(value);
    },
  };
  return { doc, written };
};

const attributesOf = (cookie: string) =>
  cookie
    .split(';')
    .slice(1)
    .map((part) => part.trim().toLowerCase());

describe('the password cookie', () => {
  it('is written only when "remember password" is set; the session copy stays for the change-password dialog', async () => {
    const storage = memoryStorage();
    const { jar, cookies } = memoryJar();
    const session = createSession(storage, cookies, () => NOW);
    await session.storeLogin(ANSWER, { username: 'admin', password: 'Admin@123', rememberPassword: false });
    expect(jar.has(PASSWORD_COOKIE)).toBe(false);
    expect(decryptPassword(storage.data.get('password'))).toBe('Admin@123');
    expect(session.getStoredPassword()).toBe('Admin@123');
    expect(session.getRememberedPassword()).toBeNull();

    await session.storeLogin(ANSWER, { username: 'admin', password: 'Admin@123', rememberPassword: true });
    expect(decryptPassword(jar.get(PASSWORD_COOKIE)?.value)).toBe('Admin@123');
    expect(jar.get(PASSWORD_COOKIE)?.expires.getTime()).toBe(NOW.getTime() + 7 * 24 * 3600 * 1000);
  });

  it('is dropped when the next sign-in does not ask to be remembered', async () => {
    const storage = memoryStorage();
    const { jar, cookies } = memoryJar();
    const session = createSession(storage, cookies, () => NOW);
    await session.storeLogin(ANSWER, { username: 'alice', password: 'Alice#123', rememberPassword: true });
    session.clear();
    expect(session.getRememberedPassword()).toBe('Alice#123'); // the login form prefills it
    await session.storeLogin(ANSWER, { username: 'bob', password: 'Bob#1234', rememberPassword: false });
    expect(jar.has(PASSWORD_COOKIE)).toBe(false);
    expect(session.getStoredPassword()).toBe('Bob#1234'); // never Alice's
    session.clear();
    expect(session.getRememberedPassword()).toBeNull();
  });

  it('is SameSite=Strict on path /, and Secure when the console is served over HTTPS', () => {
    const expires = new Date('2024-06-08T10:00:00Z');
    for (const [protocol, secure] of [
      ['http:', false],
      ['https:', true],
    ] as const) {
      const { doc, written } = recordingDocument(protocol);
      const jar = documentCookieJar(doc);
      jar.set(PASSWORD_COOKIE, 'U2FsdGVk+/=', expires);
      jar.remove(PASSWORD_COOKIE);
      expect(written[0].startsWith('password=U2FsdGVk%2B%2F%3D;')).toBe(true);
      for (const cookie of written) {
        const attributes = attributesOf(cookie);
        expect(attributes, cookie).toEqual(expect.arrayContaining(['path=/', 'samesite=strict']));
        expect(attributes.includes('secure'), `${protocol} ${cookie}`).toBe(secure);
      }
      expect(attributesOf(written[0])).toContain(`expires=${expires.toUTCString().toLowerCase()}`);
      expect(attributesOf(written[1])).toContain('expires=thu, 01 jan 1970 00:00:00 gmt');
    }
  });

  it('is read by nothing on the server (no cookie parser; cookies appear only in the log redaction)', () => {
    const files = (dir: string): string[] =>
      readdirSync(dir).flatMap((name) => {
        const path = join(dir, name);
        return statSync(path).isDirectory() ? files(path) : path.endsWith('.ts') ? [path] : [];
      });
    const readers = files('server').filter((path) => /cookie/i.test(readFileSync(path, 'utf8')) && !path.endsWith(join('lib', 'logger.ts')));
    expect(readers).toEqual([]);
    const manifest = JSON.parse(readFileSync('package.json', 'utf8')) as { dependencies: Record<string, string> };
    expect(Object.keys(manifest.dependencies).filter((name) => /cookie|session/i.test(name))).toEqual([]);
  });
});

describe('reading a stored password back', () => {
  it('answers null, as PasswordCipher promises, for a value altered by hand (a tampered cookie) or none', () => {
    const stored = encryptPassword('Admin@123 and a longer password');
    expect(stored).toBe('YfiJqU1InRmf4q7DgD+mDnWRquJ/yjpOGecREgilLcU=');
    expect(decryptPassword(stored)).toBe('Admin@123 and a longer password');
    // one character changed: the decrypted bytes are no UTF-8 text
    expect(decryptPassword('AfiJqU1InRmf4q7DgD+mDnWRquJ/yjpOGecREgilLcU=')).toBeNull();
    expect([decryptPassword(''), decryptPassword(null), decryptPassword(undefined)]).toEqual([null, null, null]);
  });
});
