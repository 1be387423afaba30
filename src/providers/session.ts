// The browser session (docs/ARCHITECTURE.md#session-storage): localStorage keys
// plus the `password` cookie. Storage and cookies are injected so the rules are unit-testable.
import type { Locale } from '../../i18n';
import type { PermissionHolder } from '../../resources/permissions';
import { loadedPasswordCipher, loadPasswordCipher, type PasswordCipher } from './passwordCipher';

export interface UserInfo extends PermissionHolder {
  superAdmin: boolean;
  permissions: Array<{ id: number; identifier: string }>;
  roleId?: number | null;
  roleIds?: number[];
}

/** ARCHITECTURE.md `LoginAnswer` (`GET /login/current` answers it without `tokenInfo`). */
export interface LoginAnswer {
  accountName: string;
  licenseAccountId?: number | null;
  /** ISO 4217 code of the current license account's refund values. */
  currency?: string | null;
  userId: number;
  realName: string;
  userName?: string;
  tokenInfo?: { tokenName: string; tokenValue: string };
  userInfo: UserInfo;
  termType?: string[];
  firstLogin?: boolean;
  passwordExpired?: boolean;
  version?: string;
}

/** Why the change-password dialog is forced open (persisted so a reload keeps forcing it). */
export type ForcedPasswordChange = 'firstLogin' | 'passwordExpired';

export const SESSION_KEYS = {
  tokenName: 'tokenName',
  tokenValue: 'tokenValue',
  version: 'version',
  accountName: 'accountName',
  currency: 'currency',
  userInfo: 'userInfo',
  termType: 'termType',
  sysUserId: 'sysUserId',
  realName: 'realName',
  password: 'password',
  lang: 'lang',
  username: 'username',
  roleId: 'roleId',
  forcedPasswordChange: 'forcedPasswordChange',
} as const;

/** Removed on logout / forced logout. `lang` and the remembered `username` outlive the session. */
const SESSION_DATA_KEYS = [
  'tokenName',
  'tokenValue',
  'version',
  'accountName',
  'currency',
  'userInfo',
  'termType',
  'sysUserId',
  'realName',
  'password',
  'roleId',
  'forcedPasswordChange',
] as const;

export const PASSWORD_COOKIE = 'password';
export const PASSWORD_COOKIE_DAYS = 7;

export type KeyValueStorage = Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>;

export interface CookieJar {
  get(name: string): string | undefined;
  set(name: string, value: string, expires: Date): void;
  remove(name: string): void;
}

/**
 * `document.cookie` as a CookieJar (path `/`, so every route sees the same cookie). SameSite=Strict (never
 * sent with another site's request) and, when the console is served over HTTPS, Secure (never sent in
 * clear). The server never reads it (docs/security.md): it only rides along with same-site requests.
 */
export const documentCookieJar = (doc: Pick<Document, 'cookie'> & { location?: Pick<Location, 'protocol'> } = document): CookieJar => {
  const attributes = () => `path=/; SameSite=Strict${doc.location?.protocol === 'https:' ? '; Secure' : ''}`;
  return {
    get: (name) => {
      const prefix = `${encodeURIComponent(name)}=`;
      const entry = doc.cookie.split('; ').find((part) => part.startsWith(prefix));
      return entry === undefined ? undefined : decodeURIComponent(entry.slice(prefix.length));
    },
    set: (name, value, expires) => {
      doc.cookie = `${encodeURIComponent(name)}=${encodeURIComponent(value)}; expires=${expires.toUTCString()}; ${attributes()}`;
    },
    remove: (name) => {
      doc.cookie = `${encodeURIComponent(name)}=; expires=Thu, 01 Jan 1970 00:00:00 GMT; ${attributes()}`;
    },
  };
};

export interface LoginCredentials {
  username: string;
  password: string;
  rememberPassword: boolean;
}

/** Reads a stored ciphertext; null while the cipher's code is not loaded yet (see ./passwordCipher.ts). */
const decryptPassword = (cipher: string | null | undefined): string | null => loadedPasswordCipher()?.decryptPassword(cipher) ?? null;

const parseJson = <T>(text: string | null): T | null => {
  if (!text) return null;
  try {
    return JSON.parse(text) as T;
  } catch {
    return null;
  }
};

export const createSession = (storage: KeyValueStorage, cookies: CookieJar, now: () => Date = () => new Date()) => {
  const forcedListeners = new Set<(reason: ForcedPasswordChange) => void>();
  const get = (key: keyof typeof SESSION_KEYS) => storage.getItem(SESSION_KEYS[key]);
  const set = (key: keyof typeof SESSION_KEYS, value: string | number | null | undefined) => {
    if (value === null || value === undefined) storage.removeItem(SESSION_KEYS[key]);
    else storage.setItem(SESSION_KEYS[key], String(value));
  };

  /** Fields shared by the login answer and `GET /login/current`. */
  const storeProfile = (answer: LoginAnswer) => {
    set('accountName', answer.accountName);
    set('currency', answer.currency ?? null);
    set('userInfo', JSON.stringify(answer.userInfo));
    set('termType', JSON.stringify(answer.termType ?? []));
    set('sysUserId', answer.userId);
    set('realName', answer.realName);
    set('roleId', answer.userInfo?.roleId ?? null);
    if (answer.version !== undefined) set('version', answer.version);
    const forced: ForcedPasswordChange | null = answer.firstLogin ? 'firstLogin' : answer.passwordExpired ? 'passwordExpired' : null;
    set('forcedPasswordChange', forced);
  };

  return {
    getToken(): { name: string; value: string } | null {
      const value = get('tokenValue');
      return value ? { name: get('tokenName') || 'rvm-token', value } : null;
    },
    isSignedIn: () => Boolean(get('tokenValue')),
    getLang(): Locale {
      return get('lang') === 'zh' ? 'zh' : 'en';
    },
    setLang: (lang: Locale) => set('lang', lang),
    getUserInfo: () => parseJson<UserInfo>(get('userInfo')),
    getRealName: () => get('realName') ?? '',
    getSysUserId: () => get('sysUserId'),
    getAccountName: () => get('accountName') ?? '',
    /** The current license account's currency (ISO 4217), null before the server said it (money then shows as a plain number). */
    getCurrency: () => get('currency'),
    setAccountName: (name: string) => set('accountName', name),
    getRememberedUsername: () => get('username') ?? '',
    getForcedPasswordChange: (): ForcedPasswordChange | null => {
      const value = get('forcedPasswordChange');
      return value === 'firstLogin' || value === 'passwordExpired' ? value : null;
    },
    setForcedPasswordChange: (reason: ForcedPasswordChange | null) => {
      set('forcedPasswordChange', reason);
      if (reason) for (const listener of forcedListeners) listener(reason);
    },
    /** Told when a forced change is set after the page loaded (a call answered 4007); answers the unsubscribe. */
    onForcedPasswordChange(listener: (reason: ForcedPasswordChange) => void): () => void {
      forcedListeners.add(listener);
      return () => {
        forcedListeners.delete(listener);
      };
    },
    /** The password in clear: the cookie first (the change-password dialog reads it), else localStorage. */
    getStoredPassword: () => decryptPassword(cookies.get(PASSWORD_COOKIE)) ?? decryptPassword(get('password')),
    /** The password of the remembered user, to prefill the login form (null until the cipher is loaded). */
    getRememberedPassword: () => (get('username') ? decryptPassword(cookies.get(PASSWORD_COOKIE)) : null),

    /**
     * A successful sign-in (docs/product-rules.md#sign-in-and-session). Synchronous when the cipher is loaded (the console); else the password is
     * written once its chunk arrives, and the answer resolves then.
     */
    storeLogin(answer: LoginAnswer, credentials: LoginCredentials): Promise<void> {
      set('tokenName', answer.tokenInfo?.tokenName ?? 'rvm-token');
      set('tokenValue', answer.tokenInfo?.tokenValue ?? null);
      storeProfile(answer);
      if (!get('lang')) set('lang', 'en');
      set('username', credentials.rememberPassword ? credentials.username : null);
      // docs/product-rules.md#sign-in-and-session: the password AES-encrypted with the fixed key, for the change-password dialog. The
      // ciphertext is no credential: the server accepts only the token and, at sign-in, the clear password.
      const storePassword = ({ encryptPassword }: PasswordCipher) => {
        const cipher = encryptPassword(credentials.password);
        set('password', cipher);
        // The 7-day cookie only for a user who asked to be remembered (it prefills the login form); any
        // other sign-in drops a cookie left by an earlier remembered user.
        if (credentials.rememberPassword) {
          cookies.set(PASSWORD_COOKIE, cipher, new Date(now().getTime() + PASSWORD_COOKIE_DAYS * 24 * 60 * 60 * 1000));
        } else {
          cookies.remove(PASSWORD_COOKIE);
        }
      };
      const loaded = loadedPasswordCipher();
      if (!loaded) return loadPasswordCipher().then(storePassword);
      storePassword(loaded);
      return Promise.resolve();
    },

    /** Applies a fresh `GET /login/current` answer (permissions may have changed). */
    refreshProfile: (answer: LoginAnswer) => storeProfile(answer),

    /** Clears the session data (logout and forced logout); the language and remembered user stay. */
    clear() {
      for (const key of SESSION_DATA_KEYS) storage.removeItem(SESSION_KEYS[key]);
      // The cookie keeps the password only for a user who asked to be remembered.
      if (!get('username')) cookies.remove(PASSWORD_COOKIE);
    },
  };
};

export type Session = ReturnType<typeof createSession>;
