// The type editor's form values and the ConfiguredType they stand for, both ways, plus the editor's
// own validation (pure: unit-tested without a DOM). Form values are arrays (react-admin's ArrayInput)
// and flat label pairs; the definition keys fields by name. Server issues name definition paths
// (`fields.code.maxLength`, `labels.zh`, `list.filters.0.field`): `issuePath` maps them to form paths.
import { isReferenceKind, isSortableKind, FIELD_NAME_PATTERN, MAX_SCALE, MIME_PATTERN, RESERVED_FIELD_NAMES, TYPE_NAME_PATTERN, maxBytesOf } from '../../resources/configuredTypes';
import { isFileKind } from '../../resources/files';
import type { Action, FilterOperator } from '../../resources/types';
import type { ConfiguredRule } from '../../resources/configuredTypes';
import type { ConfiguredField, ConfiguredFieldKind, ConfiguredType } from './configuredType';

export interface OptionValues {
  value: string;
  labelEn: string;
  labelZh: string;
}

export interface PatternValues {
  regex: string;
  messageEn: string;
  messageZh: string;
}

export interface FieldValues {
  name: string;
  type: ConfiguredFieldKind;
  labelEn: string;
  labelZh: string;
  required?: boolean;
  unique?: boolean;
  minLength?: number | null;
  maxLength?: number | null;
  min?: number | null;
  max?: number | null;
  scale?: number | null;
  /** Text/number/enum default as typed; booleans use `defaultTrue`. */
  default?: string | number | null;
  defaultTrue?: boolean;
  reference?: string | null;
  /** What deleting the referenced record does (default: refuse). */
  onDelete?: 'restrict' | 'setNull' | 'cascade' | null;
  /** image / file: the largest upload in MB (the definition says bytes); empty: the kind's default. */
  maxMegabytes?: number | null;
  /** image / file: accepted MIME types separated by commas; empty: the kind's default. */
  accept?: string | null;
  options?: OptionValues[];
  patterns?: PatternValues[];
}

export interface RuleValues {
  kind: ConfiguredRule['kind'];
  field: string;
  other: string;
  messageEn: string;
  messageZh: string;
}

export interface TypeFormValues {
  name: string;
  labelEn: string;
  labelZh: string;
  /** Singular labels; empty: the plural is used. */
  singularEn?: string;
  singularZh?: string;
  menuParent: string;
  /** The sibling the entry follows; '' (or null from a cleared select): after every other one. */
  menuAfter?: string | null;
  fields: FieldValues[];
  rules: RuleValues[];
  columns: string[];
  filters: Array<{ field: string; operator: FilterOperator }>;
  sortField: string;
  sortOrder: 'ASC' | 'DESC';
  actions: Action[];
}

export const TYPE_NAME = new RegExp(TYPE_NAME_PATTERN);
export const FIELD_NAME = new RegExp(FIELD_NAME_PATTERN);
export const OPTION_VALUE = /^[A-Za-z0-9_.-]{1,64}$/;
export const RESERVED_FIELDS: readonly string[] = RESERVED_FIELD_NAMES;
export const MIME_TYPE = new RegExp(MIME_PATTERN);
export const MEGABYTE = 1024 * 1024;
/** The largest size an image or file field may take, in MB (the kind's own maximum). */
export const maxMegabytesOf = (kind: 'image' | 'file') => maxBytesOf(kind) / MEGABYTE;
/** The types of an accept text: separated by commas or spaces, lower case. */
export const acceptList = (text: string | null | undefined): string[] =>
  (text ?? '')
    .split(/[\s,]+/)
    .map((type) => type.trim().toLowerCase())
    .filter(Boolean);
export { MAX_SCALE };

/** Kinds with a length (lengths and patterns apply), kinds with a range. */
export const TEXT_KINDS: readonly ConfiguredFieldKind[] = ['text', 'textarea', 'email', 'phone'];
const PATTERN_KINDS: readonly ConfiguredFieldKind[] = ['text', 'textarea', 'phone'];

/** The filter operators the generic list renders for a kind (src/generic/fieldKinds.ts). */
/** The operator a new filter on a field of this kind starts with: "contains" for texts, else the first allowed. */
export const defaultOperatorFor = (kind: ConfiguredFieldKind | undefined): FilterOperator => {
  const allowed = operatorsFor(kind);
  return allowed.includes('like') ? 'like' : allowed[0];
};

export const operatorsFor = (kind: ConfiguredFieldKind | undefined): FilterOperator[] => {
  switch (kind) {
    case 'number':
      return ['eq', 'gte', 'lte'];
    case 'boolean':
      return ['eq'];
    case 'enum':
    case 'reference':
    case 'multiReference':
      return ['eq', 'in'];
    case 'date':
    case 'datetime':
      return ['gte', 'lte'];
    default:
      return ['like', 'eq'];
  }
};

export const emptyField = (): FieldValues => ({ name: '', type: 'text', labelEn: '', labelZh: '', options: [], patterns: [] });

export const emptyTypeForm = (): TypeFormValues => ({
  name: '',
  labelEn: '',
  labelZh: '',
  menuParent: 'systemSettings',
  fields: [emptyField()],
  rules: [],
  columns: [],
  filters: [],
  sortField: '',
  sortOrder: 'ASC',
  actions: ['page', 'show', 'create', 'edit', 'delete', 'export'],
});

const numberOrUndefined = (value: unknown): number | undefined =>
  value === null || value === undefined || value === '' || Number.isNaN(Number(value)) ? undefined : Number(value);

const textOrUndefined = (value: unknown) => (typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined);

const defaultOf = (field: FieldValues): ConfiguredField['default'] => {
  if (field.type === 'boolean') return field.defaultTrue ? true : undefined;
  if (field.type === 'number') return numberOrUndefined(field.default);
  return textOrUndefined(field.default);
};

/** Only the properties meaningful for the field's kind reach the definition. */
export const fieldOf = (field: FieldValues): ConfiguredField => {
  const text = TEXT_KINDS.includes(field.type);
  const definition: ConfiguredField = {
    type: field.type,
    labels: { en: field.labelEn?.trim() ?? '', zh: field.labelZh?.trim() ?? '' },
    ...(field.required ? { required: true } : {}),
    ...(field.unique && isSortableKind(field.type) ? { unique: true } : {}),
    ...(text ? { minLength: numberOrUndefined(field.minLength), maxLength: numberOrUndefined(field.maxLength) } : {}),
    ...(field.type === 'number' ? { min: numberOrUndefined(field.min), max: numberOrUndefined(field.max), scale: numberOrUndefined(field.scale) } : {}),
    default: defaultOf(field),
    ...(field.type === 'enum'
      ? { options: (field.options ?? []).map((option) => ({ value: option.value.trim(), labels: { en: option.labelEn?.trim() ?? '', zh: option.labelZh?.trim() ?? '' } })) }
      : {}),
    ...(isReferenceKind(field.type) ? { reference: field.reference ?? undefined, ...(field.onDelete && field.onDelete !== 'restrict' ? { onDelete: field.onDelete } : {}) } : {}),
    ...(isFileKind(field.type) ? fileLimitsOf(field) : {}),
    ...(PATTERN_KINDS.includes(field.type) && field.patterns?.length
      ? { patterns: field.patterns.map((pattern) => ({ regex: pattern.regex, messages: { en: pattern.messageEn?.trim() ?? '', zh: pattern.messageZh?.trim() ?? '' } })) }
      : {}),
  };
  // no `undefined` on the wire (the server's schema refuses unknown or null properties)
  return Object.fromEntries(Object.entries(definition).filter(([, value]) => value !== undefined)) as unknown as ConfiguredField;
};

/** An image or file field's size (MB in the form, bytes in the definition) and accepted types. */
const fileLimitsOf = (field: FieldValues): Pick<ConfiguredField, 'maxBytes' | 'accept'> => {
  const megabytes = numberOrUndefined(field.maxMegabytes);
  const accept = acceptList(field.accept);
  return { ...(megabytes !== undefined ? { maxBytes: Math.round(megabytes * MEGABYTE) } : {}), ...(accept.length ? { accept: [...new Set(accept)] } : {}) };
};

/** Singular labels when either is given; a language left empty takes its plural. */
const singularOf = (values: TypeFormValues): Pick<ConfiguredType, 'singularLabels'> => {
  const en = values.singularEn?.trim() ?? '';
  const zh = values.singularZh?.trim() ?? '';
  return en || zh ? { singularLabels: { en: en || values.labelEn.trim(), zh: zh || values.labelZh.trim() } } : {};
};

/**
 * A type identifier from an English label: its ASCII words in camel case ("Donation institute" →
 * donationInstitute), or '' when the label gives no valid one (e.g. only Chinese).
 */
export const identifierFromLabel = (label: string): string => {
  const words =
    label
      .normalize('NFKD')
      .replace(/[\u0300-\u036f]/g, '')
      .match(/[A-Za-z0-9]+/g) ?? [];
  const camel = words.map((word, index) => (index === 0 ? word.toLowerCase() : word[0].toUpperCase() + word.slice(1).toLowerCase())).join('');
  const identifier = camel.replace(/^[0-9]+/, '').slice(0, 40);
  return new RegExp(TYPE_NAME_PATTERN).test(identifier) ? identifier : '';
};

export const typeOf = (values: TypeFormValues): ConfiguredType => {
  const names = new Set(values.fields.map((field) => field.name));
  const columns = values.columns.filter((column) => names.has(column));
  return {
    name: values.name.trim(),
    labels: { en: values.labelEn.trim(), zh: values.labelZh.trim() },
    ...singularOf(values),
    menuParent: values.menuParent,
    ...(values.menuAfter ? { menuAfter: values.menuAfter } : {}),
    fields: Object.fromEntries(values.fields.map((field) => [field.name.trim(), fieldOf(field)])),
    ...((values.rules ?? []).length
      ? {
          rules: values.rules.map((rule) => ({
            kind: rule.kind,
            field: rule.field,
            other: rule.other,
            messages: { en: rule.messageEn?.trim() ?? '', zh: rule.messageZh?.trim() ?? '' },
          })),
        }
      : {}),
    list: {
      columns,
      // every chosen filter stands in the list's filter bar (none hides behind "Add filter")
      filters: values.filters.filter((filter) => names.has(filter.field)).map((filter) => ({ field: filter.field, operator: filter.operator, alwaysOn: true })),
      // without a chosen field the server sorts newest first
      ...(values.sortField && names.has(values.sortField) ? { defaultSort: { field: values.sortField, order: values.sortOrder } } : {}),
    },
    actions: values.actions,
  };
};

export const formOf = (type: ConfiguredType): TypeFormValues => ({
  name: type.name,
  labelEn: type.labels.en,
  labelZh: type.labels.zh,
  singularEn: type.singularLabels?.en ?? '',
  singularZh: type.singularLabels?.zh ?? '',
  menuParent: type.menuParent,
  menuAfter: type.menuAfter ?? '',
  fields: Object.entries(type.fields).map(([name, field]) => ({
    name,
    type: field.type,
    labelEn: field.labels.en,
    labelZh: field.labels.zh,
    required: field.required ?? false,
    unique: field.unique ?? false,
    minLength: field.minLength ?? null,
    maxLength: field.maxLength ?? null,
    min: field.min ?? null,
    max: field.max ?? null,
    scale: field.scale ?? null,
    default: typeof field.default === 'boolean' ? null : (field.default ?? null),
    defaultTrue: field.default === true,
    reference: field.reference ?? null,
    onDelete: field.onDelete ?? 'restrict',
    // bytes to MB, kept to 3 decimals (what the form's number input shows)
    maxMegabytes: field.maxBytes !== undefined ? Math.round((field.maxBytes / MEGABYTE) * 1000) / 1000 : null,
    accept: field.accept?.join(', ') ?? '',
    options: (field.options ?? []).map((option) => ({ value: option.value, labelEn: option.labels.en, labelZh: option.labels.zh })),
    patterns: (field.patterns ?? []).map((pattern) => ({ regex: pattern.regex, messageEn: pattern.messages.en, messageZh: pattern.messages.zh })),
  })),
  rules: (type.rules ?? []).map((rule) => ({ kind: rule.kind, field: rule.field, other: rule.other, messageEn: rule.messages.en, messageZh: rule.messages.zh })),
  columns: [...type.list.columns],
  filters: (type.list.filters ?? []).map((filter) => ({ field: filter.field, operator: filter.operator })),
  sortField: type.list.defaultSort?.field ?? '',
  sortOrder: type.list.defaultSort?.order ?? 'ASC',
  actions: [...type.actions],
});

/** Maps a server issue's definition path to the form path of the same input (unknown paths: null). */
export const issuePath = (path: string, values: TypeFormValues): string | null => {
  const parts = path.split('.');
  const labelKey = (lang: string | undefined, prefix: 'label' | 'message') => (lang === 'zh' ? `${prefix}Zh` : `${prefix}En`);
  switch (parts[0]) {
    case 'name':
    case 'menuParent':
    case 'menuAfter':
    case 'actions':
      return parts[0];
    case 'labels':
      return labelKey(parts[1], 'label');
    case 'singularLabels':
      return parts[1] === 'zh' ? 'singularZh' : 'singularEn';
    case 'fields': {
      const index = values.fields.findIndex((field) => field.name === parts[1]);
      if (index < 0) return 'fields';
      const base = `fields.${index}`;
      const [, , property, sub, subProperty, lang] = parts;
      if (!property) return `${base}.name`;
      if (property === 'labels') return `${base}.${labelKey(sub, 'label')}`;
      if (property === 'type' || property === 'reference' || property === 'onDelete' || property === 'scale' || property === 'required' || property === 'unique')
        return `${base}.${property}`;
      if (property === 'maxBytes') return `${base}.maxMegabytes`;
      if (property === 'accept') return `${base}.accept`;
      if (property === 'default') return `${base}.${values.fields[index].type === 'boolean' ? 'defaultTrue' : 'default'}`;
      if (property === 'options' && sub !== undefined) {
        if (subProperty === 'labels') return `${base}.options.${sub}.${labelKey(lang, 'label')}`;
        return `${base}.options.${sub}.value`;
      }
      if (property === 'patterns' && sub !== undefined) {
        if (subProperty === 'messages') return `${base}.patterns.${sub}.${labelKey(lang, 'message')}`;
        return `${base}.patterns.${sub}.regex`;
      }
      return `${base}.${property}`;
    }
    case 'rules':
      if (parts[1] === undefined) return null;
      if (parts[2] === 'messages') return `rules.${parts[1]}.${labelKey(parts[3], 'message')}`;
      return `rules.${parts[1]}.${parts[2] === 'other' || parts[2] === 'kind' ? parts[2] : 'field'}`;
    case 'list':
      if (parts[1] === 'columns') return 'columns';
      if (parts[1] === 'filters') return parts[2] !== undefined ? `filters.${parts[2]}.${parts[3] === 'operator' ? 'operator' : 'field'}` : 'filters';
      if (parts[1] === 'defaultSort') return parts[2] === 'order' ? 'sortOrder' : 'sortField';
      return null;
    default:
      return null;
  }
};

/** Puts `message` at a dotted form path in a nested error object (react-admin's submission error format). */
export const setError = (errors: Record<string, unknown>, path: string, message: unknown) => {
  const parts = path.split('.');
  let node = errors;
  for (const part of parts.slice(0, -1)) {
    if (typeof node[part] !== 'object' || node[part] === null) node[part] = {};
    node = node[part] as Record<string, unknown>;
  }
  if (node[parts[parts.length - 1]] === undefined) node[parts[parts.length - 1]] = message;
};
