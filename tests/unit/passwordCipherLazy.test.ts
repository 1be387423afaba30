// The password cipher is not part of the login page's code (issue 8): the session works before it is
// loaded, a sign-in stores the password once it has arrived, and the remembered password can be read
// after it. This file must not import src/providers/crypto.ts statically (that would load it at once).
// Each test takes a module graph of its own (vi.resetModules), in which the cipher is not loaded yet:
// Stryker runs the unit tests without isolation, where another file has loaded it already.
import { describe, expect, it, vi } from 'vitest';
import type { CookieJar, LoginAnswer } from '../../src/providers/session';

const fresh = async () => {
  vi.resetModules();
  const session = await import('../../src/providers/session');
  const cipher = await import('../../src/providers/passwordCipher');
  return { ...session, ...cipher };
};

const ANSWER: LoginAnswer = {
  accountName: 'Default',
  userId: 1,
  realName: 'Admin',
  tokenInfo: { tokenName: 'rvm-token', tokenValue: 'tok' },
  userInfo: { superAdmin: true, permissions: [] },
};

const memory = () => {
  const data = new Map<string, string>();
  const cookies = new Map<string, string>();
  const jar: CookieJar = { get: (name) => cookies.get(name), set: (name, value) => void cookies.set(name, value), remove: (name) => void cookies.delete(name) };
  return {
    data,
    cookies,
    jar,
    storage: {
      getItem: (key: string) => data.get(key) ?? null,
      setItem: (key: string, value: string) => void data.set(key, value),
      removeItem: (key: string) => void data.delete(key),
    },
  };
};

describe('the lazily loaded password cipher', () => {
  it('is loaded by the first sign-in, which stores the encrypted password once it is there', async () => {
    const { createSession, loadedPasswordCipher, loadPasswordCipher } = await fresh();
    expect(loadedPasswordCipher()).toBeUndefined();
    const { data, cookies, jar, storage } = memory();
    const session = createSession(storage, jar);
    const stored = session.storeLogin(ANSWER, { username: 'admin', password: 'Admin@123', rememberPassword: true });
    // the rest of the session is there at once
    expect(session.isSignedIn()).toBe(true);
    expect(session.getRememberedUsername()).toBe('admin');
    await stored;
    expect(loadedPasswordCipher()).toBeDefined();
    const cipher = data.get('password') ?? '';
    expect(cipher).not.toContain('Admin@123');
    expect(cookies.get('password')).toBe(cipher); // docs/ARCHITECTURE.md#session-storage: the cookie is named `password`
    expect(session.getStoredPassword()).toBe('Admin@123');
    expect(session.getRememberedPassword()).toBe('Admin@123');
    // the same ciphertext as ever: AES-128-ECB with the fixed key, PKCS7, base64 (what the whole crypto-js
    // library and Node's aes-128-ecb give for this password)
    expect(cipher).toBe('511PC6wnKIh8uuxi9TybuA==');
    expect((await loadPasswordCipher()).decryptPassword(cipher)).toBe('Admin@123');
  });

  it('reads no stored password before it is loaded, and the stored one after', async () => {
    const { createSession, loadPasswordCipher } = await fresh();
    const { data, cookies, jar, storage } = memory();
    // what an earlier visit left: a remembered user with their encrypted password
    data.set('username', 'admin');
    data.set('password', '511PC6wnKIh8uuxi9TybuA==');
    cookies.set('password', '511PC6wnKIh8uuxi9TybuA==');
    const session = createSession(storage, jar);
    expect(session.getStoredPassword()).toBeNull();
    expect(session.getRememberedPassword()).toBeNull();
    const [first, second] = [loadPasswordCipher(), loadPasswordCipher()];
    expect(second).toBe(first); // one chunk request
    await first;
    expect(session.getStoredPassword()).toBe('Admin@123');
    expect(session.getRememberedPassword()).toBe('Admin@123');
  });

  it('brings the password hash of the change-password dialog with it (SHA-256, hex)', async () => {
    await fresh();
    const { hashPassword, samePasswordHash } = await import('../../src/providers/crypto');
    expect(hashPassword('Admin@123')).toBe('e86f78a8a3caf0b60d8e74e5942aa6d86dc150cd3c03338aef25b7d2d7e3acc7');
    expect([samePasswordHash('Admin@123', 'Admin@123'), samePasswordHash('Admin@123', 'admin@123')]).toEqual([true, false]);
  });
});
