// Audit entries of resource type definitions (docs/audit-log.md): created, changed, deleted or archived, written
// with the change's transaction like the engine's writes. The definition is compared key by key, each field
// on its own (`fields.<name>`), so an entry shows what changed rather than two copies of every field.
import type { ConfiguredType } from '../../resources/configuredTypes';
import { auditActor, diffFields, recordEvent, type AuditCaller } from '../audit/record';
import type { Db } from '../db/client';
import { definitionOnly } from './definitionRow';

/** The audit log's resource name of definitions (not a configured type's name: resources/auditLog.ts). */
export const DEFINITION_RESOURCE = 'resourceType';

/** Keys sorted at every level: a stored definition (jsonb) keeps no key order, and the diff compares JSON text. */
const sorted = (value: unknown): unknown => {
  if (Array.isArray(value)) return value.map(sorted);
  if (value && typeof value === 'object')
    return Object.fromEntries(
      Object.keys(value)
        .sort()
        .map((key) => [key, sorted((value as Record<string, unknown>)[key])]),
    );
  return value;
};

/** A definition as a flat record: its top-level keys, each field under `fields.<name>`, the status. */
const flat = (type: ConfiguredType | undefined, status?: string) => {
  if (!type) return undefined;
  const { fields, ...rest } = definitionOnly(type);
  return {
    ...(sorted(rest) as Record<string, unknown>),
    ...Object.fromEntries(Object.entries(fields).map(([name, field]) => [`fields.${name}`, sorted(field)])),
    // the order of the forms and lists
    fieldOrder: Object.keys(fields),
    ...(status ? { status } : {}),
  };
};

export interface DefinitionChange {
  /** Who changed it; absent for definitions loaded from RESOURCE_TYPES_DIR at start (no user). */
  actor?: AuditCaller;
  action: 'create' | 'update' | 'delete';
  /** resource_type.id */
  recordId: number;
  before?: ConfiguredType;
  beforeStatus?: string;
  after?: ConfiguredType;
  /** Anything the change did besides the definition (fields whose values were archived, the type archived instead of deleted). */
  detail?: Record<string, unknown>;
}

export const recordDefinitionChange = (tx: Db, change: DefinitionChange) => {
  const before = flat(change.before, change.beforeStatus);
  const after = flat(change.after, change.after ? 'active' : undefined);
  // an update lists what it set: every key either state has (a removed field's key included)
  const keys = change.action === 'update' ? [...new Set([...Object.keys(before ?? {}), ...Object.keys(after ?? {})])] : undefined;
  const afterAll = keys && after ? Object.fromEntries(keys.map((key) => [key, (after as Record<string, unknown>)[key] ?? null])) : after;
  return recordEvent(tx, {
    ...(change.actor ? auditActor(change.actor.principal) : { licenseAccountId: null, userId: null, userName: null }),
    action: change.action,
    resource: DEFINITION_RESOURCE,
    recordId: change.recordId,
    changes: diffFields(before, afterAll, []),
    detail: change.detail,
    outcome: 'success',
  });
};
