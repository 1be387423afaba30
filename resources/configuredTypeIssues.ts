// The checks of a resource type definition that its JSON schema cannot say (docs/ARCHITECTURE.md,
// "Configured resource types"): the server refuses a definition with these issues (94xx), the
// type builder shows them before sending. Kept apart from resources/configuredTypes.ts (the format and its
// conversion), which it reads.
import {
  configuredRoute,
  CUSTOM_MENU_PREFIX,
  filterName,
  isFilterableKind,
  isReferenceKind,
  isSortableKind,
  maxBytesOf,
  menuChildKeys,
  RESERVED_FIELD_NAMES,
  SYSTEM_FIELDS,
  type ConfiguredType,
  type ConfiguredField,
} from './configuredTypes';
import { walkMenu } from './menu';
import { isFileKind } from './files';

const MENU_ROUTES: ReadonlySet<string> = new Set(walkMenu().flatMap((node) => (node.route ? [node.route] : [])));

/** A definition problem: `message` is an i18n key (errors.94xx) with interpolation values. */
export interface DefinitionIssue {
  field: string;
  message: string;
  values?: Record<string, string | number>;
}

const allFieldNames = (type: ConfiguredType) => [...SYSTEM_FIELDS, ...Object.keys(type.fields)];

/**
 * What the JSON schema cannot say: references to fields that exist, coherent bounds, defaults of the
 * field's kind, known referenced resources. `resources`: every resource name a reference may point at.
 * Regular expressions are checked by the caller (resources/pattern.ts: RE2 syntax, bounded length).
 */
export const definitionIssues = (type: ConfiguredType, resources: ReadonlySet<string>): DefinitionIssue[] => {
  const issues: DefinitionIssue[] = [];
  const names = new Set(allFieldNames(type));
  const unknown = (path: string, field: string) => {
    if (!names.has(field)) issues.push({ field: path, message: 'errors.9408', values: { field } });
  };
  for (const [name, field] of Object.entries(type.fields)) {
    const path = `fields.${name}`;
    if (RESERVED_FIELD_NAMES.includes(name)) issues.push({ field: path, message: 'errors.9409', values: { field: name } });
    if (field.minLength !== undefined && field.maxLength !== undefined && field.minLength > field.maxLength) issues.push({ field: `${path}.minLength`, message: 'errors.9410' });
    if (field.min !== undefined && field.max !== undefined && field.min > field.max) issues.push({ field: `${path}.min`, message: 'errors.9410' });
    if (field.type === 'enum') {
      const values = (field.options ?? []).map((option) => option.value);
      if (values.length === 0 || new Set(values).size !== values.length) issues.push({ field: `${path}.options`, message: 'errors.9411' });
    }
    if (isReferenceKind(field.type) && (!field.reference || !resources.has(field.reference))) {
      issues.push({ field: `${path}.reference`, message: 'errors.9412', values: { resource: field.reference ?? '' } });
    }
    // a required field cannot be emptied by a deleted record
    if (field.onDelete === 'setNull' && field.required) issues.push({ field: `${path}.onDelete`, message: 'errors.9415' });
    if (field.unique && !isSortableKind(field.type)) issues.push({ field: `${path}.unique`, message: 'errors.9413' });
    issues.push(...fileLimitIssues(path, field));
    if (field.default !== undefined && coerceIssue(field, field.default)) issues.push({ field: `${path}.default`, message: 'errors.9414' });
  }
  if (MENU_ROUTES.has(configuredRoute(type))) issues.push({ field: 'name', message: 'errors.9416', values: { route: configuredRoute(type) } });
  // another configured type's entry may come and go: only a code screen's key is checked
  if (type.menuAfter !== undefined && !type.menuAfter.startsWith(CUSTOM_MENU_PREFIX) && !menuChildKeys(type.menuParent).includes(type.menuAfter)) {
    issues.push({ field: 'menuAfter', message: 'errors.9417', values: { entry: type.menuAfter } });
  }
  if (type.nameField !== undefined) unknown('nameField', type.nameField);
  type.list.columns.forEach((column, index) => unknown(`list.columns.${index}`, column));
  (type.list.filters ?? []).forEach((filter, index) => {
    unknown(`list.filters.${index}.field`, filter.field);
    const field = type.fields[filter.field];
    if (field && !isFilterableKind(field.type)) issues.push({ field: `list.filters.${index}.field`, message: 'errors.9413' });
    // a multiReference filter is "holds this one" (eq) or "holds any of these" (in)
    else if (field?.type === 'multiReference' && filter.operator !== 'eq' && filter.operator !== 'in')
      issues.push({ field: `list.filters.${index}.operator`, message: 'errors.9413' });
  });
  const filterKeys = (type.list.filters ?? []).map(filterName);
  if (new Set(filterKeys).size !== filterKeys.length) issues.push({ field: 'list.filters', message: 'errors.9411' });
  if (type.list.defaultSort) {
    unknown('list.defaultSort.field', type.list.defaultSort.field);
    const field = type.fields[type.list.defaultSort.field];
    if (field && !isSortableKind(field.type)) issues.push({ field: 'list.defaultSort.field', message: 'errors.9413' });
  }
  (type.rules ?? []).forEach((rule, index) => {
    unknown(`rules.${index}.field`, rule.field);
    unknown(`rules.${index}.other`, rule.other);
  });
  return issues;
};

/**
 * `maxBytes` and `accept` (docs/files.md "Limits and content checks"): only on image and file fields, the size
 * at most the kind's own maximum, an image field's types images only (its thumbnail is made from them).
 */
const fileLimitIssues = (path: string, field: ConfiguredField): DefinitionIssue[] => {
  const issues: DefinitionIssue[] = [];
  if (!isFileKind(field.type)) {
    if (field.maxBytes !== undefined) issues.push({ field: `${path}.maxBytes`, message: 'errors.9418' });
    if (field.accept !== undefined) issues.push({ field: `${path}.accept`, message: 'errors.9418' });
    return issues;
  }
  const max = maxBytesOf(field.type);
  if (field.maxBytes !== undefined && field.maxBytes > max) issues.push({ field: `${path}.maxBytes`, message: 'errors.9419', values: { max } });
  (field.accept ?? []).forEach((mime, index) => {
    if (field.type === 'image' && !mime.startsWith('image/')) issues.push({ field: `${path}.accept.${index}`, message: 'errors.9420', values: { type: mime } });
  });
  return issues;
};

/** Whether a value fits a field's kind (used for defaults); null when it does. */
const coerceIssue = (field: ConfiguredField, value: unknown): string | null => {
  switch (field.type) {
    case 'number':
      return typeof value === 'number' ? null : 'number';
    case 'boolean':
      return typeof value === 'boolean' ? null : 'boolean';
    case 'reference':
      return typeof value === 'number' && Number.isInteger(value) ? null : 'reference';
    // records of one license account each: no list of ids fits every record
    case 'multiReference':
      return 'multiReference';
    // an uploaded file belongs to one license account: no default fits every record
    case 'image':
    case 'file':
      return 'file';
    case 'enum':
      return (field.options ?? []).some((option) => option.value === value) ? null : 'enum';
    default:
      return typeof value === 'string' ? null : 'text';
  }
};
