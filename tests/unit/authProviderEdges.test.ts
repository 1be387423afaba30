// The authProvider's answers to react-admin at their edges (src/providers/authProvider.ts): the
// defaults a login sends, the silent logout call, the exact refusals of checkAuth / checkError and
// an identity without a stored user (issue 13's mutation run).
import { describe, expect, it, vi } from 'vitest';
import { createAuthProvider } from '../../src/providers/authProvider';
import { LOGIN_PATH } from '../../src/providers/routeGuard';
import type { HttpClient } from '../../src/providers/httpTypes';
import type { Session } from '../../src/providers/session';

const fakeHttp = () => {
  const post = vi.fn(async () => ({}));
  const get = vi.fn(async () => null);
  return { http: { post, get } as unknown as HttpClient, post, get };
};

const fakeSession = (signedIn: boolean) =>
  ({
    isSignedIn: () => signedIn,
    storeLogin: vi.fn(async () => undefined),
    clear: vi.fn(),
    getSysUserId: () => null,
    getRealName: () => '',
    getUserInfo: () => null,
  }) as unknown as Session;

describe('the authProvider at its edges', () => {
  it('sends rememberPassword false unless asked', async () => {
    const { http, post } = fakeHttp();
    await createAuthProvider(http, fakeSession(false), { now: () => new Date() }).login({ username: 'ada', password: 'p' });
    expect(post).toHaveBeenCalledWith('/login/login', expect.objectContaining({ username: 'ada', password: 'p', rememberPassword: false }));
  });

  it('calls the server logout silently (a dead token needs no toast)', async () => {
    const { http, get } = fakeHttp();
    await createAuthProvider(http, fakeSession(true)).logout({});
    expect(get).toHaveBeenCalledWith('/login/logout', undefined, { silent: true });
  });

  it('refuses a signed-out user towards the login page without a notification', async () => {
    const { http } = fakeHttp();
    await expect(createAuthProvider(http, fakeSession(false)).checkAuth({})).rejects.toEqual({ redirectTo: LOGIN_PATH, message: false });
    await expect(createAuthProvider(http, fakeSession(true)).checkAuth({})).resolves.toBeUndefined();
  });

  it('checkError: the same refusal for a forced logout; nothing for null, codeless or other errors', async () => {
    const { http } = fakeHttp();
    const auth = createAuthProvider(http, fakeSession(true));
    await expect(auth.checkError({ code: '11012' })).rejects.toEqual({ redirectTo: LOGIN_PATH, message: false });
    await expect(auth.checkError({ status: 401 })).rejects.toEqual({ redirectTo: LOGIN_PATH, message: false });
    await expect(auth.checkError(null)).resolves.toBeUndefined();
    await expect(auth.checkError(undefined)).resolves.toBeUndefined();
    await expect(auth.checkError({ code: '1004', status: 400 })).resolves.toBeUndefined();
  });

  it("checkError: only a text code counts, as the http client gives it; a number (another library's error) is none", async () => {
    const { http } = fakeHttp();
    const auth = createAuthProvider(http, fakeSession(true));
    await expect(auth.checkError({ code: 11012 })).resolves.toBeUndefined();
    await expect(auth.checkError(Object.assign(new Error('x'), { code: 11011, status: 500 }))).resolves.toBeUndefined();
  });

  it('an identity without a stored user has an empty id and name', async () => {
    const { http } = fakeHttp();
    await expect(createAuthProvider(http, fakeSession(false)).getIdentity?.()).resolves.toEqual({ id: '', fullName: '' });
  });
});
