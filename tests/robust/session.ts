// Signing in the way a person does: a user whose password must be changed (the admin at first
// sign-in, users an administrator created) changes it through PUT /user/password first, then signs
// in again. Works over app.inject (tests) and over HTTP (child-process servers, the load bench).

export interface WireAnswer {
  status: number;
  body: { resCode: string; resMsg: string; resData: any };
}

export type Call = (method: string, path: string, options?: { token?: string; body?: unknown }) => Promise<WireAnswer>;

export const ADMIN_INITIAL = { username: 'admin', password: 'Admin@123' };
/** What the admin's password becomes at the first sign-in of these suites (password rule of docs/product-rules.md#validation-rules). */
export const ADMIN_CHANGED_PASSWORD = 'Robust@2468';

export interface Session {
  token: string;
  password: string;
  answer: any;
}

const login = (call: Call, username: string, password: string) => call('POST', '/login/login', { body: { username, password } });

/**
 * Signs in with the first of `passwords` that is right; when the server asks for a new password
 * (first sign-in, expired), sets `replacement` and signs in with it.
 */
export const signIn = async (call: Call, username: string, passwords: readonly string[], replacement: string): Promise<Session> => {
  let failure = '';
  for (const password of passwords) {
    const first = await login(call, username, password);
    if (first.body.resCode !== '00000') {
      failure = `${first.body.resCode} ${first.body.resMsg}`;
      continue;
    }
    const answer = first.body.resData;
    if (!answer.firstLogin && !answer.passwordExpired) return { token: answer.tokenInfo.tokenValue, password, answer };
    const changed = await call('PUT', `/user/password?password=${encodeURIComponent(replacement)}`, {
      token: answer.tokenInfo.tokenValue,
      body: { oldPassword: password },
    });
    if (changed.body.resCode !== '00000') throw new Error(`password change of ${username}: ${changed.body.resCode} ${changed.body.resMsg}`);
    const again = await login(call, username, replacement);
    if (again.body.resCode !== '00000') throw new Error(`sign-in of ${username} after the change: ${again.body.resCode} ${again.body.resMsg}`);
    return { token: again.body.resData.tokenInfo.tokenValue, password: replacement, answer: again.body.resData };
  }
  throw new Error(`sign-in of ${username}: ${failure}`);
};

/** The admin of a fresh (or already used) database, its forced password change done. */
export const signInAdmin = (call: Call) => signIn(call, ADMIN_INITIAL.username, [ADMIN_INITIAL.password, ADMIN_CHANGED_PASSWORD], ADMIN_CHANGED_PASSWORD);

/** `Call` over HTTP to a running server (`base` like http://127.0.0.1:8080). */
export const httpCall =
  (base: string, timeoutMs = 30_000): Call =>
  async (method, path, { token, body } = {}) => {
    const response = await fetch(`${base}/test-api${path}`, {
      method,
      headers: { ...(token ? { 'rvm-token': token } : {}), ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(timeoutMs),
    });
    const text = await response.text();
    let parsed: WireAnswer['body'];
    try {
      parsed = JSON.parse(text);
    } catch {
      parsed = { resCode: `HTTP ${response.status}`, resMsg: text.slice(0, 200), resData: null };
    }
    return { status: response.status, body: parsed };
  };
