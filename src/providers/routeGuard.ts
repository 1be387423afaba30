// The route guard (docs/product-rules.md#screens-and-routes) as a pure function: where to send the user, or null to stay.
export const HOME_PATH = '/index/index';
export const LOGIN_PATH = '/login';

/** The only paths a signed-out user may open. */
export const SIGNED_OUT_PATHS: readonly string[] = ['/login', '/forgotPassword', '/resetPassword'];

const trimTrailingSlash = (path: string) => (path.length > 1 ? path.replace(/\/+$/, '') : path);

export const guardRedirect = (pathname: string, signedIn: boolean): string | null => {
  const path = trimTrailingSlash(pathname);
  if (signedIn) {
    // '/' and the Home directory open the home screen; a signed-in user never sees the login page.
    if (path === '/' || path === LOGIN_PATH || path === '/index') return HOME_PATH;
    return null;
  }
  return SIGNED_OUT_PATHS.includes(path) ? null : LOGIN_PATH;
};

/** The login URL's parameter naming the page to return to after sign-in (`/login?next=/installation/rvmpage?id=3`). */
export const NEXT_PARAM = 'next';
const SAME_ORIGIN = 'http://same.origin';

/**
 * The `next` path of a login URL's search, when it is safe to go to: a relative path of this origin
 * (never `//host`, `/\host`, `https:…` or `javascript:…`), not a signed-out page; else null.
 */
export const safeNextPath = (search: string): string | null => {
  const raw = new URLSearchParams(search).get(NEXT_PARAM);
  if (!raw || !raw.startsWith('/') || [...raw].some((character) => character <= '\u001f')) return null;
  let url: URL;
  try {
    url = new URL(raw, SAME_ORIGIN);
  } catch {
    return null;
  }
  if (url.origin !== SAME_ORIGIN) return null;
  const path = trimTrailingSlash(url.pathname);
  if (SIGNED_OUT_PATHS.includes(path) || path === '/') return null;
  return `${url.pathname}${url.search}${url.hash}`;
};

/** The login page remembering where a signed-out visitor was going (plain `/login` for the root and home). */
export const loginPathFor = (pathname: string, search = ''): string => {
  const path = trimTrailingSlash(pathname);
  if (path === '/' || path === '/index' || path === HOME_PATH || SIGNED_OUT_PATHS.includes(path)) return LOGIN_PATH;
  return `${LOGIN_PATH}?${new URLSearchParams({ [NEXT_PARAM]: `${path}${search}` })}`;
};

/** Where a user who just signed in (or opens /login signed in) goes: the login URL's safe `next`, else home. */
export const afterSignInPath = (search: string): string => safeNextPath(search) ?? HOME_PATH;

/** guardRedirect with the deep link kept: to the login page with `next`, and from it back to `next`. */
export const guardTarget = (pathname: string, search: string, signedIn: boolean): string | null => {
  const target = guardRedirect(pathname, signedIn);
  if (target === LOGIN_PATH) return loginPathFor(pathname, search);
  if (signedIn && target === HOME_PATH && trimTrailingSlash(pathname) === LOGIN_PATH) return afterSignInPath(search);
  return target;
};
