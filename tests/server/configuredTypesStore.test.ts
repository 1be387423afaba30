// server/configuredTypes on a database (issue 29 item 24, mutation testing): what a change keeps and loses
// (store.ts: unchanged definitions, re-kinded fields, the archive's keys, 9400/9401/9402 texts), the permission
// rows of a type at their length limits (permissionRows.ts), the registry's reads (a broken row skipped, a read
// only when the signature moved, entries of unchanged types kept) and the edges of the routes (a name outside the
// pattern, an action the type does not offer, the export's names). Expected values are written out by hand.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { and, eq, like, sql } from 'drizzle-orm';
import { beforeAll, expect, it, onTestFinished, vi } from 'vitest';
import type { FastifyBaseLogger } from 'fastify';
import { translate } from '../../i18n';
import type { Db } from '../../server/db/client';
import { rowsOf } from '../../server/db/client';
import { configuredRecord, resourceType, sysPermission } from '../../server/db/schema';
import { ConfiguredTypeRegistry } from '../../server/configuredTypes/registry';
import { loadTypeFiles } from '../../server/configuredTypes/files';
import { ensureTypeObjects } from '../../server/configuredTypes/store';
import { BARCODE } from './configuredTypesFixture';
import { describeBackends } from './helpers';

const text = (en: string, zh = en) => ({ en, zh });
const small = (name: string, fields: Record<string, unknown> = { title: { type: 'text', labels: text('Title') } }, extra: Record<string, unknown> = {}) => ({
  name,
  labels: text(`${name} list`),
  menuParent: 'service',
  fields,
  list: { columns: [Object.keys(fields)[0]] },
  actions: ['page', 'show', 'create', 'edit', 'delete'],
  ...extra,
});

describeBackends('configured types: store, permission rows, registry and route edges', (server) => {
  let admin: string;
  const call = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, body?: unknown, lang?: string, token = admin) => server.call(method, url, { token, body, lang });
  const typeVersion = async (name: string) => (await server.db.select({ version: resourceType.version }).from(resourceType).where(eq(resourceType.name, name)))[0]?.version;

  beforeAll(async () => {
    admin = await server.login();
  });

  it('leaves an unchanged definition alone, refuses unknown and taken names in the request language', async () => {
    expect((await call('POST', '/resource-types', BARCODE)).body.resCode).toBe('00000');
    const version = await typeVersion('barcode');
    const same = await call('PUT', '/resource-types', BARCODE);
    expect([same.body.resCode, same.body.resData.version]).toEqual(['00000', version]);
    expect(await typeVersion('barcode')).toBe(version);
    const unknown = await call('PUT', '/resource-types', { ...BARCODE, name: 'nowhere' });
    expect(unknown.body.resCode).toBe('9402');
    const taken = await call('POST', '/resource-types', BARCODE, 'zh');
    expect(taken.body.resCode).toBe('9400');
    expect(taken.body.resMsg).toContain('barcode');
    expect((await call('POST', '/resource-types', { ...BARCODE, name: 'user' })).body.resMsg).toContain('user');
    expect((await call('DELETE', '/resource-types?name=nowhere')).body.resCode).toBe('9402');
    // a regular expression RE2 cannot run, named on its field; a reference to another configured type is fine
    const risky = await call('POST', '/resource-types', small('risky', { title: { type: 'text', labels: text('T'), patterns: [{ regex: '^(?=a)a$', messages: text('x') }] } }));
    expect([risky.body.resCode, risky.body.resData?.issues?.[0]?.field]).toEqual(['1004', 'fields.title.patterns.0.regex']);
    const referring = small('refersBarcode', { title: { type: 'text', labels: text('T') }, code: { type: 'reference', reference: 'barcode', labels: text('Code') } });
    expect((await call('POST', '/resource-types', referring)).body.resCode).toBe('00000');
  });

  it('a field changing kind or target loses its data (9401 naming every such field), archived under <field>@v<version> once confirmed', async () => {
    const fleet = (await call('POST', '/fleet', { name: 'Lossy fleet' })).body.resData.id as number;
    const fields = {
      title: { type: 'text', labels: text('Title') },
      count: { type: 'number', labels: text('Count') },
      place: { type: 'reference', reference: 'fleet', labels: text('Place') },
      spare: { type: 'text', labels: text('Spare') },
    };
    expect((await call('POST', '/resource-types', small('lossy', fields))).body.resCode).toBe('00000');
    const version = await typeVersion('lossy');
    const record = (await call('POST', '/custom/lossy', { title: 'A', count: 4, place: fleet })).body.resData.id as number;
    // a field without any value goes without confirmation
    const { spare: _spare, ...withoutSpare } = fields;
    expect((await call('PUT', '/resource-types', small('lossy', withoutSpare))).body.resCode).toBe('00000');
    const after = await typeVersion('lossy');
    expect(after).toBeGreaterThan(version);

    const changed = { ...withoutSpare, count: { type: 'text', labels: text('Count') }, place: { type: 'reference', reference: 'lossy', labels: text('Place') } };
    const refused = await call('PUT', '/resource-types', small('lossy', changed));
    expect([refused.body.resCode, refused.body.resData]).toEqual(['9401', { fields: ['count', 'place'] }]);
    expect(refused.body.resMsg).toContain('count, place');
    // only the target changed: the same refusal for that field alone
    const retargeted = await call('PUT', '/resource-types', small('lossy', { ...withoutSpare, place: changed.place }));
    expect(retargeted.body.resData).toEqual({ fields: ['place'] });

    expect((await call('PUT', '/resource-types', { ...small('lossy', changed), confirmArchive: true })).body.resCode).toBe('00000');
    const [row] = await server.db.select({ data: configuredRecord.data, archived: configuredRecord.archived }).from(configuredRecord).where(eq(configuredRecord.id, record));
    expect(row.data).toEqual({ title: 'A' });
    expect(row.archived).toEqual({ [`count@v${after}`]: 4, [`place@v${after}`]: fleet });
  });

  it('names the unique field of a duplicate (2002), and keeps an unchanged index when the type changes otherwise', async () => {
    // two unique fields: only the index's name tells which one the duplicate is in
    const twice = small('twoUnique', { first: { type: 'text', labels: text('First'), unique: true }, second: { type: 'text', labels: text('Second'), unique: true } });
    expect((await call('POST', '/resource-types', twice)).body.resCode).toBe('00000');
    expect((await call('POST', '/custom/twoUnique', { first: 'a', second: 'x' })).body.resCode).toBe('00000');
    const duplicate = await call('POST', '/custom/twoUnique', { first: 'b', second: 'x' });
    expect([duplicate.status, duplicate.body.resCode, duplicate.body.resData?.issues?.[0]?.field]).toEqual([409, '2002', 'second']);
    const oids = async () =>
      rowsOf<{ name: string; oid: number }>(
        await server.db.execute(sql`select c.relname as name, c.oid::int as oid from pg_class c
        where c.relkind = 'i' and c.relname like 'cfg_%' and exists (select 1 from pg_indexes i where i.indexname = c.relname and i.indexdef like '%''barcode''%') order by 1`),
      );
    const before = await oids();
    expect(before).toHaveLength(4);
    expect((await call('PUT', '/resource-types', { ...BARCODE, labels: text('Barcodes again') })).body.resCode).toBe('00000');
    expect(await oids()).toEqual(before);
  });

  it('a field holding only nulls loses nothing', async () => {
    const fields = { title: { type: 'text', labels: text('Title') }, note: { type: 'text', labels: text('Note') } };
    expect((await call('POST', '/resource-types', small('nulls', fields))).body.resCode).toBe('00000');
    const id = (await call('POST', '/custom/nulls', { title: 'A' })).body.resData.id as number;
    await server.db.execute(sql`update configured_record set data = data || '{"note": null}'::jsonb where id = ${id}`);
    expect((await call('PUT', '/resource-types', small('nulls', { title: fields.title }))).body.resCode).toBe('00000');
  });

  it('keeps the permission rows at their length limits, in action order, updated in place', async () => {
    const label = 'L'.repeat(49) + 'MN';
    const definition = small('longLabel', undefined, { labels: text(label), actions: ['page', 'show', 'export'] });
    expect((await call('POST', '/resource-types', definition)).body.resCode).toBe('00000');
    const rows = async () =>
      (await server.db.select().from(sysPermission).where(like(sysPermission.identifier, 'custom:longLabel%'))).sort(
        (a, b) => a.sort - b.sort || a.identifier.localeCompare(b.identifier),
      );
    const first = await rows();
    const menu = first.find((row) => row.identifier === 'custom:longLabel')!;
    expect(menu).toMatchObject({ name: 'L'.repeat(49) + 'M', type: 'menu', sort: 900, description: 'Configured resource type' });
    expect(menu.parentId).toBe(6);
    expect(first.filter((row) => row.type === 'button').map((row) => [row.identifier, row.name, row.sort, row.parentId])).toEqual([
      ['custom:longLabel:page', `${'L'.repeat(49)}M: list`, 1, menu.id],
      ['custom:longLabel:show', `${'L'.repeat(49)}M: details`, 2, menu.id],
      ['custom:longLabel:export', `${'L'.repeat(49)}M: export`, 3, menu.id],
    ]);
    // a longer button name is cut at 64 characters
    const longer = small('longButton', undefined, { labels: text('B'.repeat(60)), actions: ['delete'] });
    expect((await call('POST', '/resource-types', longer)).body.resCode).toBe('00000');
    const [button] = await server.db.select().from(sysPermission).where(eq(sysPermission.identifier, 'custom:longButton:delete'));
    expect(button.name).toBe(`${'B'.repeat(50)}: delete`.slice(0, 64));
    expect(button.name).toHaveLength(58);

    // relabelled, moved and with one action fewer: the same ids, the dropped action's row gone
    const moved = { ...definition, labels: text('Short'), menuParent: 'systemSettings', actions: ['show', 'page'] };
    expect((await call('PUT', '/resource-types', moved)).body.resCode).toBe('00000');
    const second = await rows();
    expect(second.map((row) => [row.identifier, row.id, row.name, row.sort])).toEqual([
      ['custom:longLabel:show', first.find((row) => row.identifier === 'custom:longLabel:show')!.id, 'Short: details', 1],
      ['custom:longLabel:page', first.find((row) => row.identifier === 'custom:longLabel:page')!.id, 'Short: list', 2],
      ['custom:longLabel', menu.id, 'Short', 900],
    ]);
    expect(second.find((row) => row.identifier === 'custom:longLabel')!.parentId).toBe(21);
  });

  it('deleting a type removes its indexes and permission rows; start-up makes them again for active types, whatever one cannot', async () => {
    const indexes = async (typeName: string) =>
      rowsOf<{ n: number }>(await server.db.execute(sql`select count(*)::int as n from pg_indexes where tablename = 'configured_record' and indexdef like ${`%'${typeName}'%`}`))[0]
        .n;
    expect(await indexes('barcode')).toBe(4);
    await server.db.execute(
      sql.raw(
        `drop index if exists "${rowsOf<{ name: string }>(await server.db.execute(sql`select indexname as name from pg_indexes where indexdef like '%gin_trgm_ops%' and indexdef like '%''barcode''%'`))[0].name}"`,
      ),
    );
    await server.db.delete(sysPermission).where(eq(sysPermission.identifier, 'custom:barcode:export'));
    expect(await indexes('barcode')).toBe(3);
    // a type whose unique index duplicates now prevent (written around the server): the others are still made
    expect((await call('POST', '/resource-types', small('dupes', { title: { type: 'text', labels: text('Title'), unique: true } }))).body.resCode).toBe('00000');
    await server.db.execute(
      sql`drop index if exists ${sql.identifier(rowsOf<{ name: string }>(await server.db.execute(sql`select indexname as name from pg_indexes where indexdef like '%''dupes''%'`))[0].name)}`,
    );
    const account = (await server.db.select({ id: configuredRecord.licenseAccountId }).from(configuredRecord).limit(1))[0].id;
    await server.db.insert(configuredRecord).values([
      { typeName: 'dupes', licenseAccountId: account, data: { title: 'x' } },
      { typeName: 'dupes', licenseAccountId: account, data: { title: 'x' } },
    ]);
    await ensureTypeObjects(server.db);
    expect(await indexes('barcode')).toBe(4);
    expect(await server.db.select().from(sysPermission).where(eq(sysPermission.identifier, 'custom:barcode:export'))).toHaveLength(1);
    expect(await indexes('dupes')).toBe(0);

    expect((await call('POST', '/resource-types', small('gone'))).body.resCode).toBe('00000');
    expect(await indexes('gone')).toBe(0);
    const sorted = small('goneSorted', undefined, { list: { columns: ['title'], defaultSort: { field: 'title', order: 'ASC' } } });
    expect((await call('POST', '/resource-types', sorted)).body.resCode).toBe('00000');
    expect(await indexes('goneSorted')).toBe(1);
    expect((await call('DELETE', '/resource-types?name=goneSorted')).body.resCode).toBe('00000');
    expect(await indexes('goneSorted')).toBe(0);
    expect(await server.db.select().from(sysPermission).where(like(sysPermission.identifier, 'custom:goneSorted%'))).toEqual([]);
    expect(await server.db.select().from(resourceType).where(eq(resourceType.name, 'goneSorted'))).toEqual([]);
    // with records: archived, at a new version
    const before = await typeVersion('nulls');
    expect((await call('DELETE', '/resource-types?name=nulls')).body.resCode).toBe('00000');
    const [archived] = await server.db.select().from(resourceType).where(eq(resourceType.name, 'nulls'));
    expect(archived.status).toBe('archived');
    expect(archived.version).toBeGreaterThan(before);
  });

  it('the registry skips a row it cannot serve, reads the table only when its signature moved, and keeps unchanged entries', async () => {
    const log = { error: vi.fn(), warn: vi.fn() } as unknown as FastifyBaseLogger;
    let statements = 0;
    const counting = new Proxy(server.db, {
      get: (target, key, receiver) => {
        const value = Reflect.get(target, key, receiver);
        if (key !== 'execute') return value;
        return (...args: unknown[]) => {
          statements++;
          return (value as (...a: unknown[]) => unknown).apply(target, args);
        };
      },
    }) as Db;
    const version = ((await typeVersion('barcode')) ?? 0) + 1000;
    await server.db.insert(resourceType).values({ name: 'broken', definition: { labels: text('Broken') }, status: 'active', version });
    const registry = new ConfiguredTypeRegistry(counting, new Map(), log);
    try {
      await registry.refresh(true);
      expect(statements).toBe(2);
      expect(log.error).toHaveBeenCalledWith(expect.objectContaining({ type: 'broken' }), 'configured type not served');
      expect(registry.active('broken')).toBeUndefined();
      expect(registry.active('barcode')?.type.name).toBe('barcode');
      // archived types are known but not active; all() sorts by name
      expect(registry.active('nulls')).toBeUndefined();
      const names = registry.all().map((entry) => entry.type.name);
      expect(names).toEqual([...names].sort((a, b) => a.localeCompare(b)));
      expect(names).toContain('nulls');
      expect(registry.models().get('barcode')).toBe(registry.active('barcode')?.model);
      expect(registry.models().has('nulls')).toBe(false);

      // nothing moved: one statement (the signature), nothing rebuilt
      const kept = registry.active('barcode');
      await registry.refresh();
      expect(statements).toBe(3);
      // another type changes: barcode's entry is the same object
      expect((await call('PUT', '/resource-types', { ...small('longLabel'), labels: text('Again') })).body.resCode).toBe('00000');
      await registry.refresh();
      expect(statements).toBe(5);
      expect(registry.active('barcode')).toBe(kept);
      expect(registry.active('longLabel')?.type.labels.en).toBe('Again');
      // a forced read reads the rows although nothing moved
      await registry.refresh(true);
      expect(statements).toBe(7);
      // two calls during one read: the second waits for one more read, shared by a third
      await Promise.all([registry.refresh(true), registry.refresh(true), registry.refresh(true)]);
      expect(statements).toBe(11);
      // a type removed from the table leaves the models
      await server.db.delete(resourceType).where(eq(resourceType.name, 'broken'));
      await server.db.execute(sql`update resource_type set status = 'archived', version = version + 2000 where name = 'longButton'`);
      await registry.refresh();
      expect(registry.active('longButton')).toBeUndefined();
      expect(registry.models().has('longButton')).toBe(false);
    } finally {
      await registry.close();
    }
    // closed: no more reads
    const after = statements;
    await registry.refresh(true);
    expect(statements).toBe(after);
    await server.db.delete(resourceType).where(and(eq(resourceType.name, 'broken')));
  });

  it('logs a poll that fails and goes on polling', async () => {
    const warn = vi.fn();
    let failing = false;
    const flaky = new Proxy(server.db, {
      get: (target, key, receiver) => {
        const value = Reflect.get(target, key, receiver);
        if (key !== 'execute') return value;
        return (...args: unknown[]) => (failing ? Promise.reject(new Error('database away')) : (value as (...a: unknown[]) => unknown).apply(target, args));
      },
    }) as Db;
    const registry = new ConfiguredTypeRegistry(flaky, new Map(), { error: vi.fn(), warn } as unknown as FastifyBaseLogger);
    try {
      await registry.start();
      expect(registry.active('barcode')?.type.name).toBe('barcode');
      failing = true;
      // the poll runs every 500 ms; a deadline sized for a busy machine
      const deadline = Date.now() + 20_000;
      while (warn.mock.calls.length === 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
      expect(warn).toHaveBeenCalledWith({ err: expect.objectContaining({ message: 'database away' }) }, 'configured types poll failed');
      // what it knew it still serves
      expect(registry.active('barcode')?.type.name).toBe('barcode');
    } finally {
      failing = false;
      await registry.close();
    }
  });

  it("loads definition files: every *.json in name order, an export file's types, nothing from other files; a bad one names its file", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'rvm-type-files-'));
    onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
    const codeNames = new Set(['fleet', 'user']);
    expect(await loadTypeFiles(server.db, undefined, codeNames)).toEqual({ created: [], updated: [] });
    expect(await loadTypeFiles(server.db, join(dir, 'absent'), codeNames)).toEqual({ created: [], updated: [] });
    writeFileSync(join(dir, 'notes.txt'), 'not a definition');
    expect(await loadTypeFiles(server.db, dir, codeNames)).toEqual({ created: [], updated: [] });
    // written out of name order: read in name order whatever order the directory lists them in
    writeFileSync(join(dir, 'd.json'), JSON.stringify(small('fileTypeE')));
    writeFileSync(join(dir, 'b.json'), JSON.stringify(small('fileTypeB')));
    writeFileSync(join(dir, 'e.json'), JSON.stringify(small('fileTypeF')));
    writeFileSync(join(dir, 'a.json'), JSON.stringify({ format: 'rvm-resource-types', version: 1, types: [small('fileTypeA'), small('fileTypeC')] }));
    writeFileSync(join(dir, 'c.json'), JSON.stringify(small('fileTypeD')));
    expect(await loadTypeFiles(server.db, dir, codeNames)).toEqual({ created: ['fileTypeA', 'fileTypeC', 'fileTypeB', 'fileTypeD', 'fileTypeE', 'fileTypeF'], updated: [] });
    writeFileSync(join(dir, 'b.json'), JSON.stringify({ ...small('fileTypeB'), labels: text('Changed') }));
    expect(await loadTypeFiles(server.db, dir, codeNames)).toEqual({ created: [], updated: ['fileTypeB'] });
    // a file may not drop a field that holds data: the start fails (no confirmArchive from a file)
    expect((await call('POST', '/custom/fileTypeB', { title: 'kept' })).body.resCode).toBe('00000');
    writeFileSync(join(dir, 'b.json'), JSON.stringify(small('fileTypeB', { other: { type: 'text', labels: text('Other') } })));
    await expect(loadTypeFiles(server.db, dir, codeNames)).rejects.toThrow(`${dir}: ${translate('en', 'errors.9401', { field: 'title' })}`);
    writeFileSync(join(dir, 'b.json'), JSON.stringify({ ...small('fileTypeB'), labels: text('Changed') }));

    const failure = async (content: unknown) => {
      writeFileSync(join(dir, 'z.json'), JSON.stringify(content));
      try {
        await loadTypeFiles(server.db, dir, codeNames);
        return 'loaded';
      } catch (error) {
        return (error as Error).message;
      }
    };
    expect(await failure({ format: 'rvm-resource-types', types: 'none' })).toBe('z.json: "types" must be an array');
    const shapeless = await failure({
      name: 'x',
      labels: text('X'),
      menuParent: 'service',
      actions: ['page'],
      list: { columns: ['title'] },
      fields: { title: { type: 'colour', labels: text('T') } },
      extra: 1,
    });
    expect(shapeless).toMatch(/^z\.json: not a resource type definition \(.+\)$/);
    // every issue, each as `field: message`, separated by semicolons
    expect(shapeless.split('; ').length).toBeGreaterThan(1);
    for (const issue of shapeless.slice(shapeless.indexOf('(') + 1, -1).split('; ')) expect(issue).toMatch(/^\S*: \S/);
    // the store's refusal in English with its issues, naming the folder
    expect(await failure(small('user'))).toBe(`${dir}: ${translate('en', 'errors.9400', { name: 'user' })}`);
    expect(await failure({ ...small('fileTypeG'), list: { columns: ['nothing', 'none'] } })).toBe(
      `${dir}: ${translate('en', 'errors.1004')} (list.columns.0: Unknown field "nothing"; list.columns.1: Unknown field "none")`,
    );
    // a failure that is not the store's refusal passes through as it is
    const broken = { transaction: () => Promise.reject(new Error('database gone')) } as unknown as Db;
    await expect(loadTypeFiles(broken, dir, codeNames)).rejects.toThrow(/^database gone$/);
  });

  it("route edges: a name outside the pattern, an action the type does not offer, options' labels, the export's names", async () => {
    expect((await call('POST', '/custom/Bad/page', {})).body.resCode).toBe('2003');
    expect((await call('POST', '/custom/b/page', {})).body.resCode).toBe('2003');
    // the picker route needs one of page/show/create/edit; the type offers page only
    const pageOnly = small('pageOnly', undefined, { actions: ['page'] });
    // the answer is the type just made, not another one the registry holds
    expect((await call('POST', '/resource-types', pageOnly)).body.resData).toMatchObject({ name: 'pageOnly', status: 'active' });
    expect((await call('POST', '/custom/pageOnly', { title: 'x' })).body.resCode).toBe('4004');
    const ids = async (identifiers: string[]) =>
      (
        await server.db
          .select({ id: sysPermission.id })
          .from(sysPermission)
          .where(sql`${sysPermission.identifier} = any(${sql.param(identifiers)}::text[])`)
      ).map((row) => row.id);
    // a hand-made grant of an action the type does not offer: the route passes its first check, not the second
    const [showRow] = await server.db.insert(sysPermission).values({ identifier: 'custom:pageOnly:show', name: 'x', type: 'button', sort: 99 }).returning({ id: sysPermission.id });
    const role = await call('POST', '/role', { name: 'pageOnly show', permissions: [showRow.id] });
    await server.createUser({ name: 'shower', roles: [role.body.resData.id] }, admin);
    const shower = await server.login('shower', 'Passw0rd!');
    expect((await call('GET', '/custom/pageOnly/list', undefined, undefined, shower)).body.resCode).toBe('4003');
    const lister = await call('POST', '/role', { name: 'pageOnly page', permissions: await ids(['custom:pageOnly:page']) });
    await server.createUser({ name: 'lister', roles: [lister.body.resData.id] }, admin);
    const listerToken = await server.login('lister', 'Passw0rd!');
    expect((await call('POST', '/custom/pageOnly/page', {}, undefined, listerToken)).body.resCode).toBe('00000');
    expect((await call('GET', '/custom/pageOnly/list', undefined, undefined, listerToken)).body.resCode).toBe('00000');
    expect((await call('GET', '/resource-types/active', undefined, undefined, listerToken)).body.resData.map((type: { name: string }) => type.name)).toEqual(['pageOnly']);
    // a caller who is not superAdmin is refused before the body is read: a body the schema refuses still answers 4003
    expect((await call('POST', '/resource-types', { name: 5 }, undefined, listerToken)).body.resCode).toBe('4003');
    // every type for the superAdmin, active and archived alike, each with its status
    const listed = (await call('GET', '/resource-types')).body.resData as Array<{ name: string; status: string }>;
    expect(listed.find((type) => type.name === 'pageOnly')).toMatchObject({ name: 'pageOnly', status: 'active', actions: ['page'] });
    expect(listed.every((type) => ['active', 'archived'].includes(type.status))).toBe(true);

    // options: the name field's text, null where a record has none
    const numbered = small(
      'numbered',
      { count: { type: 'number', labels: text('Count') } },
      { nameField: 'count', actions: ['page', 'show', 'create', 'edit', 'delete', 'export'] },
    );
    expect((await call('POST', '/resource-types', numbered)).body.resCode).toBe('00000');
    const withCount = (await call('POST', '/custom/numbered', { count: 42 })).body.resData.id as number;
    const without = (await call('POST', '/custom/numbered', {})).body.resData.id as number;
    expect((await call('GET', '/custom/numbered/list')).body.resData).toEqual(
      expect.arrayContaining([
        { id: withCount, name: '42' },
        { id: without, name: null },
      ]),
    );
    // every record route once, through the type's name: show, edit, export, delete, delete several
    expect((await call('GET', `/custom/numbered/${withCount}`)).body.resData).toMatchObject({ id: withCount, count: 42 });
    expect((await call('PUT', '/custom/numbered', { id: withCount, count: 43 })).body.resData).toMatchObject({ id: withCount, count: 43 });
    const csv = await call('POST', '/custom/numbered/export', { format: 'csv' });
    expect(csv.raw.headers['content-type']).toContain('text/csv');
    expect(csv.raw.body).toMatch(/^\uFEFF?Count\r?\n(.*\r?\n)*43\r?\n/);
    expect((await call('DELETE', `/custom/numbered?id=${without}`)).body.resCode).toBe('00000');
    expect((await call('GET', `/custom/numbered/${without}`)).body.resCode).toBe('2003');
    const doomed = [(await call('POST', '/custom/numbered', { count: 7 })).body.resData.id, (await call('POST', '/custom/numbered', { count: 8 })).body.resData.id];
    expect((await call('POST', '/custom/numbered/batchDelete', { ids: doomed })).body.resData).toEqual({ deleted: 2 });

    // export: names trimmed, blanks ignored, an unknown one 9402, none: every type
    const file = await call('GET', `/resource-types/export?names=${encodeURIComponent(' pageOnly , ,numbered')}`);
    expect(file.raw.headers['content-type']).toContain('application/octet-stream');
    expect(file.raw.headers['content-disposition']).toBe(`attachment; filename="resource-types-${new Date().toISOString().slice(0, 10)}.json"`);
    const exported = JSON.parse(file.raw.body);
    expect(exported.types.map((type: { name: string }) => type.name)).toEqual(['numbered', 'pageOnly']);
    expect(exported.types[1]).toEqual(pageOnly);
    expect((await call('GET', '/resource-types/export?names=pageOnly,nosuch')).body.resCode).toBe('9402');
    const all = JSON.parse((await call('GET', '/resource-types/export')).raw.body);
    expect(all.types.map((type: { name: string }) => type.name)).toEqual(expect.arrayContaining(['barcode', 'nulls', 'numbered', 'pageOnly']));
    expect((await call('GET', '/resource-types/export', undefined, undefined, listerToken)).body.resCode).toBe('4003');
    // import with confirmArchive passes it on
    const changedPageOnly = { ...pageOnly, fields: { other: { type: 'text', labels: text('Other') } }, list: { columns: ['other'] } };
    await call('POST', '/custom/numbered', { count: 1 });
    const withData = { ...numbered, fields: { label: { type: 'text', labels: text('Label') } }, nameField: 'label', list: { columns: ['label'] } };
    const refused = await call('POST', '/resource-types/import', { format: 'rvm-resource-types', version: 1, types: [changedPageOnly, withData] });
    expect(refused.body.resCode).toBe('9401');
    const imported = await call('POST', '/resource-types/import', { format: 'rvm-resource-types', version: 1, types: [changedPageOnly, withData], confirmArchive: true });
    expect(imported.body.resData).toEqual({ created: [], updated: ['pageOnly', 'numbered'] });
  });
});
