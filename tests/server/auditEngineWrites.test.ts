// Every write through the resource engine is audited (docs/audit-log.md), code-declared and configured alike:
// a user created (password redacted, no hash), a role's permissions changed (ids before and after), a
// configured record edited and deleted, each with the caller and the request's address; a refused write
// leaves no entry.
import { and, eq } from 'drizzle-orm';
import { beforeAll, expect, it } from 'vitest';
import { auditLog } from '../../server/db/schema';
import { BARCODE } from './configuredTypesFixture';
import { ADMIN, describeOneBackend } from './helpers';

const CLIENT = '203.0.113.9';

describeOneBackend('audit of engine writes', (server) => {
  let admin: string;
  const call = (method: 'POST' | 'PUT' | 'DELETE', url: string, body?: object) =>
    server.app.inject({ method, url: `/test-api${url}`, headers: { 'rvm-token': admin, 'x-forwarded-for': CLIENT }, ...(body ? { payload: body } : {}) });
  /** The entries of one record, oldest first, their changes parsed (the column keeps JSON text). */
  const entriesOf = async (resource: string, recordId: number) =>
    (
      await server.db
        .select()
        .from(auditLog)
        .where(and(eq(auditLog.resource, resource), eq(auditLog.recordId, recordId)))
        .orderBy(auditLog.id)
    ).map((entry) => ({
      ...entry,
      changes: JSON.parse(String(entry.changes)) as Record<string, unknown>,
    }));

  beforeAll(async () => {
    admin = await server.login();
  });

  it('records a created user without the password, and a role whose permissions changed', async () => {
    const created = (await call('POST', '/user', { name: 'audited', realname: 'Audited One', password: 'Audit#2026', confirmPassword: 'Audit#2026' })).json();
    expect(created.resCode).toBe('00000');
    const [entry] = await entriesOf('user', created.resData.id);
    expect(entry).toMatchObject({ action: 'create', userName: ADMIN.username, address: expect.stringMatching(/127\.0\.0\.1|203\.0\.113\.9/) });
    expect(entry.changes).toMatchObject({ name: { after: 'audited' }, password: { redacted: true } });
    expect(JSON.stringify(entry.changes)).not.toMatch(/Audit#2026|scrypt|\$/);
    expect(Object.keys(entry.changes)).not.toContain('confirmPassword');

    const role = (await call('POST', '/role', { name: 'Audited role', permissions: [21, 2102] })).json();
    expect(role.resCode).toBe('00000');
    expect((await call('PUT', '/role', { id: role.resData.id, permissions: [21, 2103] })).json().resCode).toBe('00000');
    const [, update] = await entriesOf('role', role.resData.id);
    expect(update).toMatchObject({ action: 'update' });
    expect(update.changes).toEqual({ permissions: { before: [21, 2102], after: [21, 2103] } });
  });

  it("records a configured record's edit and delete, and nothing for a refused write", async () => {
    expect((await call('POST', '/resource-types', { ...BARCODE, name: 'auditedCode' })).json().resCode).toBe('00000');
    const made = (await call('POST', '/custom/auditedCode', { code: '12345', itemType: 'pet', refund: 0.25 })).json();
    const id = made.resData.id as number;
    expect((await call('PUT', '/custom/auditedCode', { id, refund: 0.5 })).json().resCode).toBe('00000');
    expect((await call('PUT', '/custom/auditedCode', { id, code: 'x' })).json().resCode).toBe('1002');
    expect((await call('DELETE', `/custom/auditedCode?id=${id}`)).json().resCode).toBe('00000');
    const entries = await entriesOf('auditedCode', id);
    expect(entries.map((entry) => entry.action)).toEqual(['create', 'update', 'delete']);
    expect(entries[1].changes).toEqual({ refund: { before: 0.25, after: 0.5 } });
    expect(entries[2].changes).toMatchObject({ code: { before: '12345' }, refund: { before: 0.5 } });
  });
});
