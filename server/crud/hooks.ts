// What a declaration cannot say: per-resource hooks (server/resources/<name>.ts), all optional.
// They run inside the write transaction and throw AppError to refuse.
import type { SQL } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';
import type { FilterDeclaration } from '../../resources/types';
import type { Caller } from '../auth/principal';
import type { Db } from '../db/client';
import type { ModelRegistry, ResourceModel } from './model';

export type Values = Record<string, unknown>;

export interface HookContext {
  /** The transaction of the write. */
  tx: Db;
  caller: Caller;
  model: ResourceModel;
  models: ModelRegistry;
}

export interface ResourceHooks {
  /** A filter the declaration's operator cannot express (e.g. a fleet with its sub-fleets); undefined: the generic one. */
  filter?(filter: FilterDeclaration, value: unknown): SQL | undefined;
  /** scope 'custom': the condition limiting the rows the caller sees (undefined: all rows). */
  scope?(caller: Caller, model: ResourceModel): SQL | undefined;
  /**
   * How many rows the caller's scope holds, as a scalar SQL expression reading a count kept as rows change:
   * the page answer's total when no filter applies, instead of counting the scope's rows on every page.
   * Read in the page's own statement (one round trip per page instead of two), in its select list: it must be a
   * self-contained subquery, naming no column of the listed table (a bare name there would bind to the listed row).
   */
  scopeTotal?(caller: Caller): SQL;
  /** readOnly fields computed in SQL (sortable like columns). */
  computed?(table: PgTable): Record<string, SQL>;
  /** `input` is the validated request record (mutable: e.g. default join ids); `values` the row to insert. */
  beforeCreate?(context: HookContext, input: Values, values: Values): Promise<void>;
  afterCreate?(context: HookContext, id: number, input: Values): Promise<void>;
  /** `existing` is the stored row (columns by field name), locked for the transaction. */
  beforeUpdate?(context: HookContext, id: number, input: Values, values: Values, existing: Values): Promise<void>;
  afterUpdate?(context: HookContext, id: number, input: Values, existing: Values): Promise<void>;
  /** Refuse (5002, 5003, …) before any row is deleted; all ids are in scope. */
  beforeDelete?(context: HookContext, ids: number[]): Promise<void>;
}
