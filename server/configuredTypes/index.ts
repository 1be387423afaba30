// Configured resource types (docs/ARCHITECTURE.md "Configured resource types"): started once per app.
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import type { Database } from '../db/client';
import type { ModelRegistry } from '../crud/model';
import type { Services } from '../services';
import { loadTypeFiles } from './files';
import { registerConfiguredRecordRoutes } from './recordRoutes';
import { ConfiguredTypeRegistry } from './registry';
import { ensureTypeObjects } from './store';
import { registerTypeRoutes } from './typeRoutes';

export { ConfiguredTypeRegistry } from './registry';

/** Loads the files, makes sure every active type has its indexes and permission rows, starts the registry's poll. */
export const startConfiguredTypes = async (database: Database, models: ModelRegistry, dir: string | undefined, log?: FastifyBaseLogger) => {
  const codeNames = new Set(models.keys());
  await database.migrateLocked(async (db) => {
    await loadTypeFiles(db, dir, codeNames);
    await ensureTypeObjects(db);
  });
  const registry = new ConfiguredTypeRegistry(database.db, models, log);
  await registry.start();
  return registry;
};

export const registerConfiguredTypeRoutes = (app: FastifyInstance, services: Services, registry: ConfiguredTypeRegistry) => {
  registerTypeRoutes(app, services, registry);
  registerConfiguredRecordRoutes(app, services, registry);
};
