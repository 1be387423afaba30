// SPEC section 2 route guard as a pure function: where to send the user, or null to stay.
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
