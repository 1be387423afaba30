// Session and authProvider state rules (docs/product-rules.md#sign-in-and-session) with a fake storage and cookie jar.
import { describe, expect, it, vi } from 'vitest';
import { createAuthProvider, utcOffsetMinutes } from '../../src/providers/authProvider';
import { createAccessRule } from '../../src/permissions/canAccess';
import { decryptPassword, encryptPassword, hashPassword, samePasswordHash } from '../../src/providers/crypto';
import { ApiError, type HttpClient } from '../../src/providers/httpTypes';
import { createSession, type CookieJar, type LoginAnswer } from '../../src/providers/session';

const fakeStorage = (initial: Record<string, string> = {}) => {
  const data = new Map(Object.entries(initial));
  return {
    data,
    getItem: (key: string) => data.get(key) ?? null,
    setItem: (key: string, value: string) => void data.set(key, value),
    removeItem: (key: string) => void data.delete(key),
  };
};

const fakeCookies = () => {
  const jar = new Map<string, { value: string; expires: Date }>();
  const cookies: CookieJar = {
    get: (name) => jar.get(name)?.value,
    set: (name, value, expires) => void jar.set(name, { value, expires }),
    remove: (name) => void jar.delete(name),
  };
  return { jar, cookies };
};

const ANSWER: LoginAnswer = {
  accountName: 'Demo account',
  licenseAccountId: 1,
  userId: 7,
  realName: 'Ada Admin',
  userName: 'admin',
  tokenInfo: { tokenName: 'rvm-token', tokenValue: 'tok-123' },
  userInfo: { superAdmin: false, permissions: [{ id: 1, identifier: 'search' }], roleId: 3, roleIds: [3] },
  termType: ['T1'],
  firstLogin: false,
  passwordExpired: false,
  version: '1.0.0',
};

const NOW = new Date('2024-06-01T10:00:00Z');

const setup = (initial: Record<string, string> = {}, answer: Partial<LoginAnswer> = {}) => {
  const storage = fakeStorage(initial);
  const { jar, cookies } = fakeCookies();
  const session = createSession(storage, cookies, () => NOW);
  const calls: Array<{ method: string; path: string; body?: unknown }> = [];
  const http = {
    post: vi.fn(async (path: string, body?: unknown) => {
      calls.push({ method: 'POST', path, body });
      return { ...ANSWER, ...answer };
    }),
    get: vi.fn(async (path: string) => {
      calls.push({ method: 'GET', path });
      return null;
    }),
  } as unknown as HttpClient;
  const auth = createAuthProvider(http, session, { now: () => NOW, access: createAccessRule() });
  return { storage, jar, session, auth, calls, http };
};

describe('login', () => {
  it('posts the credentials with the UTC offset and stores the session', async () => {
    const { auth, calls, storage } = setup();
    const result = await auth.login({ username: 'admin', password: 'Admin@123', rememberPassword: false });
    expect(result).toEqual({ redirectTo: '/index/index' });
    expect(calls[0]).toEqual({
      method: 'POST',
      path: '/login/login',
      body: { username: 'admin', password: 'Admin@123', rememberPassword: false, utcOffsetMinutes: -NOW.getTimezoneOffset() },
    });
    expect(Object.fromEntries(storage.data)).toMatchObject({
      tokenName: 'rvm-token',
      tokenValue: 'tok-123',
      version: '1.0.0',
      accountName: 'Demo account',
      userInfo: JSON.stringify(ANSWER.userInfo),
      termType: JSON.stringify(['T1']),
      sysUserId: '7',
      realName: 'Ada Admin',
      roleId: '3',
      lang: 'en',
    });
  });

  it('defaults the language to en only when none is stored', async () => {
    const english = setup();
    await english.auth.login({ username: 'admin', password: 'p' });
    expect(english.storage.data.get('lang')).toBe('en');
    const chinese = setup({ lang: 'zh' });
    await chinese.auth.login({ username: 'admin', password: 'p' });
    expect(chinese.storage.data.get('lang')).toBe('zh');
    expect(chinese.session.getLang()).toBe('zh');
  });

  it('stores the username only when remember password is set, else clears it', async () => {
    const remembered = setup();
    await remembered.auth.login({ username: 'admin', password: 'p', rememberPassword: true });
    expect(remembered.storage.data.get('username')).toBe('admin');
    const forgotten = setup({ username: 'old' });
    await forgotten.auth.login({ username: 'admin', password: 'p', rememberPassword: false });
    expect(forgotten.storage.data.has('username')).toBe(false);
  });

  it('stores the password AES-encrypted in localStorage and in a 7-day cookie', async () => {
    const { auth, storage, jar, session } = setup();
    await auth.login({ username: 'admin', password: 'Admin@123', rememberPassword: true });
    const cipher = storage.data.get('password') ?? '';
    expect(cipher).not.toContain('Admin@123');
    expect(decryptPassword(cipher)).toBe('Admin@123');
    expect(jar.get('password')?.value).toBe(cipher);
    expect(jar.get('password')?.expires.getTime()).toBe(NOW.getTime() + 7 * 24 * 3600 * 1000);
    expect(session.getStoredPassword()).toBe('Admin@123');
    expect(session.getRememberedPassword()).toBe('Admin@123');
  });

  it('persists a forced password change (first login / expired)', async () => {
    const first = setup({}, { firstLogin: true });
    await first.auth.login({ username: 'admin', password: 'p' });
    expect(first.session.getForcedPasswordChange()).toBe('firstLogin');
    const expired = setup({}, { passwordExpired: true });
    await expired.auth.login({ username: 'admin', password: 'p' });
    expect(expired.session.getForcedPasswordChange()).toBe('passwordExpired');
  });

  it('stores nothing when the server refuses', async () => {
    const { session, storage } = setup();
    const http = { post: vi.fn(async () => Promise.reject(new ApiError('6', 'x'))) } as unknown as HttpClient;
    await expect(createAuthProvider(http, session).login({ username: 'admin', password: 'bad' })).rejects.toMatchObject({ code: '6' });
    expect(storage.data.size).toBe(0);
  });
});

describe('logout and checks', () => {
  it('calls GET /login/logout, then clears the session including roleId; lang and remembered user stay', async () => {
    const { auth, calls, storage, jar, session } = setup();
    await auth.login({ username: 'admin', password: 'p', rememberPassword: true });
    expect(await auth.checkAuth({})).toBeUndefined();
    await expect(auth.logout({})).resolves.toBe('/login');
    expect(calls.at(-1)).toEqual({ method: 'GET', path: '/login/logout' });
    for (const key of ['tokenName', 'tokenValue', 'version', 'accountName', 'userInfo', 'termType', 'sysUserId', 'realName', 'password', 'roleId']) {
      expect(storage.data.has(key), key).toBe(false);
    }
    expect(storage.data.get('lang')).toBe('en');
    expect(storage.data.get('username')).toBe('admin');
    expect(jar.has('password')).toBe(true); // remembered: the login form can prefill it
    expect(session.isSignedIn()).toBe(false);
    await expect(auth.checkAuth({})).rejects.toMatchObject({ redirectTo: '/login' });
  });

  it('drops the password cookie on logout when the user was not remembered', async () => {
    const { auth, jar } = setup();
    await auth.login({ username: 'admin', password: 'p', rememberPassword: false });
    await auth.logout({});
    expect(jar.has('password')).toBe(false);
  });

  it('clears the local session even when the logout call fails, and skips it when signed out', async () => {
    const { session, storage } = setup({ tokenValue: 't', roleId: '3' });
    const http = { get: vi.fn(async () => Promise.reject(new Error('offline'))) } as unknown as HttpClient;
    await createAuthProvider(http, session).logout({});
    expect(storage.data.has('roleId')).toBe(false);
    await createAuthProvider(http, session).logout({});
    expect(http.get).toHaveBeenCalledTimes(1);
  });

  it('checkError logs out on forced-logout codes and 401 only', async () => {
    const { auth } = setup();
    await expect(auth.checkError(new ApiError('11013', 'x'))).rejects.toBeDefined();
    await expect(auth.checkError({ status: 401 })).rejects.toBeDefined();
    await expect(auth.checkError(new ApiError('4003', 'x', undefined, 403))).resolves.toBeUndefined();
    await expect(auth.checkError(new ApiError('1004', 'x', undefined, 400))).resolves.toBeUndefined();
  });

  it("canAccess answers from the signed-in user's stored permissions, getIdentity the real name", async () => {
    const { auth } = setup(
      {},
      {
        userInfo: {
          superAdmin: false,
          permissions: [
            { id: 1, identifier: 'search' },
            { id: 2, identifier: 'user:*' },
          ],
          roleId: 3,
          roleIds: [3],
        },
      },
    );
    // signed out: nothing but Home's open entry
    expect(await auth.canAccess?.({ resource: 'systemSettings/user', action: 'list' })).toBe(false);
    expect(await auth.canAccess?.({ resource: 'menu.index', action: 'list' })).toBe(true);
    await auth.login({ username: 'admin', password: 'p' });
    expect(await auth.canAccess?.({ resource: 'systemSettings/user', action: 'list' })).toBe(true);
    expect(await auth.canAccess?.({ resource: 'systemSettings/user', action: 'resetPassword' })).toBe(true);
    expect(await auth.canAccess?.({ resource: 'systemSettings/role', action: 'list' })).toBe(false);
    expect(await auth.canAccess?.({ resource: 'menu.search', action: 'menu' })).toBe(true);
    expect(await auth.canAccess?.({ resource: 'menu.service', action: 'menu' })).toBe(false);
    expect(await auth.getIdentity?.()).toEqual({ id: '7', fullName: 'Ada Admin' });
    await auth.logout({});
    expect(await auth.canAccess?.({ resource: 'systemSettings/user', action: 'list' })).toBe(false);
  });

  it('has no canAccess without an access rule (the signed-out pages ask nothing)', () => {
    const { session, http } = setup();
    expect(createAuthProvider(http, session).canAccess).toBeUndefined();
  });
});

describe('crypto helpers', () => {
  it('encrypts deterministically with the fixed key and compares through SHA-256', () => {
    expect(encryptPassword('Abc@123')).toBe(encryptPassword('Abc@123'));
    expect(decryptPassword(encryptPassword('密码Abc@1'))).toBe('密码Abc@1');
    expect(decryptPassword('garbage')).toBeNull();
    expect(decryptPassword(null)).toBeNull();
    expect(hashPassword('a')).toHaveLength(64);
    expect(samePasswordHash('Abc@123', 'Abc@123')).toBe(true);
    expect(samePasswordHash('Abc@123', 'abc@123')).toBe(false);
  });

  it('computes the UTC offset east-positive', () => {
    const date = { getTimezoneOffset: () => -480 } as Date;
    expect(utcOffsetMinutes(date)).toBe(480);
  });
});
