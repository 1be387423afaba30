// Global set-up of the server suite: the migrations and the start's own writes run once per run, not once per
// test server. PGlite: one migrated database dumped to a file (kept between runs, keyed by the migrations), and
// from it, per run, the same database after one start's writes (server/schemaAtStart.ts: the seed, the search
// indexes, the folded columns), dumped too, from which every test file's in-memory PGlite starts (server/db/client.ts
// `pgliteSnapshot`). PostgreSQL (DATABASE_URL): one migrated database kept as a template, and per run a copy of it
// after the start's writes, which every throw-away database is copied from (CREATE DATABASE ... TEMPLATE). Each test
// server's own start then finds what a second start finds: its migrations and writes find nothing to do
// (docs/test-quality.md "Migrated once"). Starting from an empty database is still tested: the templates' own making,
// stateless.test.ts (two instances migrating one empty PostgreSQL database) and migrations.test.ts.
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import { drizzle } from 'drizzle-orm/pglite';
import { migrate } from 'drizzle-orm/pglite/migrator';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { RESOURCES } from '../../resources';
import { createPasswordHasher } from '../../server/auth/passwords';
import { DEFAULT_CONFIG } from '../../server/config';
import { MIGRATIONS_FOLDER, type Db } from '../../server/db/client';
import { modelsOf, prepareSchema } from '../../server/schemaAtStart';
import { TEST_CONFIG } from './testConfig';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The dump every test server's PGlite starts from: migrated, and one start's writes (absent: initdb and migrations per server). */
    pgliteSnapshot?: string;
    /** The PostgreSQL database every throw-away database is a copy of: migrated, and one start's writes (absent without DATABASE_URL). */
    postgresTemplate?: string;
  }
}

const SNAPSHOT_FOLDER = '.tmp/test-pglite';

/** Everything a migrated database depends on: each migration file (and for the dump, the PGlite build). */
const migrationsKey = (withPglite: boolean): string => {
  const hash = createHash('sha256');
  const files = readdirSync(MIGRATIONS_FOLDER, { recursive: true, encoding: 'utf8' }).sort();
  for (const file of files) {
    const path = join(MIGRATIONS_FOLDER, file);
    if (!file.endsWith('.sql') && !file.endsWith('.json')) continue;
    hash.update(file).update(readFileSync(path));
  }
  if (withPglite) hash.update(readFileSync('node_modules/@electric-sql/pglite/package.json'));
  return hash.digest('hex').slice(0, 16);
};

export const migratedSnapshot = async (): Promise<string> => {
  const file = join(SNAPSHOT_FOLDER, `${migrationsKey(true)}.tar`);
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

const TEMPLATE_PREFIX = 'rvm_tpl_';
/** Held while a template is made: two suites started together make it once. */
const TEMPLATE_LOCK = 7_342_019;

const quoted = (name: string) => `"${name.replace(/"/g, '""')}"`;

/** The migrated template on the PostgreSQL of `databaseUrl`, made if missing; older ones (other migrations) are dropped when unused. */
export const migratedPostgresTemplate = async (databaseUrl: string): Promise<string> => {
  const name = `${TEMPLATE_PREFIX}${migrationsKey(false)}`;
  const admin = new pg.Client({ connectionString: databaseUrl });
  await admin.connect();
  try {
    await admin.query('select pg_advisory_lock($1)', [TEMPLATE_LOCK]);
    const existing = await admin.query<{ datname: string }>('select datname from pg_database where datname like $1', [`${TEMPLATE_PREFIX}%`]);
    if (!existing.rows.some((row) => row.datname === name)) {
      // migrated under another name and renamed when complete: a run cut short never leaves a half-migrated template
      const making = `${name}_making`;
      await admin.query(`drop database if exists ${quoted(making)} with (force)`);
      await admin.query(`create database ${quoted(making)}`);
      const url = new URL(databaseUrl);
      url.pathname = `/${making}`;
      const client = new pg.Client({ connectionString: url.toString() });
      await client.connect();
      try {
        await migratePg(drizzlePg(client), { migrationsFolder: MIGRATIONS_FOLDER });
      } finally {
        await client.end();
      }
      await admin.query(`alter database ${quoted(making)} rename to ${quoted(name)}`);
    }
    for (const { datname } of existing.rows.filter((row) => row.datname !== name)) {
      await admin.query(`drop database if exists ${quoted(datname)}`).catch(() => undefined); // in use by another checkout's run: kept
    }
  } finally {
    await admin.end(); // ends the session, and with it the advisory lock
  }
  return name;
};

/** What a test server's start writes after the migrations (as buildApp, with the product's declarations and the tests' configuration). */
const writeAsAStart = (db: Db) => {
  const config = { ...DEFAULT_CONFIG, ...TEST_CONFIG };
  const hasher = createPasswordHasher(config.passwordHashLogN);
  return prepareSchema({ migrateLocked: (work) => work(db) }, { config, hasher, declarations: RESOURCES, models: modelsOf(RESOURCES, hasher) });
};

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

/** The migrated dump after one start's writes, for this run only (the writes follow the code, not only the migrations). */
const startedSnapshot = async (migrated: string): Promise<string> => {
  const pglite = new PGlite({ extensions: { pg_trgm }, loadDataDir: new Blob([readFileSync(migrated)]) });
  try {
    const db = drizzle(pglite) as unknown as Db;
    await writeAsAStart(db);
    // 45 MB each: those of runs killed before their teardown go
    for (const left of readdirSync(SNAPSHOT_FOLDER).filter((name) => /^started-\d+\.tar$/.test(name))) {
      if (!alive(Number(left.slice('started-'.length, -'.tar'.length)))) rmSync(join(SNAPSHOT_FOLDER, left), { force: true });
    }
    const file = join(SNAPSHOT_FOLDER, `started-${process.pid}.tar`);
    writeFileSync(file, Buffer.from(await (await pglite.dumpDataDir('none')).arrayBuffer()));
    return file;
  } finally {
    await pglite.close();
  }
};

const STARTED_PREFIX = 'rvm_started_';

/** A copy of the migrated template after one start's writes, for this run (named after its process); dropped after it. */
const startedPostgresDatabase = async (databaseUrl: string, template: string) => {
  const name = `${STARTED_PREFIX}${process.pid}`;
  const admin = new pg.Client({ connectionString: databaseUrl });
  await admin.connect();
  try {
    // left by runs that were killed before their teardown
    const left = await admin.query<{ datname: string }>('select datname from pg_database where datname like $1', [`${STARTED_PREFIX}%`]);
    for (const { datname } of left.rows) {
      if (datname === name || !alive(Number(datname.slice(STARTED_PREFIX.length)))) await admin.query(`drop database if exists ${quoted(datname)} with (force)`);
    }
    await admin.query(`create database ${quoted(name)} template ${quoted(template)}`);
  } finally {
    await admin.end();
  }
  const url = new URL(databaseUrl);
  url.pathname = `/${name}`;
  const client = new pg.Client({ connectionString: url.toString() });
  await client.connect();
  try {
    const db = drizzlePg(client) as unknown as Db;
    await writeAsAStart(db);
  } finally {
    await client.end();
  }
  return {
    name,
    drop: async () => {
      const dropper = new pg.Client({ connectionString: databaseUrl });
      await dropper.connect();
      try {
        await dropper.query(`drop database if exists ${quoted(name)} with (force)`);
      } finally {
        await dropper.end();
      }
    },
  };
};

export default async function setup(project: TestProject) {
  const snapshot = await startedSnapshot(await migratedSnapshot());
  project.provide('pgliteSnapshot', snapshot);
  const databaseUrl = process.env.DATABASE_URL?.trim();
  const started = databaseUrl ? await startedPostgresDatabase(databaseUrl, await migratedPostgresTemplate(databaseUrl)) : undefined;
  if (started) project.provide('postgresTemplate', started.name);
  return async () => {
    rmSync(snapshot, { force: true });
    await started?.drop();
  };
}
