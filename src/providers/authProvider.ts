// react-admin AuthProvider over the http client and the session (docs/product-rules.md#sign-in-and-session,
// docs/product-rules.md#permission-model). canAccess is the console's one permission guard: it answers from the
// signed-in user's permission identifiers by the rule it is given (src/permissions/canAccess.ts, wired in App.tsx).
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

/** A request of react-admin's canAccess, as the access rule reads it. */
export interface AccessRequest {
  action: string;
  resource: string;
  record?: unknown;
}

export interface AuthProviderOptions {
  now?: () => Date;
  /** Decides canAccess for the signed-in user (absent on the signed-out pages, which ask nothing). */
  access?: (holder: UserInfo | null, request: AccessRequest) => boolean;
}

export const createAuthProvider = (http: HttpClient, session: Session, { now = () => new Date(), access }: AuthProviderOptions = {}): AuthProvider => ({
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

  // react-admin asks before it shows a resource's views and buttons; the console's own screens and menu too.
  ...(access ? { canAccess: async ({ action, resource, record }: AccessRequest) => access(session.getUserInfo(), { action, resource, record }) } : {}),

  getIdentity: async () => ({
    id: session.getSysUserId() ?? '',
    fullName: session.getRealName(),
  }),
});
