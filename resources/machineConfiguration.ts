// Versioned machine configurations (docs/machine-configuration.md): the mechanism every configuration kind
// shares. A configuration kind is a declared resource whose records are the configuration's items; each
// save keeps a version (a snapshot of all its items in the license account), two versions compare as a
// readable diff, and a version becomes a package whose content machines read (docs/machine-protocol.md
// "Configuration packages"). Nothing here knows one kind from another.
import type { ResourceType } from './deploymentPackage';
import type { ResourceDeclaration } from './types';

/** One configuration kind: its declaration and the package resource type its versions become. */
export interface ConfigurationKind {
  declaration: ResourceDeclaration;
  resourceType: ResourceType;
}

export type ConfigurationItem = Record<string, unknown>;

/** The package content a machine reads (docs/machine-protocol.md "Configuration packages"). */
export interface ConfigurationContent {
  format: 'rvm-configuration';
  v: 1;
  kind: string;
  resourceType: ResourceType;
  version: number;
  items: ConfigurationItem[];
}

export const CONFIGURATION_FORMAT = 'rvm-configuration';

/**
 * The fields an item carries into a version and a package: what an operator sets (no id, no server-set times);
 * a multiReference as its ids in ascending order (a group's fleets).
 */
export const contentFields = (declaration: Pick<ResourceDeclaration, 'fields'>): string[] =>
  Object.entries(declaration.fields)
    .filter(([, field]) => !field.readOnly && !field.virtual && !field.writeOnly)
    .map(([name]) => name);

/** The fields naming an item (its declared unique fields): no two items of a configuration share them. */
export const keyFields = (declaration: Pick<ResourceDeclaration, 'fields'>): string[] =>
  Object.entries(declaration.fields)
    .filter(([, field]) => field.unique)
    .map(([name]) => name);

const isEmpty = (value: unknown) => value === undefined || value === null || value === '';

/** An item's name in a diff: its key fields' values, the empty ones left out ("can", "can / 4891234567890"). */
export const itemKey = (declaration: Pick<ResourceDeclaration, 'fields'>, item: ConfigurationItem): string =>
  keyFields(declaration)
    .filter((field) => !isEmpty(item[field]))
    .map((field) => String(item[field]))
    .join(' / ');

/** An item reduced to its content fields, absent values as null (so two snapshots compare field by field). */
export const toContentItem = (declaration: Pick<ResourceDeclaration, 'fields'>, row: Record<string, unknown>): ConfigurationItem =>
  Object.fromEntries(
    contentFields(declaration).map((field) => {
      const value = row[field];
      return [field, value === undefined || value === '' ? null : typeof value === 'string' && /^-?\d+\.\d+$/.test(value) ? Number(value) : value];
    }),
  );

/** Items in key order: the same items always make the same snapshot. */
export const sortItems = (declaration: Pick<ResourceDeclaration, 'fields'>, items: ConfigurationItem[]) =>
  [...items].sort((a, b) => itemKey(declaration, a).localeCompare(itemKey(declaration, b)));

export interface FieldChange {
  field: string;
  from: unknown;
  to: unknown;
}

export interface ConfigurationDiff {
  added: Array<{ key: string; item: ConfigurationItem }>;
  removed: Array<{ key: string; item: ConfigurationItem }>;
  /** `item`: the item as it is in the later version. */
  changed: Array<{ key: string; item: ConfigurationItem; changes: FieldChange[] }>;
  unchanged: number;
}

/** What changed from `from` to `to`, item by item (by key), field by field. */
export const diffConfigurations = (declaration: Pick<ResourceDeclaration, 'fields'>, from: ConfigurationItem[], to: ConfigurationItem[]): ConfigurationDiff => {
  const fields = contentFields(declaration);
  const before = new Map(from.map((item) => [itemKey(declaration, item), item]));
  const after = new Map(to.map((item) => [itemKey(declaration, item), item]));
  const diff: ConfigurationDiff = { added: [], removed: [], changed: [], unchanged: 0 };
  for (const [key, item] of after) {
    const old = before.get(key);
    if (!old) {
      diff.added.push({ key, item });
      continue;
    }
    const changes = fields
      .filter((field) => JSON.stringify(old[field] ?? null) !== JSON.stringify(item[field] ?? null))
      .map((field) => ({ field, from: old[field] ?? null, to: item[field] ?? null }));
    if (changes.length) diff.changed.push({ key, item, changes });
    else diff.unchanged++;
  }
  for (const [key, item] of before) if (!after.has(key)) diff.removed.push({ key, item });
  return diff;
};
