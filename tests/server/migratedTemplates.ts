// Global set-up of the server suite: one migrated PGlite database, dumped to a file, from which every
// test file's in-memory PGlite starts (server/db/client.ts `pgliteSnapshot`). PGlite's initdb plus the
// migrations cost ~3 s per server on a 2-core machine, loading the dump ~0.3 s; under mutation testing
// that set-up ran again for every mutant. The dump is keyed by the migrations and the PGlite version,
// so a new migration makes a new one; the seed still runs per server (buildApp), as in production.
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { drizzle } from 'drizzle-orm/pglite';
import { migrate } from 'drizzle-orm/pglite/migrator';
import type { TestProject } from 'vitest/node';
import { MIGRATIONS_FOLDER } from '../../server/db/client';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The migrated PGlite dump every test server starts from (absent: initdb and migrations per server). */
    pgliteSnapshot?: string;
  }
}

const SNAPSHOT_FOLDER = '.tmp/test-pglite';

/** Everything the dump depends on: each migration file and the PGlite build. */
const snapshotKey = (): string => {
  const hash = createHash('sha256');
  const files = readdirSync(MIGRATIONS_FOLDER, { recursive: true, encoding: 'utf8' }).sort();
  for (const file of files) {
    const path = join(MIGRATIONS_FOLDER, file);
    if (!file.endsWith('.sql') && !file.endsWith('.json')) continue;
    hash.update(file).update(readFileSync(path));
  }
  hash.update(readFileSync('node_modules/@electric-sql/pglite/package.json'));
  return hash.digest('hex').slice(0, 16);
};

export const migratedSnapshot = async (): Promise<string> => {
  const file = join(SNAPSHOT_FOLDER, `${snapshotKey()}.tar`);
  if (existsSync(file)) return file;
  const pglite = new PGlite({ extensions: { pg_trgm } });
  try {
    await migrate(drizzle(pglite), { migrationsFolder: MIGRATIONS_FOLDER });
    const dump = await pglite.dumpDataDir('none');
    mkdirSync(SNAPSHOT_FOLDER, { recursive: true });
    // written beside and renamed: two suites starting together never read half a file
    const partial = `${file}.${process.pid}.partial`;
    writeFileSync(partial, Buffer.from(await dump.arrayBuffer()));
    renameSync(partial, file);
  } finally {
    await pglite.close();
  }
  return file;
};

export default async function setup(project: TestProject) {
  project.provide('pgliteSnapshot', await migratedSnapshot());
}
