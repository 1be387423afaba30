// Create, update and delete in one transaction each: declaration validation, reference checks
// within the referenced resource's scope, server-set readOnly fields, join-table sync and hooks;
// declared defaults, unique fields and delete behaviour come from ./integrity.ts.
import { and, eq, inArray, notInArray, type SQL } from 'drizzle-orm';
import { ruleIssues, validateRecord } from '../../resources/validation';
import type { Caller } from '../auth/principal';
import type { Db } from '../db/client';
import { AppError, invalid, invalidField, notFound, type Issue } from '../lib/errors';
import type { HookContext, Values } from './hooks';
import { applyDeleteBehaviour, uniqueViolation, withDefaults } from './integrity';
import type { JoinSpec, ModelRegistry, ResourceModel } from './model';
import { scopeCondition } from './query';

const unique = (ids: number[]) => [...new Set(ids)];

const validate = (model: ResourceModel, input: Values, mode: 'create' | 'edit') => {
  const issues: Issue[] = validateRecord(model.declaration, input, mode);
  if (issues.length) throw invalid(issues);
};

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
    const found = await tx.select({ id: target.id }).from(target.table).where(and(inArray(target.id, ids), scopeCondition(target, caller)));
    if (found.length !== ids.length) throw invalidField(name, 'validation.reference');
  }
};

/** A treeParent may not point at the row itself or one of its descendants. */
const checkTree = async (tx: Db, model: ResourceModel, id: number, input: Values) => {
  for (const [name, field] of Object.entries(model.declaration.fields)) {
    if (field.type !== 'treeParent' || typeof input[name] !== 'number') continue;
    const column = model.columns[name];
    for (let current: number | null = input[name] as number, depth = 0; current !== null; depth++) {
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

const syncJoins = async (tx: Db, model: ResourceModel, id: number, input: Values) => {
  for (const [name, join] of Object.entries(model.joins)) {
    if (Array.isArray(input[name])) await syncJoin(tx, join, id, input[name] as number[]);
  }
};

export interface WriteDeps {
  db: Db;
  models: ModelRegistry;
}

export const createRecord = async ({ db, models }: WriteDeps, caller: Caller, model: ResourceModel, body: Values): Promise<number> => {
  // An absent field takes its declared default (as the create form shows it), not the column's.
  const input: Values = withDefaults(model, body);
  validate(model, input, 'create');
  return guarded(model, caller, input, () => db.transaction(async (tx) => {
    const context: HookContext = { tx, caller, model, models };
    const values: Values = { ...columnValues(model, input), ...serverSetValues(model, caller) };
    await model.hooks.beforeCreate?.(context, input, values);
    await checkReferences(tx, caller, model, models, input);
    const [row] = await tx.insert(model.table).values(values).returning({ id: model.id });
    const id = row.id as number;
    await syncJoins(tx, model, id, input);
    await model.hooks.afterCreate?.(context, id, input);
    return id;
  }));
};

export const updateRecord = async ({ db, models }: WriteDeps, caller: Caller, model: ResourceModel, body: Values): Promise<number> => {
  const { id, ...input } = body as Values & { id: number };
  validate(model, input, 'edit');
  return guarded(model, caller, input, () => db.transaction(async (tx) => {
    const [existing] = (await tx
      .select()
      .from(model.table)
      .where(and(eq(model.id, id), scopeCondition(model, caller)))
      .for('update')) as Values[];
    if (!existing) throw notFound(model);
    // Cross-field rules hold for the record as it will be stored, not only for the fields sent.
    const broken = ruleIssues(model.declaration, { ...existing, ...input });
    if (broken.length) throw invalid(broken);
    const context: HookContext = { tx, caller, model, models };
    const values = columnValues(model, input);
    await model.hooks.beforeUpdate?.(context, id, input, values, existing);
    await checkReferences(tx, caller, model, models, input);
    await checkTree(tx, model, id, input);
    if (Object.keys(values).length) await tx.update(model.table).set(values).where(eq(model.id, id));
    await syncJoins(tx, model, id, input);
    await model.hooks.afterUpdate?.(context, id, input, existing);
    return id;
  }));
};

/** Deletes all of `ids` or nothing: any id outside the caller's scope answers 2003. */
export const deleteRecords = async ({ db, models }: WriteDeps, caller: Caller, model: ResourceModel, requested: number[]): Promise<number> => {
  const ids = unique(requested);
  return db.transaction(async (tx) => {
    const found = await tx
      .select({ id: model.id })
      .from(model.table)
      .where(and(inArray(model.id, ids), scopeCondition(model, caller)))
      .for('update');
    if (found.length !== ids.length) throw notFound(model);
    await model.hooks.beforeDelete?.({ tx, caller, model, models }, ids);
    // After the hook (its own codes first: 5003 sub-fleets, 6000 machines), the declared references.
    await applyDeleteBehaviour(tx, models, model, ids, caller.locale);
    const deleted = await tx.delete(model.table).where(inArray(model.id, ids)).returning({ id: model.id });
    return deleted.length;
  });
};
