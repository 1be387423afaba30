// Validation derived from a declaration, shared by the console (form validation) and the server
// (request validation). Answers are i18n keys under `validation.` plus interpolation values, so each
// side renders them in the user's language.
import { patternMatches } from './pattern';
import type { FieldDeclaration, ResourceDeclaration } from './types';

export interface ValidationIssue {
  field: string;
  message: string;
  values?: Record<string, string | number>;
  /** Catalogue code the server answers with for this issue (docs/product-rules.md#error-catalogue). */
  code: '1001' | '1002' | '1003' | '1004';
}

/** The fixed punctuation set of the password rule's symbol (docs/product-rules.md#validation-rules). */
export const PASSWORD_SYMBOLS = '!@#$%^&*()_+-=[]{};\':",./<>?\\|`~';
const CHINESE = /[\u3400-\u9fff\uf900-\ufaff]/;

/** The password rule (docs/product-rules.md#validation-rules); returns the first failing message key, or null. */
export const checkPassword = (value: unknown): ValidationIssue['message'] | null => {
  if (typeof value !== 'string' || value.length === 0) return 'validation.required';
  if (value.length < 6 || value.length > 20) return 'validation.passwordLength';
  if (!/[0-9]/.test(value)) return 'validation.digit';
  if (!/[A-Za-z]/.test(value)) return 'validation.letter';
  if (![...value].some((ch) => PASSWORD_SYMBOLS.includes(ch))) return 'validation.symbol';
  if (CHINESE.test(value)) return 'validation.noChinese';
  return null;
};

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const PHONE = /^\+?[0-9][0-9 -]{4,19}$/;

const isEmpty = (value: unknown) => value === undefined || value === null || (typeof value === 'string' && value.trim() === '') || (Array.isArray(value) && value.length === 0);

/** `value` written with at most `scale` decimals (0.125 has 3: refused for scale 2, never rounded). */
export const hasAtMostDecimals = (value: number, scale: number) => Number(value.toFixed(Math.min(Math.max(scale, 0), 20))) === value;

/** Validates one field's value; `mode` decides whether requiredOnCreate applies. */
export const validateField = (name: string, field: FieldDeclaration, value: unknown, mode: 'create' | 'edit'): ValidationIssue | null => {
  const required = field.required || (mode === 'create' && field.requiredOnCreate);
  if (isEmpty(value)) return required ? { field: name, message: 'validation.required', code: '1001' } : null;

  switch (field.type) {
    case 'number': {
      if (typeof value !== 'number' || Number.isNaN(value)) return { field: name, message: 'validation.number', code: '1003' };
      if (field.integer && !Number.isInteger(value)) return { field: name, message: 'validation.integer', code: '1003' };
      if (field.scale !== undefined && !hasAtMostDecimals(value, field.scale)) {
        return { field: name, message: 'validation.scale', values: { scale: field.scale }, code: '1004' };
      }
      if (field.min !== undefined && value < field.min) return { field: name, message: 'validation.min', values: { min: field.min }, code: '1004' };
      if (field.max !== undefined && value > field.max) return { field: name, message: 'validation.max', values: { max: field.max }, code: '1004' };
      return null;
    }
    case 'boolean':
      return typeof value === 'boolean' ? null : { field: name, message: 'validation.boolean', code: '1003' };
    case 'multiReference':
      return Array.isArray(value) ? null : { field: name, message: 'validation.list', code: '1003' };
    case 'enum':
      return field.options?.includes(value as string | number) ? null : { field: name, message: 'validation.enum', code: '1004' };
    case 'reference':
    case 'treeParent':
      return typeof value === 'number' || typeof value === 'string' ? null : { field: name, message: 'validation.reference', code: '1003' };
    // an uploaded file's id (docs/files.md); whose it is, the server checks
    case 'image':
    case 'file':
      return Number.isInteger(value) && (value as number) > 0 ? null : { field: name, message: 'validation.file', code: '1003' };
    default:
      break;
  }
  if (typeof value !== 'string') return { field: name, message: 'validation.text', code: '1003' };
  if (field.type === 'password' && field.passwordRule !== false) {
    const message = checkPassword(value);
    if (message) return { field: name, message, code: message === 'validation.passwordLength' ? '1002' : '1004' };
  }
  const min = field.minLength ?? 0;
  const max = field.maxLength ?? Number.POSITIVE_INFINITY;
  if (value.length < min || value.length > max) {
    return Number.isFinite(max)
      ? { field: name, message: 'validation.lengthBetween', values: { min, max }, code: '1002' }
      : { field: name, message: 'validation.minLength', values: { min }, code: '1002' };
  }
  if (field.type === 'email' && !EMAIL.test(value)) return { field: name, message: 'validation.email', code: '1004' };
  if (field.type === 'phone' && !PHONE.test(value)) return { field: name, message: 'validation.phone', code: '1004' };
  if ((field.type === 'date' || field.type === 'datetime') && Number.isNaN(Date.parse(value))) {
    return { field: name, message: 'validation.date', code: '1003' };
  }
  for (const pattern of field.patterns ?? []) {
    const matches = patternMatches(pattern.regex, value);
    // A pattern that cannot run (stored before RE2 checked it) refuses every value: fail closed.
    if (matches === null || matches === Boolean(pattern.negate)) return { field: name, message: pattern.message, code: '1004' };
  }
  return null;
};

const comparable = (value: unknown): number | null => {
  if (typeof value === 'number') return value;
  if (value instanceof Date) return value.getTime();
  if (typeof value === 'string' && value !== '') {
    // Times of day ('HH:mm') compare as minutes, so 'off time after on time' works on them too.
    const clock = /^(\d{1,2}):(\d{2})$/.exec(value);
    if (clock) return Number(clock[1]) * 60 + Number(clock[2]);
    const time = Date.parse(value);
    if (!Number.isNaN(time)) return time;
    const number = Number(value);
    return Number.isNaN(number) ? null : number;
  }
  return null;
};

/** Validates a whole record (fields the client may write, then cross-field rules). */
export const validateRecord = (declaration: Pick<ResourceDeclaration, 'fields' | 'rules'>, record: Record<string, unknown>, mode: 'create' | 'edit'): ValidationIssue[] => {
  const issues: ValidationIssue[] = [];
  for (const [name, field] of Object.entries(declaration.fields)) {
    if (field.readOnly) continue;
    // On edit, absent fields keep their stored value, so only present ones are checked.
    if (mode === 'edit' && !(name in record)) continue;
    const issue = validateField(name, field, record[name], mode);
    if (issue) issues.push(issue);
  }
  return [...issues, ...ruleIssues(declaration, record, new Set(issues.map((issue) => issue.field)))];
};

/**
 * The declaration's cross-field rules on `record`. The server also runs them on the stored record
 * merged with an edit, so a rule whose other side is not in the request still holds.
 */
export const ruleIssues = (
  declaration: Pick<ResourceDeclaration, 'rules'>,
  record: Record<string, unknown>,
  /** Fields that already failed: their rules are not reported again. */
  failed: ReadonlySet<string> = new Set(),
): ValidationIssue[] => {
  const issues: ValidationIssue[] = [];
  for (const rule of declaration.rules ?? []) {
    if (failed.has(rule.field)) continue;
    const a = record[rule.field];
    const b = record[rule.other];
    if (isEmpty(a) || isEmpty(b)) continue;
    if (rule.kind === 'equals') {
      if (a !== b) issues.push({ field: rule.field, message: rule.message, code: '1004' });
      continue;
    }
    const x = comparable(a);
    const y = comparable(b);
    if (x === null || y === null) continue;
    const ok = rule.kind === 'notGreaterThan' ? x <= y : x > y;
    if (!ok) issues.push({ field: rule.field, message: rule.message, code: '1004' });
  }
  return issues;
};
