// The password cipher is not part of the login page's code (issue 8): the session works before it is
// loaded, a sign-in stores the password once it has arrived, and the remembered password can be read
// after it. This file must not import src/providers/crypto.ts statically (that would load it at once).
import { describe, expect, it } from 'vitest';
import { createSession, PASSWORD_COOKIE, type CookieJar, type LoginAnswer } from '../../src/providers/session';
import { loadedPasswordCipher, loadPasswordCipher } from '../../src/providers/passwordCipher';

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
  return { data, cookies, jar, storage: { getItem: (key: string) => data.get(key) ?? null, setItem: (key: string, value: string) => void data.set(key, value), removeItem: (key: string) => void data.delete(key) } };
};

describe('the lazily loaded password cipher', () => {
  it('is loaded by the first sign-in, which stores the encrypted password once it is there', async () => {
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
    expect(cookies.get(PASSWORD_COOKIE)).toBe(cipher);
    expect(session.getStoredPassword()).toBe('Admin@123');
    expect(session.getRememberedPassword()).toBe('Admin@123');
    // the same ciphertext as ever: AES-128-ECB with the fixed key, PKCS7, base64 (what the whole crypto-js
    // library and Node's aes-128-ecb give for this password)
    expect(cipher).toBe('511PC6wnKIh8uuxi9TybuA==');
    expect((await loadPasswordCipher()).decryptPassword(cipher)).toBe('Admin@123');
  });
});
