// What a declaration says about a record beyond one field's value: defaults for absent fields,
// `unique` fields (a database unique index is the guarantee; its violation is answered 2002 naming
// the field) and the delete behaviour of references to a record (`onDelete`).
import { and, countDistinct, inArray, notInArray, sql, type SQL } from 'drizzle-orm';
import { getTableConfig, type IndexColumn, type PgColumn, type PgTable } from 'drizzle-orm/pg-core';
import { translate, type Locale } from '../../i18n';
import type { Db } from '../db/client';
import { AppError, pgErrorCode } from '../lib/errors';
import { isFileKind } from '../../resources/files';
import type { Values } from './hooks';
import type { ModelRegistry, ResourceModel } from './model';

/** Declared `defaultValue`s of the writable fields absent from a create body (the form's initial values). */
export const withDefaults = (model: ResourceModel, input: Values): Values => {
  const values: Values = { ...input };
  for (const [name, field] of Object.entries(model.declaration.fields)) {
    if (field.defaultValue === undefined || field.readOnly || field.virtual || values[name] !== undefined) continue;
    values[name] = field.defaultValue;
  }
  return values;
};

/** The uploaded files' ids `values` holds in the model's image and file fields (docs/files.md "Files and their records"). */
export const fileIdsOf = (model: ResourceModel, values: Values): number[] =>
  Object.entries(model.declaration.fields)
    .filter(([name, field]) => isFileKind(field.type) && typeof values[name] === 'number')
    .map(([name]) => values[name] as number);

/** The model's image and file columns (a code-declared model's), to read a deleted row's file ids. */
const fileColumns = (model: ResourceModel): Record<string, PgColumn> =>
  Object.fromEntries(Object.entries(model.columns).filter(([name]) => isFileKind(model.declaration.fields[name]?.type ?? 'text')));

/** Unique indexes of the model's table by name -> the declared `unique` fields among their columns. */
export const uniqueIndexFields = (model: ResourceModel): Map<string, string[]> => {
  const fieldOfColumn = new Map(Object.entries(model.columns).map(([field, column]) => [column.name, field]));
  const byIndex = new Map<string, string[]>();
  for (const index of getTableConfig(model.table).indexes) {
    if (!index.config.unique || !index.config.name) continue;
    const fields = index.config.columns
      .map((column) => fieldOfColumn.get((column as IndexColumn).name))
      .filter((field): field is string => Boolean(field && model.declaration.fields[field]?.unique));
    byIndex.set(index.config.name, fields);
  }
  return byIndex;
};

const constraintOf = (error: unknown): string | undefined => {
  for (let current: unknown = error, depth = 0; current && depth < 4; depth++) {
    const constraint = (current as { constraint?: unknown }).constraint;
    if (typeof constraint === 'string') return constraint;
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
};

/** `key` in `locale` from the model's own texts or the catalogues, or `fallback` when neither has it. */
const label = (model: ResourceModel, locale: Locale, key: string, fallback: string) => {
  const own = model.texts?.(locale, key);
  if (own !== undefined) return own;
  const text = translate(locale, key);
  return text === key ? fallback : text;
};

/** A field's label in `locale` (`resources.<name>.fields.<field>`). */
const fieldLabel = (model: ResourceModel, field: string, locale: Locale) => label(model, locale, `resources.${model.declaration.name}.fields.${field}`, field);

/** A resource's name in `locale` for `count` records (react-admin's "One |||| Many" form). */
const resourceLabel = (model: ResourceModel, locale: Locale, count: number) => {
  const forms = label(model, locale, `resources.${model.declaration.name}.name`, model.declaration.name)
    .split('||||')
    .map((form) => form.trim());
  return count === 1 ? forms[0] : forms[forms.length - 1];
};

/**
 * A unique violation on a declared `unique` field as 2002 with the field's issue (its label and the
 * value, in the request language), so the form shows it on the field; anything else: null.
 */
export const uniqueViolation = (model: ResourceModel, error: unknown, input: Values, locale: Locale): AppError | null => {
  if (pgErrorCode(error) !== '23505') return null;
  const declared = Object.entries(model.declaration.fields)
    .filter(([, field]) => field.unique)
    .map(([name]) => name);
  const constraint = constraintOf(error);
  const fromDocument = model.document?.uniqueFieldOf(constraint);
  const fromIndex = fromDocument ? [fromDocument] : constraint ? uniqueIndexFields(model).get(constraint) : undefined;
  // An index the Drizzle table does not name (e.g. created by the server at run time): the only unique field.
  const fields = fromIndex ?? (declared.length === 1 ? declared : []);
  // an item named by several fields, all sent: named by them all ("Screen text / Language "Welcome / English"")
  const sent = fields.filter((name) => name in input);
  const named = sent.length > 1 ? sent : [fields.find((name) => name in input) ?? fields[0]].filter(Boolean);
  const field = named[0];
  if (!field) return null;
  const shown = (name: string) => {
    const raw = input[name] === undefined || input[name] === null ? '' : String(input[name]);
    // an enum's value by its label ("Item type "Can" already exists"), as the form showed it
    return model.declaration.fields[name]?.type === 'enum' && raw ? label(model, locale, `resources.${model.declaration.name}.enums.${name}.${raw}`, raw) : raw;
  };
  const values = { label: named.map((name) => fieldLabel(model, name, locale)).join(' / '), value: named.map(shown).join(' / ') };
  return new AppError('2002', { issues: [{ field, message: 'validation.unique', values }] });
};

interface ReferenceHolder {
  model: ResourceModel;
  field: string;
  onDelete: 'restrict' | 'setNull' | 'cascade';
  /** The table holding the referencing values: the model's own, or a multiReference's join table. */
  table: PgTable;
  /** The referencing value: a column, or an expression on a document (typed as SQL, as query.ts expressionOf says why). */
  value: SQL;
  /** The condition "holds one of `ids`": the value among them, or a document's id list containing one. */
  holds: (ids: number[]) => SQL;
  /** The referencing column, when it is one. */
  column?: PgColumn;
  /** The referencing record's id in that table. */
  referrer: PgColumn;
  /** The holder's rows among others in a shared table (a configured type's). */
  rows?: SQL;
  join: boolean;
  /** A multiReference kept in a document: a JSON array of ids. */
  list?: boolean;
}

/**
 * Fields of every model that reference `target`, with their behaviour: 'reference' fields through
 * their column (or their value in the record's document), 'multiReference' fields through their join
 * table (whose `from` column names the referencing record).
 */
const referencesTo = (target: ResourceModel, models: ModelRegistry): ReferenceHolder[] =>
  [...models.values()].flatMap((model) =>
    Object.entries(model.declaration.fields)
      .filter(([, field]) => field.reference === target.declaration.name && (field.type === 'reference' || field.type === 'multiReference'))
      .flatMap(([name, field]): ReferenceHolder[] => {
        const onDelete = field.onDelete ?? 'restrict';
        const holder = { model, field: name, onDelete, referrer: model.id };
        const join = model.joins[name];
        const asSql = (column: PgColumn) => column as unknown as SQL;
        const among = (value: SQL) => (ids: number[]) => inArray(value, ids);
        if (join) return [{ ...holder, table: join.table, value: asSql(join.to), holds: among(asSql(join.to)), column: join.to, referrer: join.from, join: true }];
        if (model.document && field.type === 'multiReference') {
          // the document's JSON array of ids (server/configuredTypes/model.ts): containment of any one of them
          const list = model.computed[name];
          const holds = (ids: number[]) =>
            sql`(${sql.join(
              ids.map((id) => sql`${list} @> ${JSON.stringify([id])}::jsonb`),
              sql` or `,
            )})`;
          return [{ ...holder, table: model.table, value: list, holds, rows: model.document.rows, join: false, list: true }];
        }
        if (model.document) return [{ ...holder, table: model.table, value: model.computed[name], holds: among(model.computed[name]), rows: model.document.rows, join: false }];
        const column = model.columns[name];
        return column ? [{ ...holder, table: model.table, value: asSql(column), holds: among(asSql(column)), column, join: false }] : [];
      }),
  );

/** Ids of the holder's records that reference one of `ids`. */
const holdersOf = async (tx: Db, holder: ReferenceHolder, ids: number[]) =>
  (
    await tx
      .select({ id: holder.referrer })
      .from(holder.table)
      .where(and(holder.holds(ids), holder.rows))
  ).map((row) => row.id as number);

/**
 * Before deleting `ids` of `target` (inside the delete's transaction): a record still referenced
 * through a 'restrict' field refuses the delete with 5002 naming the referencing resource and how
 * many of its records; 'setNull' fields are emptied (a multiReference loses those ids), 'cascade'
 * records are deleted with it (and what refers to them follows their own fields' behaviour).
 */
export const applyDeleteBehaviour = async (tx: Db, models: ModelRegistry, target: ResourceModel, ids: number[], locale: Locale, released: number[] = []): Promise<void> => {
  if (ids.length === 0) return;
  const references = referencesTo(target, models);
  for (const { model, table, holds, referrer, rows } of references.filter((reference) => reference.onDelete === 'restrict')) {
    // records deleted in the same call (a self-reference) do not hold the delete back
    const self = model === target ? notInArray(referrer, ids) : undefined;
    const [{ n }] = await tx
      .select({ n: countDistinct(referrer) })
      .from(table)
      .where(and(holds(ids), rows, self));
    if (n > 0) {
      throw new AppError('5002', {
        issues: [{ field: model.declaration.name, message: 'validation.stillReferenced', values: { count: n, resource: resourceLabel(model, locale, n) } }],
      });
    }
  }
  for (const holder of references) {
    const { model, field, table, value, join, onDelete } = holder;
    if (join && onDelete !== 'restrict') await tx.delete(table).where(inArray(value, ids));
    else if (onDelete === 'setNull' && model.document && holder.list) {
      // the id leaves the list; the last one leaves the field (an empty list is stored as none)
      const { column } = model.document;
      const kept = sql`(select jsonb_agg(item order by item) from jsonb_array_elements(${column} -> ${field}::text) as item where not ((item #>> '{}')::int4 = any(${sql.raw(`array[${ids.map(Number).join(',')}]::int4[]`)})))`;
      const next = sql`case when ${kept} is null then ${column} - ${field}::text else jsonb_set(${column}, array[${field}::text], ${kept}) end`;
      await tx
        .update(model.table)
        .set({ [model.document.key]: next, ...model.document.updateValues() })
        .where(and(holder.holds(ids), holder.rows));
    } else if (onDelete === 'setNull' && model.document) {
      const { column } = model.document;
      await tx
        .update(model.table)
        .set({ [model.document.key]: sql`${column} - ${field}::text`, ...model.document.updateValues() })
        .where(and(inArray(value, ids), holder.rows));
    } else if (onDelete === 'setNull')
      await tx
        .update(model.table)
        .set({ [field]: null })
        .where(inArray(value, ids));
    else if (onDelete === 'cascade' && model.document) {
      const cascaded = (await holdersOf(tx, holder, ids)).filter((id) => model !== target || !ids.includes(id));
      await applyDeleteBehaviour(tx, models, model, cascaded, locale, released);
      if (cascaded.length) {
        const gone = await tx.delete(model.table).where(inArray(model.id, cascaded)).returning({ document: model.document.column });
        released.push(...gone.flatMap((row) => fileIdsOf(model, (row.document ?? {}) as Values)));
      }
    }
    // A foreign key that cascades does it itself, after the target's own delete triggers have read the
    // rows (the performance roll-ups subtract a deleted machine's alarms in a BEFORE DELETE trigger).
    // (Its rows' files are not known here: they stay, as docs/files.md says.)
    else if (onDelete === 'cascade' && !(holder.column && cascadesInDatabase(table, holder.column))) {
      const files = fileColumns(model);
      if (Object.keys(files).length === 0) await tx.delete(model.table).where(inArray(value, ids));
      else released.push(...(await tx.delete(model.table).where(inArray(value, ids)).returning(files)).flatMap((row) => fileIdsOf(model, row)));
    }
  }
};

/** Whether `column` of `table` holds a foreign key declared `on delete cascade` in the Drizzle schema. */
const cascadesInDatabase = (table: PgTable, column: PgColumn) =>
  getTableConfig(table).foreignKeys.some((key) => key.onDelete === 'cascade' && key.reference().columns.some((from) => from.name === column.name));
