// Logger options: no password or token ever reaches a log line. Bodies are never logged by Fastify;
// the token header and cookies are redacted, and query strings that carry a password or a token
// (PUT /user/password?password=…, /resetPassword?token=…) are cut from the logged URL.
import type { FastifyServerOptions } from 'fastify';

const SECRET_QUERY = /(^|[?&])[^=&]*(pass|token)[^=&]*=/i;

/** The URL as it may be logged. */
export const loggableUrl = (url: string): string => {
  const question = url.indexOf('?');
  if (question < 0) return url;
  return SECRET_QUERY.test(url.slice(question)) ? `${url.slice(0, question)}?[redacted]` : url;
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
  },
});
