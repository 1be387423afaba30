// server/auth against the database, called directly (one server per backend for the schema): the
// sign-in slots and their three limits, the forgot-password rate limit, token issue and revocation,
// the caller's license account and permissions, the hash upgrade, and the route guard's 4007/4003.
import { and, eq } from 'drizzle-orm';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { claimLoginSlot, recordFailure, recordSuccess, releaseSlot, sweepLoginAttempts, type LoginClaim } from '../../server/auth/loginAttempts';
import { setPassword } from '../../server/auth/passwordChange';
import { passwordChecksOf } from '../../server/auth/passwordQueue';
import { createPasswordHasher } from '../../server/auth/passwords';
import { currentLicenseAccount, loadCaller, loadPrincipal, permissionsOf, roleIdsOf } from '../../server/auth/principal';
import { hitRateLimit, sweepRateLimitHits } from '../../server/auth/rateLimit';
import { upgradePasswordHash } from '../../server/auth/rehash';
import { authenticate, issueToken, revokeToken, revokeUserTokens, sha256 } from '../../server/auth/tokens';
import { DEFAULT_CONFIG } from '../../server/config';
import { licenseAccount, licenseAccountUserRelation, loginAttempt, passwordReset, rateLimitHit, sysToken, sysUser } from '../../server/db/schema';
import { codeOf } from './appErrors';
import { describeBackends, minutesAgo } from './helpers';

const LIMITS = { loginMaxFailures: 3, loginAccountMaxFailures: 5, loginAddressMaxFailures: 7, loginLockMinutes: 15 };

describeBackends('server/auth against the database', (server) => {
  const claim = (username: string, address: string) => claimLoginSlot(server.db, LIMITS, username, address);
  const claimed = async (username: string, address: string) => {
    const answer = await claim(username, address);
    if (answer.kind !== 'claimed') throw new Error(`expected a slot, got ${JSON.stringify(answer)}`);
    return answer;
  };
  const fail = async (username: string, address: string) => recordFailure(server.db, await claimed(username, address));
  const rowsOf = (username: string) => server.db.select().from(loginAttempt).where(eq(loginAttempt.username, username));
  /** Seconds, give or take the test's own running time. */
  const near = (value: number, expected: number) => expect(Math.abs(value - expected), `${value} vs ${expected}`).toBeLessThanOrEqual(3);

  it('keys a claim by the trimmed lower-cased name and the first 64 characters of the address; counts down the attempts left', async () => {
    const longAddress = `${'a'.repeat(64)}tail`;
    const first = await claimed('  KeyCase ', longAddress);
    expect([first.username, first.address, first.attemptsLeft, first.retryAfterIfLocked]).toEqual(['keycase', 'a'.repeat(64), 2, 0]);
    expect(await rowsOf('keycase')).toMatchObject([{ address: 'a'.repeat(64), pending: true }]);
    await recordFailure(server.db, first);
    expect(await rowsOf('keycase')).toMatchObject([{ pending: false }]);
    const second = await claimed('keycase', `${'a'.repeat(64)}other`);
    expect(second.attemptsLeft).toBe(1);
    await releaseSlot(server.db, second);
    expect(await rowsOf('keycase')).toHaveLength(1);
  });

  it('locks the pair at LOGIN_MAX_FAILURES (code 7 until the oldest failure leaves the window); other addresses still get a slot', async () => {
    await fail('pair1', '10.0.0.1');
    await server.db
      .update(loginAttempt)
      .set({ attemptedAt: minutesAgo(5) })
      .where(eq(loginAttempt.username, 'pair1'));
    await fail('pair1', '10.0.0.1');
    const last = await claimed('pair1', '10.0.0.1');
    // This check is the last one: if it fails, the lock lasts until the 5-minute-old failure is 15 minutes old.
    expect(last.attemptsLeft).toBe(0);
    near(last.retryAfterIfLocked, 10 * 60);
    await recordFailure(server.db, last);
    const locked = await claim('pair1', '10.0.0.1');
    expect(locked.kind).toBe('locked');
    near((locked as { retryAfter: number }).retryAfter, 10 * 60);
    expect((await claimed('pair1', '10.0.0.2')).attemptsLeft).toBe(1);
  });

  it('locks the account at LOGIN_ACCOUNT_MAX_FAILURES across addresses, for every address', async () => {
    for (let index = 0; index < 4; index++) await fail('acct1', `10.1.0.${index}`);
    const fifth = await claimed('acct1', '10.1.0.9');
    // The account has one failure left: that limit decides the attempts left, and the lock if it fails.
    expect(fifth.attemptsLeft).toBe(0);
    near(fifth.retryAfterIfLocked, 15 * 60);
    await recordFailure(server.db, fifth);
    expect((await claim('acct1', '10.1.0.200')).kind).toBe('locked');
  });

  it('throttles an address at LOGIN_ADDRESS_MAX_FAILURES across names (4029), before the pair or account lock', async () => {
    for (let index = 0; index < 7; index++) await fail(`spray${index}`, '10.2.0.1');
    await server.db
      .update(loginAttempt)
      .set({ attemptedAt: minutesAgo(3) })
      .where(eq(loginAttempt.address, '10.2.0.1'));
    const throttled = await claim('spray0', '10.2.0.1');
    expect(throttled.kind).toBe('throttled');
    near((throttled as { retryAfter: number }).retryAfter, 12 * 60);
    expect((await claim('newname', '10.2.0.1')).kind).toBe('throttled');
    expect((await claim('spray0', '10.2.0.2')).kind).toBe('claimed');
  });

  it("forgets failures older than the window, only its own: another name's old rows wait for the sweep", async () => {
    await fail('old1', '10.3.0.1');
    await fail('old1', '10.3.0.1');
    await fail('old1', '10.3.0.1');
    await fail('bystander', '10.3.0.9');
    await server.db
      .update(loginAttempt)
      .set({ attemptedAt: minutesAgo(16) })
      .where(eq(loginAttempt.address, '10.3.0.1'));
    await server.db
      .update(loginAttempt)
      .set({ attemptedAt: minutesAgo(16) })
      .where(eq(loginAttempt.username, 'bystander'));
    // 15 minutes less a few seconds is still inside the window.
    await fail('edge1', '10.3.0.5');
    await server.db
      .update(loginAttempt)
      .set({ attemptedAt: minutesAgo(14.9) })
      .where(eq(loginAttempt.username, 'edge1'));
    expect((await claimed('old1', '10.3.0.1')).attemptsLeft).toBe(2);
    expect(await rowsOf('old1')).toHaveLength(1);
    expect(await rowsOf('bystander')).toHaveLength(1);
    expect((await claimed('edge1', '10.3.0.5')).attemptsLeft).toBe(1);

    await sweepLoginAttempts(server.db, LIMITS);
    expect(await rowsOf('bystander')).toHaveLength(0);
    expect(await rowsOf('edge1')).toHaveLength(2);
    // The sweep's clock is a parameter: an hour later the window has passed for all of them.
    await sweepLoginAttempts(server.db, LIMITS, new Date(Date.now() + 60 * 60_000));
    expect(await rowsOf('edge1')).toHaveLength(0);
  });

  it("a success gives its slot back and forgets the pair's failures, not other addresses' nor checks still running", async () => {
    await fail('owner1', '10.4.0.1');
    await fail('owner1', '10.4.0.66');
    const running = await claimed('owner1', '10.4.0.1');
    const mine = await claimed('owner1', '10.4.0.1');
    await recordSuccess(server.db, mine);
    const left = (await rowsOf('owner1')).map((row) => [row.address, row.pending]).sort();
    expect(left).toEqual([
      ['10.4.0.1', true],
      ['10.4.0.66', false],
    ]);
    await releaseSlot(server.db, running);
  });

  it('counts running checks as taken slots (busy, waiting for them), a stale one as a failure', async () => {
    const held: LoginClaim[] = [];
    for (let index = 0; index < 3; index++) held.push(await claimed('busy1', '10.5.0.1'));
    // All three slots of the pair are held by running checks: the next sign-in waits, and gets the slot
    // one of them gives back.
    const started = Date.now();
    const waiting = claim('busy1', '10.5.0.1');
    await new Promise((resolve) => setTimeout(resolve, 300));
    await releaseSlot(server.db, held[0] as Extract<LoginClaim, { kind: 'claimed' }>);
    const answer = await waiting;
    expect(answer.kind).toBe('claimed');
    expect(Date.now() - started).toBeLessThan(5_000);
    // A failure also wakes a waiter, which then finds the pair locked.
    for (const claimOf of [held[1], held[2], answer])
      await server.db
        .update(loginAttempt)
        .set({ pending: false })
        .where(eq(loginAttempt.id, (claimOf as { id: number }).id));
    expect((await claim('busy1', '10.5.0.1')).kind).toBe('locked');

    // A reservation older than two minutes was abandoned: it counts as a failure at once.
    await claimed('stale1', '10.5.0.2');
    await claimed('stale1', '10.5.0.2');
    await claimed('stale1', '10.5.0.2');
    await server.db
      .update(loginAttempt)
      .set({ attemptedAt: minutesAgo(2.1) })
      .where(eq(loginAttempt.username, 'stale1'));
    expect((await claim('stale1', '10.5.0.2')).kind).toBe('locked');
  });

  it("counts for an address only its own rows, not the name's failures from elsewhere", async () => {
    // The name: 4 failures from other addresses (the account's limit is 5); the address: 3 of other names (limit 7).
    for (let index = 0; index < 4; index++) await fail('mixed1', `10.8.0.${index}`);
    for (let index = 0; index < 3; index++) await fail(`other${index}`, '10.8.1.1');
    const answer = await claimed('mixed1', '10.8.1.1');
    expect(answer.attemptsLeft).toBe(0);
  });

  it('locked by both limits: answers the later end, counted from failures only (not a running check)', async () => {
    // The account: two old failures from elsewhere (10 min ago); the pair: three recent ones (1 min ago)
    // and a check still running since 1.9 min.
    await fail('both1', '10.10.0.9');
    await fail('both1', '10.10.0.9');
    await server.db
      .update(loginAttempt)
      .set({ attemptedAt: minutesAgo(10) })
      .where(eq(loginAttempt.username, 'both1'));
    for (let index = 0; index < 2; index++) await fail('both1', '10.10.0.1');
    const pairOnly = and(eq(loginAttempt.username, 'both1'), eq(loginAttempt.address, '10.10.0.1'));
    await server.db
      .update(loginAttempt)
      .set({ attemptedAt: minutesAgo(1) })
      .where(pairOnly);
    // The last check before both limits: if it fails, the lock lasts as long as the later of the two.
    const last = await claimed('both1', '10.10.0.1');
    expect(last.attemptsLeft).toBe(0);
    near(last.retryAfterIfLocked, 14 * 60);
    await recordFailure(server.db, last);
    const [row] = await server.db
      .insert(loginAttempt)
      .values({ username: 'both1', address: '10.10.0.1', pending: true, attemptedAt: minutesAgo(1.9) })
      .returning();
    await server.db
      .update(loginAttempt)
      .set({ attemptedAt: minutesAgo(1) })
      .where(and(pairOnly, eq(loginAttempt.pending, false)));
    const locked = await claim('both1', '10.10.0.1');
    expect(locked.kind).toBe('locked');
    // The pair's lock ends 14 min from now, the account's 5: the later one counts.
    near((locked as { retryAfter: number }).retryAfter, 14 * 60);
    await server.db.delete(loginAttempt).where(eq(loginAttempt.id, row.id));
  });

  describe('waiting for a slot (poll timers and the clock faked; the database runs for real)', () => {
    const realSetTimeout = setTimeout;
    /** Lets the real database work (a PGlite worker or a PostgreSQL connection) run until `done` holds. */
    const until = async (done: () => boolean, limitMs = 15_000) => {
      for (let waited = 0; waited < limitMs && !done(); waited += 5) await new Promise((resolve) => realSetTimeout(resolve, 5));
      expect(done()).toBe(true);
    };
    afterEach(() => {
      vi.restoreAllMocks();
      vi.useRealTimers();
    });
    /** The waits of sign-ins for a slot (their timer calls `wake`); call after faking the timers. */
    const pollWaits = () => {
      const timers = vi.spyOn(globalThis, 'setTimeout');
      return () => timers.mock.calls.filter(([callback]) => callback.name === 'wake').map(([, ms]) => ms);
    };
    const holdAll = async (username: (index: number) => string, address: string, count: number) => {
      const held: Array<Extract<LoginClaim, { kind: 'claimed' }>> = [];
      for (let index = 0; index < count; index++) held.push(await claimed(username(index), address));
      return held;
    };
    /** A claim followed to its answer. */
    const follow = (username: string, address: string) => {
      const state: { answer?: LoginClaim } = {};
      void claim(username, address).then((answer) => (state.answer = answer));
      return state;
    };
    // The tests below fake Date with the timers: a sign-in's 10 s slot-wait deadline then runs on the fake clock, so a
    // slow machine cannot end a wait the test expects to go on (a bystander answering "busy" before its check).
    /**
     * Until every one of `waiting` has answered after failures that lock what they wait for: each failure wakes
     * them, but one that looked again between two failures waits for its next poll, so the faked timers move on.
     */
    const answered = async (waiting: Array<{ answer?: LoginClaim }>) => {
      const settled = () => waiting.every((state) => state.answer !== undefined);
      for (let round = 0; round < 400 && !settled(); round++) {
        await new Promise((resolve) => realSetTimeout(resolve, 50));
        await vi.advanceTimersByTimeAsync(1000);
      }
      expect(settled()).toBe(true);
    };

    it('polls again after 200 ms, doubling up to 1 s, and answers busy once 10 s have passed', async () => {
      await holdAll(() => 'poll1', '10.6.0.1', 3);
      vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'], now: Date.now() });
      const waits = pollWaits();
      const waiting = follow('poll1', '10.6.0.1');
      for (const [index, ms] of [200, 400, 800, 1000, 1000].entries()) {
        await until(() => waits().length === index + 1);
        expect(waits()[index]).toBe(ms);
        await vi.advanceTimersByTimeAsync(ms);
      }
      await until(() => waits().length === 6);
      expect(waiting.answer).toBeUndefined();
      // 4.4 s have passed; 5 s more, and after this 1 s wait only 0.6 s are left: the last wait is cut to that.
      vi.setSystemTime(Date.now() + 5_000);
      await vi.advanceTimersByTimeAsync(1000);
      await until(() => waits().length === 7);
      expect(waits()[6]).toBe(600);
      await vi.advanceTimersByTimeAsync(600);
      await until(() => waiting.answer !== undefined);
      expect(waiting.answer).toEqual({ kind: 'busy', retryAfter: 1 });
      expect(waits()).toHaveLength(7);
    });

    it('takes a reservation for abandoned only when it is more than two minutes old', async () => {
      vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'], now: Date.now() });
      const held = await holdAll(() => 'stale2', '10.9.0.1', 3);
      const exactlyTwoMinutes = new Date(Date.now() - 2 * 60_000);
      for (const row of held) await server.db.update(loginAttempt).set({ attemptedAt: exactlyTwoMinutes }).where(eq(loginAttempt.id, row.id));
      const waits = pollWaits();
      const waiting = follow('stale2', '10.9.0.1');
      // Still running checks (busy: it waits for them), not failures (which would lock the pair).
      await until(() => waits().length === 1 || waiting.answer !== undefined);
      expect(waiting.answer).toBeUndefined();
      vi.setSystemTime(Date.now() + 1);
      await vi.advanceTimersByTimeAsync(200);
      await until(() => waiting.answer !== undefined);
      expect(waiting.answer?.kind).toBe('locked');
    });

    it('a slot given back wakes the longest waiting sign-in of that name or address at once; a failure wakes them all', async () => {
      // The address's seven slots are held by checks of seven other names.
      const held = await holdAll((index) => `wake${index}`, '10.7.0.1', 7);
      const tries = vi.spyOn(server.db, 'transaction');
      vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'], now: Date.now() });
      const waits = pollWaits();
      const first = follow('wakex', '10.7.0.1');
      await until(() => waits().length === 1);
      const second = follow('wakey', '10.7.0.1');
      await until(() => waits().length === 2);
      // Another name from another address: not woken by these checks.
      const bystanderHeld = await holdAll(() => 'wakez', '10.7.0.2', 3);
      const bystander = follow('wakez', '10.7.0.2');
      await until(() => waits().length === 3);
      const triesBefore = tries.mock.calls.length;

      await releaseSlot(server.db, held[0]);
      await until(() => first.answer !== undefined);
      expect(first.answer).toMatchObject({ kind: 'claimed', username: 'wakex' });
      expect([second.answer, bystander.answer, tries.mock.calls.length - triesBefore]).toEqual([undefined, undefined, 1]);

      // Failures lock the address: every waiter of it looks again and answers throttled.
      for (const claimOf of [...held.slice(1), first.answer as Extract<LoginClaim, { kind: 'claimed' }>]) await recordFailure(server.db, claimOf);
      await answered([second]);
      expect(second.answer?.kind).toBe('throttled');
      expect(bystander.answer).toBeUndefined();
      for (const claimOf of bystanderHeld) await recordFailure(server.db, claimOf);
      await answered([bystander]);
      expect(bystander.answer?.kind).toBe('locked');
    });

    it('a slot given back wakes a waiter of that name from another address, passing over a longer waiter of neither', async () => {
      // The name's five slots (its account limit) held from five addresses; another pair's three held too.
      const held: Array<Extract<LoginClaim, { kind: 'claimed' }>> = [];
      for (let index = 0; index < 5; index++) held.push(await claimed('acctw', `10.11.0.${index}`));
      const otherHeld = await holdAll(() => 'otherw', '10.11.1.1', 3);
      vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'], now: Date.now() });
      const waits = pollWaits();
      const unrelated = follow('otherw', '10.11.1.1');
      await until(() => waits().length === 1);
      const sameName = follow('acctw', '10.11.0.9');
      await until(() => waits().length === 2);
      await releaseSlot(server.db, held[0]);
      await until(() => sameName.answer !== undefined);
      expect(sameName.answer).toMatchObject({ kind: 'claimed', username: 'acctw', address: '10.11.0.9' });
      expect(unrelated.answer).toBeUndefined();
      for (const claimOf of otherHeld) await recordFailure(server.db, claimOf);
      await answered([unrelated]);
      expect(unrelated.answer?.kind).toBe('locked');
    });

    it('wakes a waiter that has already polled once (and waits again) when a slot is given back', async () => {
      const held = await holdAll(() => 'repoll', '10.12.0.1', 3);
      vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'], now: Date.now() });
      const waits = pollWaits();
      const waiting = follow('repoll', '10.12.0.1');
      await until(() => waits().length === 1);
      await vi.advanceTimersByTimeAsync(200);
      await until(() => waits().length === 2);
      await releaseSlot(server.db, held[0]);
      await until(() => waiting.answer !== undefined);
      expect(waiting.answer?.kind).toBe('claimed');
    });

    it('a failure wakes every waiter of the pair; a success wakes only the longest waiting', async () => {
      await fail('wakeall', '10.13.0.1');
      await fail('wakeall', '10.13.0.1');
      const [running] = await holdAll(() => 'wakeall', '10.13.0.1', 1);
      vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'], now: Date.now() });
      const waits = pollWaits();
      const first = follow('wakeall', '10.13.0.1');
      await until(() => waits().length === 1);
      const second = follow('wakeall', '10.13.0.1');
      await until(() => waits().length === 2);
      // The third failure locks the pair: both look again at once.
      await recordFailure(server.db, running);
      await until(() => first.answer !== undefined && second.answer !== undefined);
      expect([first.answer?.kind, second.answer?.kind]).toEqual(['locked', 'locked']);

      const held = await holdAll(() => 'wakeone', '10.13.0.2', 3);
      const tries = vi.spyOn(server.db, 'transaction');
      const one = follow('wakeone', '10.13.0.2');
      await until(() => waits().length === 3);
      const two = follow('wakeone', '10.13.0.2');
      await until(() => waits().length === 4);
      const triesBefore = tries.mock.calls.length;
      await recordSuccess(server.db, held[0]);
      await until(() => one.answer !== undefined);
      expect([one.answer?.kind, two.answer, tries.mock.calls.length - triesBefore]).toEqual(['claimed', undefined, 1]);
      for (const claimOf of [...held.slice(1), one.answer as Extract<LoginClaim, { kind: 'claimed' }>]) await recordFailure(server.db, claimOf);
      await answered([two]);
      expect(two.answer?.kind).toBe('locked');
    });

    it('lets at most 200 sign-ins of this process wait: the next one answers busy at once', async () => {
      const held = await holdAll(() => 'crowd', '10.14.0.1', 3);
      vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'], now: Date.now() });
      const waits = pollWaits();
      const crowd = Array.from({ length: 200 }, () => follow('crowd', '10.14.0.1'));
      // 200 claims in turn (each under the name's advisory lock): slow on a loaded machine
      await until(() => waits().length === 200, 45_000);
      const extra = follow('crowd', '10.14.0.1');
      await until(() => extra.answer !== undefined || waits().length > 200);
      expect([extra.answer, waits().length]).toEqual([{ kind: 'busy', retryAfter: 1 }, 200]);
      // failures lock the pair: every one answers (none may stay in the waiting set)
      for (const claimOf of held) await recordFailure(server.db, claimOf);
      await answered(crowd);
      expect(new Set(crowd.map((waiting) => waiting.answer?.kind))).toEqual(new Set(['locked']));
    });
  });

  it('rate-limits per scope and subject (the first 128 characters) inside a sliding window', async () => {
    const subject = `${'s'.repeat(128)}`;
    expect(await hitRateLimit(server.db, 'forgotAddress', `${subject}-a`, 2, 60)).toEqual({ allowed: true });
    expect(await hitRateLimit(server.db, 'forgotAddress', `${subject}-b`, 2, 60)).toEqual({ allowed: true });
    // Same first 128 characters: the third hit is refused, for about the whole window.
    const refused = await hitRateLimit(server.db, 'forgotAddress', subject, 2, 60);
    expect(refused.allowed).toBe(false);
    near((refused as { retryAfter: number }).retryAfter, 60 * 60);
    // Another scope counts apart.
    expect(await hitRateLimit(server.db, 'resetMailUser', subject, 2, 60)).toEqual({ allowed: true });
    // The oldest hit 50 minutes ago: back in 10 minutes; past the window, it no longer counts.
    const hits = and(eq(rateLimitHit.scope, 'forgotAddress'), eq(rateLimitHit.subject, subject));
    const [oldest] = await server.db.select().from(rateLimitHit).where(hits).orderBy(rateLimitHit.id).limit(1);
    await server.db
      .update(rateLimitHit)
      .set({ hitAt: minutesAgo(50) })
      .where(eq(rateLimitHit.id, oldest.id));
    near(((await hitRateLimit(server.db, 'forgotAddress', subject, 2, 60)) as { retryAfter: number }).retryAfter, 10 * 60);
    await server.db
      .update(rateLimitHit)
      .set({ hitAt: minutesAgo(61) })
      .where(eq(rateLimitHit.id, oldest.id));
    expect(await hitRateLimit(server.db, 'forgotAddress', subject, 2, 60)).toEqual({ allowed: true });
    expect(await server.db.select().from(rateLimitHit).where(hits)).toHaveLength(2);

    await server.db
      .update(rateLimitHit)
      .set({ hitAt: minutesAgo(30) })
      .where(eq(rateLimitHit.scope, 'resetMailUser'));
    await sweepRateLimitHits(server.db, 60);
    expect(await server.db.select().from(rateLimitHit).where(eq(rateLimitHit.scope, 'resetMailUser'))).toHaveLength(1);
    await sweepRateLimitHits(server.db, 20);
    expect(await server.db.select().from(rateLimitHit).where(eq(rateLimitHit.scope, 'resetMailUser'))).toHaveLength(0);
  });

  it('issues tokens: the sign-in offset kept, only live sessions counted against the cap, long-dead rows of the user cleared', async () => {
    const config = { ...DEFAULT_CONFIG, maxSessionsPerUser: 2 };
    const userId = await server.createUser({ name: 'tok1' });
    const otherId = await server.createUser({ name: 'tok2' });
    const first = await issueToken(server.db, config, userId, -300);
    expect(await authenticate(server.db, config, first)).toMatchObject({ userId, utcOffsetMinutes: -300 });
    const byValue = (value: string) => eq(sysToken.tokenHash, sha256(value));
    await server.db
      .update(sysToken)
      .set({ createdAt: minutesAgo(30), lastSeenAt: minutesAgo(2) })
      .where(byValue(first));
    // Three dead sessions (revoked, past the lifetime, idle) do not count against the cap of two.
    const deaths = [{ revokedAt: new Date(), revokeReason: 'logout' }, { createdAt: minutesAgo(12 * 60 + 1) }, { lastSeenAt: minutesAgo(121) }];
    const dead: string[] = [];
    for (const death of deaths) {
      dead.push(await issueToken(server.db, config, userId));
      await server.db
        .update(sysToken)
        .set(death)
        .where(byValue(dead[dead.length - 1]));
    }
    expect(await codeOf(() => authenticate(server.db, config, first))).toBe('none');
    await server.db
      .update(sysToken)
      .set({ lastSeenAt: minutesAgo(2) })
      .where(byValue(first));
    const second = await issueToken(server.db, config, userId);
    expect(await codeOf(() => authenticate(server.db, config, first))).toBe('none');
    expect(await codeOf(() => authenticate(server.db, config, second))).toBe('none');
    // The touch (more than a minute since the last one) was written.
    const [touched] = await server.db.select().from(sysToken).where(byValue(first));
    expect(Date.now() - touched.lastSeenAt.getTime()).toBeLessThan(10_000);
    // The third live one supersedes the oldest live one (first), not the newest.
    const third = await issueToken(server.db, config, userId);
    expect(await codeOf(() => authenticate(server.db, config, first))).toBe('11016');
    expect(await codeOf(() => authenticate(server.db, config, second))).toBe('none');
    expect(await codeOf(() => authenticate(server.db, config, third))).toBe('none');
    expect(await codeOf(() => authenticate(server.db, config, 'x'.repeat(43)))).toBe('11012');

    // Rows a day past the lifetime go at the user's next sign-in; another user's stay.
    const ancient = minutesAgo(12 * 60 + 24 * 60 + 1);
    const recent = minutesAgo(12 * 60 + 24 * 60 - 5);
    await server.db.update(sysToken).set({ createdAt: ancient }).where(byValue(dead[1]));
    await server.db.update(sysToken).set({ createdAt: recent }).where(byValue(dead[2]));
    const foreign = await issueToken(server.db, config, otherId);
    await server.db.update(sysToken).set({ createdAt: ancient }).where(byValue(foreign));
    await issueToken(server.db, config, userId);
    const remaining = async (value: string) => (await server.db.select().from(sysToken).where(byValue(value))).length;
    expect([await remaining(dead[1]), await remaining(dead[2]), await remaining(foreign)]).toEqual([0, 1, 1]);
  });

  it("revokes once, keeping the first reason; revoking a user's tokens spares other users", async () => {
    const userId = await server.createUser({ name: 'rev1' });
    const otherId = await server.createUser({ name: 'rev2' });
    const [a, b, c] = [
      await issueToken(server.db, DEFAULT_CONFIG, userId),
      await issueToken(server.db, DEFAULT_CONFIG, userId),
      await issueToken(server.db, DEFAULT_CONFIG, otherId),
    ];
    const rowOf = async (value: string) =>
      (
        await server.db
          .select()
          .from(sysToken)
          .where(eq(sysToken.tokenHash, sha256(value)))
      )[0];
    await revokeToken(server.db, (await rowOf(a)).id, 'superseded');
    await revokeToken(server.db, (await rowOf(a)).id, 'logout');
    expect((await rowOf(a)).revokeReason).toBe('superseded');
    expect((await rowOf(b)).revokedAt).toBeNull();
    await revokeUserTokens(server.db, userId, 'passwordChange');
    expect([(await rowOf(a)).revokeReason, (await rowOf(b)).revokeReason, (await rowOf(c)).revokedAt]).toEqual(['superseded', 'passwordChange', null]);
  });

  it('reads the caller: current account (default, else the oldest link), permissions of that account only, forced-logout codes', async () => {
    const admin = await server.login();
    const accounts = await server.db
      .insert(licenseAccount)
      .values([{ licenseAccountName: 'P-one' }, { licenseAccountName: 'P-two' }])
      .returning({ id: licenseAccount.id });
    const [one, two] = accounts.map((row) => row.id);
    const role = (await server.call('POST', '/role', { token: admin, body: { name: 'p-reader', permissions: [210201, 210101] } })).body.resData.id;
    const userId = await server.createUser({ name: 'pcaller', roles: [role] }, admin);
    const home = await currentLicenseAccount(server.db, userId);
    expect(home).toMatchObject({ name: 'Default' });
    expect(await roleIdsOf(server.db, userId, home.id)).toEqual([role]);
    expect(await permissionsOf(server.db, userId, home.id)).toEqual([
      { id: 210101, identifier: 'account:page' },
      { id: 210201, identifier: 'user:page' },
    ]);
    // No roles in another account, none without one.
    expect([await roleIdsOf(server.db, userId, two), await permissionsOf(server.db, userId, two)]).toEqual([[], []]);
    expect([await roleIdsOf(server.db, userId, null), await permissionsOf(server.db, userId, null)]).toEqual([[], []]);

    // Linked to two more accounts, the default unlinked: the oldest link (lowest id) is current.
    await server.db.delete(licenseAccountUserRelation).where(eq(licenseAccountUserRelation.userId, userId));
    await server.db.insert(licenseAccountUserRelation).values([
      { userId, licenseAccountId: two },
      { userId, licenseAccountId: one },
    ]);
    expect(await currentLicenseAccount(server.db, userId)).toEqual({ id: one, name: 'P-one', currency: 'HKD' });
    await server.db
      .update(licenseAccountUserRelation)
      .set({ isDefault: true })
      .where(and(eq(licenseAccountUserRelation.userId, userId), eq(licenseAccountUserRelation.licenseAccountId, two)));
    expect(await currentLicenseAccount(server.db, userId)).toEqual({ id: two, name: 'P-two', currency: 'HKD' });

    const token = await issueToken(server.db, DEFAULT_CONFIG, userId, 60);
    const caller = await loadCaller(server.db, DEFAULT_CONFIG, token);
    expect(caller.principal).toMatchObject({ userId, userName: 'pcaller', licenseAccountId: two, licenseAccountName: 'P-two', superAdmin: false, utcOffsetMinutes: 60 });
    expect(caller.permissions).toEqual([]);
    const row = await authenticate(server.db, DEFAULT_CONFIG, token);
    expect(await loadPrincipal(server.db, row)).toEqual(caller.principal);

    // Without any account: no permissions at all; a superAdmin's are never read.
    await server.db.delete(licenseAccountUserRelation).where(eq(licenseAccountUserRelation.userId, userId));
    expect(await currentLicenseAccount(server.db, userId)).toBeNull();
    expect(await loadCaller(server.db, DEFAULT_CONFIG, token)).toMatchObject({ principal: { licenseAccountId: null, licenseAccountName: null }, permissions: [] });
    expect(await loadPrincipal(server.db, row)).toMatchObject({ userId, licenseAccountId: null, licenseAccountName: null });
    const adminCaller = await loadCaller(server.db, DEFAULT_CONFIG, admin);
    expect([adminCaller.principal.superAdmin, adminCaller.permissions]).toEqual([true, undefined]);

    // Disabled or deleted user: 11015 from both readers.
    await server.db.update(sysUser).set({ enabled: false }).where(eq(sysUser.id, userId));
    expect(await codeOf(() => loadCaller(server.db, DEFAULT_CONFIG, token))).toBe('11015');
    expect(await codeOf(() => loadPrincipal(server.db, row))).toBe('11015');
    expect(await codeOf(() => loadPrincipal(server.db, { ...row, userId: 987_654 }))).toBe('11015');
    expect(await codeOf(() => loadCaller(server.db, DEFAULT_CONFIG, undefined))).toBe('11011');
    expect(await codeOf(() => loadCaller(server.db, DEFAULT_CONFIG, 'y'.repeat(43)))).toBe('11012');
  });

  it('sets a password: new hash, must-change as asked, expiry clock restarted, every session revoked, open reset links void', async () => {
    const id = await server.createUser({ name: 'setpw1' });
    const otherId = await server.createUser({ name: 'setpw2' });
    const sessions = [await issueToken(server.db, DEFAULT_CONFIG, id), await issueToken(server.db, DEFAULT_CONFIG, id)];
    const foreign = await issueToken(server.db, DEFAULT_CONFIG, otherId);
    const link = (userId: number, hash: string) => ({ userId, tokenHash: hash, expiresAt: minutesAgo(-30) });
    await server.db.insert(passwordReset).values([link(id, sha256('r1')), link(id, sha256('r2')), link(otherId, sha256('r3'))]);
    await server.db
      .update(sysUser)
      .set({ passwordChangedAt: minutesAgo(60 * 24) })
      .where(eq(sysUser.id, id));
    for (const [mustChange, reason] of [
      [true, 'passwordReset'],
      [false, 'passwordChange'],
    ] as const) {
      const before = Date.now();
      await setPassword(server.db, id, `hash-${reason}`, { mustChange, reason });
      const [user] = await server.db.select().from(sysUser).where(eq(sysUser.id, id));
      expect([user.password, user.mustChangePassword]).toEqual([`hash-${reason}`, mustChange]);
      expect(user.passwordChangedAt.getTime()).toBeGreaterThanOrEqual(before - 1000);
    }
    const reasons = await Promise.all(
      sessions.map(
        async (value) =>
          (
            await server.db
              .select()
              .from(sysToken)
              .where(eq(sysToken.tokenHash, sha256(value)))
          )[0].revokeReason,
      ),
    );
    // Revoked by the first change; the second one keeps that reason.
    expect(reasons).toEqual(['passwordReset', 'passwordReset']);
    expect(await codeOf(() => authenticate(server.db, DEFAULT_CONFIG, foreign))).toBe('none');
    const links = await server.db.select().from(passwordReset).orderBy(passwordReset.id);
    expect(links.filter((row) => row.userId === id).map((row) => row.usedAt !== null)).toEqual([true, true]);
    expect(links.filter((row) => row.userId === otherId).map((row) => row.usedAt)).toEqual([null]);
    const [untouched] = await server.db.select().from(sysUser).where(eq(sysUser.id, otherId));
    expect(untouched.password).not.toMatch(/^hash-/);
  });

  it('upgrades a hash only while the stored one is still the one checked', async () => {
    const id = await server.createUser({ name: 'rehash1', password: 'Older#Pass1' });
    const checks = passwordChecksOf(server.app.services);
    const oldHash = await createPasswordHasher(11).hash('Older#Pass1');
    await server.db.update(sysUser).set({ password: oldHash }).where(eq(sysUser.id, id));
    expect(await upgradePasswordHash(server.db, checks, { id: id + 1, password: oldHash }, 'Older#Pass1')).toBe(false);
    expect(await upgradePasswordHash(server.db, checks, { id, password: oldHash }, 'Older#Pass1')).toBe(true);
    const [stored] = await server.db.select().from(sysUser).where(eq(sysUser.id, id));
    expect(stored.password).not.toBe(oldHash);
    expect(checks.needsRehash(stored.password)).toBe(false);
    expect(await server.app.services.hasher.verify('Older#Pass1', stored.password)).toBe(true);
  });

  it("the guard: 4007 with the reason everywhere but the forced dialog's routes, 4003 without the permission, the token header trimmed", async () => {
    const admin = await server.login();
    const id = await server.createUser({ name: 'guard1' }, admin);
    // A fresh token after each change below: the answer cannot come from a caller read before it.
    const signIn = async () => (await server.call('POST', '/login/login', { body: { username: 'guard1', password: 'Passw0rd!' } })).body.resData.tokenInfo.tokenValue as string;
    const first = await signIn();
    const refused = await server.call('POST', '/user/page', { token: first, body: {} });
    expect([refused.status, refused.body.resCode, refused.body.resData]).toEqual([403, '4007', { reason: 'firstLogin' }]);
    expect((await server.call('GET', '/login/current', { token: first })).body.resCode).toBe('00000');
    await server.db
      .update(sysUser)
      .set({ mustChangePassword: false, passwordChangedAt: minutesAgo(91 * 24 * 60) })
      .where(eq(sysUser.id, id));
    expect((await server.call('POST', '/user/page', { token: await signIn(), body: {} })).body.resData).toEqual({ reason: 'passwordExpired' });
    await server.db.update(sysUser).set({ passwordChangedAt: new Date() }).where(eq(sysUser.id, id));
    const token = await signIn();
    const noRight = await server.call('POST', '/user/page', { token, body: {} });
    expect([noRight.status, noRight.body.resCode]).toEqual([403, '4003']);
    expect((await server.call('GET', '/login/current', { headers: { 'rvm-token': `  ${token} ` } })).body.resCode).toBe('00000');
    const missing = await server.call('GET', '/login/current');
    expect([missing.status, missing.body.resCode]).toEqual([401, '11011']);
    expect((await server.call('POST', '/user/page', { token: admin, body: {} })).body.resCode).toBe('00000');
  });
});
