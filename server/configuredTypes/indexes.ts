// Per-type indexes on the shared configured_record table, created by the server with guarded DDL
// (`create [unique] index if not exists … where type_name = '<type>'`): a btree on
// (license_account_id, expression) for every filtered or default-sort field, a trigram index for
// `like` filters, and a partial UNIQUE index per `unique` field (unique within a license account).
// Names are derived: cfg_<hash of type>_<hash of the statement>_<field>, so a changed expression gets
// a new index and the old one is dropped; every name fits PostgreSQL's 63 characters.
import { createHash } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { ConfiguredType } from '../../resources/configuredTypes';
import { rowsOf, type Db } from '../db/client';
import { AppError, pgErrorCode } from '../lib/errors';
import { translate, type Locale } from '../../i18n';
import { indexedFields, listExpressionText, typePredicateText, valueExpressionText } from './model';

const hash = (text: string) => createHash('sha1').update(text).digest('hex').slice(0, 8);

export const indexPrefix = (typeName: string) => `cfg_${hash(typeName)}_`;

export interface IndexSpec {
  name: string;
  field: string;
  unique: boolean;
  statement: string;
}

const spec = (type: ConfiguredType, field: string, kind: 'btree' | 'trgm' | 'unique' | 'list'): IndexSpec => {
  const expression = valueExpressionText(field, type.fields[field]);
  const on =
    kind === 'trgm'
      ? `using gin (${expression} gin_trgm_ops)`
      : // a multiReference's containment filters (`@>`, ./model.ts listFilter)
        kind === 'list'
        ? `using gin (${listExpressionText(field)} jsonb_path_ops)`
        : `("license_account_id", ${expression})`;
  const body = `on "configured_record" ${on} where ${typePredicateText(type.name)}`;
  const name = `${indexPrefix(type.name)}${hash(`${kind} ${body}`)}_${field.toLowerCase().slice(0, 40)}`;
  return { name, field, unique: kind === 'unique', statement: `create ${kind === 'unique' ? 'unique ' : ''}index if not exists "${name}" ${body}` };
};

/** The indexes an active type wants. */
export const indexSpecs = (type: ConfiguredType): IndexSpec[] => {
  const specs: IndexSpec[] = [];
  const likes = new Set((type.list.filters ?? []).filter((filter) => filter.operator === 'like').map((filter) => filter.field));
  for (const field of indexedFields(type)) {
    // a unique field's own index serves its filters and sort as well
    if (!type.fields[field].unique) specs.push(spec(type, field, 'btree'));
    if (likes.has(field)) specs.push(spec(type, field, 'trgm'));
  }
  const lists = new Set((type.list.filters ?? []).filter((filter) => type.fields[filter.field]?.type === 'multiReference').map((filter) => filter.field));
  for (const field of lists) specs.push(spec(type, field, 'list'));
  for (const [field, declared] of Object.entries(type.fields)) if (declared.unique) specs.push(spec(type, field, 'unique'));
  return specs;
};

/** The field of a unique index by its name (to name the field of a 23505 on write). */
export const uniqueFieldOf = (type: ConfiguredType, constraint: string | undefined) => indexSpecs(type).find((index) => index.unique && index.name === constraint)?.field;

const existingIndexes = async (db: Db, typeName: string) =>
  rowsOf<{ name: string }>(
    await db.execute(sql`select indexname as name from pg_indexes where tablename = 'configured_record' and indexname like ${`${indexPrefix(typeName)}%`}`),
  ).map((row) => row.name);

/**
 * Makes the type's indexes exactly `specs` (none for an archived or removed type). A unique index
 * that existing duplicates prevent answers 9403 naming the field (the caller's transaction rolls back).
 */
export const syncIndexes = async (db: Db, typeName: string, specs: IndexSpec[], locale: Locale = 'en') => {
  const wanted = new Set(specs.map((index) => index.name));
  for (const name of await existingIndexes(db, typeName)) {
    if (!wanted.has(name)) await db.execute(sql.raw(`drop index if exists "${name}"`));
  }
  for (const index of specs) {
    try {
      await db.execute(sql.raw(index.statement));
    } catch (error) {
      if (pgErrorCode(error) === '23505' && index.unique) {
        throw new AppError('9403', { resMsg: translate(locale, 'errors.9403', { field: index.field }), resData: { field: index.field } });
      }
      throw error;
    }
  }
};
