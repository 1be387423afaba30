// A service person's password (docs/service-personnel.md#personnel): required on create, optional on edit (absent or
// null keeps the stored one, a new one replaces it; the console leaves a blank one out), 6–64 characters without spaces (a keypad password, not the
// console users' password rule), stored only as a salted hash, never answered, redacted in the audit log.
import { and, desc, eq } from 'drizzle-orm';
import { beforeAll, expect, it } from 'vitest';
import { auditLog } from '../../server/db/schema';
import { servicePersonnel } from '../../server/db/schema/personnel';
import { describeOneBackend } from './helpers';

describeOneBackend('service personnel passwords', (server) => {
  let token = '';
  beforeAll(async () => {
    token = await server.login();
  });
  const hashOf = async (id: number) => (await server.db.select({ password: servicePersonnel.password }).from(servicePersonnel).where(eq(servicePersonnel.id, id)))[0].password;
  const create = (loginName: string, password?: string, lang = 'en') =>
    server.call('POST', '/service-personnel', { token, lang, body: { loginName, realName: 'Tech', accessLevel: 'normal', ...(password === undefined ? {} : { password }) } });

  it('takes a keypad password of 6 to 64 characters without spaces on create, with its reasons in English and Chinese', async () => {
    // digits only, or 40 characters: a keypad password, not the console users' rule (6–20 with a letter, digit and symbol)
    expect((await create('pin.only', '482913')).body.resCode).toBe('00000');
    expect((await create('long.one', 'a'.repeat(40))).body.resCode).toBe('00000');
    const missing = await create('no.password');
    expect([missing.body.resCode, missing.body.resData.issues[0].field]).toEqual(['1001', 'password']);
    const short = await create('short.one', '12345', 'zh');
    expect(short.body.resCode).toBe('1002');
    expect(short.body.resData.issues[0]).toEqual({ field: 'password', message: '长度必须在 6 到 64 个字符之间' });
    const spaced = await create('spaced.one', '1234 5678');
    expect(spaced.body.resData.issues[0]).toEqual({ field: 'password', message: 'A password cannot contain spaces' });
    const tooLong = await create('too.long', 'a'.repeat(65));
    expect(tooLong.body.resData.issues[0]).toMatchObject({ field: 'password' });
  });

  it('an edit without a password keeps the stored hash; an edit with one replaces it; neither answers it', async () => {
    const made = await create('edit.me', 'first-pin-1');
    const id = made.body.resData.id as number;
    const first = await hashOf(id);
    expect(await server.app.services.hasher.verify('first-pin-1', first)).toBe(true);

    const renamed = await server.call('PUT', '/service-personnel', { token, body: { id, realName: 'Renamed' } });
    expect(renamed.body.resCode).toBe('00000');
    expect(await hashOf(id)).toBe(first);
    const nulled = await server.call('PUT', '/service-personnel', { token, body: { id, password: null } });
    expect(nulled.body.resCode).toBe('00000');
    expect(await hashOf(id)).toBe(first);

    const changed = await server.call('PUT', '/service-personnel', { token, body: { id, password: '774411' } });
    expect(changed.body.resCode).toBe('00000');
    expect(JSON.stringify(changed.body.resData)).not.toMatch(/774411|scrypt/);
    const second = await hashOf(id);
    expect(second).not.toBe(first);
    expect(second).toMatch(/^scrypt\$/);
    expect(await server.app.services.hasher.verify('774411', second)).toBe(true);
    const spaced = await server.call('PUT', '/service-personnel', { token, body: { id, password: 'with space' } });
    expect(spaced.body.resData.issues[0]).toMatchObject({ field: 'password', message: 'A password cannot contain spaces' });
    expect(await hashOf(id)).toBe(second);

    // the audit entry says the password changed, never what it is
    const [entry] = await server.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.resource, 'servicePersonnel'), eq(auditLog.recordId, id), eq(auditLog.action, 'update')))
      .orderBy(desc(auditLog.id))
      .limit(1);
    expect(JSON.stringify(entry.changes)).not.toMatch(/774411|scrypt/);
    expect(JSON.stringify(entry.changes)).toContain('password');
  });
});
