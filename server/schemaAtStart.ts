// What every start writes after the migrations, each step under the migration lock and idempotent: the seed
// (server/seed/seed.ts), a trigram index per contains search and the folded columns of short searches
// (server/db/trigramIndexes.ts, server/db/foldedColumns.ts), all derived from the resource declarations. buildApp runs
// it on every start; the server suite's set-up runs it once on the databases its test servers copy
// (tests/server/migratedTemplates.ts), so each of them starts as a second start does.
import type { PgTable } from 'drizzle-orm/pg-core';
import type { ResourceDeclaration } from '../resources/types';
import type { PasswordHasher } from './auth/passwords';
import type { ServerConfig } from './config';
import type { ResourceHooks } from './crud/hooks';
import { buildModels, type ModelRegistry } from './crud/model';
import type { Database } from './db/client';
import { createFoldedColumns } from './db/foldedColumns';
import { TABLES } from './db/registry';
import { createTrigramIndexes } from './db/trigramIndexes';
import { HOOKUP_HOOKS } from './hookups/resources';
import { HOOKUP_VIEWS } from './hookups/views';
import { resourceHooks } from './resources';
import { seed } from './seed/seed';

/** Extra tables and hooks beside the product's, e.g. a test fixture's. */
export interface ModelExtras {
  tables?: Record<string, PgTable>;
  hooks?: Record<string, ResourceHooks>;
}

/** The declarations' models over the product's tables and the APIs area's views (server/hookups/views.ts), with their hooks. */
export const modelsOf = (declarations: readonly ResourceDeclaration[], hasher: PasswordHasher, extras: ModelExtras = {}): ModelRegistry =>
  buildModels(declarations, { ...TABLES, ...HOOKUP_VIEWS, ...extras.tables }, { ...resourceHooks(hasher), ...HOOKUP_HOOKS, ...extras.hooks });

export const prepareSchema = async (
  database: Pick<Database, 'migrateLocked'>,
  { config, hasher, declarations, models }: { config: ServerConfig; hasher: PasswordHasher; declarations: readonly ResourceDeclaration[]; models: ModelRegistry },
) => {
  await database.migrateLocked((db) => seed(db, config, hasher, declarations));
  // A trigram index for every contains filter the declarations offer (server/db/trigramIndexes.ts).
  await database.migrateLocked((db) => createTrigramIndexes(db, models));
  // And for texts too short for a trigram: a lower-case copy of each searched column with an index of its 2-character pieces (server/db/foldedColumns.ts).
  await database.migrateLocked((db) => createFoldedColumns(db, models));
};
