// POST /login/login, GET /login/current: answers, attempts left, lock-out and its window, flags.
import { eq } from 'drizzle-orm';
import { describe, expect, it, vi } from 'vitest';
import { loginAttempt, sysUser } from '../../server/db/schema';
import { ADMIN, describeBackends, minutesAgo } from './helpers';

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
    await server.db.update(loginAttempt).set({ attemptedAt: minutesAgo(16) }).where(eq(loginAttempt.username, 'race1'));
    expect((await server.call('POST', '/login/login', { body: { username: 'race1', password: 'Good#123' } })).body.resCode).toBe('00000');
  });

  it('unlocks once the failures are older than the window (counted in the database)', async () => {
    await server.db.update(loginAttempt).set({ attemptedAt: minutesAgo(16) }).where(eq(loginAttempt.username, 'lock1'));
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
      expect(body.resMsg).toBe('参数长度错误: 长度必须在 2 到 8 个字符之间');
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
