// One place that turns every failure into the envelope: AppError, schema validation, body parsing,
// database constraint violations, and anything unexpected (1000, logged with the request id).
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { translate } from '../../i18n';
import { issuesFromAjv } from './ajv';
import { localeOf, type Envelope } from './envelope';
import { AppError, httpStatusOf, invalid, pgErrorCode } from './errors';

const fromFastifyError = (error: FastifyError): AppError | null => {
  if (error.validation) return invalid(issuesFromAjv(error.validation));
  switch (error.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return invalid([{ field: '(body)', message: 'validation.invalid', code: '1002' }]);
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return invalid([{ field: '(body)', message: 'validation.required', code: '1001' }]);
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
      return invalid([{ field: '(body)', message: 'validation.invalid', code: '1004' }]);
    default:
      break;
  }
  // Body-parser syntax errors and other client errors Fastify already classified.
  if (error.statusCode && error.statusCode >= 400 && error.statusCode < 500) {
    return invalid([{ field: '(body)', message: 'validation.invalid', code: '1004' }]);
  }
  return null;
};

const fromDatabaseError = (error: unknown): AppError | null => {
  switch (pgErrorCode(error)) {
    case '23505':
      return new AppError('2002');
    case '23503':
      return new AppError('5002');
    // null sent for a value the record cannot be without
    case '23502':
      return new AppError('1001');
    case '22001':
      return new AppError('1002');
    case '22P02':
    case '22003':
    case '22007':
    case '22008':
      return new AppError('1003');
    // NUL in text (22021) or in JSON turned text (22P05): registerInputGuards refuses them first; this
    // catches any other way in.
    case '22021':
    case '22P05':
      return new AppError('1004');
    default:
      return null;
  }
};

/** The failure's envelope in the request's language (also for answers written outside Fastify's reply, server/files/resumable.ts). */
export const failureEnvelope = (request: FastifyRequest, failure: AppError): Envelope => {
  const locale = localeOf(request);
  const issues = failure.issues?.map((issue) => ({ field: issue.field, message: translate(locale, issue.message, issue.values) }));
  const catalogue = translate(locale, `errors.${failure.code}`, failure.values);
  // "message: detail" with the language's own punctuation (Chinese full-width ： and ；)
  const detail = issues?.map((issue) => issue.message).join(translate(locale, 'app.http.issueSeparator'));
  const resMsg = failure.resMsg ?? (detail ? translate(locale, 'app.http.withDetail', { message: catalogue, detail }) : catalogue);
  return { resCode: failure.code, resMsg, resData: issues ? { issues } : (failure.resData ?? null) };
};

export const sendFailure = (request: FastifyRequest, reply: FastifyReply, failure: AppError) =>
  reply.code(httpStatusOf(failure.code)).type('application/json; charset=utf-8').send(failureEnvelope(request, failure));

export const registerErrorHandler = (app: FastifyInstance) => {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    const failure = error instanceof AppError ? error : (fromFastifyError(error) ?? fromDatabaseError(error));
    if (failure) return sendFailure(request, reply, failure);
    // Logged through logger.ts's `err` serializer: a failed statement's SQL and reason, never its parameters.
    request.log.error({ err: error }, 'unexpected failure');
    return sendFailure(request, reply, new AppError('1000', { resData: { requestId: request.id } }));
  });
};

/** Unknown API address (4004); the static plugin's SPA fallback handles the rest. */
export const notFound = (request: FastifyRequest, reply: FastifyReply) => sendFailure(request, reply, new AppError('4004'));
