// Translated labels of records whose stored name is seed data (English): a permission is labelled by
// its identifier, so the Chinese console shows Chinese permission names. Menu identifiers take the
// menu title (`menu.<key>` of resources/menu.ts); a resource's button identifiers take
// "<resource>: <action>" (`resources.<name>.name` + `generic.permissionActions.<action>`, or the
// declaration's extraPermissions key). Anything else (a permission added by hand) keeps its name.
import { walkMenu } from '../../resources/menu';
import { RESOURCES } from '../../resources';
import type { Action, ResourceDeclaration } from '../../resources/types';
import { CUSTOM_MENU_PREFIX } from '../../resources/configuredTypes';

export type LabelTranslate = (key: string, options?: Record<string, unknown>) => string;
type AnyRecord = Record<string, unknown>;

const ACTION_ORDER: readonly Action[] = ['page', 'show', 'create', 'edit', 'delete', 'export'];
const CONFIGURED_IDENTIFIER = /^custom:([a-z][a-zA-Z0-9]*)(?::(page|show|create|edit|delete|export))?$/;

/** The i18n key of a permission identifier's label, plus the resource it belongs to (buttons). */
export const permissionLabelKey = (identifier: string, registry: readonly ResourceDeclaration[] = RESOURCES): { key: string; resource?: string } | undefined => {
  const node = walkMenu().find((candidate) => candidate.identifier === identifier);
  if (node) return { key: `menu.${node.key}` };
  // configured resource types (issue 9): `custom:<name>` and `custom:<name>:<action>`, labelled from the
  // type's own labels, which the console merges while the type is active (src/resourceTypes/runtime.ts, menuKeyOf)
  const custom = CONFIGURED_IDENTIFIER.exec(identifier);
  if (custom) return custom[2] ? { key: `generic.permissionActions.${custom[2]}`, resource: custom[1] } : { key: `menu.${CUSTOM_MENU_PREFIX}${custom[1]}` };
  for (const declaration of registry) {
    const action = ACTION_ORDER.find((candidate) => declaration.permissions[candidate] === identifier);
    if (action) return { key: `generic.permissionActions.${action}`, resource: declaration.name };
    const extra = declaration.extraPermissions?.[identifier];
    if (extra) return { key: extra, resource: declaration.name };
  }
  return undefined;
};

export const permissionLabel = (translate: LabelTranslate, record: AnyRecord): string => {
  const fallback = String(record.name ?? record.id ?? '');
  const found = typeof record.identifier === 'string' ? permissionLabelKey(record.identifier) : undefined;
  if (!found) return fallback;
  const label = translate(found.key, { _: '' });
  if (!label) return fallback;
  if (!found.resource) return label;
  // a resource the catalogues do not name (a configured type this console does not hold) keeps the stored name
  const resource = translate(`resources.${found.resource}.name`, { smart_count: 1, _: '' });
  if (!resource) return fallback;
  return translate('generic.permissionActions.label', { resource, action: label, _: `${resource}: ${label}` });
};

/** Label translators by declaration name; a declaration without one is labelled by its nameField. */
export const RECORD_LABELS: Readonly<Record<string, (translate: LabelTranslate, record: AnyRecord) => string>> = {
  permission: permissionLabel,
};

export const hasRecordLabel = (declaration: ResourceDeclaration) => declaration.name in RECORD_LABELS;

/** The record's translated label (its nameField value when the declaration has no translator). */
export const recordLabel = (translate: LabelTranslate, declaration: ResourceDeclaration, record: AnyRecord | undefined): string => {
  if (!record) return '';
  const labeller = RECORD_LABELS[declaration.name];
  return labeller ? labeller(translate, record) : String(record[declaration.nameField] ?? record.id ?? '');
};
