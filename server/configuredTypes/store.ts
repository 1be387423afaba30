// Changing configured types: one transaction per change (or per import), serialised by a transaction
// advisory lock so versions (max + 1) grow in commit order and every instance's poll sees each change.
// The transaction also creates the type's indexes (a unique index blocked by duplicates rolls it
// back: 9403) and its permission rows. A change that would lose data (a removed field, a field of
// another kind) needs `confirmArchive`: the old values move to the record's `archived` column.
import { and, eq, sql } from 'drizzle-orm';
import { isReferenceKind, type ConfiguredField, type ConfiguredType } from '../../resources/configuredTypes';
import { definitionIssues } from '../../resources/configuredTypeIssues';
import { translate, type Locale } from '../../i18n';
import type { Db } from '../db/client';
import { rowsOf } from '../db/client';
import { configuredRecord, resourceType } from '../db/schema';
import { AppError, invalid, type Issue } from '../lib/errors';
import { fromRow, sameDefinition, toRow } from './definitionRow';
import { indexSpecs, syncIndexes } from './indexes';
import { removePermissionRows, syncPermissionRows } from './permissionRows';
import { MAX_PATTERN_LENGTH, patternProblem } from '../../resources/pattern';
import { AUDIT_ONLY_RESOURCES } from '../../resources/auditLog';
import type { AuditCaller } from '../audit/record';
import { recordDefinitionChange } from './audit';

/** Arbitrary but fixed, distinct from the migration lock: "RVMT". */
const TYPE_LOCK_KEY = 0x52564d54;

export interface StoreContext {
  db: Db;
  locale: Locale;
  userId: number | null;
  /** Code-declared resource names (a configured type may not take one; references may point at them). */
  codeNames: ReadonlySet<string>;
  /** Who makes the change, for the audit log (docs/audit-log.md); absent at start (RESOURCE_TYPES_DIR). */
  actor?: AuditCaller;
}

const lock = (tx: Db) => tx.execute(sql`select pg_advisory_xact_lock(${TYPE_LOCK_KEY})`);

const nextVersion = async (tx: Db) => rowsOf<{ version: number }>(await tx.execute(sql`select coalesce(max(version), 0)::int + 1 as version from resource_type`))[0].version;

const configuredNames = async (tx: Db) => (await tx.select({ name: resourceType.name }).from(resourceType)).map((row) => row.name);

/** 1001-1004 issues of the definition's meaning and its regular expressions (the JSON schema ran before). */
const checkDefinition = async (tx: Db, context: StoreContext, type: ConfiguredType) => {
  const resources = new Set([...context.codeNames, ...(await configuredNames(tx)), type.name]);
  const issues: Issue[] = definitionIssues(type, resources).map((issue) => ({ ...issue, code: '1004' as const }));
  for (const [name, field] of Object.entries(type.fields)) {
    (field.patterns ?? []).forEach((pattern, index) => {
      const problem = patternProblem(pattern.regex);
      if (problem) issues.push({ field: `fields.${name}.patterns.${index}.regex`, message: problem, values: { max: MAX_PATTERN_LENGTH }, code: '1004' });
    });
  }
  if (issues.length) throw invalid(issues);
};

const sameKind = (a: ConfiguredField, b: ConfiguredField) => a.type === b.type && (!isReferenceKind(a.type) || a.reference === b.reference);

const hasValues = async (tx: Db, typeName: string, field: string) => {
  const rows = await tx
    .select({ id: configuredRecord.id })
    .from(configuredRecord)
    .where(and(eq(configuredRecord.typeName, typeName), sql`${configuredRecord.data} -> ${field} is not null and ${configuredRecord.data} -> ${field} <> 'null'::jsonb`))
    .limit(1);
  return rows.length > 0;
};

const recordCount = async (tx: Db, typeName: string) =>
  rowsOf<{ n: number }>(await tx.execute(sql`select count(*)::int as n from configured_record where type_name = ${typeName}`))[0].n;

/** Fields of `before` that `after` drops or re-kinds and that hold data. */
const lossyFields = async (tx: Db, before: ConfiguredType, after: ConfiguredType) => {
  const lost: string[] = [];
  for (const [name, field] of Object.entries(before.fields)) {
    const next = after.fields[name];
    if (next && sameKind(field, next)) continue;
    if (await hasValues(tx, before.name, name)) lost.push(name);
  }
  return lost;
};

const archiveValues = async (tx: Db, typeName: string, fields: string[], version: number) => {
  for (const field of fields) {
    const key = `${field}@v${version}`;
    await tx.execute(sql`update configured_record
      set archived = coalesce(archived, '{}'::jsonb) || jsonb_build_object(${key}::text, data -> ${field}), data = data - ${field}::text
      where type_name = ${typeName} and data ? ${field}::text`);
  }
};

type Row = typeof resourceType.$inferSelect;

const readRow = async (tx: Db, name: string): Promise<Row | undefined> => (await tx.select().from(resourceType).where(eq(resourceType.name, name)).for('update'))[0];

const definitionOf = (row: Row) => fromRow(row.definition, row.name);

/** Writes the type (created or updated, active) with its indexes and permission rows. */
const write = async (tx: Db, context: StoreContext, type: ConfiguredType, existing: Row | undefined) => {
  const version = await nextVersion(tx);
  const definition = toRow(type);
  let id: number;
  if (existing) {
    await tx.update(resourceType).set({ definition, status: 'active', version, updatedTime: new Date() }).where(eq(resourceType.id, existing.id));
    id = existing.id;
  } else {
    [{ id }] = await tx.insert(resourceType).values({ name: type.name, definition, status: 'active', version, createdBy: context.userId }).returning({ id: resourceType.id });
  }
  await syncIndexes(tx, type.name, indexSpecs(type), context.locale);
  await syncPermissionRows(tx, type);
  return id;
};

export type SaveMode = 'create' | 'update' | 'upsert';

/**
 * Saves one definition inside `tx` (which holds the lock): create refuses a used name (9400), update
 * an unknown one (9402); upsert (import, files) does either. Answers what happened, or 'unchanged'.
 */
export const saveInTransaction = async (tx: Db, context: StoreContext, type: ConfiguredType, mode: SaveMode, confirmArchive = false) => {
  const existing = await readRow(tx, type.name);
  // the audit log's names of what is not a record of the engine (resource types, saved filters) are taken too
  if (context.codeNames.has(type.name) || AUDIT_ONLY_RESOURCES.includes(type.name) || (mode === 'create' && existing)) {
    throw new AppError('9400', { resMsg: translate(context.locale, 'errors.9400', { name: type.name }) });
  }
  if (mode === 'update' && !existing) throw new AppError('9402');
  await checkDefinition(tx, context, type);
  if (!existing) {
    const id = await write(tx, context, type, undefined);
    await recordDefinitionChange(tx, { actor: context.actor, action: 'create', recordId: id, after: type });
    return 'created' as const;
  }
  const before = definitionOf(existing);
  if (existing.status === 'active' && sameDefinition(before, type)) return 'unchanged' as const;
  const lost = await lossyFields(tx, before, type);
  if (lost.length && !confirmArchive) {
    throw new AppError('9401', { resMsg: translate(context.locale, 'errors.9401', { field: lost.join(', ') }), resData: { fields: lost } });
  }
  if (lost.length) await archiveValues(tx, type.name, lost, existing.version);
  await write(tx, context, type, existing);
  await recordDefinitionChange(tx, {
    actor: context.actor,
    action: 'update',
    recordId: existing.id,
    before,
    beforeStatus: existing.status,
    after: type,
    ...(lost.length ? { detail: { archivedFields: lost } } : {}),
  });
  return 'updated' as const;
};

export const saveType = (context: StoreContext, type: ConfiguredType, mode: SaveMode, confirmArchive = false) =>
  context.db.transaction(async (tx) => {
    await lock(tx);
    return saveInTransaction(tx, context, type, mode, confirmArchive);
  });

/** Several definitions in one transaction (import, start-up files): all or nothing. */
export const saveTypes = (context: StoreContext, types: ConfiguredType[], confirmArchive = false) =>
  context.db.transaction(async (tx) => {
    await lock(tx);
    const created: string[] = [];
    const updated: string[] = [];
    for (const type of types) {
      const outcome = await saveInTransaction(tx, context, type, 'upsert', confirmArchive);
      if (outcome === 'created') created.push(type.name);
      if (outcome === 'updated') updated.push(type.name);
    }
    return { created, updated };
  });

/** Deletes a type without records; a type with records is archived (its routes answer 2003). */
export const deleteType = (context: StoreContext, name: string) =>
  context.db.transaction(async (tx) => {
    await lock(tx);
    const existing = await readRow(tx, name);
    if (!existing) throw new AppError('9402');
    await syncIndexes(tx, name, []);
    await removePermissionRows(tx, name);
    const entry = { actor: context.actor, action: 'delete' as const, recordId: existing.id, before: definitionOf(existing), beforeStatus: existing.status };
    if ((await recordCount(tx, name)) > 0) {
      await tx
        .update(resourceType)
        .set({ status: 'archived', version: await nextVersion(tx), updatedTime: new Date() })
        .where(eq(resourceType.id, existing.id));
      // kept for its records (routes 2003): the entry says so
      await recordDefinitionChange(tx, { ...entry, detail: { archived: true } });
      return 'archived' as const;
    }
    await tx.delete(resourceType).where(eq(resourceType.id, existing.id));
    await recordDefinitionChange(tx, entry);
    return 'deleted' as const;
  });

/** At start (under the migration lock): indexes and permission rows of every active type exist. */
export const ensureTypeObjects = async (db: Db) => {
  const rows = await db.select().from(resourceType).where(eq(resourceType.status, 'active'));
  for (const row of rows) {
    const type = definitionOf(row);
    try {
      await syncIndexes(db, type.name, indexSpecs(type));
      await syncPermissionRows(db, type);
    } catch {
      // A type the database cannot index any more (duplicates written around the server) is still served.
    }
  }
};
