// What route modules share. Built once per app; the only per-user state is the callers kept in memory,
// which every change in the database makes it forget (server/auth/callerCache.ts).
import type { ServerConfig } from './config';
import type { PasswordHasher } from './auth/passwords';
import type { Database, Db } from './db/client';
import type { Mailer } from './mail/mailer';
import type { ModelRegistry } from './crud/model';
import type { Gateway } from './gateway/types';
import type { JobRunner } from './jobs/periodic';
import type { ConfiguredTypeRegistry } from './configuredTypes/registry';
import type { CallerCache } from './auth/callerCache';
import type { CallerEntry } from './auth/principal';
import type { FileStorage } from './files/storage';
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
  /** Resolved callers kept in memory (server/auth/callerCache.ts). */
  callers?: CallerCache<CallerEntry>;
  /** Where uploaded files' bytes are (server/files/storage.ts), set once the file routes opened it (package downloads read it). */
  fileStorage?: FileStorage;
}
