// The wire envelope of every answer (ARCHITECTURE.md) and its JSON schemas for the OpenAPI document.
import type { FastifyRequest } from 'fastify';
import { pickLocale, translate, type Locale } from '../../i18n';

export const SUCCESS = '00000';

export interface Envelope<T = unknown> {
  resCode: string;
  resMsg: string;
  resData: T;
}

export const localeOf = (request: FastifyRequest): Locale => pickLocale(request.headers.lang, request.headers['accept-language']);

export const ok = <T>(request: FastifyRequest, resData: T): Envelope<T> => ({
  resCode: SUCCESS,
  resMsg: translate(localeOf(request), `errors.${SUCCESS}`),
  resData,
});

type JsonSchema = Record<string, unknown>;

/** `{ resCode, resMsg, resData }` with `resData` described by `data`. */
export const envelopeSchema = (data: JsonSchema, description = 'Success (resCode "00000")'): JsonSchema => ({
  description,
  type: 'object',
  required: ['resCode', 'resMsg', 'resData'],
  properties: {
    resCode: { type: 'string', description: '"00000" on success' },
    resMsg: { type: 'string' },
    resData: data,
  },
});

const failureSchema = (description: string): JsonSchema => ({
  description,
  type: 'object',
  properties: {
    resCode: { type: 'string', description: 'Catalogue code (i18n/en/errors.ts)' },
    resMsg: { type: 'string', description: 'Message in the request language (lang header or Accept-Language)' },
    resData: {
      description: 'null, or `{ issues: [{ field, message }] }` for validation failures (1001 to 1004)',
      nullable: true,
    },
  },
});

/** The header that carries the session token (the login answer's `tokenInfo.tokenName`). */
export const TOKEN_NAME = 'rvm-token';

export const FORCED_LOGOUT_TEXT =
  'Forced logout (the console clears the session): 11011 no token, 11012 unknown or malformed token, 11013 idle time-out, ' +
  '11014 absolute lifetime over, 11015 revoked (logout, password change, user disabled or deleted, admin reset), ' +
  '11016 superseded (more than MAX_SESSIONS_PER_USER sessions).';

/** Failure answers documented on every route. */
export const failureResponses = (withToken: boolean): Record<string, JsonSchema> => ({
  '4xx': failureSchema('Failure: validation 1001 to 1004 (400), business rules (400), 4003 (403), 2003/4004 (404), 2002 (409), 7 (429), 4029 flood guard (429 with Retry-After)'),
  ...(withToken ? { '401': failureSchema(FORCED_LOGOUT_TEXT) } : {}),
  '5xx': failureSchema('1000: unexpected failure (logged with the request id)'),
});
