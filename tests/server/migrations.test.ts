// The migrations and the Drizzle schema agree (drizzle-kit, the way `npm run db:generate` compares
// them, finds nothing to generate), and a database holding data upgrades from the first migration to
// the latest (on PGlite: the SQL is the same on PostgreSQL, which every other suite migrates too).
import { cpSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { isTable, sql } from 'drizzle-orm';
import { getTableConfig, type PgTable } from 'drizzle-orm/pg-core';
import { drizzle } from 'drizzle-orm/pglite';
import { migrate } from 'drizzle-orm/pglite/migrator';
import { afterAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../server/app';
import { createPasswordHasher } from '../../server/auth/passwords';
import { MIGRATIONS_FOLDER, rowsOf, type Database } from '../../server/db/client';
import { CallerChangeFeed } from '../../server/db/callerChanges';
import * as schema from '../../server/db/schema';
import { TEST_CONFIG } from './helpers';

interface Journal {
  entries: Array<{ idx: number; tag: string }>;
}
const journal = (): Journal => JSON.parse(readFileSync(join(MIGRATIONS_FOLDER, 'meta', '_journal.json'), 'utf8')) as Journal;

/** A copy of the migrations folder that stops after the first `count` migrations. */
const migrationsUpTo = (count: number) => {
  const folder = mkdtempSync(join(tmpdir(), 'rvm-migrations-'));
  cpSync(MIGRATIONS_FOLDER, folder, { recursive: true });
  const full = journal();
  writeFileSync(join(folder, 'meta', '_journal.json'), JSON.stringify({ ...full, entries: full.entries.slice(0, count) }));
  return folder;
};

describe('migrations', () => {
  const cleanups: Array<() => unknown> = [];
  afterAll(async () => {
    for (const cleanup of cleanups.reverse()) await cleanup();
  });

  it('the journal lists every migration file, each with its snapshot', () => {
    const tags = journal().entries.map((entry) => entry.tag);
    expect(tags.length).toBeGreaterThanOrEqual(2);
    expect(tags[0]).toMatch(/^0000_/);
    const files = readdirSync(MIGRATIONS_FOLDER)
      .filter((name) => name.endsWith('.sql'))
      .map((name) => name.replace(/\.sql$/, ''));
    expect(files.sort()).toEqual([...tags].sort());
    const snapshots = readdirSync(join(MIGRATIONS_FOLDER, 'meta')).filter((name) => name.endsWith('_snapshot.json'));
    expect(snapshots.sort()).toEqual(tags.map((tag) => `${tag.slice(0, 4)}_snapshot.json`).sort());
  });

  it('the schema needs no new migration (what `npm run db:generate` would write is empty)', async () => {
    const { generateDrizzleJson, generateMigration } = await import('drizzle-kit/api');
    const entries = journal().entries;
    const last = JSON.parse(readFileSync(join(MIGRATIONS_FOLDER, 'meta', `${entries.at(-1)!.tag.slice(0, 4)}_snapshot.json`), 'utf8'));
    const current = generateDrizzleJson(schema, last.id);
    expect(await generateMigration(last, current)).toEqual([]);
  });

  it('the migrations build the schema: every table and column, its type and nullability, as declared', async () => {
    const client = new PGlite({ extensions: { pg_trgm } });
    cleanups.push(() => client.close());
    const db = drizzle(client);
    await migrate(db, { migrationsFolder: MIGRATIONS_FOLDER });
    const built = rowsOf<{ table: string; column: string; type: string; notNull: boolean }>(
      await db.execute(sql`select c.relname as "table", a.attname as "column", format_type(a.atttypid, a.atttypmod) as "type", a.attnotnull as "notNull"
        from pg_attribute a join pg_class c on c.oid = a.attrelid join pg_namespace n on n.oid = c.relnamespace
        where n.nspname = 'public' and c.relkind = 'r' and a.attnum > 0 and not a.attisdropped`),
    );
    /** drizzle's SQL type in PostgreSQL's own spelling (format_type). */
    const spelled = (type: string) =>
      type
        .replace(/^varchar/, 'character varying')
        .replace(/^char\b/, 'character')
        .replace(/^timestamp(\(\d\))? with time zone$/, 'timestamp$1 with time zone')
        .replace(/^timestamp$/, 'timestamp without time zone')
        .replace(/^time$/, 'time without time zone')
        .replace(/^(serial)$/, 'integer')
        .replace(/^bigserial$/, 'bigint')
        .replace(/, /g, ',');
    const declared = (Object.values(schema) as unknown[])
      .filter((value): value is PgTable => isTable(value))
      .flatMap((table) => {
        const config = getTableConfig(table);
        return config.columns.map((column) => ({ table: config.name, column: column.name, type: spelled(column.getSQLType()), notNull: column.notNull || column.primary }));
      });
    const key = (row: { table: string; column: string; type: string; notNull: boolean }) => `${row.table}.${row.column} ${row.type}${row.notNull ? ' not null' : ''}`;
    expect(declared.length).toBeGreaterThan(50);
    expect(built.map(key).sort()).toEqual(declared.map(key).sort());
  });

  it('upgrades a database with data from the first migration to the latest; the data stays usable', async () => {
    const first = migrationsUpTo(1);
    cleanups.push(() => rmSync(first, { recursive: true, force: true }));
    const client = new PGlite({ extensions: { pg_trgm } });
    cleanups.push(() => client.close());
    const db = drizzle(client);
    await migrate(db, { migrationsFolder: first });
    const tablesOf = async () =>
      rowsOf<{ name: string }>(await db.execute(sql`select table_name as name from information_schema.tables where table_schema = 'public'`)).map((row) => row.name);
    const before = await tablesOf();
    expect(before).toContain('sys_user');
    expect(before).not.toContain('rvm'); // really the first migration only

    // Data as the first release wrote it: an account, a user of it with a password, a role, a token.
    const hasher = createPasswordHasher(TEST_CONFIG.passwordHashLogN!);
    await db.execute(sql`insert into license_account (id, license_account_name, business_unit) values (1, 'Old Depot', 'Retail')`);
    await db.execute(sql`insert into sys_user (id, realname, name, password_hash, super_admin) values (1, 'Old Admin', 'admin', ${await hasher.hash('Older#2024')}, true)`);
    await db.execute(
      sql`insert into sys_user (id, realname, name, email, password_hash) values (2, 'Old Timer', 'oldtimer', 'old@example.com', ${await hasher.hash('Older#2024')})`,
    );
    await db.execute(sql`insert into license_account_user_relation (user_id, license_account_id, is_default) values (1, 1, true), (2, 1, true)`);
    await db.execute(sql`insert into sys_role (id, name, description, license_account_id) values (1, 'Old role', 'from release one', 1)`);
    await db.execute(sql`insert into sys_user_role (user_id, role_id) values (2, 1)`);
    await db.execute(sql`select setval('sys_user_id_seq', 2), setval('license_account_id_seq', 1), setval('sys_role_id_seq', 1)`);

    // The next start: the server migrates to the latest and seeds, on the same database.
    const database: Database = {
      kind: 'pglite',
      db,
      migrateLocked: async (work) => {
        await migrate(db, { migrationsFolder: MIGRATIONS_FOLDER });
        return work(db);
      },
      // never live: this instance reads every caller from the database
      callerChanges: new CallerChangeFeed(),
      close: async () => undefined,
    };
    const app = await buildApp({ database, config: TEST_CONFIG });
    cleanups.push(() => app.close());
    const after = await tablesOf();
    expect(after).toEqual(expect.arrayContaining([...before, 'rvm', 'fleet', 'quarantine_message']));
    const applied = rowsOf<{ n: number }>(await db.execute(sql`select count(*)::int as n from drizzle.__drizzle_migrations`))[0].n;
    expect(applied).toBe(journal().entries.length);

    const call = async (method: 'GET' | 'POST', url: string, token?: string, payload?: unknown) =>
      (await app.inject({ method, url: `/test-api${url}`, headers: token ? { 'rvm-token': token } : {}, ...(payload ? { payload } : {}) })).json();
    const login = await call('POST', '/login/login', undefined, { username: 'oldtimer', password: 'Older#2024' });
    expect(login.resCode).toBe('00000');
    expect(login.resData).toMatchObject({ userName: 'oldtimer', accountName: 'Old Depot', userInfo: { superAdmin: false, roleIds: [1] } });
    const admin = (await call('POST', '/login/login', undefined, { username: 'admin', password: 'Older#2024' })).resData.tokenInfo.tokenValue;
    const users = await call('POST', '/user/page', admin, { pageNum: 1, pageSize: 10, sort: 'name', order: 'ASC' });
    expect(users.resData.list.map((user: { name: string; email: string | null }) => [user.name, user.email])).toEqual([
      ['admin', null],
      ['oldtimer', 'old@example.com'],
    ]);
    expect((await call('GET', '/role/1', admin)).resData).toMatchObject({ name: 'Old role', description: 'from release one' });
    // New ids do not collide with the old rows.
    const created = await call('POST', '/role', admin, { name: 'New role' });
    expect(created.resData.id).toBe(2);
  });
});
