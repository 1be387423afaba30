// Global set-up of the server suite: the migrations run once per run, not once per test server.
// PGlite: one migrated database dumped to a file, from which every test file's in-memory PGlite starts
// (server/db/client.ts `pgliteSnapshot`); PGlite's initdb plus the migrations cost ~3 s per server on a
// 2-core machine, loading the dump ~0.3 s. PostgreSQL (DATABASE_URL): one migrated database kept as a
// template, which every throw-away database is copied from (CREATE DATABASE ... TEMPLATE): the migrations
// on an empty database cost ~0.85 s of a ~2.4 s start, the copy ~0.3 s (docs/test-quality.md "Migrated
// once"). Both are keyed by the migrations, so a new migration makes new ones; the seed still runs per
// server (buildApp), as in production. Starting from an empty database is still tested: the templates'
// own making, stateless.test.ts (two instances migrating one empty PostgreSQL database) and migrations.test.ts.
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import { drizzle } from 'drizzle-orm/pglite';
import { migrate } from 'drizzle-orm/pglite/migrator';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { MIGRATIONS_FOLDER } from '../../server/db/client';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The migrated PGlite dump every test server starts from (absent: initdb and migrations per server). */
    pgliteSnapshot?: string;
    /** The migrated PostgreSQL database every throw-away database is a copy of (absent without DATABASE_URL). */
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

export default async function setup(project: TestProject) {
  project.provide('pgliteSnapshot', await migratedSnapshot());
  const databaseUrl = process.env.DATABASE_URL?.trim();
  if (databaseUrl) project.provide('postgresTemplate', await migratedPostgresTemplate(databaseUrl));
}
