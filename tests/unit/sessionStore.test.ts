// The browser session (src/providers/session.ts, docs/ARCHITECTURE.md#session-storage) on in-memory storage and cookies:
// the accessors, the profile a sign-in and `GET /login/current` store, the forced-change listeners and
// the document cookie jar (issue 13's mutation run found these read by no dedicated test).
import { describe, expect, it } from 'vitest';
import { createSession, documentCookieJar, type CookieJar, type LoginAnswer } from '../../src/providers/session';
import { loadPasswordCipher } from '../../src/providers/passwordCipher';

const memoryStorage = () => {
  const items = new Map<string, string>();
  return {
    items,
    getItem: (key: string) => items.get(key) ?? null,
    setItem: (key: string, value: string) => void items.set(key, value),
    removeItem: (key: string) => void items.delete(key),
  };
};

const memoryCookies = () => {
  const jar = new Map<string, string>();
  const cookies: CookieJar & { jar: Map<string, string> } = {
    jar,
    get: (name) => jar.get(name),
    set: (name, value) => void jar.set(name, value),
    remove: (name) => void jar.delete(name),
  };
  return cookies;
};

const answer = (extra: Partial<LoginAnswer> = {}): LoginAnswer => ({
  accountName: 'Kowloon',
  userId: 7,
  realName: 'Ada',
  tokenInfo: { tokenName: 'rvm-token', tokenValue: 'abc' },
  userInfo: { superAdmin: false, permissions: [{ id: 1, identifier: 'user:page' }], roleId: 3 },
  termType: ['web'],
  ...extra,
});

const setUp = () => {
  const storage = memoryStorage();
  const cookies = memoryCookies();
  return { storage, cookies, session: createSession(storage, cookies) };
};

describe('the session accessors', () => {
  it('start empty: no token, English, empty names, no forced change', () => {
    const { session } = setUp();
    expect(session.getToken()).toBeNull();
    expect(session.isSignedIn()).toBe(false);
    expect(session.getLang()).toBe('en');
    expect(session.getRealName()).toBe('');
    expect(session.getAccountName()).toBe('');
    expect(session.getRememberedUsername()).toBe('');
    expect(session.getUserInfo()).toBeNull();
    expect(session.getForcedPasswordChange()).toBeNull();
  });

  it('keep the language, the account name and the token under their documented keys', () => {
    const { session, storage } = setUp();
    session.setLang('zh');
    expect(session.getLang()).toBe('zh');
    expect(storage.items.get('lang')).toBe('zh');
    storage.items.set('lang', 'fr');
    expect(session.getLang()).toBe('en');
    session.setAccountName('Sha Tin');
    expect(session.getAccountName()).toBe('Sha Tin');
    expect(storage.items.get('accountName')).toBe('Sha Tin');
    storage.items.set('tokenValue', 'xyz');
    expect(session.getToken()).toEqual({ name: 'rvm-token', value: 'xyz' });
    storage.items.set('tokenName', 'custom-token');
    expect(session.getToken()).toEqual({ name: 'custom-token', value: 'xyz' });
  });

  it('read a corrupt userInfo as none, and only the two known forced-change reasons', () => {
    const { session, storage } = setUp();
    storage.items.set('userInfo', '{not json');
    expect(session.getUserInfo()).toBeNull();
    storage.items.set('forcedPasswordChange', 'somethingElse');
    expect(session.getForcedPasswordChange()).toBeNull();
    storage.items.set('forcedPasswordChange', 'passwordExpired');
    expect(session.getForcedPasswordChange()).toBe('passwordExpired');
  });
});

describe('storing a sign-in', () => {
  it('stores the token, profile and language, and remembers the user only when asked', async () => {
    await loadPasswordCipher();
    const { session, storage, cookies } = setUp();
    await session.storeLogin(answer({ version: '1.2.3', currency: 'HKD' }), { username: 'ada', password: 'Passw0rd!', rememberPassword: true });
    expect(session.getToken()).toEqual({ name: 'rvm-token', value: 'abc' });
    expect(session.getCurrency()).toBe('HKD');
    expect(Object.fromEntries(storage.items)).toMatchObject({
      accountName: 'Kowloon',
      currency: 'HKD',
      sysUserId: '7',
      realName: 'Ada',
      roleId: '3',
      version: '1.2.3',
      termType: '["web"]',
      lang: 'en',
      username: 'ada',
    });
    expect(session.getUserInfo()).toEqual(answer().userInfo);
    expect(session.getRememberedUsername()).toBe('ada');
    expect(session.getStoredPassword()).toBe('Passw0rd!');
    expect(session.getRememberedPassword()).toBe('Passw0rd!');
    expect(cookies.jar.has('password')).toBe(true);

    // the same browser, another user who did not ask to be remembered
    await session.storeLogin(answer({ tokenInfo: undefined, termType: undefined, userInfo: { superAdmin: true, permissions: [] } }), {
      username: 'bob',
      password: 'Other1!',
      rememberPassword: false,
    });
    expect(cookies.jar.has('password')).toBe(false);
    expect(storage.items.has('username')).toBe(false);
    expect(storage.items.get('tokenName')).toBe('rvm-token');
    expect(storage.items.has('tokenValue')).toBe(false);
    expect(storage.items.get('termType')).toBe('[]');
    expect(storage.items.has('roleId')).toBe(false);
    expect(storage.items.get('version')).toBe('1.2.3');
    // an account without a currency said (another server version): plain numbers, not the last user's currency
    expect(session.getCurrency()).toBeNull();
    expect(session.getStoredPassword()).toBe('Other1!');
    expect(session.getRememberedPassword()).toBeNull();
  });

  it('keeps a stored language, and marks first sign-in or expired password as a forced change', async () => {
    await loadPasswordCipher();
    const { session, storage } = setUp();
    session.setLang('zh');
    await session.storeLogin(answer({ firstLogin: true }), { username: 'ada', password: 'p', rememberPassword: false });
    expect(storage.items.get('lang')).toBe('zh');
    expect(session.getForcedPasswordChange()).toBe('firstLogin');
    session.refreshProfile(answer({ passwordExpired: true }));
    expect(session.getForcedPasswordChange()).toBe('passwordExpired');
    session.refreshProfile(answer());
    expect(session.getForcedPasswordChange()).toBeNull();
  });

  it('clears the session but keeps the language, the remembered user and their cookie', async () => {
    await loadPasswordCipher();
    const { session, storage, cookies } = setUp();
    await session.storeLogin(answer({ currency: 'MOP' }), { username: 'ada', password: 'p', rememberPassword: true });
    session.clear();
    expect(session.isSignedIn()).toBe(false);
    expect([...storage.items.keys()].sort()).toEqual(['lang', 'username']);
    expect(cookies.jar.has('password')).toBe(true);
    storage.items.delete('username');
    session.clear();
    expect(cookies.jar.has('password')).toBe(false);
  });
});

describe('a profile answer with fields left out (issue 13, second mutation run)', () => {
  it('removes what the answer lacks instead of storing the text "undefined", and needs no userInfo', async () => {
    await loadPasswordCipher();
    const { session, storage } = setUp();
    await session.storeLogin(answer(), { username: 'ada', password: 'p', rememberPassword: false });
    // an answer of `GET /login/current` without userInfo (a server of another version)
    const partial = { ...answer(), userInfo: undefined } as unknown as LoginAnswer;
    session.refreshProfile(partial);
    expect([...storage.items.values()]).not.toContain('undefined');
    expect(storage.items.has('userInfo')).toBe(false);
    expect(storage.items.has('roleId')).toBe(false);
    expect(session.getUserInfo()).toBeNull();
    expect(session.getRealName()).toBe('Ada');
  });
});

describe('forced password change listeners', () => {
  it('tell subscribers of a reason set after load, not of a cleared one, and stop after unsubscribing', () => {
    const { session } = setUp();
    const heard: string[] = [];
    const unsubscribe = session.onForcedPasswordChange((reason) => heard.push(reason));
    session.setForcedPasswordChange('passwordExpired');
    session.setForcedPasswordChange(null);
    expect(session.getForcedPasswordChange()).toBeNull();
    unsubscribe();
    session.setForcedPasswordChange('firstLogin');
    expect(heard).toEqual(['passwordExpired']);
    expect(session.getForcedPasswordChange()).toBe('firstLogin');
  });
});

describe('documentCookieJar', () => {
  it('reads a cookie among others by its encoded name, and answers undefined for a missing one', () => {
    const doc = { cookie: 'a=1; pass%20word=x%3Dy; password=secret%21' };
    const jar = documentCookieJar(doc);
    expect(jar.get('password')).toBe('secret!');
    expect(jar.get('pass word')).toBe('x=y');
    expect(jar.get('word')).toBeUndefined();
    expect(jar.get('missing')).toBeUndefined();
  });

  it('writes path, SameSite=Strict and, over HTTPS only, Secure', () => {
    const plain = { cookie: '', location: { protocol: 'http:' } };
    documentCookieJar(plain).set('password', 'a b', new Date(Date.UTC(2030, 0, 2)));
    expect(plain.cookie).toBe('password=a%20b; expires=Wed, 02 Jan 2030 00:00:00 GMT; path=/; SameSite=Strict');
    const secure = { cookie: '', location: { protocol: 'https:' } };
    documentCookieJar(secure).remove('password');
    expect(secure.cookie).toBe('password=; expires=Thu, 01 Jan 1970 00:00:00 GMT; path=/; SameSite=Strict; Secure');
    const noLocation = { cookie: '' };
    documentCookieJar(noLocation).remove('password');
    expect(noLocation.cookie).toBe('password=; expires=Thu, 01 Jan 1970 00:00:00 GMT; path=/; SameSite=Strict');
  });
});
