// POST /login/login, GET /login/current: answers, attempts left, lock-out and its window, flags.
import { eq } from 'drizzle-orm';
import { describe, expect, it, vi } from 'vitest';
import { answeredWorkSettled } from '../../server/auth/afterAnswer';
import { PasswordQueueFull } from '../../server/auth/passwordQueue';
import { sha256 } from '../../server/auth/tokens';
import { createPasswordHasher } from '../../server/auth/passwords';
import { loginAttempt, sysToken, sysUser } from '../../server/db/schema';
import { ADMIN, describeBackends, documentedPaths, minutesAgo } from './helpers';

describeBackends('login', (server) => {
  it('signs the seeded admin in with the LoginAnswer of ARCHITECTURE.md', async () => {
    const { status, body } = await server.call('POST', '/login/login', {
      body: { ...ADMIN, rememberPassword: true, utcOffsetMinutes: 480 },
    });
    expect(status).toBe(200);
    expect(body.resCode).toBe('00000');
    const answer = body.resData;
    expect(answer).toMatchObject({
      accountName: 'Default',
      userName: 'admin',
      realName: 'Administrator',
      tokenInfo: { tokenName: 'rvm-token' },
      userInfo: { superAdmin: true, permissions: [], roleId: null, roleIds: [] },
      termType: [],
      firstLogin: true,
      passwordExpired: false,
    });
    expect(answer.tokenInfo.tokenValue).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(typeof answer.userId).toBe('number');
    expect(typeof answer.licenseAccountId).toBe('number');
    expect(typeof answer.version).toBe('string');
  });

  it('GET /login/current answers the same without tokenInfo', async () => {
    const token = await server.login();
    const { body } = await server.call('GET', '/login/current', { token });
    expect(body.resCode).toBe('00000');
    expect(body.resData.userName).toBe('admin');
    expect(body.resData.tokenInfo).toBeUndefined();
  });

  it('answers code 6 with the attempts left as the only number, then 7 (HTTP 429) at the limit', async () => {
    await server.createUser({ name: 'lock1', password: 'Good#123' });
    const messages: string[] = [];
    for (let attempt = 1; attempt <= 4; attempt++) {
      const { status, body } = await server.call('POST', '/login/login', { body: { username: 'lock1', password: 'Wrong#123' } });
      expect(status).toBe(400);
      expect(body.resCode).toBe('6');
      messages.push(body.resMsg);
    }
    expect(messages[0]).toBe('Incorrect username or password, you can also log in 4 times');
    expect(messages.map((message) => Number(message.match(/\d+/g)?.join('')))).toEqual([4, 3, 2, 1]);
    const fifth = await server.call('POST', '/login/login', { body: { username: 'lock1', password: 'Wrong#123' } });
    expect([fifth.status, fifth.body.resCode]).toEqual([429, '7']);
    // Locked: even the right password answers 7 until the window passes.
    const right = await server.call('POST', '/login/login', { body: { username: 'lock1', password: 'Good#123' } });
    expect(right.body.resCode).toBe('7');
    expect(right.body.resMsg).toBe('This account has failed to log in too many times, please try again later');
  });

  it('holds the limit under 20 concurrent wrong-password sign-ins spread over two app instances', async () => {
    await server.createUser({ name: 'race1', password: 'Good#123' });
    const other = await server.anotherInstance();
    // The guesses actually checked (scrypt runs) are what the limit protects.
    const verifies = [server.app, other].map((app) => vi.spyOn(app.services.hasher, 'verify'));
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, index) =>
        (index % 2 ? other : server.app).inject({ method: 'POST', url: '/test-api/login/login', payload: { username: 'race1', password: 'Wrong#123' } }),
      ),
    );
    const codes = answers.map((answer) => answer.json().resCode as string);
    expect(codes.filter((code) => code === '6').length).toBeLessThanOrEqual(5);
    expect(codes.filter((code) => code !== '6' && code !== '7')).toEqual([]);
    expect(verifies.reduce((sum, spy) => sum + spy.mock.calls.length, 0)).toBeLessThanOrEqual(5);
    verifies.forEach((spy) => spy.mockRestore());
    const right = await server.call('POST', '/login/login', { body: { username: 'race1', password: 'Good#123' } });
    expect(right.body.resCode).toBe('7');
    await server.db
      .update(loginAttempt)
      .set({ attemptedAt: minutesAgo(16) })
      .where(eq(loginAttempt.username, 'race1'));
    expect((await server.call('POST', '/login/login', { body: { username: 'race1', password: 'Good#123' } })).body.resCode).toBe('00000');
  });

  it('unlocks once the failures are older than the window (counted in the database)', async () => {
    await server.db
      .update(loginAttempt)
      .set({ attemptedAt: minutesAgo(16) })
      .where(eq(loginAttempt.username, 'lock1'));
    const { body } = await server.call('POST', '/login/login', { body: { username: 'lock1', password: 'Good#123' } });
    expect(body.resCode).toBe('00000');
  });

  it('a success resets the failure count', async () => {
    await server.createUser({ name: 'reset1', password: 'Good#123' });
    for (let attempt = 0; attempt < 3; attempt++) await server.call('POST', '/login/login', { body: { username: 'reset1', password: 'nope' } });
    await server.login('reset1', 'Good#123');
    const { body } = await server.call('POST', '/login/login', { body: { username: 'reset1', password: 'nope' } });
    expect(body.resMsg).toMatch(/4 times$/);
  });

  it('answers an unknown user exactly like a wrong password (no enumeration)', async () => {
    const { status, body } = await server.call('POST', '/login/login', { body: { username: 'ghost', password: 'x' } });
    expect(status).toBe(400);
    expect(body).toEqual({ resCode: '6', resMsg: 'Incorrect username or password, you can also log in 4 times', resData: { attemptsLeft: 4 } });
  });

  it('answers in Chinese with lang: zh', async () => {
    const { body } = await server.call('POST', '/login/login', { lang: 'zh', body: { username: 'ghost2', password: 'x' } });
    expect(body.resMsg).toBe('用户名或密码错误，您还可以登录 4 次');
    const viaAcceptLanguage = await server.call('POST', '/login/login', {
      headers: { 'accept-language': 'zh-CN,zh;q=0.9' },
      body: { username: 'ghost2', password: 'x' },
    });
    expect(viaAcceptLanguage.body.resMsg).toBe('用户名或密码错误，您还可以登录 3 次');
  });

  it('answers a disabled user 6 like a wrong password, even with the right one (which does not reveal it is right)', async () => {
    const id = await server.createUser({ name: 'off1', password: 'Good#123' });
    await server.db.update(sysUser).set({ enabled: false }).where(eq(sysUser.id, id));
    const right = await server.call('POST', '/login/login', { body: { username: 'off1', password: 'Good#123' } });
    expect([right.status, right.body.resCode, right.body.resData]).toEqual([400, '6', { attemptsLeft: 4 }]);
    expect((await server.call('POST', '/login/login', { body: { username: 'off1', password: 'bad' } })).body.resData).toEqual({ attemptsLeft: 3 });
    // Enabled again, the right password signs in (and clears the failures).
    await server.db.update(sysUser).set({ enabled: true }).where(eq(sysUser.id, id));
    await server.login('off1', 'Good#123');
  });

  it('flags a created user as first login and an old password as expired', async () => {
    const id = await server.createUser({ name: 'flags1', password: 'Good#123' });
    const first = await server.call('POST', '/login/login', { body: { username: 'flags1', password: 'Good#123' } });
    expect(first.body.resData).toMatchObject({ firstLogin: true, passwordExpired: false });
    await server.db
      .update(sysUser)
      .set({ mustChangePassword: false, passwordChangedAt: minutesAgo(91 * 24 * 60) })
      .where(eq(sysUser.id, id));
    const later = await server.call('POST', '/login/login', { body: { username: 'flags1', password: 'Good#123' } });
    expect(later.body.resData).toMatchObject({ firstLogin: false, passwordExpired: true });
  });

  /** A sign-in from an address of its own, so the per-address limits of the other tests are not touched. */
  const signInFrom = async (remoteAddress: string, username: string, password: string) => {
    const raw = await server.app.inject({ method: 'POST', url: '/test-api/login/login', payload: { username, password }, remoteAddress });
    return { status: raw.statusCode, retryAfter: raw.headers['retry-after'], body: raw.json() as { resCode: string; resMsg: string; resData: any } };
  };

  it('signs out: that token is revoked (reason logout), another session of the user stays', async () => {
    const token = await server.login();
    const other = await server.login();
    expect((await server.call('GET', '/login/logout', { token })).body).toEqual({ resCode: '00000', resMsg: 'Success', resData: null });
    expect((await server.call('GET', '/login/current', { token })).body.resCode).toBe('11015');
    const [row] = await server.db
      .select({ reason: sysToken.revokeReason })
      .from(sysToken)
      .where(eq(sysToken.tokenHash, sha256(token)));
    expect(row).toEqual({ reason: 'logout' });
    expect((await server.call('GET', '/login/current', { token: other })).body.resCode).toBe('00000');
  });

  it('a user who must change the password can still read the login answer, sign out and change the password (not 4007)', async () => {
    await server.createUser({ name: 'forced1', password: 'Good#123' });
    const forcedSignIn = async () =>
      (await server.call('POST', '/login/login', { body: { username: 'forced1', password: 'Good#123' } })).body.resData.tokenInfo.tokenValue as string;
    const [token, second] = [await forcedSignIn(), await forcedSignIn()];
    expect((await server.call('POST', '/user/page', { token, body: {} })).body.resCode).toBe('4007');
    expect((await server.call('GET', '/login/current', { token })).body.resData.firstLogin).toBe(true);
    expect((await server.call('GET', '/login/logout', { token: second })).body.resCode).toBe('00000');
    const changed = await server.call('PUT', `/user/password?password=${encodeURIComponent('Fresh#123')}`, { token, body: { oldPassword: 'Good#123' } });
    expect(changed.body.resCode).toBe('00000');
    expect((await server.call('POST', '/login/login', { body: { username: 'forced1', password: 'Fresh#123' } })).body.resData.firstLogin).toBe(false);
  });

  it('a locked pair is told to retry when the oldest failure leaves the 15-minute window (Retry-After in seconds)', async () => {
    await server.createUser({ name: 'lock2', password: 'Good#123' });
    for (let attempt = 0; attempt < 4; attempt++) await signInFrom('192.0.2.21', 'lock2', 'Wrong#123');
    const fifth = await signInFrom('192.0.2.21', 'lock2', 'Wrong#123');
    expect([fifth.status, fifth.body.resCode]).toEqual([429, '7']);
    expect(Number(fifth.retryAfter)).toBeGreaterThan(15 * 60 - 60);
    expect(Number(fifth.retryAfter)).toBeLessThanOrEqual(15 * 60);
  });

  it('a password check that cannot run gives the reserved attempt back: full queue 4029 (Retry-After 1), other failures 500', async () => {
    const verify = vi.spyOn(server.app.services.hasher, 'verifyDummy');
    try {
      verify.mockRejectedValueOnce(new PasswordQueueFull());
      const full = await signInFrom('192.0.2.22', 'ghost22', 'Wrong#123');
      expect([full.status, full.body.resCode, full.retryAfter]).toEqual([429, '4029', '1']);
      verify.mockRejectedValueOnce(new Error('disk on fire'));
      expect((await signInFrom('192.0.2.22', 'ghost22', 'Wrong#123')).status).toBe(500);
    } finally {
      verify.mockRestore();
    }
    // Neither counted: the first real check still has all 4 attempts left.
    expect((await signInFrom('192.0.2.22', 'ghost22', 'Wrong#123')).body.resData).toEqual({ attemptsLeft: 4 });
  });

  it('re-hashes a password stored with older scrypt parameters after a right sign-in', async () => {
    const id = await server.createUser({ name: 'old1', password: 'Good#123' });
    await server.db
      .update(sysUser)
      .set({ password: await createPasswordHasher(13).hash('Good#123') })
      .where(eq(sysUser.id, id));
    await server.login('old1', 'Good#123');
    await answeredWorkSettled(server.app.services);
    const [stored] = await server.db.select({ password: sysUser.password }).from(sysUser).where(eq(sysUser.id, id));
    expect(stored.password).toMatch(/^scrypt\$4096\$8\$1\$/);
    await server.login('old1', 'Good#123');
  });

  it('documents the sign-in, password, saved-filter and license-account routes: tag, summary, token, limits', async () => {
    const paths = await documentedPaths(server.app);
    const routes: Array<[string, string, string, boolean]> = [
      ['post', '/login/login', 'login', false],
      ['get', '/login/logout', 'login', true],
      ['get', '/login/current', 'login', true],
      ['put', '/user/password', 'password', true],
      ['put', '/user/resetPassword', 'password', true],
      ['post', '/login/forgotPassword', 'password', false],
      ['get', '/login/resetPassword/check', 'password', false],
      ['post', '/login/resetPassword', 'password', false],
      ['get', '/saved-filter', 'saved filter', true],
      ['post', '/saved-filter', 'saved filter', true],
      ['put', '/saved-filter', 'saved filter', true],
      ['delete', '/saved-filter', 'saved filter', true],
      ['get', '/license-account-user-relation', 'license account', true],
      ['put', '/license-account-user-relation', 'license account', true],
    ];
    const described = routes.map(([method, path]) => {
      const operation = paths[`/test-api${path}`]?.[method];
      // an answer documented for success, and the forced-logout one (401) exactly where a token is needed
      return [
        method,
        path,
        operation?.tags,
        Boolean(operation?.summary?.trim()),
        operation?.security,
        Boolean(operation?.responses?.['200']),
        Boolean(operation?.responses?.['401']),
      ];
    });
    expect(described).toEqual(routes.map(([method, path, tag, withToken]) => [method, path, [tag], true, withToken ? [{ rvmToken: [] }] : undefined, true, withToken]));
    const { description: signIn } = paths['/test-api/login/login'].post;
    for (const part of ['code 6', 'Code 7 (HTTP 429, Retry-After)', 'LOGIN_ACCOUNT_MAX_FAILURES', 'LOGIN_ADDRESS_MAX_FAILURES', 'all busy', 'README'])
      expect(signIn).toContain(part);
    const { description: forgotten } = paths['/test-api/login/forgotPassword'].post;
    for (const part of ['before looking it up', 'RESET_MAILS_PER_ACCOUNT', 'FORGOT_PASSWORD_PER_ADDRESS']) expect(forgotten).toContain(part);
  });

  describe('input rules', () => {
    it.each([
      [{ password: 'x' }, '1001', 'username'],
      [{ username: 'admin' }, '1001', 'password'],
      [{ username: 'admin', password: '' }, '1001', 'password'],
      [{ username: 'a', password: 'x' }, '1002', 'username'],
      [{ username: 'toolongname', password: 'x' }, '1002', 'username'],
      [{ username: 12345, password: 'x' }, '1003', 'username'],
      [{ username: 'admin', password: 'x', extra: true }, '1004', 'extra'],
    ])('%j answers %s on %s', async (body, code, field) => {
      const answer = await server.call('POST', '/login/login', { body });
      expect(answer.status).toBe(400);
      expect(answer.body.resCode).toBe(code);
      expect(answer.body.resData.issues.map((issue: { field: string }) => issue.field)).toContain(field);
    });

    it('translates field issues (zh)', async () => {
      const { body } = await server.call('POST', '/login/login', { lang: 'zh', body: { username: 'a', password: 'x' } });
      expect(body.resMsg).toBe('参数长度错误：长度必须在 2 到 8 个字符之间');
      expect(body.resData.issues).toEqual([{ field: 'username', message: '长度必须在 2 到 8 个字符之间' }]);
    });

    it('answers malformed JSON with 1004 and never a stack trace', async () => {
      const { status, body } = await server.call('POST', '/login/login', { headers: { 'content-type': 'application/json' }, body: '{"username":' });
      expect(status).toBe(400);
      expect(body.resCode).toBe('1004');
      expect(JSON.stringify(body)).not.toMatch(/at .*\.(ts|js):\d+/);
    });
  });
});
