// Resource types defined at run time by a superAdmin (issue 9). Framework-neutral: the server
// validates and serves them (server/configuredTypes/), the console imports the same types, the
// JSON schema, the converter to a ResourceDeclaration and the texts. A definition is data: labels
// and messages come in both languages inside it, not from the i18n catalogues.
import { FILE_KIND_DEFAULTS, isFileKind } from './files';
import { MAX_PATTERN_LENGTH } from './pattern';
import { MENU, HOME_MENU_ID } from './menu';
import type { Action, CrossFieldRule, FieldDeclaration, FilterOperator, ResourceDeclaration } from './types';

export type ConfiguredLocale = 'en' | 'zh';
export type LocalizedText = Record<ConfiguredLocale, string>;

/** The field kinds of resources/types.ts an administrator may use (no password, treeParent). */
export const CONFIGURED_FIELD_TYPES = [
  'text',
  'textarea',
  'number',
  'boolean',
  'enum',
  'date',
  'datetime',
  'reference',
  'multiReference',
  'email',
  'phone',
  'image',
  'file',
] as const;
export type ConfiguredFieldType = (typeof CONFIGURED_FIELD_TYPES)[number];

export const CONFIGURED_ACTIONS: readonly Action[] = ['page', 'show', 'create', 'edit', 'delete', 'export'];
export const CONFIGURED_OPERATORS: readonly FilterOperator[] = ['eq', 'like', 'in', 'gte', 'lte', 'range'];
export const CONFIGURED_RULE_KINDS = ['after', 'greaterThan', 'notGreaterThan', 'equals'] as const;

export interface ConfiguredPattern {
  /** Regular expression in RE2 syntax (no look-around, no back-references), at most MAX_REGEX_LENGTH: resources/pattern.ts. */
  regex: string;
  /** The value must NOT match. */
  negate?: boolean;
  messages: LocalizedText;
}

export interface ConfiguredOption {
  value: string;
  labels: LocalizedText;
}

export interface ConfiguredField {
  type: ConfiguredFieldType;
  labels: LocalizedText;
  required?: boolean;
  /** Texts: lengths (default maximum TEXT_MAX_LENGTH, textarea TEXTAREA_MAX_LENGTH). */
  minLength?: number;
  maxLength?: number;
  /** Numbers: range and decimals (0 = whole numbers; absent = any). */
  min?: number;
  max?: number;
  scale?: number;
  patterns?: ConfiguredPattern[];
  /** enum: the stored values and their labels. */
  options?: ConfiguredOption[];
  /** reference / multiReference: a code-declared or configured resource name (values are its ids). */
  reference?: string;
  /**
   * reference / multiReference: what deleting the referenced record does to records holding it (resources/types.ts
   * `onDelete`; default restrict; a multiReference's setNull drops that id from the list).
   */
  onDelete?: 'restrict' | 'setNull' | 'cascade';
  /** image / file: the largest upload, at most the kind's own maximum (resources/files.ts FILE_KIND_DEFAULTS; docs/files.md). */
  maxBytes?: number;
  /** image / file: accepted MIME types, `image/*` for a family (an image field: image types only); absent: the kind's defaults. */
  accept?: string[];
  /** No two records of one license account hold the same value (a partial unique index). */
  unique?: boolean;
  /** Stored when a record is created without this field (and the create form's initial value). */
  default?: string | number | boolean;
}

export interface ConfiguredFilter {
  field: string;
  operator: FilterOperator;
  alwaysOn?: boolean;
}

export interface ConfiguredRule {
  kind: (typeof CONFIGURED_RULE_KINDS)[number];
  field: string;
  other: string;
  messages: LocalizedText;
}

export interface ConfiguredType {
  /** ^[a-z][a-zA-Z0-9]{1,39}$, not a code-declared resource name. */
  name: string;
  /** Plural label (the menu entry, the list's title). */
  labels: LocalizedText;
  /** Singular label ("Create Donation institute"); the plural where absent. */
  singularLabels?: LocalizedText;
  /** Key of a top-level menu entry (resources/menu.ts, Home excluded). */
  menuParent: string;
  /** The sibling entry (a screen's key, or `custom_<type>`) it follows in that menu; absent: after every other one. */
  menuAfter?: string;
  fields: Record<string, ConfiguredField>;
  /** The field shown as a record's label (pickers, reference labels); default: the first text field, else id. */
  nameField?: string;
  rules?: ConfiguredRule[];
  list: {
    columns: string[];
    filters?: ConfiguredFilter[];
    defaultSort?: { field: string; order: 'ASC' | 'DESC' };
  };
  actions: Action[];
  /** Answered by the server. */
  status?: 'active' | 'archived';
  version?: number;
}

export const TYPE_NAME_PATTERN = '^[a-z][a-zA-Z0-9]{1,39}$';
export const FIELD_NAME_PATTERN = '^[a-z][a-zA-Z0-9]{0,39}$';
/** Fields every configured record has (answered, never written). */
export const SYSTEM_FIELDS = ['id', 'createdTime', 'updatedTime'] as const;
/**
 * Names a field cannot take: the system's, and every name JavaScript objects inherit (`constructor`,
 * `toString`, `valueOf`, ...), which a record read back as a plain object would shadow or lose.
 */
export const RESERVED_FIELD_NAMES: readonly string[] = [...SYSTEM_FIELDS, 'licenseAccountId', ...Object.getOwnPropertyNames(Object.prototype)];
export const MAX_REGEX_LENGTH = MAX_PATTERN_LENGTH;
export const TEXT_MAX_LENGTH = 255;
export const TEXTAREA_MAX_LENGTH = 4000;
export const MAX_FIELDS = 60;
export const MAX_SCALE = 6;
/** A MIME type or a family (`image/*`), lower case as the server judges types from the bytes (docs/files.md). */
export const MIME_PATTERN = '^[a-z0-9][a-z0-9!#$&^_.+-]{0,62}/(\\*|[a-z0-9][a-z0-9!#$&^_.+-]{0,126})$';
export const MAX_ACCEPT = 30;
/** The largest `maxBytes` a field of a file kind may declare: the kind's own limit. */
export const maxBytesOf = (kind: 'image' | 'file') => FILE_KIND_DEFAULTS[kind].maxBytes;
/** The export file format of GET /resource-types/export (and what POST /resource-types/import takes). */
export const EXPORT_FORMAT = 'rvm-resource-types';

/** Menu keys of configured entries start with this (`custom_<type>`). */
export const CUSTOM_MENU_PREFIX = 'custom_';
/** The keys of a top-level entry's children shown in the menu (what a configured entry may follow). */
export const menuChildKeys = (menuParent: string): string[] =>
  (MENU.find((node) => node.key === menuParent)?.children ?? []).filter((child) => child.inMenu).map((child) => child.key);

/** Top-level menu keys a configured type may sit under. */
export const MENU_PARENTS: readonly string[] = MENU.filter((node) => node.id !== HOME_MENU_ID).map((node) => node.key);

export const customApiPath = (name: string) => `/custom/${name}`;
/** Where a type's screens lived before they moved under their menu parent's area: kept as a redirect for bookmarks. */
export const LEGACY_ROUTE_PREFIX = '/custom/';
/** The console area of a top-level menu entry: the first segment of its route ('/service' for Service). */
export const menuAreaOf = (menuParent: string) => `/${(MENU.find((node) => node.key === menuParent)?.route ?? '/custom').split('/')[1]}`;
/** A type's console route: under its menu parent's area, as a code-declared screen there (`/service/<name>`). */
export const configuredRoute = (type: Pick<ConfiguredType, 'name' | 'menuParent'>) => `${menuAreaOf(type.menuParent)}/${type.name}`;
/** Routes of the menu's own screens: a configured type may not take one. */
/** Permission identifiers: the menu entry `custom:<name>`, actions `custom:<name>:<action>`. */
export const customMenuIdentifier = (name: string) => `custom:${name}`;
export const customPermission = (name: string, action: Action) => `custom:${name}:${action}`;

/** The key a filter is sent under in the paging body. */
export const filterName = (filter: Pick<ConfiguredFilter, 'field' | 'operator'>): string => {
  switch (filter.operator) {
    case 'eq':
      return filter.field;
    case 'like':
      return `${filter.field}Like`;
    case 'in':
      return `${filter.field}In`;
    case 'gte':
      return `${filter.field}From`;
    case 'lte':
      return `${filter.field}To`;
    case 'range':
      return `${filter.field}Range`;
  }
};

const localized = {
  type: 'object',
  additionalProperties: false,
  required: ['en', 'zh'],
  properties: { en: { type: 'string', minLength: 1, maxLength: 200 }, zh: { type: 'string', minLength: 1, maxLength: 200 } },
};
const name40 = (pattern: string) => ({ type: 'string', minLength: 1, maxLength: 40, pattern });

/** The JSON schema of a definition (the shapes; definitionIssues checks what a schema cannot say). */
export const CONFIGURED_TYPE_SCHEMA = {
  type: 'object',
  additionalProperties: false,
  required: ['name', 'labels', 'menuParent', 'fields', 'list', 'actions'],
  properties: {
    name: name40(TYPE_NAME_PATTERN),
    labels: localized,
    singularLabels: localized,
    menuParent: { type: 'string', enum: [...MENU_PARENTS] },
    menuAfter: { type: 'string', minLength: 1, maxLength: 48, pattern: '^[A-Za-z0-9_]+$' },
    fields: {
      type: 'object',
      minProperties: 1,
      maxProperties: MAX_FIELDS,
      propertyNames: { pattern: FIELD_NAME_PATTERN, maxLength: 40 },
      additionalProperties: {
        type: 'object',
        additionalProperties: false,
        required: ['type', 'labels'],
        properties: {
          type: { type: 'string', enum: [...CONFIGURED_FIELD_TYPES] },
          labels: localized,
          required: { type: 'boolean' },
          minLength: { type: 'integer', minimum: 0, maximum: TEXTAREA_MAX_LENGTH },
          maxLength: { type: 'integer', minimum: 1, maximum: TEXTAREA_MAX_LENGTH },
          min: { type: 'number' },
          max: { type: 'number' },
          scale: { type: 'integer', minimum: 0, maximum: MAX_SCALE },
          patterns: {
            type: 'array',
            maxItems: 5,
            items: {
              type: 'object',
              additionalProperties: false,
              required: ['regex', 'messages'],
              properties: { regex: { type: 'string', minLength: 1, maxLength: 1000 }, negate: { type: 'boolean' }, messages: localized },
            },
          },
          options: {
            type: 'array',
            minItems: 1,
            maxItems: 200,
            items: {
              type: 'object',
              additionalProperties: false,
              required: ['value', 'labels'],
              properties: { value: { type: 'string', minLength: 1, maxLength: 64, pattern: '^[A-Za-z0-9_.-]+$' }, labels: localized },
            },
          },
          reference: name40('^[a-zA-Z][a-zA-Z0-9]*$'),
          onDelete: { type: 'string', enum: ['restrict', 'setNull', 'cascade'] },
          maxBytes: { type: 'integer', minimum: 1 },
          accept: { type: 'array', minItems: 1, maxItems: MAX_ACCEPT, uniqueItems: true, items: { type: 'string', pattern: MIME_PATTERN } },
          unique: { type: 'boolean' },
          default: { type: ['string', 'number', 'boolean'] },
        },
      },
    },
    nameField: { type: 'string', maxLength: 40 },
    rules: {
      type: 'array',
      maxItems: 20,
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['kind', 'field', 'other', 'messages'],
        properties: {
          kind: { type: 'string', enum: [...CONFIGURED_RULE_KINDS] },
          field: { type: 'string', maxLength: 40 },
          other: { type: 'string', maxLength: 40 },
          messages: localized,
        },
      },
    },
    list: {
      type: 'object',
      additionalProperties: false,
      required: ['columns'],
      properties: {
        columns: { type: 'array', minItems: 1, maxItems: MAX_FIELDS + 3, items: { type: 'string', maxLength: 40 } },
        filters: {
          type: 'array',
          maxItems: MAX_FIELDS,
          items: {
            type: 'object',
            additionalProperties: false,
            required: ['field', 'operator'],
            properties: { field: { type: 'string', maxLength: 40 }, operator: { type: 'string', enum: [...CONFIGURED_OPERATORS] }, alwaysOn: { type: 'boolean' } },
          },
        },
        defaultSort: {
          type: 'object',
          additionalProperties: false,
          required: ['field', 'order'],
          properties: { field: { type: 'string', maxLength: 40 }, order: { type: 'string', enum: ['ASC', 'DESC'] } },
        },
      },
    },
    actions: { type: 'array', minItems: 1, uniqueItems: true, items: { type: 'string', enum: [...CONFIGURED_ACTIONS] } },
    // Answered by the server; accepted (and ignored) so an exported definition can be sent back as is.
    status: { type: 'string', enum: ['active', 'archived'] },
    version: { type: 'integer' },
  },
} as const;

const TEXT_KINDS: readonly ConfiguredFieldType[] = ['text', 'textarea', 'email', 'phone'];
const SORTABLE_KINDS: readonly ConfiguredFieldType[] = ['text', 'number', 'boolean', 'enum', 'date', 'datetime', 'reference', 'email', 'phone'];

export const isSortableKind = (type: ConfiguredFieldType) => SORTABLE_KINDS.includes(type);
/** Kinds a list filter may use: the sortable ones, and a multiReference ("holds this record", "holds any of these"). */
export const isFilterableKind = (type: ConfiguredFieldType) => isSortableKind(type) || type === 'multiReference';
/** Kinds whose values are ids of another resource's records. */
export const isReferenceKind = (type: ConfiguredFieldType) => type === 'reference' || type === 'multiReference';

const defaultNameField = (type: ConfiguredType) => type.nameField ?? Object.entries(type.fields).find(([, field]) => field.type === 'text')?.[0] ?? 'id';

/** i18n-style keys of a configured type's messages (resolved by configuredText, never by the catalogues). */
export const patternMessageKey = (type: string, field: string, index: number) => `resources.${type}.patterns.${field}.${index}`;
export const ruleMessageKey = (type: string, index: number) => `resources.${type}.rules.${index}`;

const toField = (typeName: string, name: string, field: ConfiguredField): FieldDeclaration => ({
  type: field.type,
  ...(field.required ? { required: true } : {}),
  ...(TEXT_KINDS.includes(field.type) ? { minLength: field.minLength, maxLength: field.maxLength ?? (field.type === 'textarea' ? TEXTAREA_MAX_LENGTH : TEXT_MAX_LENGTH) } : {}),
  ...(field.type === 'number' ? { min: field.min, max: field.max, ...(field.scale === 0 ? { integer: true } : field.scale !== undefined ? { scale: field.scale } : {}) } : {}),
  ...(field.unique ? { unique: true } : {}),
  ...(field.patterns?.length
    ? { patterns: field.patterns.map((pattern, index) => ({ regex: pattern.regex, negate: pattern.negate, message: patternMessageKey(typeName, name, index) })) }
    : {}),
  ...(field.type === 'enum' ? { options: (field.options ?? []).map((option) => option.value) } : {}),
  ...(isReferenceKind(field.type) ? { reference: field.reference, ...(field.onDelete ? { onDelete: field.onDelete } : {}) } : {}),
  ...(isFileKind(field.type) ? { ...(field.maxBytes !== undefined ? { maxBytes: field.maxBytes } : {}), ...(field.accept ? { accept: field.accept } : {}) } : {}),
  ...(isSortableKind(field.type) ? { sortable: true } : {}),
  ...(field.default !== undefined ? { defaultValue: field.default } : {}),
});

/** The ResourceDeclaration the generic views, validation and CRUD helpers work with. */
export const toDeclaration = (type: ConfiguredType): ResourceDeclaration => {
  const menuId = MENU.find((node) => node.key === type.menuParent)?.id ?? 0;
  const system = (kind: 'number' | 'datetime'): FieldDeclaration => ({ type: kind, readOnly: true, views: ['list', 'show'], sortable: true });
  const permissions: Partial<Record<Action, string>> = {};
  for (const action of type.actions) permissions[action] = customPermission(type.name, action);
  return {
    name: type.name,
    apiPath: customApiPath(type.name),
    route: configuredRoute(type),
    menuId,
    table: 'configured_record',
    nameField: defaultNameField(type),
    scope: 'custom',
    fields: {
      id: system('number'),
      ...Object.fromEntries(Object.entries(type.fields).map(([name, field]) => [name, toField(type.name, name, field)])),
      createdTime: system('datetime'),
      updatedTime: system('datetime'),
    },
    list: {
      columns: type.list.columns,
      defaultSort: type.list.defaultSort ?? { field: 'id', order: 'DESC' },
      filters: (type.list.filters ?? []).map((filter) => ({
        name: filterName(filter),
        field: filter.field,
        operator: filter.operator,
        ...(filter.alwaysOn ? { alwaysOn: true } : {}),
      })),
    },
    permissions,
    rules: (type.rules ?? []).map((rule, index): CrossFieldRule => ({ kind: rule.kind, field: rule.field, other: rule.other, message: ruleMessageKey(type.name, index) })),
  };
};

/**
 * The type's texts in one language, shaped like the catalogues' `resources.<name>` section
 * (`name`, `fields`, `enums`, plus `patterns` and `rules` messages): the console merges it, the
 * server looks keys up in it.
 */
export const configuredTexts = (type: ConfiguredType, locale: ConfiguredLocale) => ({
  // react-admin's "singular |||| plural" form, as the code-declared resources' labels are
  name: type.singularLabels?.[locale] ? `${type.singularLabels[locale]} |||| ${type.labels[locale]}` : type.labels[locale],
  fields: {
    id: 'ID',
    createdTime: locale === 'zh' ? '创建时间' : 'Created',
    updatedTime: locale === 'zh' ? '更新时间' : 'Updated',
    ...Object.fromEntries(Object.entries(type.fields).map(([name, field]) => [name, field.labels[locale]])),
  },
  enums: Object.fromEntries(
    Object.entries(type.fields)
      .filter(([, field]) => field.type === 'enum')
      .map(([name, field]) => [name, Object.fromEntries((field.options ?? []).map((option) => [option.value, option.labels[locale]]))]),
  ),
  patterns: Object.fromEntries(
    Object.entries(type.fields)
      .filter(([, field]) => field.patterns?.length)
      .map(([name, field]) => [name, Object.fromEntries((field.patterns ?? []).map((pattern, index) => [String(index), pattern.messages[locale]]))]),
  ),
  rules: Object.fromEntries((type.rules ?? []).map((rule, index) => [String(index), rule.messages[locale]])),
});

/** A key under `resources.<type.name>.` from the type's own texts, else undefined. */
export const configuredText = (type: ConfiguredType, locale: ConfiguredLocale, key: string): string | undefined => {
  const prefix = `resources.${type.name}.`;
  if (!key.startsWith(prefix)) return undefined;
  let node: unknown = configuredTexts(type, locale);
  for (const part of key.slice(prefix.length).split('.')) {
    if (node === null || typeof node !== 'object') return undefined;
    node = (node as Record<string, unknown>)[part];
  }
  return typeof node === 'string' ? node : undefined;
};
