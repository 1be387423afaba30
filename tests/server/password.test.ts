// PUT /user/password, PUT /user/resetPassword and the forgot/reset flow (the link as mailed; mail_outbox
// keeps the mail with the link redacted).
import { createServer, type AddressInfo, type Socket } from 'node:net';
import { PassThrough } from 'node:stream';
import { desc, eq } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { expect, it, vi } from 'vitest';
import { answeredWorkSettled } from '../../server/auth/afterAnswer';
import { mailOutbox, passwordReset, sysToken, sysUser } from '../../server/db/schema';
import { createMailer, SMTP_TIMEOUTS, type Mail } from '../../server/mail/mailer';
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
      return { body: answer.body, mails: send.mock.calls.map((call) => call[1]) };
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
    expect([same.body.resCode, same.body.resData.issues]).toEqual(['1004', [{ field: 'password', message: 'The new password is the same as the old one' }]]);
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
      expect([password, body.resCode, body.resData.issues[0]]).toEqual([password, code, { field: 'password', message }]);
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
    expect([bad.body.resCode, bad.body.resData.issues[0].field]).toEqual(['1002', 'password']);
    const missing = await server.call('PUT', '/user/resetPassword', { token: admin, body: { id: 999999, password: 'Reset#123' } });
    expect(missing.body.resCode).toBe('2003');
    const { body } = await server.call('PUT', '/user/resetPassword', { token: admin, body: { id, password: 'Reset#123' } });
    expect(body.resCode).toBe('00000');
    expect((await server.call('GET', '/login/current', { token: victim })).body.resCode).toBe('11015');
    const login = await server.call('POST', '/login/login', { body: { username: 'pw2', password: 'Reset#123' } });
    expect(login.body.resData.firstLogin).toBe(true);
  });

  const revokeReasonsOf = async (userId: number) => [
    ...new Set((await server.db.select({ reason: sysToken.revokeReason }).from(sysToken).where(eq(sysToken.userId, userId))).map((row) => row.reason)),
  ];

  it('trims both passwords of a change, and records why the sessions ended (passwordChange)', async () => {
    const id = await server.createUser({ name: 'pw10', password: 'Old#1234' });
    const token = await server.login('pw10', 'Old#1234');
    expect((await change(token, '  New#1234 ', ' Old#1234  ')).body.resCode).toBe('00000');
    expect(await revokeReasonsOf(id)).toEqual(['passwordChange']);
    await server.login('pw10', 'New#1234');
  });

  it('lets a holder of user:resetPassword who is not superAdmin reset a plain user, never a superAdmin (4003)', async () => {
    const admin = await server.login();
    const role = await server.call('POST', '/role', { token: admin, body: { name: 'resetter', permissions: [210206] } });
    await server.createUser({ name: 'pw11', password: 'Old#1234', roles: [role.body.resData.id] });
    const resetter = await server.login('pw11', 'Old#1234');
    const adminId = (await server.call('GET', '/login/current', { token: admin })).body.resData.userId as number;
    const refused = await server.call('PUT', '/user/resetPassword', { token: resetter, body: { id: adminId, password: 'Taken#123' } });
    expect([refused.status, refused.body.resCode]).toEqual([403, '4003']);
    await server.login(); // the admin's password is unchanged
    // nor a user holding rights the resetter lacks (user:page here)
    const viewerRole = await server.call('POST', '/role', { token: admin, body: { name: 'pw-viewer', permissions: [210201] } });
    const stronger = await server.createUser({ name: 'pw16', password: 'Old#1234', roles: [viewerRole.body.resData.id] });
    expect((await server.call('PUT', '/user/resetPassword', { token: resetter, body: { id: stronger, password: 'Taken#123' } })).body.resCode).toBe('4003');
    await server.login('pw16', 'Old#1234');
    const plain = await server.createUser({ name: 'pw12', password: 'Old#1234' });
    await server.login('pw12', 'Old#1234');
    expect((await server.call('PUT', '/user/resetPassword', { token: resetter, body: { id: plain, password: 'Reset#123' } })).body.resCode).toBe('00000');
    expect(await revokeReasonsOf(plain)).toEqual(['passwordReset']);
    expect((await server.call('POST', '/login/login', { body: { username: 'pw12', password: 'Reset#123' } })).body.resData.firstLogin).toBe(true);
  });

  it('validates the input of every password route: 1001 missing, 1004 unknown field or out of range', async () => {
    const admin = await server.login();
    const cases: Array<[string, string, unknown, string, string]> = [
      ['PUT', '/user/password', { oldPassword: 'Old#1234' }, '1001', 'password'],
      ['PUT', '/user/password?password=New%231234', {}, '1001', 'oldPassword'],
      ['PUT', '/user/password?password=New%231234', { oldPassword: '' }, '1001', 'oldPassword'],
      ['PUT', '/user/password?password=New%231234', { oldPassword: 'Old#1234', extra: 1 }, '1004', 'extra'],
      ['PUT', '/user/resetPassword', { password: 'Reset#123' }, '1001', 'id'],
      ['PUT', '/user/resetPassword', { id: 1 }, '1001', 'password'],
      ['PUT', '/user/resetPassword', { id: 0, password: 'Reset#123' }, '1004', 'id'],
      ['PUT', '/user/resetPassword', { id: 1, password: 'Reset#123', extra: 1 }, '1004', 'extra'],
      ['POST', '/login/forgotPassword', {}, '1001', 'account'],
      ['POST', '/login/forgotPassword', { account: '' }, '1001', 'account'],
      ['POST', '/login/forgotPassword', { account: 'pw1', extra: 1 }, '1004', 'extra'],
      ['GET', '/login/resetPassword/check?token=x&extra=1', undefined, '1004', 'extra'],
      ['POST', '/login/resetPassword', { password: 'Fresh#123', confirmPassword: 'Fresh#123' }, '1001', 'token'],
      ['POST', '/login/resetPassword', { token: '', password: 'Fresh#123', confirmPassword: 'Fresh#123' }, '1001', 'token'],
      ['POST', '/login/resetPassword', { token: 'x', confirmPassword: 'Fresh#123' }, '1001', 'password'],
      ['POST', '/login/resetPassword', { token: 'x', password: 'Fresh#123' }, '1001', 'confirmPassword'],
      ['POST', '/login/resetPassword', { token: 'x', password: 'Fresh#123', confirmPassword: 'Fresh#123', extra: 1 }, '1004', 'extra'],
    ];
    for (const [method, path, body, code, field] of cases) {
      const { status, body: answer } = await server.call(method, path, { token: admin, body });
      expect([method, path, status, answer.resCode, answer.resData?.issues?.map((issue: { field: string }) => issue.field)]).toEqual([method, path, 400, code, [field]]);
    }
  });

  it('refuses the reset to a user without user:resetPassword (4003)', async () => {
    const id = await server.createUser({ name: 'pw3', password: 'Old#1234' });
    const token = await server.login('pw3', 'Old#1234');
    const { status, body } = await server.call('PUT', '/user/resetPassword', { token, body: { id, password: 'Reset#123' } });
    expect([status, body.resCode]).toEqual([403, '4003']);
  });

  it('forgot password: always success, a single-use link mailed (redacted in mail_outbox), the password reset', async () => {
    const pw4 = await server.createUser({ name: 'pw4', password: 'Old#1234', email: 'Pw4@Example.com' });
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
    expect([mismatch.body.resCode, mismatch.body.resData.issues]).toEqual(['1004', [{ field: 'confirmPassword', message: 'The two passwords are inconsistent' }]]);
    const weak = await server.call('POST', '/login/resetPassword', { body: { token, password: 'fresh123', confirmPassword: 'fresh123' } });
    expect(weak.body.resData.issues[0]).toEqual({ field: 'password', message: 'At least 1 symbol' });

    const done = await server.call('POST', '/login/resetPassword', { body: { token, password: 'Fresh#123', confirmPassword: 'Fresh#123' } });
    expect(done.body.resCode).toBe('00000');
    expect((await server.call('GET', '/login/current', { token: session })).body.resCode).toBe('11015');
    expect(await revokeReasonsOf(pw4)).toEqual(['passwordChange']);
    // chosen by the user: no change asked at the next sign-in
    expect((await server.call('POST', '/login/login', { body: { username: 'pw4', password: 'Fresh#123' } })).body.resData.firstLogin).toBe(false);
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
    expect(await check('')).toEqual({ resCode: '00000', resMsg: 'Success', resData: { valid: false } });
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
  const useLink = (token: string, password: string) => server.call('POST', '/login/resetPassword', { body: { token, password, confirmPassword: password } });

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

  it('forgot password trims the account; without SMTP a user without e-mail still gets the (logged) link; the per-user limit is logged', async () => {
    const log = new PassThrough();
    let lines = '';
    log.on('data', (chunk: Buffer) => (lines += chunk.toString()));
    const app = await server.anotherInstance({ config: { ...TEST_CONFIG, resetMailsPerAccount: 1 }, logger: { level: 'info', stream: log } });
    const id = await server.createUser({ name: 'pw13', password: 'Old#1234' });
    const ask = async () => {
      const answer = await app.inject({ method: 'POST', url: '/test-api/login/forgotPassword', payload: { account: '  pw13 ' }, remoteAddress: '192.0.2.31' });
      await answeredWorkSettled(app.services);
      return answer.json();
    };
    expect(await ask()).toEqual({ resCode: '00000', resMsg: 'Success', resData: null });
    expect(await server.db.select({ id: passwordReset.id }).from(passwordReset).where(eq(passwordReset.userId, id))).toHaveLength(1);
    expect(lines).not.toContain('RESET_MAILS_PER_ACCOUNT reached');
    expect(await ask()).toEqual({ resCode: '00000', resMsg: 'Success', resData: null });
    expect(await server.db.select({ id: passwordReset.id }).from(passwordReset).where(eq(passwordReset.userId, id))).toHaveLength(1);
    const refusal = lines.split('\n').find((line) => line.includes('RESET_MAILS_PER_ACCOUNT reached'));
    expect(JSON.parse(refusal ?? '{}')).toMatchObject({ userId: id });
  });

  it('closing the server first finishes the forgot-password work it already answered (the mail is written)', async () => {
    await server.createUser({ name: 'pw15', password: 'Old#1234', email: 'pw15@example.com' });
    const app = await server.anotherInstance();
    const answer = await app.inject({ method: 'POST', url: '/test-api/login/forgotPassword', payload: { account: 'pw15' }, remoteAddress: '192.0.2.32' });
    expect(answer.json().resCode).toBe('00000');
    await app.close();
    expect(await server.db.select({ id: mailOutbox.id }).from(mailOutbox).where(eq(mailOutbox.recipient, 'pw15@example.com'))).toHaveLength(1);
  });

  it('a reset link used twice at the same time sets one password: the other use answers 4006', async () => {
    await server.createUser({ name: 'pw14', password: 'Old#1234', email: 'pw14@example.com' });
    const token = await mailedLink('pw14');
    const answers = await Promise.all([useLink(token, 'First#123'), useLink(token, 'Second#123')]);
    expect(answers.map((answer) => answer.body.resCode).sort()).toEqual(['00000', '4006']);
    const winner = answers[0].body.resCode === '00000' ? 'First#123' : 'Second#123';
    await server.login('pw14', winner);
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

  it('the mailer gives up on an SMTP server that never greets (bounded waits: a mail is sent inside its job transaction)', async () => {
    // accepts the connection and says nothing
    const sockets: Socket[] = [];
    const silent = createServer((socket) => sockets.push(socket));
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const { port } = silent.address() as AddressInfo;
    const log = { info: () => undefined, warn: () => undefined } as unknown as FastifyBaseLogger;
    try {
      // the URL's own waits win over the defaults (SMTP_TIMEOUTS: nodemailer's own would wait 30 s here, 2 min to connect)
      const mailer = createMailer({ smtpUrl: `smtp://127.0.0.1:${port}?greetingTimeout=300`, mailFrom: 'a@b.c' });
      const result = await mailer.deliver(server.db, { to: 'ops@example.com', subject: 'Silent', text: 'body' }, log);
      expect(result).toMatchObject({ delivered: false });
      expect(result.error).toMatch(/Greeting never received/);
      expect(SMTP_TIMEOUTS.greetingTimeout).toBeLessThan(30_000);
      expect(SMTP_TIMEOUTS.connectionTimeout).toBeLessThan(120_000);
    } finally {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => silent.close(resolve));
    }
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
