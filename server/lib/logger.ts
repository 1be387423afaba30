// Logger options: no password, token or statement parameter ever reaches a log line. Bodies are never
// logged by Fastify; the token header and cookies are redacted; query strings with a parameter whose
// (percent-decoded) name carries a password, token or secret (PUT /user/password?password=…,
// /resetPassword?token=…, ?pa%73sword=…) are cut from the logged URL; and errors of failed statements
// are logged with the statement text but never its parameters (drizzle puts them in the message and
// in `params`) nor the database's `detail` (e.g. "Failing row contains (…)", the whole row).
import type { FastifyBaseLogger, FastifyError, FastifyServerOptions } from 'fastify';

const SECRET_NAME = /pass|pwd|token|secret/i;

/** A query-string name decoded as the server reads it (and again, for double encoding), or null when undecodable. */
const decodedName = (raw: string): string | null => {
  let name = raw.replace(/\+/g, ' ');
  for (let round = 0; round < 3 && name.includes('%'); round++) {
    try {
      name = decodeURIComponent(name);
    } catch {
      return null;
    }
  }
  return name;
};

/** The URL as it may be logged. */
export const loggableUrl = (url: string): string => {
  const question = url.indexOf('?');
  if (question < 0) return url;
  const secret = url
    .slice(question + 1)
    .split('&')
    .some((pair) => {
      const name = decodedName(pair.split('=', 1)[0]);
      return name === null || SECRET_NAME.test(name);
    });
  return secret ? `${url.slice(0, question)}?[redacted]` : url;
};

export const REDACT_PATHS = [
  'req.headers["rvm-token"]',
  'req.headers.authorization',
  'req.headers.cookie',
  'req.body',
  'res.headers["set-cookie"]',
  '*.password',
  '*.oldPassword',
  '*.confirmPassword',
  '*.token',
  '*.tokenValue',
];

interface LoggableRequest {
  method: string;
  url: string;
  id: string;
  ip?: string;
  headers?: Record<string, unknown>;
}

type ErrorLike = Error & Record<string, unknown>;

const isErrorLike = (value: unknown): value is ErrorLike =>
  value instanceof Error || (typeof value === 'object' && value !== null && typeof (value as { message?: unknown }).message === 'string');

/** Properties never logged: statement parameters and the row a constraint refused. */
const UNLOGGED = new Set(['params', 'parameters', 'detail']);
const MAX_CAUSES = 8;

/** Message and stack of one error without the parameters drizzle appends ("Failed query: …\nparams: …"). */
const withoutParameters = (error: ErrorLike) => {
  const message = String(error.message);
  const cut = message.indexOf('\nparams:');
  const clean = cut >= 0 ? message.slice(0, cut) : message;
  let stack = typeof error.stack === 'string' ? error.stack : undefined;
  if (stack && cut >= 0) {
    const at = stack.indexOf(message);
    stack = at >= 0 ? stack.slice(0, at) + clean + stack.slice(at + message.length) : `${error.name}: ${clean}`;
  }
  return { message: clean, stack };
};

/** pino's error serializer (type, message and stack with their causes, own properties) minus what must not be logged. */
export const serializeError = (error: unknown, depth = 0): unknown => {
  if (!isErrorLike(error)) return error;
  const chain: ErrorLike[] = [];
  for (let current: unknown = error; isErrorLike(current) && chain.length < MAX_CAUSES && !chain.includes(current); current = current.cause) {
    chain.push(current);
  }
  const texts = chain.map(withoutParameters);
  const constructorName = (error as { constructor?: { name?: unknown } }).constructor?.name;
  const serialized: Record<string, unknown> = {
    type: typeof constructorName === 'string' && constructorName ? constructorName : error.name,
    message: texts.map((text) => text.message).join(': '),
    stack: texts.map((text) => text.stack ?? `${text.message}`).join('\ncaused by: '),
  };
  if (Array.isArray(error.errors) && depth < 2) serialized.aggregateErrors = error.errors.slice(0, 20).map((inner) => serializeError(inner, depth + 1));
  for (const key in error) {
    if (UNLOGGED.has(key) || key === 'cause' || key === 'errors' || serialized[key] !== undefined) continue;
    const value = error[key];
    if (typeof value === 'function') continue;
    if (isErrorLike(value)) {
      if (depth < 2) serialized[key] = serializeError(value, depth + 1);
    } else serialized[key] = value;
  }
  return serialized;
};

export const loggerOptions = (level = 'info', stream?: NodeJS.WritableStream): FastifyServerOptions['logger'] => ({
  level,
  ...(stream ? { stream } : {}),
  redact: { paths: REDACT_PATHS, censor: '[redacted]' },
  serializers: {
    req: (request: LoggableRequest) => ({
      method: request.method,
      url: loggableUrl(request.url),
      reqId: request.id,
      remoteAddress: request.ip,
    }),
    err: (error: FastifyError) => serializeError(error) as { type: string; message: string; stack: string; [key: string]: unknown },
  },
});

/** A logger that drops everything: the default of jobs run outside a request (tests, a direct call). */
export const silentLog: FastifyBaseLogger = {
  level: 'silent',
  fatal: () => undefined,
  error: () => undefined,
  warn: () => undefined,
  info: () => undefined,
  debug: () => undefined,
  trace: () => undefined,
  silent: () => undefined,
  child: () => silentLog,
};
