// Changes that are not the engine's writes are audited too (docs/audit-log.md): resource type definitions
// (created, changed with what changed field by field, archived or deleted) and saved filters (created, changed,
// deleted), each in the change's transaction: a refused change leaves no entry.
import { and, eq } from 'drizzle-orm';
import { beforeAll, expect, it } from 'vitest';
import { auditLog, resourceType } from '../../server/db/schema';
import { BARCODE } from './configuredTypesFixture';
import { ADMIN, describeOneBackend } from './helpers';

describeOneBackend('audit of definitions and saved filters', (server) => {
  let admin: string;
  const call = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, body?: Record<string, unknown>, token = admin, lang?: string) =>
    server.call(method, url, { token, body, lang });
  const entriesOf = async (resource: string, recordId: number) =>
    (
      await server.db
        .select()
        .from(auditLog)
        .where(and(eq(auditLog.resource, resource), eq(auditLog.recordId, recordId)))
        .orderBy(auditLog.id)
    ).map((entry) => ({
      ...entry,
      changes: entry.changes === null ? null : (JSON.parse(String(entry.changes)) as Record<string, { before?: unknown; after?: unknown }>),
    }));
  const typeId = async (name: string) => (await server.db.select({ id: resourceType.id }).from(resourceType).where(eq(resourceType.name, name)))[0]?.id;

  beforeAll(async () => {
    admin = await server.login();
  });

  it('records a type created, changed (only what changed, a removed field and its archived values) and deleted', async () => {
    const definition = { ...BARCODE, name: 'auditedType' };
    expect((await call('POST', '/resource-types', definition)).body.resCode).toBe('00000');
    const id = await typeId('auditedType');
    const [created] = await entriesOf('resourceType', id);
    expect(created).toMatchObject({ action: 'create', userName: ADMIN.username, outcome: 'success' });
    expect(created.changes).toMatchObject({ name: { after: 'auditedType' }, 'fields.code': { after: expect.objectContaining({ type: 'text', unique: true }) } });

    // one record holds a refund: removing the field archives it (confirmArchive)
    expect((await call('POST', '/custom/auditedType', { code: '12345', itemType: 'pet', refund: 1.5 })).body.resCode).toBe('00000');
    const { refund: _refund, ...fields } = definition.fields;
    const changed = { ...definition, labels: { en: 'Audited barcodes', zh: '审计条码' }, fields, list: { ...definition.list, columns: ['code'], filters: [] } };
    expect((await call('PUT', '/resource-types', { ...changed, confirmArchive: true })).body.resCode).toBe('00000');
    const [, update] = await entriesOf('resourceType', id);
    expect(update.action).toBe('update');
    expect(update.changes).toMatchObject({
      labels: { before: BARCODE.labels, after: { en: 'Audited barcodes', zh: '审计条码' } },
      'fields.refund': { before: expect.objectContaining({ type: 'number' }), after: null },
    });
    expect(Object.keys(update.changes ?? {})).not.toContain('fields.code');
    expect(update.detail).toEqual({ archivedFields: ['refund'] });

    // with a record left the delete archives the type; without, it is gone
    expect((await call('DELETE', '/resource-types?name=auditedType')).body.resCode).toBe('00000');
    const [, , archived] = await entriesOf('resourceType', id);
    expect(archived).toMatchObject({ action: 'delete', detail: { archived: true } });
    expect(archived.changes).toMatchObject({ name: { before: 'auditedType' }, status: { before: 'active' } });

    expect((await call('POST', '/resource-types', { ...BARCODE, name: 'shortLived' })).body.resCode).toBe('00000');
    const shortLived = await typeId('shortLived');
    expect((await call('DELETE', '/resource-types?name=shortLived')).body.resCode).toBe('00000');
    expect((await entriesOf('resourceType', shortLived)).map((entry) => [entry.action, entry.detail])).toEqual([
      ['create', {}],
      ['delete', {}],
    ]);
  });

  it('leaves no entry for a refused or unchanged definition, and keeps the audit names from configured types (9400)', async () => {
    const before = (await server.db.select().from(auditLog).where(eq(auditLog.resource, 'resourceType'))).length;
    const refused = await call('POST', '/resource-types', { ...BARCODE, name: 'refusedType', list: { columns: ['nosuch'] } }, admin, 'zh');
    expect([refused.body.resCode, refused.body.resData.issues[0].message]).toEqual(['1004', '未知字段“nosuch”']);
    expect((await call('POST', '/resource-types', { ...BARCODE, name: 'sameType' })).body.resCode).toBe('00000');
    expect((await call('PUT', '/resource-types', { ...BARCODE, name: 'sameType' })).body.resCode).toBe('00000');
    const taken = await call('POST', '/resource-types', { ...BARCODE, name: 'savedFilter' });
    expect([taken.body.resCode, taken.body.resMsg]).toEqual(['9400', 'The name "savedFilter" is already used by another resource type']);
    // only sameType's creation
    expect((await server.db.select().from(auditLog).where(eq(auditLog.resource, 'resourceType'))).length).toBe(before + 1);
  });

  it('records saved filters created, changed and deleted; a refused change (another owner 4003, built-in 5001) leaves none', async () => {
    const created = await call('POST', '/saved-filter', { resource: 'user', name: 'Audited', filter: { enabled: true }, visibility: 'personal' });
    expect(created.body.resCode).toBe('00000');
    const id = created.body.resData.id as number;
    expect((await call('PUT', '/saved-filter', { id, name: 'Audited twice', visibility: 'public' })).body.resCode).toBe('00000');

    await server.createUser({ name: 'filterer' }, admin);
    const other = await server.login('filterer', 'Passw0rd!');
    const refused = await call('PUT', '/saved-filter', { id, name: 'Not mine' }, other, 'zh');
    expect(refused.body.resCode).toBe('4003');
    expect(refused.body.resMsg).not.toBe((await call('PUT', '/saved-filter', { id, name: 'Not mine' }, other, 'en')).body.resMsg);
    const builtIn = ((await call('GET', '/saved-filter')).body.resData as Array<{ id: number; builtIn: boolean }>).find((filter) => filter.builtIn)!;
    expect((await call('DELETE', `/saved-filter?id=${builtIn.id}`)).body.resCode).toBe('5001');

    expect((await call('DELETE', `/saved-filter?id=${id}`)).body.resCode).toBe('00000');
    const entries = await entriesOf('savedFilter', id);
    expect(entries.map((entry) => entry.action)).toEqual(['create', 'update', 'delete']);
    expect(entries[0].changes).toEqual({ resource: { after: 'user' }, name: { after: 'Audited' }, filter: { after: { enabled: true } }, visibility: { after: 'personal' } });
    expect(entries[1].changes).toEqual({ name: { before: 'Audited', after: 'Audited twice' }, visibility: { before: 'personal', after: 'public' } });
    expect(entries[2].changes).toMatchObject({ name: { before: 'Audited twice' } });
    expect(await entriesOf('savedFilter', builtIn.id)).toEqual([]);

    // the screen's resource filter knows both names
    const page = await call('POST', '/audit-entry/page', { pageNum: 1, pageSize: 50, resource: ['savedFilter', 'resourceType'] });
    expect(page.body.resCode).toBe('00000');
    expect(page.body.resData.list.some((entry: { resource: string }) => entry.resource === 'savedFilter')).toBe(true);
  });
});
