// The console's http client (contract in ./httpTypes.ts): the request and answer conventions of
// docs/ARCHITECTURE.md#console-http-client and docs/product-rules.md#error-catalogue live here and nowhere
// else. `fetch` is injectable so every rule is unit-testable.
// English errors only (not the whole catalogue): the login page's bundle carries this client.
import { errors as englishErrors } from '../../i18n/en/errors';
import { ApiError, type HttpClient, type Query, type RequestOptions } from './httpTypes';
import type { Session } from './session';

export type NotifyType = 'error' | 'success' | 'info' | 'warning';
/** Shows a toast; the message is already translated. */
export type Notify = (message: string, options: { type: NotifyType; autoHideDuration?: number }) => void;
/** Translates a catalogue key; answers the key itself when the catalogue has no such entry. */
export type Translate = (key: string, values?: Record<string, string | number>) => string;

export const ERROR_TOAST_MS = 5000;
/** Base prefix of every call (docs/ARCHITECTURE.md#console-http-client). */
export const API_BASE_URL = '/test-api';
export const REQUEST_TIMEOUT_MS = 60_000;
export const SUCCESS_CODES: ReadonlySet<string> = new Set(['0', '00000']);

/** The server refuses every call but the password change until it is done (first login, reset or expired password). */
export const PASSWORD_CHANGE_REQUIRED = '4007';

export const isForcedLogoutCode = (code: string): boolean => {
  const value = Number(code);
  return /^\d+$/.test(code) && value >= 11011 && value <= 11016;
};

export interface HttpClientOptions {
  fetch?: typeof fetch;
  baseUrl?: string;
  session: Pick<Session, 'getToken' | 'getLang' | 'clear'> & Partial<Pick<Session, 'setForcedPasswordChange'>>;
  notify: Notify;
  translate: Translate;
  /** Called after the session was cleared by a forced-logout code; the app reloads the page. */
  onForcedLogout: () => void;
  timeoutMs?: number;
}

// ---------------------------------------------------------------- query strings

/**
 * Flattens GET parameters (docs/ARCHITECTURE.md#console-http-client): nested objects become `name[key]`, null/undefined are skipped,
 * arrays of plain values are joined with commas (`ids=1,2`, the form ARCHITECTURE.md's `/list?ids=`
 * uses), arrays holding objects become `name[0][key]`. Dates are sent as ISO strings.
 */
export const flattenQuery = (query: Query | undefined, prefix = ''): Array<[string, string]> => {
  const pairs: Array<[string, string]> = [];
  for (const [key, value] of Object.entries(query ?? {})) {
    const name = prefix ? `${prefix}[${key}]` : key;
    if (value === null || value === undefined) continue;
    if (value instanceof Date) pairs.push([name, value.toISOString()]);
    else if (Array.isArray(value)) {
      const present = value.filter((item) => item !== null && item !== undefined);
      if (present.some((item) => typeof item === 'object' && !(item instanceof Date))) {
        pairs.push(...flattenQuery(Object.fromEntries(present.map((item, index) => [String(index), item])), name));
      } else {
        pairs.push([name, present.map((item) => (item instanceof Date ? item.toISOString() : String(item))).join(',')]);
      }
    } else if (typeof value === 'object') pairs.push(...flattenQuery(value as Query, name));
    else pairs.push([name, String(value)]);
  }
  return pairs;
};

/** Query string with a leading `?` (empty when nothing to send); encodeURIComponent keeps `+` unambiguous. */
export const buildQueryString = (query: Query | undefined): string => {
  const pairs = flattenQuery(query);
  if (pairs.length === 0) return '';
  return `?${pairs.map(([key, value]) => `${encodeURIComponent(key)}=${encodeURIComponent(value)}`).join('&')}`;
};

// ---------------------------------------------------------------- answers

const ISO_DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2})(?::(\d{2}(?:\.\d{1,9})?))?(Z|([+-])(\d{2})(?::?(\d{2}))?)?$/;
const DAYS_IN_MONTH = [31, 0, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];
const isLeapYear = (year: number) => year % 400 === 0 || (year % 4 === 0 && year % 100 !== 0);
const pad = (value: number, length = 2) => String(value).padStart(length, '0');

/**
 * The instant an ISO-like date-time stands for (without an offset: local time), or null when a part is out
 * of range (month 13, 30 February, 25:00, an offset's minute 60). date-fns' parseISO rules for these forms,
 * written out: the login page's bundle carries this client, and date-fns' parser is three times its size.
 */
export const parseDateTime = (value: string): Date | null => {
  const parts = ISO_DATE_TIME.exec(value);
  if (!parts) return null;
  const [year, month, day, hours, minutes] = parts.slice(1, 6).map(Number);
  const seconds = Number(parts[6] ?? 0);
  const [zone, sign, offsetHours, offsetMinutes = '0'] = parts.slice(7);
  if (month < 1 || month > 12 || day < 1 || day > (DAYS_IN_MONTH[month - 1] || (isLeapYear(year) ? 29 : 28))) return null;
  if (hours === 24 ? minutes !== 0 || seconds !== 0 : hours > 24 || minutes > 59 || seconds >= 60) return null;
  if (Number(offsetMinutes) > 59) return null;
  const date = new Date(0);
  date.setUTCFullYear(year, month - 1, day); // years below 100 stay as written
  const instant = date.getTime() + ((hours * 60 + minutes) * 60 + seconds) * 1000;
  if (zone === 'Z') return new Date(instant);
  if (zone) return new Date(instant + (sign === '+' ? -1 : 1) * (Number(offsetHours) * 60 + Number(offsetMinutes)) * 60_000);
  // no offset: the same wall-clock reading in local time
  const wall = new Date(instant);
  const local = new Date(0);
  local.setFullYear(wall.getUTCFullYear(), wall.getUTCMonth(), wall.getUTCDate());
  local.setHours(wall.getUTCHours(), wall.getUTCMinutes(), wall.getUTCSeconds(), wall.getUTCMilliseconds());
  return local;
};

/** `YYYY-MM-DD HH:mm:ss` in local time (the digits date-fns' format() writes for these tokens). */
export const formatLocalDateTime = (date: Date): string => {
  const year = date.getFullYear();
  return `${pad(year > 0 ? year : 1 - year, 4)}-${pad(date.getMonth() + 1)}-${pad(date.getDate())} ${pad(date.getHours())}:${pad(date.getMinutes())}:${pad(date.getSeconds())}`;
};

/** ISO-like date-time strings anywhere in the payload become 'YYYY-MM-DD HH:mm:ss' local time (docs/ARCHITECTURE.md#console-http-client). */
export const convertDateTimes = (value: unknown): unknown => {
  if (typeof value === 'string') {
    const date = parseDateTime(value);
    return date && !Number.isNaN(date.getTime()) ? formatLocalDateTime(date) : value;
  }
  if (Array.isArray(value)) return value.map(convertDateTimes);
  if (value !== null && typeof value === 'object' && Object.getPrototypeOf(value) === Object.prototype) {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, convertDateTimes(item)]));
  }
  return value;
};

export interface Envelope {
  code: string;
  message: string;
  data: unknown;
}

/** Reads `resCode`/`code`, `resMsg`/`msg`/`message` and `resData`/`data`; null when the body is no envelope. */
export const readEnvelope = (body: unknown): Envelope | null => {
  if (body === null || typeof body !== 'object') return null;
  const record = body as Record<string, unknown>;
  const code = record.resCode ?? record.code;
  if (code === undefined || code === null) return null;
  const message = record.resMsg ?? record.msg ?? record.message;
  return {
    code: String(code),
    message: typeof message === 'string' ? message : '',
    data: 'resData' in record ? record.resData : record.data,
  };
};

const normalise = (text: string) =>
  text
    .trim()
    .replace(/[.!。！]+$/, '')
    .toLowerCase();

/** Issue messages of a validation failure (`resData.issues`, already translated by the server). */
const issueMessages = (data: unknown): string[] => {
  const issues = (data as { issues?: unknown } | null | undefined)?.issues;
  if (!Array.isArray(issues)) return [];
  return issues
    .map((issue) => (issue && typeof issue === 'object' ? (issue as { message?: unknown }).message : undefined))
    .filter((message): message is string => typeof message === 'string' && message !== '');
};

/**
 * The toast text of a failure (docs/product-rules.md#error-catalogue): the catalogue's `errors.<code>`, else the server message.
 * A server message more specific than the catalogue's generic text is appended after ': '; code 6
 * gets the attempts-left text with N taken from the server message.
 */
export const failureMessage = (envelope: Envelope, translate: Translate): string => {
  const key = `errors.${envelope.code}`;
  const catalogueText = translate(key);
  const serverText = envelope.message.trim();
  if (catalogueText === key) return serverText || translate('errors.1000');
  // a catalogue text with placeholders is whole only as the server filled it in (9603: the sizes expected and found)
  if (serverText && /%\{\w+\}/.test(catalogueText)) return serverText;

  let message = catalogueText;
  const issues = issueMessages(envelope.data);
  // The generic text in either language is no detail (a server may answer in English).
  const english = (englishErrors as Record<string, unknown>)[envelope.code];
  const generic = new Set([normalise(catalogueText), normalise(typeof english === 'string' ? english : key)]);
  const detail = serverText && !generic.has(normalise(serverText)) ? serverText : issues.join('; ');
  if (envelope.code === '6') {
    const attempts = /(\d+)/.exec(serverText)?.[1];
    if (attempts !== undefined) {
      message = translate('app.http.withAttempts', { message, attempts: translate('errors.attemptsLeft', { count: attempts }) });
    }
  } else if (detail && normalise(detail).startsWith(normalise(catalogueText))) {
    message = detail; // the server already says the generic part, then more
  } else if (detail) {
    message = translate('app.http.withDetail', { message, detail });
  }
  return message;
};

// ---------------------------------------------------------------- client

/** Signal aborted by the caller's signal or by the time-out; `timedOut()` tells which. */
export const timeoutSignal = (timeoutMs: number, outer?: AbortSignal) => {
  const controller = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort();
  }, timeoutMs);
  const onOuterAbort = () => controller.abort();
  if (outer?.aborted) controller.abort();
  else outer?.addEventListener('abort', onOuterAbort, { once: true });
  return {
    signal: controller.signal,
    timedOut: () => timedOut,
    dispose: () => {
      clearTimeout(timer);
      outer?.removeEventListener('abort', onOuterAbort);
    },
  };
};

export const requestHeaders = (session: HttpClientOptions['session'], extra: Record<string, string> = {}) => {
  const headers: Record<string, string> = { Accept: 'application/json', lang: session.getLang(), ...extra };
  const token = session.getToken();
  if (token) headers[token.name] = token.value;
  return headers;
};

/**
 * What the console does with an envelope, for every client that receives one (JSON requests, uploads): its data
 * on success; a forced-logout code clears the session (docs/product-rules.md#forced-logout: no message); a forced password change opens its
 * dialog (AccountDialogs, no toast); anything else fails in the user's language through `fail` (a toast unless silent).
 */
export const settleEnvelope = <T>(
  envelope: Envelope,
  status: number | undefined,
  { session, onForcedLogout, translate }: Pick<HttpClientOptions, 'session' | 'onForcedLogout' | 'translate'>,
  fail: (error: ApiError) => never,
): T => {
  if (SUCCESS_CODES.has(envelope.code)) return convertDateTimes(envelope.data) as T;
  if (isForcedLogoutCode(envelope.code)) {
    session.clear();
    onForcedLogout();
    throw new ApiError(envelope.code, envelope.message, envelope.data, status);
  }
  if (envelope.code === PASSWORD_CHANGE_REQUIRED) {
    const reason = (envelope.data as { reason?: unknown } | null)?.reason === 'passwordExpired' ? 'passwordExpired' : 'firstLogin';
    session.setForcedPasswordChange?.(reason);
    throw new ApiError(envelope.code, failureMessage(envelope, translate), envelope.data, status);
  }
  return fail(new ApiError(envelope.code, failureMessage(envelope, translate), envelope.data, status));
};

export const createHttpClient = (options: HttpClientOptions): HttpClient => {
  const { session, notify, translate } = options;
  const baseUrl = options.baseUrl ?? API_BASE_URL;
  const timeoutMs = options.timeoutMs ?? REQUEST_TIMEOUT_MS;
  const doFetch = options.fetch ?? ((input: RequestInfo | URL, init?: RequestInit) => globalThis.fetch(input, init));

  const fail = (error: ApiError, silent: boolean | undefined): never => {
    if (!silent) notify(error.message, { type: 'error', autoHideDuration: ERROR_TOAST_MS });
    throw error;
  };

  const request = async <T>(method: 'GET' | 'POST' | 'PUT' | 'DELETE', path: string, requestOptions: RequestOptions = {}): Promise<T> => {
    const { query, body, silent, signal } = requestOptions;
    const hasBody = body !== undefined && method !== 'GET';
    const url = `${baseUrl}${path}${buildQueryString(query)}`;
    const timer = timeoutSignal(timeoutMs, signal);
    let status: number | undefined;
    let parsed: unknown;
    try {
      const response = await doFetch(url, {
        method,
        headers: requestHeaders(session, hasBody ? { 'Content-Type': 'application/json' } : {}),
        body: hasBody ? JSON.stringify(body) : undefined,
        signal: timer.signal,
      });
      status = response.status;
      const text = await response.text();
      parsed = text === '' ? null : JSON.parse(text);
    } catch (cause) {
      // The caller cancelled: no toast, let the caller's abort handling run.
      if (signal?.aborted && !timer.timedOut()) throw cause;
      const code = timer.timedOut() ? 'timeout' : 'network';
      return fail(new ApiError(code, translate('errors.network'), undefined, status), silent);
    } finally {
      timer.dispose();
    }

    const envelope = readEnvelope(parsed);
    if (!envelope) {
      if (status !== undefined && status >= 200 && status < 300) return convertDateTimes(parsed) as T;
      return fail(new ApiError('network', translate('errors.network'), parsed, status), silent);
    }
    return settleEnvelope<T>(envelope, status, options, (error) => fail(error, silent));
  };

  return {
    request,
    get: <T>(path: string, query?: Query, opts?: RequestOptions) => request<T>('GET', path, { ...opts, query: query ?? opts?.query }),
    post: <T>(path: string, body?: unknown, opts?: RequestOptions) => request<T>('POST', path, { ...opts, body }),
    put: <T>(path: string, body?: unknown, opts?: RequestOptions) => request<T>('PUT', path, { ...opts, body }),
    del: <T>(path: string, query?: Query, opts?: RequestOptions) => request<T>('DELETE', path, { ...opts, query: query ?? opts?.query }),
  };
};
