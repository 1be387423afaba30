// Sign-in and forgot-password abuse (issue 7): the bounded password-check queue and the per-address
// limit (hole 4), failures counted per (user name, address) pair and per account with concurrent
// right passwords never locking anyone out (hole 5), forgot-password rate limits, an answer that
// does not wait for the account's work and no usable link in mail_outbox (hole 6), and a disabled
// user answering like a wrong password (hole 11).
import type { FastifyInstance } from 'fastify';
import { and, desc, eq, gt } from 'drizzle-orm';
import { describe, expect, it, vi } from 'vitest';
import { answeredWorkSettled } from '../../server/auth/afterAnswer';
import { createPasswordQueue, PasswordQueueFull, passwordChecksOf } from '../../server/auth/passwordQueue';
import { loginAttempt, mailOutbox, rateLimitHit, sysUser } from '../../server/db/schema';
import type { Mail } from '../../server/mail/mailer';
import { describeBackends, minutesAgo, TEST_CONFIG } from './helpers';

/** A promise with its resolve outside: a fake task or a mail held until the test lets it go. */
const deferred = <T = void>() => {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
};

describe('password-check queue (unit, fake tasks)', () => {
  it('runs at most `concurrency` tasks, keeps at most `maxWaiting` in line, refuses the next at once', async () => {
    const queue = createPasswordQueue({ concurrency: 2, maxWaiting: 1 });
    const started: number[] = [];
    const gates = [0, 1, 2, 3].map(() => deferred<string>());
    const task = (index: number) => () => {
      started.push(index);
      return gates[index].promise;
    };
    const results = [0, 1, 2].map((index) => queue.run(task(index)));
    expect(started).toEqual([0, 1]);
    expect([queue.active, queue.waiting, queue.full]).toEqual([2, 1, true]);
    // The line is full: refused without running and without waiting.
    await expect(queue.run(task(3))).rejects.toBeInstanceOf(PasswordQueueFull);
    expect(started).toEqual([0, 1]);

    gates[1].resolve('one');
    expect(await results[1]).toBe('one');
    // The freed slot goes to the one waiting; the line has room again.
    expect(started).toEqual([0, 1, 2]);
    expect([queue.active, queue.waiting, queue.full]).toEqual([2, 0, false]);

    // A failing task frees its slot too.
    gates[0].reject(new Error('boom'));
    await expect(results[0]).rejects.toThrow('boom');
    expect(queue.active).toBe(1);
    gates[2].resolve('two');
    expect(await results[2]).toBe('two');
    expect([queue.active, queue.waiting]).toEqual([0, 0]);
  });

  it('starts waiting tasks in arrival order', async () => {
    const queue = createPasswordQueue({ concurrency: 1, maxWaiting: 3 });
    const order: number[] = [];
    const first = deferred();
    const runs = [queue.run(() => first.promise.then(() => order.push(0)))];
    for (const index of [1, 2, 3]) runs.push(queue.run(async () => order.push(index)));
    first.resolve();
    await Promise.all(runs);
    expect(order).toEqual([0, 1, 2, 3]);
  });
});

describeBackends('sign-in and forgot-password abuse', (server) => {
  const signIn = async (app: FastifyInstance, username: string, password: string, remoteAddress = '127.0.0.1') => {
    const raw = await app.inject({ method: 'POST', url: '/test-api/login/login', payload: { username, password }, remoteAddress });
    return { status: raw.statusCode, retryAfter: raw.headers['retry-after'], body: raw.json() as { resCode: string; resMsg: string; resData: any } };
  };
  const forgot = async (app: FastifyInstance, account: string, remoteAddress = '127.0.0.1') => {
    const raw = await app.inject({ method: 'POST', url: '/test-api/login/forgotPassword', payload: { account }, remoteAddress });
    return { status: raw.statusCode, retryAfter: raw.headers['retry-after'], body: raw.json() as { resCode: string; resMsg: string; resData: any } };
  };
  const instance = (config: Record<string, number>) => server.anotherInstance({ config: { ...TEST_CONFIG, ...config } });

  describe('hole 4: password checks are bounded per instance and per address', () => {
    it('a full password-check queue answers 4029 with Retry-After at once instead of piling up', async () => {
      const app = await instance({ passwordCheckConcurrency: 1, passwordCheckQueue: 1 });
      const gate = deferred();
      let running = 0;
      let mostAtOnce = 0;
      let calls = 0;
      // Unknown names: every check is the dummy verification. Three arrive; with the old code all three run.
      vi.spyOn(app.services.hasher, 'verifyDummy').mockImplementation(async () => {
        calls += 1;
        running += 1;
        mostAtOnce = Math.max(mostAtOnce, running);
        if (calls === 3) gate.resolve();
        await gate.promise;
        running -= 1;
        return false;
      });
      const answers = ['198.18.0.1', '198.18.0.2', '198.18.0.3'].map((address, index) => signIn(app, `q${index}x`, 'Wrong#123', address));
      const first = await Promise.race(answers);
      expect([first.status, first.body.resCode]).toEqual([429, '4029']);
      expect(first.body.resMsg).toBe('Too many requests, please try again later');
      expect(Number(first.retryAfter)).toBeGreaterThan(0);
      expect(passwordChecksOf(app.services).queue.waiting).toBe(1);
      gate.resolve();
      const codes = (await Promise.all(answers)).map((answer) => answer.body.resCode).sort();
      expect(codes).toEqual(['4029', '6', '6']);
      expect(mostAtOnce).toBe(1);
    });

    it('an address with many failed checks is refused (4029, Retry-After) before any check, on every instance', async () => {
      const config = { loginAddressMaxFailures: 6 };
      const [one, two] = [await instance(config), await instance(config)];
      await server.createUser({ name: 'addr1', password: 'Good#123' });
      for (let index = 1; index <= 6; index++) {
        const answer = await signIn(index % 2 ? one : two, `rnd${index}`, 'Wrong#123', '192.0.2.50');
        expect(answer.body.resCode).toBe('6');
      }
      const verifies = [one, two].map((app) => vi.spyOn(app.services.hasher, 'verify'));
      for (const app of [one, two]) {
        // Even the right password of a real user: nothing is checked from this address for now.
        const refused = await signIn(app, 'addr1', 'Good#123', '192.0.2.50');
        expect([refused.status, refused.body.resCode]).toEqual([429, '4029']);
        expect(Number(refused.retryAfter)).toBeGreaterThan(0);
      }
      expect(verifies.map((spy) => spy.mock.calls.length)).toEqual([0, 0]);
      expect((await signIn(one, 'addr1', 'Good#123', '192.0.2.51')).body.resCode).toBe('00000');
    });

    it('periodic sweeps drop failures and rate-limit hits past their window (random names from random addresses do not pile up)', async () => {
      await signIn(server.app, 'swp1', 'Wrong#123', '192.0.2.60');
      await forgot(server.app, 'nobody-swp@example.com', '192.0.2.60');
      await answeredWorkSettled(server.app.services);
      const count = async () => [
        (await server.db.select().from(loginAttempt).where(eq(loginAttempt.address, '192.0.2.60'))).length,
        (await server.db.select().from(rateLimitHit).where(eq(rateLimitHit.subject, '192.0.2.60'))).length,
      ];
      const sweep = () => Promise.all(['loginAttemptSweep', 'rateLimitSweep'].map((job) => server.app.services.jobs.runNow(job)));
      await sweep();
      expect(await count()).toEqual([1, 1]);
      await server.db
        .update(loginAttempt)
        .set({ attemptedAt: minutesAgo(16) })
        .where(eq(loginAttempt.address, '192.0.2.60'));
      await server.db
        .update(rateLimitHit)
        .set({ hitAt: minutesAgo(61) })
        .where(eq(rateLimitHit.subject, '192.0.2.60'));
      await sweep();
      expect(await count()).toEqual([0, 0]);
    });
  });

  describe('background sweeps', () => {
    it('with background jobs on, the sign-in failures and forgot-password hits past their window are swept every 5 minutes', async () => {
      // the jobs' timers are kept (to fire them by hand) but never fire by themselves
      const ticks: Array<[() => void, number]> = [];
      const inert = globalThis.setInterval;
      const timers = vi.spyOn(globalThis, 'setInterval').mockImplementation(((tick: () => void, ms: number) => {
        ticks.push([tick, ms]);
        return inert(() => undefined, 2_147_483_647);
      }) as unknown as typeof setInterval);
      let app: FastifyInstance;
      try {
        app = await server.anotherInstance({ backgroundJobs: true });
      } finally {
        timers.mockRestore();
      }
      const everyFiveMinutes = ticks.filter(([, ms]) => ms === 5 * 60_000).map(([tick]) => tick);
      await signIn(app, 'swp2', 'Wrong#123', '192.0.2.61');
      await forgot(app, 'nobody-swp2@example.com', '192.0.2.61');
      await answeredWorkSettled(app.services);
      await server.db
        .update(loginAttempt)
        .set({ attemptedAt: minutesAgo(16) })
        .where(eq(loginAttempt.address, '192.0.2.61'));
      await server.db
        .update(rateLimitHit)
        .set({ hitAt: minutesAgo(61) })
        .where(eq(rateLimitHit.subject, '192.0.2.61'));
      // what the timers of those 5-minute jobs would do when they fire
      everyFiveMinutes.forEach((tick) => tick());
      await vi.waitFor(
        async () => {
          const attempts = await server.db.select().from(loginAttempt).where(eq(loginAttempt.address, '192.0.2.61'));
          const hits = await server.db.select().from(rateLimitHit).where(eq(rateLimitHit.subject, '192.0.2.61'));
          expect([attempts.length, hits.length]).toEqual([0, 0]);
        },
        { timeout: 10_000 },
      );
    });
  });

  describe('hole 5: only failures count, per (user name, address) pair and per account', () => {
    it('10 concurrent right sign-ins (twice LOGIN_MAX_FAILURES) all succeed and count no failure', async () => {
      await server.createUser({ name: 'conc1', password: 'Good#123' });
      const answers = await Promise.all(Array.from({ length: 10 }, () => signIn(server.app, 'conc1', 'Good#123')));
      expect(answers.map((answer) => answer.body.resCode)).toEqual(Array(10).fill('00000'));
      expect((await signIn(server.app, 'conc1', 'Wrong#123')).body.resMsg).toMatch(/ 4 times$/);
    });

    it("an attacker's failures from one address do not lock the owner out at another", async () => {
      await server.createUser({ name: 'owner1', password: 'Good#123' });
      const attacker = '203.0.113.7';
      for (let attempt = 1; attempt <= 4; attempt++) expect((await signIn(server.app, 'owner1', 'Wrong#123', attacker)).body.resCode).toBe('6');
      const locked = await signIn(server.app, 'owner1', 'Wrong#123', attacker);
      expect([locked.status, locked.body.resCode]).toEqual([429, '7']);
      expect(Number(locked.retryAfter)).toBeGreaterThan(0);
      // The pair stays locked, even with the right password.
      expect((await signIn(server.app, 'owner1', 'Good#123', attacker)).body.resCode).toBe('7');
      // The owner, elsewhere, is not.
      expect((await signIn(server.app, 'owner1', 'Good#123', '198.51.100.2')).body.resCode).toBe('00000');
    });

    it('the account as a whole locks after LOGIN_ACCOUNT_MAX_FAILURES failures across addresses', async () => {
      const app = await instance({ loginAccountMaxFailures: 8 });
      await server.createUser({ name: 'acct1', password: 'Good#123' });
      const messages: string[] = [];
      for (let index = 0; index < 7; index++) {
        const answer = await signIn(app, 'acct1', 'Wrong#123', `198.51.100.${100 + (index % 4)}`);
        expect(answer.body.resCode).toBe('6');
        messages.push(answer.body.resMsg);
      }
      // The fewest attempts left of the pair (5 per address) and of the account (8 in all).
      expect(messages.map((message) => Number(message.match(/(\d+) times$/)?.[1]))).toEqual([4, 4, 4, 4, 3, 2, 1]);
      const eighth = await signIn(app, 'acct1', 'Wrong#123', '198.51.100.200');
      expect([eighth.status, eighth.body.resCode]).toEqual([429, '7']);
      const owner = await signIn(app, 'acct1', 'Good#123', '198.51.100.201');
      expect([owner.status, owner.body.resCode]).toEqual([429, '7']);
      expect(Number(owner.retryAfter)).toBeGreaterThan(0);
    });
  });

  describe('TRUST_PROXY: the per-address limits count the client behind a proxy', () => {
    it('without it every client behind one proxy shares the address; with it, X-Forwarded-For is the address', async () => {
      const viaProxy = (app: FastifyInstance, client: string) =>
        app.inject({
          method: 'POST',
          url: '/test-api/login/forgotPassword',
          payload: { account: 'nobody-tp@example.com' },
          remoteAddress: '192.0.2.200',
          headers: { 'x-forwarded-for': client },
        });
      const direct = await instance({ forgotPasswordPerAddress: 1 });
      expect((await viaProxy(direct, '198.51.100.1')).json().resCode).toBe('00000');
      expect((await viaProxy(direct, '198.51.100.2')).json().resCode).toBe('4029');
      const behindProxy = await server.anotherInstance({ config: { ...TEST_CONFIG, forgotPasswordPerAddress: 1, trustProxy: '192.0.2.200' } });
      expect((await viaProxy(behindProxy, '198.51.100.3')).json().resCode).toBe('00000');
      expect((await viaProxy(behindProxy, '198.51.100.4')).json().resCode).toBe('00000');
      expect((await viaProxy(behindProxy, '198.51.100.3')).json().resCode).toBe('4029');
      await answeredWorkSettled(direct.services);
      await answeredWorkSettled(behindProxy.services);
    });
  });

  describe('hole 6: forgot password', () => {
    it('is limited per address: 4029 with Retry-After, other addresses unaffected', async () => {
      const app = await instance({ forgotPasswordPerAddress: 3 });
      for (let index = 0; index < 3; index++) expect((await forgot(app, `nobody${index}@example.com`, '192.0.2.77')).body.resCode).toBe('00000');
      const refused = await forgot(app, 'nobody9@example.com', '192.0.2.77');
      expect([refused.status, refused.body.resCode]).toEqual([429, '4029']);
      expect(Number(refused.retryAfter)).toBeGreaterThan(0);
      expect((await forgot(app, 'nobody9@example.com', '192.0.2.78')).body.resCode).toBe('00000');
      await answeredWorkSettled(app.services);
    });

    it('per account: every call answers success, but at most RESET_MAILS_PER_ACCOUNT mails go out', async () => {
      const app = await instance({ resetMailsPerAccount: 2 });
      await server.createUser({ name: 'fp1', password: 'Good#123', email: 'fp1@example.com' });
      const since = new Date(Date.now() - 1000);
      const answers = [];
      for (let index = 0; index < 5; index++) answers.push(await forgot(app, 'fp1@example.com', `192.0.2.${10 + index}`));
      expect(answers.map((answer) => [answer.status, answer.body])).toEqual(Array(5).fill([200, { resCode: '00000', resMsg: 'Success', resData: null }]));
      await answeredWorkSettled(app.services);
      const mails = await server.db
        .select()
        .from(mailOutbox)
        .where(and(eq(mailOutbox.recipient, 'fp1@example.com'), gt(mailOutbox.createdAt, since)));
      expect(mails).toHaveLength(2);
    });

    it('answers before any work on the account, the same for a known and an unknown one', async () => {
      await server.createUser({ name: 'fp2', password: 'Good#123', email: 'fp2@example.com' });
      const held = deferred();
      const called = deferred();
      const send = vi.spyOn(server.app.services.mailer, 'send').mockImplementation(async () => {
        called.resolve();
        await held.promise;
      });
      try {
        const known = forgot(server.app, 'fp2@example.com', '192.0.2.90');
        // The old route sends the mail before answering: the mail call comes first and the answer waits for it.
        const first = await Promise.race([known.then(() => 'answer'), called.promise.then(() => 'mail')]);
        expect(first).toBe('answer');
        const unknown = await forgot(server.app, 'nobody-fp2@example.com', '192.0.2.90');
        expect([(await known).status, (await known).body]).toEqual([unknown.status, unknown.body]);
        held.resolve();
        await answeredWorkSettled(server.app.services);
        // The known account's mail, written after the answer; none for the unknown one.
        expect(send).toHaveBeenCalledTimes(1);
      } finally {
        held.resolve();
        send.mockRestore();
      }
    });

    it('mail_outbox keeps the reset mail without a usable link; the mailed link works', async () => {
      await server.createUser({ name: 'fp3', password: 'Good#123', email: 'fp3@example.com' });
      const send = vi.spyOn(server.app.services.mailer, 'send');
      await forgot(server.app, 'fp3');
      await answeredWorkSettled(server.app.services);
      const mailed = (send.mock.calls.at(-1)![1] as Mail).text;
      send.mockRestore();
      const token = decodeURIComponent(mailed.match(/\/resetPassword\?token=(\S+)/)?.[1] ?? '');
      expect(token).toMatch(/^[A-Za-z0-9_-]{20,}$/);
      const [stored] = await server.db.select().from(mailOutbox).where(eq(mailOutbox.recipient, 'fp3@example.com')).orderBy(desc(mailOutbox.id)).limit(1);
      expect(stored.subject).toBe('RVM Console: reset your password');
      expect(stored.body).toContain('/resetPassword?token=');
      expect(stored.body).not.toContain(token);
      const fromTable = decodeURIComponent(stored.body.match(/token=(\S+)/)?.[1] ?? '');
      const reset = (value: string) => server.call('POST', '/login/resetPassword', { body: { token: value, password: 'Fresh#123', confirmPassword: 'Fresh#123' } });
      expect((await reset(fromTable)).body.resCode).toBe('4006');
      expect((await reset(token)).body.resCode).toBe('00000');
    });
  });

  describe('hole 11: a disabled user', () => {
    it('answers 6 with the right password exactly as with a wrong one (counted as a failure)', async () => {
      const id = await server.createUser({ name: 'off2', password: 'Good#123' });
      await server.db.update(sysUser).set({ enabled: false }).where(eq(sysUser.id, id));
      const right = await signIn(server.app, 'off2', 'Good#123');
      expect([right.status, right.body]).toEqual([400, { resCode: '6', resMsg: 'Incorrect username or password, you can also log in 4 times', resData: { attemptsLeft: 4 } }]);
      const wrong = await signIn(server.app, 'off2', 'Wrong#123');
      expect([wrong.status, wrong.body]).toEqual([400, { resCode: '6', resMsg: 'Incorrect username or password, you can also log in 3 times', resData: { attemptsLeft: 3 } }]);
    });
  });
});
