// Two instances on one database (as two server processes would be): a type created, changed or
// archived through one is served by the other, through the other's poll (every 500 ms, server/configuredTypes/registry.ts;
// the condition is awaited with a deadline sized for a busy machine, never a fixed sleep, and its time is not asserted). Also: definitions loaded from
// RESOURCE_TYPES_DIR at start, and the per-type indexes the server creates.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { openDatabase, rowsOf, type Database } from '../../server/db/client';
import { BARCODE } from './configuredTypesFixture';
import { ADMIN, describeBackends } from './helpers';

const withNote = { ...BARCODE, fields: { ...BARCODE.fields, note: { type: 'text', labels: { en: 'Note', zh: '备注' } } } };

/** Polls `condition` until it holds or `ms` have passed; answers the time it took. */
/** Long enough for a poll, its queries and the validators' compile on a machine at load 10. */
const DEADLINE_MS = 20_000;
const within = async (ms: number, condition: () => Promise<boolean>) => {
  const start = performance.now();
  for (;;) {
    if (await condition()) return performance.now() - start;
    if (performance.now() - start > ms) throw new Error(`condition not met within ${ms} ms`);
    await new Promise((resolve) => setImmediate(resolve));
  }
};

describeBackends('configured types across instances', (server) => {
  let other: FastifyInstance;
  let otherDatabase: Database | undefined;
  let token: string;
  const dir = mkdtempSync(join(tmpdir(), 'rvm-types-'));

  beforeAll(async () => {
    token = await server.login(ADMIN.username, ADMIN.password);
    // The second instance starts with a definitions folder: its type exists for both once it is up.
    writeFileSync(
      join(dir, 'bin.json'),
      JSON.stringify({ ...BARCODE, name: 'binType', fields: { label: { type: 'text', labels: { en: 'Label', zh: '标签' } } }, list: { columns: ['label'] } }),
    );
    writeFileSync(join(dir, 'notes.txt'), 'not a definition');
    otherDatabase = server.backend === 'postgres' ? await openDatabase({ databaseUrl: server.databaseUrl }) : undefined;
    other = await server.anotherInstance({ ...(otherDatabase ? { database: otherDatabase } : {}), config: { passwordHashLogN: 12, resourceTypesDir: dir } });
  });
  afterAll(async () => {
    await other?.close();
    await otherDatabase?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const activeOn = async (app: FastifyInstance) => {
    const answer = await app.inject({ method: 'GET', url: '/test-api/resource-types/active', headers: { 'rvm-token': token } });
    return (answer.json().resData as Array<{ name: string; version: number; fields: Record<string, unknown> }>) ?? [];
  };

  it('loads definition files at start', async () => {
    expect((await activeOn(other)).map((type) => type.name)).toContain('binType');
    await within(DEADLINE_MS, async () => (await activeOn(server.app)).some((type) => type.name === 'binType'));
    // an unchanged file changes nothing at the next start (no version bump, no reload anywhere)
    const version = (await activeOn(other)).find((type) => type.name === 'binType')?.version;
    const third = await server.anotherInstance({ ...(otherDatabase ? { database: otherDatabase } : {}), config: { passwordHashLogN: 12, resourceTypesDir: dir } });
    const again = await third.inject({ method: 'GET', url: '/test-api/resource-types/active', headers: { 'rvm-token': token } });
    expect(again.json().resData.find((type: { name: string }) => type.name === 'binType').version).toBe(version);
  });

  it('a type created on one instance is served by the other once its poll has run', async () => {
    const created = await server.call('POST', '/resource-types', { token, body: BARCODE });
    expect(created.body.resCode).toBe('00000');
    // The other's registry (read by /resource-types/active without asking the database) learns it by its poll.
    await within(DEADLINE_MS, async () => (await activeOn(other)).some((type) => type.name === 'barcode'));
    const record = await other.inject({ method: 'POST', url: '/test-api/custom/barcode', headers: { 'rvm-token': token }, payload: { code: '12345', itemType: 'pet' } });
    expect(record.json().resData).toMatchObject({ code: '12345', active: true });

    // a change (a new field) and an archive travel the same way
    const changed = await server.call('PUT', '/resource-types', { token, body: withNote });
    await within(DEADLINE_MS, async () => (await activeOn(other)).some((type) => type.name === 'barcode' && type.version === changed.body.resData.version));
    const noted = await other.inject({
      method: 'POST',
      url: '/test-api/custom/barcode',
      headers: { 'rvm-token': token },
      payload: { code: '123456', itemType: 'pet', note: 'via other' },
    });
    expect(noted.json().resData.note).toBe('via other');
    expect((await server.call('DELETE', '/resource-types?name=barcode', { token })).body.resCode).toBe('00000');
    await within(DEADLINE_MS, async () => !(await activeOn(other)).some((type) => type.name === 'barcode'));
    expect((await other.inject({ method: 'POST', url: '/test-api/custom/barcode/page', headers: { 'rvm-token': token }, payload: {} })).json().resCode).toBe('2003');
  });

  it('creates the per-type expression, trigram and partial unique indexes', async () => {
    // PUT restores an archived type (with its records)
    const restored = await server.call('PUT', '/resource-types', { token, body: withNote });
    expect(restored.body.resData.status).toBe('active');
    const indexes = rowsOf<{ indexdef: string }>(
      await server.db.execute(sql`select indexdef from pg_indexes where tablename = 'configured_record' and indexname like 'cfg_%'`),
    ).map((row) => row.indexdef);
    const ofBarcode = indexes.filter((definition) => definition.includes("'barcode'"));
    expect(ofBarcode.filter((definition) => definition.startsWith('CREATE UNIQUE INDEX'))).toHaveLength(1);
    // code: unique (serves its sort too) and trigram (like); itemType and refund: btree
    expect(ofBarcode).toHaveLength(4);
    expect(ofBarcode.some((definition) => definition.includes('gin_trgm_ops'))).toBe(true);
    expect(ofBarcode.some((definition) => definition.includes("'refund'") && definition.includes('double precision'))).toBe(true);
    // The planner can use them: the query's expression and predicate are written as the index's.
    const plan = await server.db.transaction(async (tx) => {
      await tx.execute(sql`set local enable_seqscan = off`);
      return rowsOf<Record<string, string>>(
        await tx.execute(
          sql.raw(
            `explain select id from configured_record where "configured_record"."type_name" = 'barcode' and license_account_id = 1 and ("configured_record"."data" ->> 'code') = '12345'`,
          ),
        ),
      )
        .map((row) => Object.values(row)[0])
        .join('\n');
    });
    expect(plan).toMatch(/cfg_/);
  });
});
