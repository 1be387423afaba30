// Creating and updating configured records: defaults, validation (validate.ts), references checked
// within the referenced resource's scope, values normalised (datetimes as UTC ISO, days as
// YYYY-MM-DD, empty values absent), then one JSON document written. Reading, paging, deleting and
// exporting reuse server/crud through the type's model.
import { and, eq, inArray, sql } from 'drizzle-orm';
import { ruleIssues } from '../../resources/validation';
import type { Caller } from '../auth/principal';
import type { Db } from '../db/client';
import { configuredRecord } from '../db/schema';
import { AppError, invalidField, notFound, pgErrorCode } from '../lib/errors';
import type { ModelRegistry } from '../crud/model';
import { scopeCondition } from '../crud/query';
import { uniqueFieldOf } from './indexes';
import type { ConfiguredEntry } from './registry';
import { checkBody, duplicateValue, recordIssues, throwIssues } from './validate';

type Values = Record<string, unknown>;

const isEmpty = (value: unknown) => value === undefined || value === null || value === '';

const normalised = (entry: ConfiguredEntry, values: Values): Values => {
  const data: Values = {};
  for (const [name, field] of Object.entries(entry.type.fields)) {
    const value = values[name];
    if (isEmpty(value)) continue;
    if (field.type === 'datetime' && typeof value === 'string') data[name] = new Date(value).toISOString();
    else if (field.type === 'date' && typeof value === 'string') data[name] = /^\d{4}-\d{2}-\d{2}$/.test(value) ? value : new Date(value).toISOString().slice(0, 10);
    else data[name] = value;
  }
  return data;
};

const checkReferences = async (tx: Db, caller: Caller, entry: ConfiguredEntry, models: ModelRegistry, input: Values) => {
  for (const [name, field] of Object.entries(entry.type.fields)) {
    if (field.type !== 'reference' || typeof input[name] !== 'number') continue;
    const target = models.get(field.reference ?? '');
    if (!target) throw invalidField(name, 'validation.reference');
    const found = await tx.select({ id: target.id }).from(target.table).where(and(eq(target.id, input[name] as number), scopeCondition(target, caller)));
    if (found.length === 0) throw invalidField(name, 'validation.reference');
  }
};

/** A unique index refusing the write becomes 2002 naming the field. */
const uniqueGuard = async <T>(entry: ConfiguredEntry, caller: Caller, values: Values, work: () => Promise<T>): Promise<T> => {
  try {
    return await work();
  } catch (error) {
    if (pgErrorCode(error) !== '23505') throw error;
    let cause: unknown = error;
    let constraint: string | undefined;
    for (let depth = 0; cause && depth < 4 && !constraint; depth++) {
      constraint = (cause as { constraint?: string }).constraint;
      cause = (cause as { cause?: unknown }).cause;
    }
    const field = uniqueFieldOf(entry.type, constraint);
    throw field ? duplicateValue(entry.model, caller.locale, field, values[field]) : error;
  }
};

export const createConfiguredRecord = async (db: Db, models: ModelRegistry, caller: Caller, entry: ConfiguredEntry, body: unknown): Promise<number> => {
  const { model, validators, type } = entry;
  const input: Values = { ...(body as Values) };
  for (const [name, field] of Object.entries(type.fields)) if (field.default !== undefined && input[name] === undefined) input[name] = field.default;
  checkBody(validators.create, model, caller.locale, input);
  throwIssues(model, caller.locale, recordIssues(model, input, 'create'));
  if (caller.principal.licenseAccountId === null) throw new AppError('5001');
  const licenseAccountId = caller.principal.licenseAccountId;
  return uniqueGuard(entry, caller, input, () =>
    db.transaction(async (tx) => {
      await checkReferences(tx, caller, entry, models, input);
      const [row] = await tx
        .insert(configuredRecord)
        .values({ typeName: type.name, licenseAccountId, data: normalised(entry, input), createdBy: caller.userId })
        .returning({ id: configuredRecord.id });
      return row.id;
    }),
  );
};

export const updateConfiguredRecord = async (db: Db, models: ModelRegistry, caller: Caller, entry: ConfiguredEntry, body: unknown): Promise<number> => {
  const { model, validators } = entry;
  const request: Values = { ...(body as Values) };
  checkBody(validators.update, model, caller.locale, request);
  const { id, ...input } = request as Values & { id: number };
  throwIssues(model, caller.locale, recordIssues(model, input, 'edit'));
  return uniqueGuard(entry, caller, input, () =>
    db.transaction(async (tx) => {
      const [existing] = await tx
        .select({ data: configuredRecord.data })
        .from(configuredRecord)
        .where(and(eq(configuredRecord.id, id), scopeCondition(model, caller)))
        .for('update');
      if (!existing) throw notFound(model);
      const merged = { ...(existing.data as Values), ...input };
      // Cross-field rules hold for the record as it will be stored, not only for the fields sent.
      throwIssues(model, caller.locale, ruleIssues(model.declaration, merged));
      await checkReferences(tx, caller, entry, models, input);
      await tx
        .update(configuredRecord)
        .set({ data: normalised(entry, merged), updatedTime: sql`now()` })
        .where(inArray(configuredRecord.id, [id]));
      return id;
    }),
  );
};
