// Failures as values: route code throws AppError with a catalogue code, the error handler turns it
// into the envelope with the translated message and the contract's HTTP status.
import type { ValidationIssue } from '../../resources/validation';
import type { errors } from '../../i18n/en/errors';

/** Catalogue codes (i18n/en/errors.ts keys that are codes, not console-only texts). */
export type ErrorCode = Exclude<keyof typeof errors, 'network' | 'download' | 'loginFailed' | 'attemptsLeft' | 'wrongPasswordWithAttempts' | '00000'>;

/** A field issue before translation: an i18n key under `validation.` plus interpolation values. */
export type Issue = Pick<ValidationIssue, 'field' | 'message' | 'values'> & { code?: ValidationIssue['code'] };

export class AppError extends Error {
  readonly code: ErrorCode;
  readonly issues?: Issue[];
  /** Replaces the catalogue message (already translated), e.g. code 6 with the attempts left. */
  readonly resMsg?: string;
  readonly resData?: unknown;
  /** Values of the catalogue message's `%{name}` placeholders (e.g. 9603's expected and actual sizes). */
  readonly values?: Record<string, string | number>;

  constructor(code: ErrorCode, options: { issues?: Issue[]; resMsg?: string; resData?: unknown; values?: Record<string, string | number> } = {}) {
    super(`failure ${code}`);
    this.code = code;
    this.issues = options.issues;
    this.resMsg = options.resMsg;
    this.resData = options.resData;
    this.values = options.values;
  }
}

/** A validation failure: the code of the first issue (1001/1002/1003/1004), all issues listed. */
export const invalid = (issues: Issue[]): AppError => new AppError(issues[0]?.code ?? '1004', { issues });

export const invalidField = (field: string, message: string, code: Issue['code'] = '1004', values?: Issue['values']) => invalid([{ field, message, code, values }]);

/** ARCHITECTURE.md "Wire conventions": the HTTP status of each failure kind. */
export const httpStatusOf = (code: string): number => {
  if (/^1101[1-6]$/.test(code)) return 401;
  switch (code) {
    case '4003':
      return 403;
    case '2003':
    case '4004':
    case '6001':
      return 404;
    case '2002':
    case '3':
      return 409;
    case '7':
    case '4029':
      return 429;
    case '4007':
      return 403;
    // package downloads (server/deployments/download.ts): a machine's credentials, the link, its expiry
    case '8105':
      return 401;
    case '8102':
    case '8104':
      return 403;
    case '8103':
      return 410;
    case '1000':
    case 'B0001':
      return 500;
    default:
      return 400;
  }
};

/** PostgreSQL error codes (drizzle wraps driver errors; the original is the cause). */
export const pgErrorCode = (error: unknown): string | undefined => {
  for (let current: unknown = error, depth = 0; current && depth < 4; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code)) return code;
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
};

/** The declaration's "no such record" code (e.g. 6001 for machines), else 2003. */
export const notFound = (model: { declaration: { notFoundCode?: string } }) => new AppError((model.declaration.notFoundCode ?? '2003') as ErrorCode);
