// A declaration resolved against the database: its Drizzle table, the column of each stored field
// (looked up by field name), its join tables, computed fields and hooks. Built once at start;
// a declaration that does not fit its table fails the start with a message saying what is missing.
import { getTableName, sql, type SQL } from 'drizzle-orm';
import { PgDialect, type PgColumn, type PgTable } from 'drizzle-orm/pg-core';
import { fieldsFor, type ResourceDeclaration } from '../../resources/types';
import { columnByField, columnBySqlName, type TableRegistry } from '../db/registry';
import type { Locale } from '../../i18n';
import type { ResourceHooks, Values } from './hooks';

export interface JoinSpec {
  table: PgTable;
  /** Column pointing at this resource's row, and its property name. */
  from: PgColumn;
  fromKey: string;
  /** Column pointing at the referenced row, and its property name. */
  to: PgColumn;
  toKey: string;
}

export interface ResourceModel {
  declaration: ResourceDeclaration;
  table: PgTable;
  id: PgColumn;
  /** Stored fields: field name -> column. */
  columns: Record<string, PgColumn>;
  /** readOnly fields computed in SQL by the hooks (e.g. counts). */
  computed: Record<string, SQL>;
  /**
   * How a contains text of 1–2 characters (too short for a trigram) is answered, for fields whose table the start
   * prepared for it (server/db/foldedColumns.ts); other fields compare `lower(column)`.
   */
  shortContains: Record<string, (text: string) => SQL>;
  /** multiReference fields: field name -> join table. */
  joins: Record<string, JoinSpec>;
  /** The license_account_id column of 'licenseAccount'-scoped resources. */
  licenseAccountColumn?: PgColumn;
  hooks: ResourceHooks;
  /** Fields answered (never writeOnly or virtual ones). */
  readable: string[];
  /** Fields accepted on create / on update (besides id). */
  creatable: string[];
  editable: string[];
  /** Texts the catalogues do not hold (a configured type's labels): consulted before translate(). */
  texts?: (locale: Locale, key: string) => string | undefined;
  /** Absent: every stored field has its own column. */
  document?: DocumentStorage;
  /** Checks a request body against the model's schemas (1001-1004), applying their defaults in place. */
  checkBody?: (kind: BodyKind, body: Values, locale: Locale) => void;
}

/**
 * How a model whose fields live in one JSON document is written (a configured type: every type shares
 * the configured_record table, docs/ARCHITECTURE.md "One engine"). Reads need nothing from here: each field
 * is a computed SQL expression on the document, and the scope hook keeps to the type's rows.
 */
export interface DocumentStorage {
  /** Property name of the JSON column in the Drizzle table. */
  key: string;
  /** The column itself (for SQL written by hand). */
  column: PgColumn;
  /** Condition naming this model's rows in the shared table. */
  rows: SQL;
  /** Columns a new row carries besides the document (the type's name, the account, the creator); 5001 without an account. */
  createValues(callerUserId: number, licenseAccountId: number | null): Values;
  /** Columns an update sets besides the document (the update time). */
  updateValues(): Values;
  /** The fields as stored: datetimes as UTC ISO text, days as YYYY-MM-DD, empty values absent. */
  toDocument(fields: Values): Values;
  /** The field a unique index guards, by the index's name (the indexes are created at run time). */
  uniqueFieldOf(constraint: string | undefined): string | undefined;
}

/** Bodies of a model whose routes cannot carry its schemas (resolved per request): checked by the model itself. */
export type BodyKind = 'create' | 'update' | 'page' | 'export';

export type ModelRegistry = ReadonlyMap<string, ResourceModel>;

const fail = (declaration: ResourceDeclaration, problem: string): never => {
  throw new Error(`Resource "${declaration.name}" (table "${declaration.table}"): ${problem}`);
};

const resolveJoin = (declaration: ResourceDeclaration, field: string, tables: TableRegistry): JoinSpec => {
  const through = declaration.fields[field].through ?? fail(declaration, `multiReference "${field}" needs \`through\``);
  const table = tables[through.table] ?? fail(declaration, `join table "${through.table}" of "${field}" is not in server/db/schema`);
  const from = columnBySqlName(table, through.from) ?? fail(declaration, `join table "${through.table}" has no column "${through.from}"`);
  const to = columnBySqlName(table, through.to) ?? fail(declaration, `join table "${through.table}" has no column "${through.to}"`);
  return { table, fromKey: from[0], from: from[1], toKey: to[0], to: to[1] };
};

const dialect = new PgDialect();

/**
 * A computed field without parameters, rendered to its text once: drizzle otherwise walks every chunk of its
 * subquery again on each read (drizzle building SQL was a fifth of the server's time per machine-list page, much of it
 * the seven flags' subqueries; docs/benchmarks.md). One with parameters is kept as it is; the decoder goes with the text.
 */
const renderedOnce = (expression: SQL): SQL => {
  const { sql: text, params } = dialect.sqlToQuery(expression);
  if (params.length > 0) return expression;
  // the decoder (`.mapWith`) is kept on the SQL object, untyped in drizzle's declarations
  const { decoder } = expression as unknown as { decoder: Parameters<SQL['mapWith']>[0] };
  return sql.raw(text).mapWith(decoder);
};

export const buildModel = (declaration: ResourceDeclaration, tables: TableRegistry, hooks: ResourceHooks = {}): ResourceModel => {
  const table = tables[declaration.table] ?? fail(declaration, 'no such table in server/db/schema');
  const computed = Object.fromEntries(Object.entries(hooks.computed?.(table) ?? {}).map(([name, expression]) => [name, renderedOnce(expression)]));
  const columns: Record<string, PgColumn> = {};
  const joins: Record<string, JoinSpec> = {};
  for (const [name, field] of Object.entries(declaration.fields)) {
    if (field.virtual) continue;
    if (field.type === 'multiReference') {
      joins[name] = resolveJoin(declaration, name, tables);
      continue;
    }
    const column = columnByField(table, name);
    if (column) columns[name] = column;
    else if (!computed[name]) fail(declaration, `field "${name}" has no column (property "${name}") and is not computed by a hook`);
  }
  const id = columns.id ?? columnByField(table, 'id') ?? fail(declaration, 'the table needs an "id" column');
  const licenseAccountColumn = columnByField(table, 'licenseAccountId');
  if (declaration.scope === 'licenseAccount' && !licenseAccountColumn) fail(declaration, 'scope "licenseAccount" needs a licenseAccountId column');
  if (declaration.scope === 'custom' && !hooks.scope) fail(declaration, 'scope "custom" needs a scope hook in server/resources/');
  const known = (field: string) => Boolean(columns[field] ?? computed[field]);
  if (!known(declaration.nameField)) fail(declaration, `nameField "${declaration.nameField}" is not a column`);
  if (!known(declaration.list.defaultSort.field)) fail(declaration, `default sort "${declaration.list.defaultSort.field}" is not a column`);
  for (const filter of declaration.list.filters) {
    if (!known(filter.field)) fail(declaration, `filter "${filter.name}" is on "${filter.field}", which is not a column`);
  }
  for (const [name, field] of Object.entries(declaration.fields)) {
    if (field.scaleField && declaration.fields[field.scaleField]?.type !== 'number') fail(declaration, `field "${name}": scaleField "${field.scaleField}" is not a number field`);
  }
  const writable = (name: string) => !declaration.fields[name].readOnly && name !== 'id';
  return {
    declaration,
    table,
    id,
    columns,
    computed,
    shortContains: {},
    joins,
    licenseAccountColumn,
    hooks,
    readable: Object.entries(declaration.fields)
      .filter(([, field]) => !field.writeOnly && !field.virtual)
      .map(([name]) => name),
    creatable: fieldsFor(declaration, 'create').filter(writable),
    editable: fieldsFor(declaration, 'edit').filter(writable),
  };
};

export const buildModels = (declarations: readonly ResourceDeclaration[], tables: TableRegistry, hooks: Readonly<Record<string, ResourceHooks>>): ModelRegistry =>
  new Map(declarations.map((declaration) => [declaration.name, buildModel(declaration, tables, hooks[declaration.name])]));

export const tableNameOf = (model: ResourceModel) => getTableName(model.table);
