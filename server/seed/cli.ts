// `npm run seed`: applies migrations and the idempotent start-up seed without starting the server.
import { mkdirSync } from 'node:fs';
import { RESOURCES } from '../../resources';
import { createPasswordHasher } from '../auth/passwords';
import { settingsFromEnv } from '../config';
import { openDatabase } from '../db/client';
import { seed } from './seed';

const settings = settingsFromEnv();
if (!settings.databaseUrl) mkdirSync(settings.dataDir, { recursive: true });
const database = await openDatabase({ databaseUrl: settings.databaseUrl, dataDir: settings.databaseUrl ? undefined : settings.dataDir });
try {
  await database.migrateLocked((db) => seed(db, settings.config, createPasswordHasher(settings.config.passwordHashLogN), RESOURCES));
  console.log(`Database migrated and seeded (${database.kind}).`);
} finally {
  await database.close();
}
