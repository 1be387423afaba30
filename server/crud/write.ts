// Create, update and delete in one transaction each, for every model whether its fields have their own
// columns or live in one JSON document (configured types, docs/ARCHITECTURE.md "One engine"): declaration
// validation, reference checks within the referenced resource's scope, server-set readOnly fields,
// join-table sync and hooks; declared defaults, unique fields and delete behaviour come from ./integrity.ts.
import { and, eq, inArray, notInArray, type SQL } from 'drizzle-orm';
import { ruleIssues, validateRecord } from '../../resources/validation';
import type { Locale } from '../../i18n';
import type { Caller } from '../auth/principal';
import { recordWrite, recordWrites } from '../audit/record';
import type { Db } from '../db/client';
import { AppError, invalid, invalidField, notFound, type Issue } from '../lib/errors';
import type { HookContext, Values } from './hooks';
import { applyDeleteBehaviour, fileIdsOf, uniqueViolation, withDefaults } from './integrity';
import type { JoinSpec, ModelRegistry, ResourceModel } from './model';
import { scopeCondition } from './query';
import { checkFileFields } from '../files/ownership';
import { fileColumnsOf, markUnsaved, releaseFiles } from '../files/cleanup';
import type { FileStorage } from '../files/storage';

const unique = (ids: number[]) => [...new Set(ids)];

/** A model's own texts (a configured type's pattern and rule messages) replace their keys; catalogue keys stay for the error handler. */
export const localizeIssues = (model: ResourceModel, locale: Locale, issues: Issue[]): Issue[] =>
  issues.map((issue) => {
    const text = model.texts?.(locale, issue.message);
    return text === undefined ? issue : { ...issue, message: text, values: undefined };
  });

const refuseIssues = (model: ResourceModel, locale: Locale, issues: Issue[]) => {
  if (issues.length) throw invalid(localizeIssues(model, locale, issues));
};

const validate = (model: ResourceModel, locale: Locale, input: Values, mode: 'create' | 'edit') => refuseIssues(model, locale, validateRecord(model.declaration, input, mode));

/** Runs a write's transaction; a unique violation on a declared `unique` field answers 2002 naming it. */
const guarded = async <T>(model: ResourceModel, caller: Caller, input: Values, run: () => Promise<T>): Promise<T> => {
  try {
    return await run();
  } catch (error) {
    throw uniqueViolation(model, error, input, caller.locale) ?? error;
  }
};

/**
 * Stored fields of `input` (virtual and multiReference fields are not columns). Datetimes arrive as
 * ISO text; columns Drizzle maps to Date objects get Dates.
 */
const columnValues = (model: ResourceModel, input: Values): Values =>
  Object.fromEntries(
    Object.entries(input)
      .filter(([name]) => name !== 'id' && model.columns[name])
      .map(([name, value]) => [name, typeof value === 'string' && model.columns[name].dataType === 'date' ? new Date(value) : value]),
  );

/**
 * readOnly fields the server fills on create: datetimes get the current time, a reference to a user
 * gets the caller (the creator); a licenseAccount-scoped row gets the caller's current account.
 */
const serverSetValues = (model: ResourceModel, caller: Caller): Values => {
  if (model.document) return model.document.createValues(caller.userId, caller.principal.licenseAccountId);
  const values: Values = {};
  for (const [name, field] of Object.entries(model.declaration.fields)) {
    if (!field.readOnly || !model.columns[name]) continue;
    if (field.type === 'datetime' || field.type === 'date') values[name] = new Date();
    else if (field.type === 'reference' && field.reference === 'user') values[name] = caller.userId;
  }
  if (model.declaration.scope === 'licenseAccount') {
    if (caller.principal.licenseAccountId === null) throw new AppError('5001');
    values.licenseAccountId = caller.principal.licenseAccountId;
  }
  return values;
};

/** Every referenced id must exist and be visible to the caller (the referenced resource's scope). */
const checkReferences = async (tx: Db, caller: Caller, model: ResourceModel, models: ModelRegistry, input: Values) => {
  for (const [name, field] of Object.entries(model.declaration.fields)) {
    if (!field.reference || !(name in input) || field.readOnly) continue;
    const value = input[name];
    const ids = unique((Array.isArray(value) ? value : [value]).filter((id): id is number => typeof id === 'number'));
    const target = models.get(field.reference);
    if (!target || ids.length === 0) continue;
    const found = await tx
      .select({ id: target.id })
      .from(target.table)
      .where(and(inArray(target.id, ids), scopeCondition(target, caller)));
    if (found.length !== ids.length) throw invalidField(name, 'validation.reference');
  }
  // image and file fields: uploaded files of the caller's account (docs/files.md)
  await checkFileFields(tx, caller, model.declaration.fields, input);
};

/** A treeParent may not point at the row itself or one of its descendants. */
const checkTree = async (tx: Db, model: ResourceModel, id: number, input: Values) => {
  for (const [name, field] of Object.entries(model.declaration.fields)) {
    if (field.type !== 'treeParent' || typeof input[name] !== 'number') continue;
    const column = model.columns[name];
    for (let current: number | null = input[name], depth = 0; current !== null; depth++) {
      if (current === id || depth > 100) throw invalidField(name, 'validation.treeCycle');
      const [parent] = await tx.select({ parent: column }).from(model.table).where(eq(model.id, current)).limit(1);
      current = (parent?.parent as number | null | undefined) ?? null;
    }
  }
};

/** Makes the join rows of `id` exactly `ids`, keeping existing rows (and their extra columns). */
const syncJoin = async (tx: Db, join: JoinSpec, id: number, ids: number[]) => {
  const wanted = unique(ids);
  const stale: SQL | undefined = wanted.length ? notInArray(join.to, wanted) : undefined;
  await tx.delete(join.table).where(and(eq(join.from, id), stale));
  if (wanted.length) {
    await tx
      .insert(join.table)
      .values(wanted.map((to) => ({ [join.fromKey]: id, [join.toKey]: to })))
      .onConflictDoNothing();
  }
};

/** The ids each multiReference of `input` held before the write (a role's permissions): the audit's before. */
const joinedIds = async (tx: Db, model: ResourceModel, id: number, input: Values): Promise<Values> => {
  const before: Values = {};
  for (const [name, join] of Object.entries(model.joins)) {
    if (!Array.isArray(input[name])) continue;
    before[name] = (await tx.select({ to: join.to }).from(join.table).where(eq(join.from, id))).map((row) => row.to);
  }
  return before;
};

const syncJoins = async (tx: Db, model: ResourceModel, id: number, input: Values) => {
  for (const [name, join] of Object.entries(model.joins)) {
    if (Array.isArray(input[name])) await syncJoin(tx, join, id, input[name] as number[]);
  }
};

/** Fields whose values never reach the audit log (docs/audit-log.md): passwords and write-only fields. */
const secretFields = (model: ResourceModel) =>
  Object.entries(model.declaration.fields)
    .filter(([, field]) => field.type === 'password' || field.writeOnly)
    .map(([name]) => name);

/** Only the declared, stored fields: a row also holds columns no declaration shows (a user's password hash); a virtual field (a confirmation) is never stored. */
const declaredOnly = (model: ResourceModel, values: Values | undefined) =>
  values &&
  Object.fromEntries(Object.entries(values).filter(([name]) => name !== 'id' && Object.hasOwn(model.declaration.fields, name) && !model.declaration.fields[name].virtual));

/** The audit entry of a write (docs/audit-log.md), in the write's transaction. */
const audit = (model: ResourceModel, caller: Caller, action: 'create' | 'update' | 'delete', recordId: number, before?: Values, after?: Values) => ({
  caller,
  resource: model.declaration.name,
  action,
  recordId,
  before: declaredOnly(model, before),
  after: declaredOnly(model, after),
  secretFields: secretFields(model),
});

export interface WriteDeps {
  db: Db;
  models: ModelRegistry;
  /** Where uploaded files are: files a write lets go of and no record holds are removed after its commit (docs/files.md). */
  fileStorage?: FileStorage;
}

/** After the commit: the files let go of that no record holds any more go (server/files/cleanup.ts). */
const releaseAfterCommit = (deps: WriteDeps, released: number[]) =>
  releaseFiles({ db: deps.db, fileStorage: deps.fileStorage, columns: fileColumnsOf(deps.models.values()) }, released);

/** The row to insert: the stored fields (as columns, or as the document) and what the server sets. */
const insertValues = (model: ResourceModel, caller: Caller, input: Values): Values => {
  const fields = model.document ? { [model.document.key]: model.document.toDocument(input) } : columnValues(model, input);
  return { ...fields, ...serverSetValues(model, caller) };
};

/** The stored record's fields by name: its columns, or its document. */
const storedFields = (model: ResourceModel, row: Values): Values => (model.document ? { ...(row[model.document.key] as Values) } : row);

/** What an update sets: the changed columns, or the whole document with the changes merged in. */
const updateValues = (model: ResourceModel, stored: Values, input: Values): Values =>
  model.document ? { [model.document.key]: model.document.toDocument({ ...stored, ...input }), ...model.document.updateValues() } : columnValues(model, input);

export const createRecord = async ({ db, models }: WriteDeps, caller: Caller, model: ResourceModel, body: Values): Promise<number> => {
  // An absent field takes its declared default (as the create form shows it), not the column's.
  const input: Values = withDefaults(model, body);
  validate(model, caller.locale, input, 'create');
  return guarded(model, caller, input, () =>
    db.transaction(async (tx) => {
      const context: HookContext = { tx, caller, model, models };
      const values: Values = insertValues(model, caller, input);
      await model.hooks.beforeCreate?.(context, input, values);
      await checkReferences(tx, caller, model, models, input);
      const [row] = await tx.insert(model.table).values(values).returning({ id: model.id });
      const id = row.id as number;
      await syncJoins(tx, model, id, input);
      await model.hooks.afterCreate?.(context, id, input);
      await recordWrite(tx, audit(model, caller, 'create', id, undefined, input));
      return id;
    }),
  );
};

export const updateRecord = async (deps: WriteDeps, caller: Caller, model: ResourceModel, body: Values): Promise<number> => {
  const { db, models } = deps;
  const { id, ...input } = body as Values & { id: number };
  validate(model, caller.locale, input, 'edit');
  const released: number[] = [];
  const written = await guarded(model, caller, input, () =>
    db.transaction(async (tx) => {
      const [row] = (await tx
        .select()
        .from(model.table)
        .where(and(eq(model.id, id), scopeCondition(model, caller)))
        .for('update')) as Values[];
      if (!row) throw notFound(model);
      const existing = storedFields(model, row);
      // Cross-field rules hold for the record as it will be stored, not only for the fields sent.
      refuseIssues(model, caller.locale, ruleIssues(model.declaration, { ...existing, ...input }));
      const context: HookContext = { tx, caller, model, models };
      const values = updateValues(model, existing, input);
      await model.hooks.beforeUpdate?.(context, id, input, values, existing);
      await checkReferences(tx, caller, model, models, input);
      await checkTree(tx, model, id, input);
      if (Object.keys(values).length) await tx.update(model.table).set(values).where(eq(model.id, id));
      const joinedBefore = await joinedIds(tx, model, id, input);
      await syncJoins(tx, model, id, input);
      await model.hooks.afterUpdate?.(context, id, input, existing);
      await recordWrite(tx, audit(model, caller, 'update', id, { ...existing, ...joinedBefore }, input));
      // a replaced or emptied image/file value lets go of its file
      const kept = new Set(fileIdsOf(model, { ...existing, ...input }));
      released.push(...fileIdsOf(model, existing).filter((file) => !kept.has(file)));
      await markUnsaved(tx, released);
      return id;
    }),
  );
  await releaseAfterCommit(deps, released);
  return written;
};

/** Deletes all of `ids` or nothing: any id outside the caller's scope answers 2003. */
export const deleteRecords = async (deps: WriteDeps, caller: Caller, model: ResourceModel, requested: number[]): Promise<number> => {
  const { db, models } = deps;
  const ids = unique(requested);
  const released: number[] = [];
  const count = await db.transaction(async (tx) => {
    const found = (await tx
      .select()
      .from(model.table)
      .where(and(inArray(model.id, ids), scopeCondition(model, caller)))
      .for('update')) as Values[];
    if (found.length !== ids.length) throw notFound(model);
    await model.hooks.beforeDelete?.({ tx, caller, model, models }, ids);
    // After the hook (its own codes first: 5003 sub-fleets, 6000 machines), the declared references.
    // the files of the deleted records and of those that go with them (cascade) are let go of
    await applyDeleteBehaviour(tx, models, model, ids, caller.locale, released);
    const deleted = await tx.delete(model.table).where(inArray(model.id, ids)).returning({ id: model.id });
    const idKey = Object.entries(model.columns).find(([, column]) => column === model.id)?.[0] ?? 'id';
    await recordWrites(
      tx,
      found.map((row) => audit(model, caller, 'delete', row[idKey] as number, storedFields(model, row))),
    );
    released.push(...found.flatMap((row) => fileIdsOf(model, storedFields(model, row))));
    await markUnsaved(tx, released);
    return deleted.length;
  });
  await releaseAfterCommit(deps, released);
  return count;
};
