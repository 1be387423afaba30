// react-admin AuthProvider over the http client and the session (docs/product-rules.md#sign-in-and-session,
// docs/product-rules.md#permission-model). Resource access (canAccess) is deliberately absent: the generic
// views guard themselves (src/generic/access.ts).
import type { AuthProvider } from 'ra-core';
import { ApiError, type HttpClient } from './httpTypes';
import { isForcedLogoutCode } from './http';
import type { LoginAnswer, Session, UserInfo } from './session';
import { HOME_PATH, LOGIN_PATH } from './routeGuard';

export interface LoginParams {
  username: string;
  password: string;
  rememberPassword?: boolean;
}

/** The client's offset from UTC in minutes, east positive (UTC+8 gives 480). */
export const utcOffsetMinutes = (date: Date = new Date()): number => -date.getTimezoneOffset();

export const createAuthProvider = (http: HttpClient, session: Session, now: () => Date = () => new Date()): AuthProvider => ({
  async login({ username, password, rememberPassword = false }: LoginParams) {
    const answer = await http.post<LoginAnswer>('/login/login', {
      username,
      password,
      rememberPassword,
      utcOffsetMinutes: utcOffsetMinutes(now()),
    });
    await session.storeLogin(answer, { username, password, rememberPassword });
    return { redirectTo: HOME_PATH };
  },

  async logout() {
    if (session.isSignedIn()) {
      try {
        await http.get('/login/logout', undefined, { silent: true });
      } catch {
        // The local session ends whatever the server says (its token may already be dead).
      }
    }
    session.clear();
    return LOGIN_PATH;
  },

  // Route guard (docs/product-rules.md#screens-and-routes): signed in means a stored token value exists.
  checkAuth: () => (session.isSignedIn() ? Promise.resolve() : Promise.reject({ redirectTo: LOGIN_PATH, message: false })),

  checkError(error: unknown) {
    const code = error instanceof ApiError ? error.code : (error as { code?: unknown } | null)?.code;
    const status = (error as { status?: unknown } | null)?.status;
    if ((typeof code === 'string' && isForcedLogoutCode(code)) || status === 401) {
      return Promise.reject({ redirectTo: LOGIN_PATH, message: false });
    }
    return Promise.resolve();
  },

  getPermissions: async (): Promise<UserInfo | null> => session.getUserInfo(),

  getIdentity: async () => ({
    id: session.getSysUserId() ?? '',
    fullName: session.getRealName(),
  }),
});
