// The type editor's own checks, before anything is sent (the server checks the same and more; its
// issues come back on the same inputs, see ./editorModel issuePath). Messages are i18n keys.
import { patternProblem } from '../../resources/pattern';
import {
  MAX_SCALE,
  FIELD_NAME,
  MIME_TYPE,
  OPTION_VALUE,
  RESERVED_FIELDS,
  TEXT_KINDS,
  TYPE_NAME,
  acceptList,
  maxMegabytesOf,
  setError,
  type FieldValues,
  type TypeFormValues,
} from './editorModel';

type Errors = Record<string, unknown>;

const REQUIRED = 'validation.required';
const V = 'resourceTypes.validation.';

const blank = (value: unknown) => value === undefined || value === null || (typeof value === 'string' && value.trim() === '');
const numberOf = (value: unknown) => (blank(value) ? undefined : Number(value));

const REGEX_MESSAGES = { 'errors.9405': `${V}regexTooLong`, 'errors.9406': `${V}regexUnsupported`, 'errors.9407': `${V}regexInvalid` } as const;

/** The regex runs on RE2, as the server will check (resources/pattern.ts). */
const regexError = (regex: string | undefined): string | null => {
  if (blank(regex)) return REQUIRED;
  const problem = patternProblem(regex!);
  return problem ? REGEX_MESSAGES[problem] : null;
};

const checkRange = (errors: Errors, base: string, low: unknown, high: unknown, lowName: string) => {
  const a = numberOf(low);
  const b = numberOf(high);
  if (a !== undefined && b !== undefined && a > b) setError(errors, `${base}.${lowName}`, `${V}notAbove`);
};

/** Size in MB above 0 and at most the kind's maximum; MIME types (an image field: images only). Messages carry their values. */
const checkFileLimits = (errors: Errors, base: string, field: FieldValues, kind: 'image' | 'file') => {
  const megabytes = numberOf(field.maxMegabytes);
  const max = maxMegabytesOf(kind);
  if (megabytes !== undefined && (Number.isNaN(megabytes) || megabytes <= 0)) setError(errors, `${base}.maxMegabytes`, `${V}positive`);
  else if (megabytes !== undefined && megabytes > max) setError(errors, `${base}.maxMegabytes`, { message: `${V}maxMegabytes`, args: { max } });
  const wrong = acceptList(field.accept).find((type) => !MIME_TYPE.test(type) || (kind === 'image' && !type.startsWith('image/')));
  if (wrong) setError(errors, `${base}.accept`, { message: MIME_TYPE.test(wrong) ? `${V}imageTypesOnly` : `${V}mimeFormat`, args: { type: wrong } });
};

const checkField = (errors: Errors, field: FieldValues, index: number, names: string[]) => {
  const base = `fields.${index}`;
  const name = field.name?.trim() ?? '';
  if (!name) setError(errors, `${base}.name`, REQUIRED);
  else if (!FIELD_NAME.test(name)) setError(errors, `${base}.name`, `${V}fieldNameFormat`);
  else if (RESERVED_FIELDS.includes(name)) setError(errors, `${base}.name`, `${V}fieldNameReserved`);
  else if (names.indexOf(name) !== index) setError(errors, `${base}.name`, `${V}fieldNameDuplicate`);
  if (!field.type) setError(errors, `${base}.type`, REQUIRED);
  if (blank(field.labelEn)) setError(errors, `${base}.labelEn`, REQUIRED);
  if (blank(field.labelZh)) setError(errors, `${base}.labelZh`, REQUIRED);
  if (TEXT_KINDS.includes(field.type)) {
    for (const key of ['minLength', 'maxLength'] as const) {
      const value = numberOf(field[key]);
      if (value !== undefined && (!Number.isInteger(value) || value < 0)) setError(errors, `${base}.${key}`, `${V}wholeNumber`);
    }
    checkRange(errors, base, field.minLength, field.maxLength, 'minLength');
  }
  if (field.type === 'number') {
    checkRange(errors, base, field.min, field.max, 'min');
    const scale = numberOf(field.scale);
    if (scale !== undefined && (!Number.isInteger(scale) || scale < 0 || scale > MAX_SCALE)) setError(errors, `${base}.scale`, `${V}scale`);
    if (!blank(field.default) && Number.isNaN(Number(field.default))) setError(errors, `${base}.default`, `${V}defaultNumber`);
  }
  if (field.type === 'enum') {
    const options = field.options ?? [];
    if (options.length === 0) setError(errors, `${base}.type`, `${V}optionsRequired`);
    const values = options.map((option) => option.value?.trim() ?? '');
    options.forEach((option, optionIndex) => {
      const at = `${base}.options.${optionIndex}`;
      const value = values[optionIndex];
      if (!value) setError(errors, `${at}.value`, REQUIRED);
      else if (!OPTION_VALUE.test(value)) setError(errors, `${at}.value`, `${V}optionFormat`);
      else if (values.indexOf(value) !== optionIndex) setError(errors, `${at}.value`, `${V}optionDuplicate`);
      if (blank(option.labelEn)) setError(errors, `${at}.labelEn`, REQUIRED);
      if (blank(option.labelZh)) setError(errors, `${at}.labelZh`, REQUIRED);
    });
    if (!blank(field.default) && !values.includes(String(field.default).trim())) setError(errors, `${base}.default`, `${V}defaultOption`);
  }
  if ((field.type === 'reference' || field.type === 'multiReference') && blank(field.reference)) setError(errors, `${base}.reference`, `${V}referenceRequired`);
  if (field.type === 'image' || field.type === 'file') checkFileLimits(errors, base, field, field.type);
  (field.patterns ?? []).forEach((pattern, patternIndex) => {
    const at = `${base}.patterns.${patternIndex}`;
    const problem = regexError(pattern.regex);
    if (problem) setError(errors, `${at}.regex`, problem);
    if (blank(pattern.messageEn)) setError(errors, `${at}.messageEn`, REQUIRED);
    if (blank(pattern.messageZh)) setError(errors, `${at}.messageZh`, REQUIRED);
  });
};

/**
 * Errors in react-admin's form shape (nested by form path), empty when the form may be sent.
 * `codeNames`: names of code-declared resources, which a configured type may not take.
 */
export const validateTypeForm = (values: TypeFormValues, codeNames: readonly string[], isNew: boolean): Errors => {
  const errors: Errors = {};
  const name = values.name?.trim() ?? '';
  if (isNew) {
    if (!name) setError(errors, 'name', REQUIRED);
    else if (!TYPE_NAME.test(name)) setError(errors, 'name', `${V}nameFormat`);
    else if (codeNames.includes(name)) setError(errors, 'name', `${V}nameTaken`);
  }
  if (blank(values.labelEn)) setError(errors, 'labelEn', REQUIRED);
  if (blank(values.labelZh)) setError(errors, 'labelZh', REQUIRED);
  if (blank(values.menuParent)) setError(errors, 'menuParent', REQUIRED);
  const fields = values.fields ?? [];
  if (fields.length === 0) setError(errors, 'columns', `${V}fieldsRequired`);
  const names = fields.map((field) => field.name?.trim() ?? '');
  fields.forEach((field, index) => checkField(errors, field, index, names));
  const known = new Set(names.filter(Boolean));
  // columns and the sort of a removed field are dropped on save (./editorModel typeOf): they are not shown either
  const columns = (values.columns ?? []).filter((column) => known.has(column));
  if (columns.length === 0) setError(errors, 'columns', `${V}columnsRequired`);
  (values.filters ?? []).forEach((filter, index) => {
    if (blank(filter.field)) setError(errors, `filters.${index}.field`, REQUIRED);
    else if (!known.has(filter.field)) setError(errors, `filters.${index}.field`, `${V}unknownField`);
    if (blank(filter.operator)) setError(errors, `filters.${index}.operator`, REQUIRED);
  });
  (values.rules ?? []).forEach((rule, index) => {
    const at = `rules.${index}`;
    if (blank(rule.kind)) setError(errors, `${at}.kind`, REQUIRED);
    for (const key of ['field', 'other'] as const) {
      if (blank(rule[key])) setError(errors, `${at}.${key}`, REQUIRED);
      else if (!known.has(rule[key])) setError(errors, `${at}.${key}`, `${V}unknownField`);
    }
    if (!blank(rule.field) && rule.field === rule.other) setError(errors, `${at}.other`, `${V}ruleSameField`);
    if (blank(rule.messageEn)) setError(errors, `${at}.messageEn`, REQUIRED);
    if (blank(rule.messageZh)) setError(errors, `${at}.messageZh`, REQUIRED);
  });
  const actions = values.actions ?? [];
  if (actions.length > 0 && !actions.includes('page')) setError(errors, 'actions', `${V}pageRequired`);
  return errors;
};
