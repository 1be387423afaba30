// PUT /user/password, PUT /user/resetPassword and the forgot/reset flow (the link as mailed; mail_outbox
// keeps the mail with the link redacted).
import { PassThrough } from 'node:stream';
import { desc, eq } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { expect, it, vi } from 'vitest';
import { answeredWorkSettled } from '../../server/auth/afterAnswer';
import { mailOutbox, passwordReset, sysUser } from '../../server/db/schema';
import { createMailer, type Mail } from '../../server/lib/mailer';
import { describeBackends, minutesAgo, TEST_CONFIG } from './helpers';

describeBackends('passwords', (server) => {
  const change = (token: string, password: string, oldPassword: unknown, lang?: string) =>
    server.call('PUT', `/user/password?password=${encodeURIComponent(password)}`, { token, body: { oldPassword }, lang });

  /** POST /login/forgotPassword; answers the envelope and the mails sent once the work after the answer is done. */
  const forgot = async (account: string) => {
    const send = vi.spyOn(server.app.services.mailer, 'send');
    try {
      const answer = await server.call('POST', '/login/forgotPassword', { body: { account } });
      await answeredWorkSettled(server.app.services);
      return { body: answer.body, mails: send.mock.calls.map((call) => call[1] as Mail) };
    } finally {
      send.mockRestore();
    }
  };
  const tokenOf = (mail: Mail | undefined) => decodeURIComponent(mail?.text.match(/\/resetPassword\?token=(\S+)/)?.[1] ?? '');

  it('stores passwords as scrypt$N$r$p$salt$hash', async () => {
    const [admin] = await server.db.select({ password: sysUser.password }).from(sysUser).where(eq(sysUser.name, 'admin'));
    expect(admin.password).toMatch(/^scrypt\$4096\$8\$1\$[A-Za-z0-9+/=]{24}\$[A-Za-z0-9+/=]{88}$/);
  });

  it('refuses a wrong old password with validation.incorrectPassword (1004)', async () => {
    await server.createUser({ name: 'pw1', password: 'Old#1234' });
    const token = await server.login('pw1', 'Old#1234');
    const { status, body } = await change(token, 'New#1234', 'Nope#123');
    expect(status).toBe(400);
    expect(body.resCode).toBe('1004');
    expect(body.resData.issues).toEqual([{ field: 'oldPassword', message: 'Incorrect password input' }]);
    expect((await change(token, 'New#1234', 'Nope#123', 'zh')).body.resData.issues[0].message).toBe('密码输入错误');
  });

  it('refuses the same password and each broken rule with its message', async () => {
    const token = await server.login('pw1', 'Old#1234');
    const same = await change(token, 'Old#1234', 'Old#1234');
    expect([same.body.resCode, same.body.resData.issues[0].message]).toEqual(['1004', 'The new password is the same as the old one']);
    const cases: Array<[string, string, string]> = [
      ['', '1001', 'This field cannot be empty'],
      ['Ab#1', '1002', 'The length must be between 6 and 20 characters'],
      ['Abcdefg#', '1004', 'At least 1 digit'],
      ['1234567#', '1004', 'At least 1 letter'],
      ['Abc12345', '1004', 'At least 1 symbol'],
      ['Abc#1234密', '1004', 'The value cannot contain Chinese characters'],
      ['Abc#12345678901234567', '1002', 'The length must be between 6 and 20 characters'],
    ];
    for (const [password, code, message] of cases) {
      const { body } = await change(token, password, 'Old#1234');
      expect([password, body.resCode, body.resData.issues[0].message]).toEqual([password, code, message]);
    }
    // Nothing changed: the old password still works.
    await server.login('pw1', 'Old#1234');
  });

  it('changes the password, clears must-change, and revokes every session of the user', async () => {
    const token = await server.login('pw1', 'Old#1234');
    const other = await server.login('pw1', 'Old#1234');
    const { body } = await change(token, 'New#1234', 'Old#1234');
    expect(body).toEqual({ resCode: '00000', resMsg: 'Success', resData: null });
    expect((await server.call('GET', '/login/current', { token })).body.resCode).toBe('11015');
    expect((await server.call('GET', '/login/current', { token: other })).body.resCode).toBe('11015');
    expect((await server.call('POST', '/login/login', { body: { username: 'pw1', password: 'Old#1234' } })).body.resCode).toBe('6');
    const again = await server.call('POST', '/login/login', { body: { username: 'pw1', password: 'New#1234' } });
    expect(again.body.resData.firstLogin).toBe(false);
  });

  it('lets an administrator reset a password: target must change it and is signed out', async () => {
    const id = await server.createUser({ name: 'pw2', password: 'Old#1234' });
    const victim = await server.login('pw2', 'Old#1234');
    const admin = await server.login();
    const bad = await server.call('PUT', '/user/resetPassword', { token: admin, body: { id, password: 'short' } });
    expect(bad.body.resCode).toBe('1002');
    const missing = await server.call('PUT', '/user/resetPassword', { token: admin, body: { id: 999999, password: 'Reset#123' } });
    expect(missing.body.resCode).toBe('2003');
    const { body } = await server.call('PUT', '/user/resetPassword', { token: admin, body: { id, password: 'Reset#123' } });
    expect(body.resCode).toBe('00000');
    expect((await server.call('GET', '/login/current', { token: victim })).body.resCode).toBe('11015');
    const login = await server.call('POST', '/login/login', { body: { username: 'pw2', password: 'Reset#123' } });
    expect(login.body.resData.firstLogin).toBe(true);
  });

  it('refuses the reset to a user without user:resetPassword (4003)', async () => {
    const id = await server.createUser({ name: 'pw3', password: 'Old#1234' });
    const token = await server.login('pw3', 'Old#1234');
    const { status, body } = await server.call('PUT', '/user/resetPassword', { token, body: { id, password: 'Reset#123' } });
    expect([status, body.resCode]).toEqual([403, '4003']);
  });

  it('forgot password: always success, a single-use link mailed (redacted in mail_outbox), the password reset', async () => {
    await server.createUser({ name: 'pw4', password: 'Old#1234', email: 'Pw4@Example.com' });
    const session = await server.login('pw4', 'Old#1234');
    const unknown = await forgot('nobody@example.com');
    expect(unknown.body).toEqual({ resCode: '00000', resMsg: 'Success', resData: null });
    expect(unknown.mails).toEqual([]);
    const known = await forgot('pw4@example.com');
    expect(known.body).toEqual(unknown.body);
    expect(known.mails).toHaveLength(1);
    expect(known.mails[0].to).toBe('Pw4@Example.com');
    expect(known.mails[0].text).toContain('http://localhost:8080/resetPassword?token=');
    const token = tokenOf(known.mails[0]);
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    // Without SMTP_URL the mail stays in mail_outbox (unsent), its link redacted; the token is stored hashed only.
    const [mail] = await server.db.select().from(mailOutbox).orderBy(desc(mailOutbox.id)).limit(1);
    expect([mail.recipient, mail.sentAt]).toEqual(['Pw4@Example.com', null]);
    expect(mail.body).toContain('http://localhost:8080/resetPassword?token=[redacted]');
    expect(JSON.stringify(await server.db.select().from(mailOutbox))).not.toContain(token);
    expect(JSON.stringify(await server.db.select().from(passwordReset))).not.toContain(token);

    const mismatch = await server.call('POST', '/login/resetPassword', { body: { token, password: 'Fresh#123', confirmPassword: 'Fresh#124' } });
    expect([mismatch.body.resCode, mismatch.body.resData.issues[0].message]).toEqual(['1004', 'The two passwords are inconsistent']);
    const weak = await server.call('POST', '/login/resetPassword', { body: { token, password: 'fresh123', confirmPassword: 'fresh123' } });
    expect(weak.body.resData.issues[0].message).toBe('At least 1 symbol');

    const done = await server.call('POST', '/login/resetPassword', { body: { token, password: 'Fresh#123', confirmPassword: 'Fresh#123' } });
    expect(done.body.resCode).toBe('00000');
    expect((await server.call('GET', '/login/current', { token: session })).body.resCode).toBe('11015');
    await server.login('pw4', 'Fresh#123');
    const reused = await server.call('POST', '/login/resetPassword', { body: { token, password: 'Other#123', confirmPassword: 'Other#123' } });
    expect(reused.body.resCode).toBe('4006');
  });

  it('tells the reset page whether a link is still usable (fresh yes; used, expired, unknown no), nothing about its user', async () => {
    const check = async (token: string) => (await server.call('GET', `/login/resetPassword/check?token=${encodeURIComponent(token)}`)).body;
    await server.createUser({ name: 'pw9', password: 'Old#1234', email: 'pw9@example.com' });
    const token = tokenOf((await forgot('pw9')).mails[0]);
    expect(await check(token)).toEqual({ resCode: '00000', resMsg: 'Success', resData: { valid: true } });
    expect(await check(token)).toEqual({ resCode: '00000', resMsg: 'Success', resData: { valid: true } }); // checking does not use it
    expect(await check('x'.repeat(43))).toEqual({ resCode: '00000', resMsg: 'Success', resData: { valid: false } });
    expect((await server.call('POST', '/login/resetPassword', { body: { token, password: 'Fresh#123', confirmPassword: 'Fresh#123' } })).body.resCode).toBe('00000');
    expect((await check(token)).resData).toEqual({ valid: false });
    const second = tokenOf((await forgot('pw9')).mails[0]);
    await server.db.update(passwordReset).set({ expiresAt: minutesAgo(1) });
    expect((await check(second)).resData).toEqual({ valid: false });
    expect((await server.call('GET', '/login/resetPassword/check')).body.resCode).toBe('1001');
  });

  it('forgot password by user name; an expired or unknown token answers 4006', async () => {
    const token = tokenOf((await forgot('pw4')).mails[0]);
    await server.db.update(passwordReset).set({ expiresAt: minutesAgo(1) });
    const expired = await server.call('POST', '/login/resetPassword', { body: { token, password: 'Fresh#999', confirmPassword: 'Fresh#999' } });
    expect(expired.body.resCode).toBe('4006');
    const unknown = await server.call('POST', '/login/resetPassword', { lang: 'zh', body: { token: 'x'.repeat(43), password: 'Fresh#999', confirmPassword: 'Fresh#999' } });
    expect([unknown.body.resCode, unknown.body.resMsg]).toEqual(['4006', '重置链接无效或已过期']);
  });

  const mailedLink = async (account: string) => tokenOf((await forgot(account)).mails[0]);
  const useLink = (token: string, password: string) =>
    server.call('POST', '/login/resetPassword', { body: { token, password, confirmPassword: password } });

  it('a password change voids every other open reset link of the user (4006)', async () => {
    await server.createUser({ name: 'pw6', password: 'Old#1234', email: 'pw6@example.com' });
    const first = await mailedLink('pw6');
    const second = await mailedLink('pw6');
    expect(first).not.toBe(second);
    expect((await useLink(first, 'Fresh#111')).body.resCode).toBe('00000');
    expect((await useLink(second, 'Fresh#222')).body.resCode).toBe('4006');

    const third = await mailedLink('pw6');
    const token = await server.login('pw6', 'Fresh#111');
    expect((await change(token, 'Fresh#333', 'Fresh#111')).body.resCode).toBe('00000');
    expect((await useLink(third, 'Fresh#444')).body.resCode).toBe('4006');
    await server.login('pw6', 'Fresh#333');
  });

  it('with SMTP configured: no reset token, no mail and no log line for a user without e-mail; answer still success', async () => {
    const log = new PassThrough();
    let lines = '';
    log.on('data', (chunk: Buffer) => (lines += chunk.toString()));
    const app = await server.anotherInstance({ config: { ...TEST_CONFIG, smtpUrl: 'smtp://127.0.0.1:9' }, logger: { level: 'debug', stream: log } });
    const id = await server.createUser({ name: 'pw7', password: 'Old#1234' });
    const outboxBefore = (await server.db.select().from(mailOutbox)).length;
    const answer = await app.inject({ method: 'POST', url: '/test-api/login/forgotPassword', payload: { account: 'pw7' } });
    expect(answer.json()).toEqual({ resCode: '00000', resMsg: 'Success', resData: null });
    await answeredWorkSettled(app.services);
    expect(await server.db.select().from(passwordReset).where(eq(passwordReset.userId, id))).toEqual([]);
    expect((await server.db.select().from(mailOutbox)).length).toBe(outboxBefore);
    expect(lines).not.toContain('token=');
  });

  it('the mailer never logs a body when SMTP is configured, only without SMTP_URL (development)', async () => {
    const logged: unknown[] = [];
    const log = { info: (...args: unknown[]) => logged.push(args), warn: (...args: unknown[]) => logged.push(args) } as unknown as FastifyBaseLogger;
    const mail = { to: null, subject: 'Reset', text: 'http://x/resetPassword?token=SECRET-LINK' };
    await createMailer({ smtpUrl: 'smtp://127.0.0.1:9', mailFrom: 'a@b.c' }).send(server.db, mail, log);
    expect(JSON.stringify(logged)).not.toContain('SECRET-LINK');
    await createMailer({ mailFrom: 'a@b.c' }).send(server.db, mail, log);
    expect(JSON.stringify(logged)).toContain('SECRET-LINK');
  });

  it("the mailer stores a mail's secrets redacted, with or without SMTP_URL; the log (no SMTP_URL) has the full text", async () => {
    const logged: unknown[] = [];
    const log = { info: (...args: unknown[]) => logged.push(args), warn: (...args: unknown[]) => logged.push(args) } as unknown as FastifyBaseLogger;
    for (const [index, smtpUrl] of [undefined, 'smtp://127.0.0.1:9'].entries()) {
      const mail = { to: `secret${index}@example.com`, subject: 'Reset', text: `Open http://x/resetPassword?token=KEEP-OUT-${index} now`, secrets: [`KEEP-OUT-${index}`] };
      await createMailer({ smtpUrl, mailFrom: 'a@b.c' }).send(server.db, mail, log);
      const [stored] = await server.db.select().from(mailOutbox).where(eq(mailOutbox.recipient, mail.to));
      expect(stored.body).toBe('Open http://x/resetPassword?token=[redacted] now');
    }
    expect(JSON.stringify(logged)).toContain('KEEP-OUT-0');
    expect(JSON.stringify(logged)).not.toContain('KEEP-OUT-1');
  });
});
