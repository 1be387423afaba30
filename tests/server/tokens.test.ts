// Token checks: the forced-logout codes 11011 to 11016, logout, touch, the per-user session cap.
import { eq } from 'drizzle-orm';
import { expect, it, vi } from 'vitest';
import { sha256 } from '../../server/auth/tokens';
import { sysToken } from '../../server/db/schema';
import { describeOneBackend, minutesAgo } from './helpers';

const rowOf = async (server: Parameters<Parameters<typeof describeOneBackend>[1]>[0], token: string) =>
  (
    await server.db
      .select()
      .from(sysToken)
      .where(eq(sysToken.tokenHash, sha256(token)))
  )[0];

describeOneBackend(
  'tokens',
  (server) => {
    const current = (token?: string, headers?: Record<string, string>) => server.call('GET', '/login/current', { token, headers });

    it('stores only the SHA-256 hash of a token', async () => {
      const token = await server.login();
      const row = await rowOf(server, token);
      expect(row.tokenHash).toBe(sha256(token));
      expect(JSON.stringify(row)).not.toContain(token);
    });

    it('11011 without a token, 11012 for an unknown or malformed one (HTTP 401)', async () => {
      const missing = await current();
      expect([missing.status, missing.body.resCode, missing.body.resMsg]).toEqual([401, '11011', 'Please sign in']);
      expect((await current('A'.repeat(43))).body.resCode).toBe('11012');
      expect((await current('not a token')).body.resCode).toBe('11012');
    });

    it('11013 after the idle time-out', async () => {
      const token = await server.login();
      await server.db
        .update(sysToken)
        .set({ lastSeenAt: minutesAgo(121) })
        .where(eq(sysToken.tokenHash, sha256(token)));
      const { status, body } = await current(token);
      expect([status, body.resCode]).toEqual([401, '11013']);
    });

    it('11014 after the absolute lifetime, however active the session', async () => {
      const token = await server.login();
      await server.db
        .update(sysToken)
        .set({ createdAt: minutesAgo(12 * 60 + 1), lastSeenAt: new Date() })
        .where(eq(sysToken.tokenHash, sha256(token)));
      expect((await current(token)).body.resCode).toBe('11014');
    });

    it('touches last-seen at most once a minute', async () => {
      const token = await server.login();
      const before = await rowOf(server, token);
      await current(token);
      expect((await rowOf(server, token)).lastSeenAt.getTime()).toBe(before.lastSeenAt.getTime());
      // five minutes later (the server's clock: the token's row and the caller it keeps in memory age alike)
      vi.useFakeTimers({ toFake: ['Date'] });
      try {
        vi.setSystemTime(Date.now() + 5 * 60_000);
        expect((await current(token)).body.resCode).toBe('00000');
        const touched = (await rowOf(server, token)).lastSeenAt.getTime();
        expect(Math.abs(Date.now() - touched)).toBeLessThan(10_000);
        expect(touched - before.lastSeenAt.getTime()).toBeGreaterThanOrEqual(5 * 60_000 - 10_000);
      } finally {
        vi.useRealTimers();
      }
    });

    it('logout revokes the token (11015) and only that one', async () => {
      const first = await server.login();
      const second = await server.login();
      const logout = await server.call('GET', '/login/logout', { token: first });
      expect(logout.body).toEqual({ resCode: '00000', resMsg: 'Success', resData: null });
      expect((await current(first)).body.resCode).toBe('11015');
      expect((await current(second)).body.resCode).toBe('00000');
    });

    it('supersedes the oldest sessions past MAX_SESSIONS_PER_USER (11016)', async () => {
      await server.createUser({ name: 'many', password: 'Good#123' });
      const tokens: string[] = [];
      for (let index = 0; index < 4; index++) tokens.push(await server.login('many', 'Good#123'));
      // maxSessionsPerUser is 3 in this file: the first one is superseded, the others live.
      expect((await current(tokens[0])).body.resCode).toBe('11016');
      for (const token of tokens.slice(1)) expect((await current(token)).body.resCode).toBe('00000');
    });

    it('refuses a token sent under another header name', async () => {
      const token = await server.login();
      expect((await current(undefined, { authorization: `Bearer ${token}` })).body.resCode).toBe('11011');
    });
  },
  { config: { maxSessionsPerUser: 3 } },
);
