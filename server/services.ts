// What route modules share. Built once per app; holds no per-user state (that lives in the database).
import type { ServerConfig } from './config';
import type { PasswordHasher } from './auth/passwords';
import type { Database, Db } from './db/client';
import type { Mailer } from './lib/mailer';
import type { ModelRegistry } from './crud/model';
import type { Gateway } from './gateway/types';
import type { JobRunner } from './jobs/periodic';
import type { ConfiguredTypeRegistry } from './configuredTypes/registry';

export interface Services {
  database: Database;
  db: Db;
  config: ServerConfig;
  hasher: PasswordHasher;
  mailer: Mailer;
  models: ModelRegistry;
  /** Periodic background work of this instance (server/jobs/periodic.ts). */
  jobs: JobRunner;
  /** The machine gateway (docs/machine-protocol.md). */
  gateway: Gateway;
  /** Resource types defined at run time (server/configuredTypes/), set once they are loaded. */
  configuredTypes?: ConfiguredTypeRegistry;
}
