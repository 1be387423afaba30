// The rules of server/auth that need no database: token format and forced-logout boundaries, the
// password-check queue, stored-hash parsing and the hash upgrade's refusals (authCaller.test.ts has the
// rest). No server is started, so these are cheap to run against every mutant.
// No vi.mock: Stryker runs the server files without isolation, where a module mock would not apply.
import { scrypt } from 'node:crypto';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { FastifyReply } from 'fastify';
import { boundedPasswordWork, createPasswordQueue, passwordChecksOf, PasswordQueueFull } from '../../server/auth/passwordQueue';
import { createPasswordHasher, scryptMemory, scryptParametersFor, type PasswordHasher } from '../../server/auth/passwords';
import { upgradePasswordHash } from '../../server/auth/rehash';
import { checkTokenRow, randomSecret, sha256, tokenHashOf } from '../../server/auth/tokens';
import { DEFAULT_CONFIG } from '../../server/config';
import type { Db } from '../../server/db/client';
import { codeOf } from './appErrors';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const NOW = Date.UTC(2026, 10, 24, 12);

afterEach(() => {
  vi.restoreAllMocks();
});

describe('token values', () => {
  it('answers 11011 without a value, 11012 for anything but 43 base64url characters, else the SHA-256 hex', async () => {
    expect(await codeOf(() => tokenHashOf(undefined))).toBe('11011');
    expect(await codeOf(() => tokenHashOf(''))).toBe('11011');
    const token = `${'Ab9_-'.repeat(8)}xyz`;
    expect(token).toHaveLength(43);
    expect(tokenHashOf(token)).toBe(sha256(token));
    for (const bad of [token.slice(1), `${token}A`, `!${token}`, `${token}!`, `${token.slice(1)}=`, `${token.slice(1)}+`, `${token.slice(1)}/`, `${token.slice(2)} A`]) {
      expect(await codeOf(() => tokenHashOf(bad)), bad).toBe('11012');
    }
  });

  it('hashes with SHA-256 in hex and makes 32-byte base64url secrets', () => {
    expect(sha256('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
    const secrets = new Set(Array.from({ length: 5 }, randomSecret));
    expect(secrets.size).toBe(5);
    for (const secret of secrets) expect(secret).toMatch(/^[A-Za-z0-9_-]{43}$/);
  });
});

describe('stored token checks (forced logout)', () => {
  const config = { ...DEFAULT_CONFIG, tokenMaxHours: 12, tokenIdleMinutes: 120 };
  const row = (fields: Partial<Parameters<typeof checkTokenRow>[1]> = {}) => ({ revoked: false, revokeReason: null, createdAt: NOW - HOUR, lastSeenAt: NOW - 30_000, ...fields });
  const check = (fields: Partial<Parameters<typeof checkTokenRow>[1]> = {}) => checkTokenRow(config, row(fields));

  it('answers 11016 for a superseded token and 11015 for any other revocation', async () => {
    vi.spyOn(Date, 'now').mockReturnValue(NOW);
    expect(await codeOf(() => check({ revoked: true, revokeReason: 'superseded' }))).toBe('11016');
    expect(await codeOf(() => check({ revoked: true, revokeReason: 'logout' }))).toBe('11015');
    expect(await codeOf(() => check({ revoked: true, revokeReason: null }))).toBe('11015');
    // The reason of a live token is not read.
    expect(await codeOf(() => check({ revokeReason: 'superseded' }))).toBe('none');
  });

  it('ends a session exactly after TOKEN_MAX_HOURS (11014) and after TOKEN_IDLE_MINUTES idle (11013)', async () => {
    vi.spyOn(Date, 'now').mockReturnValue(NOW);
    expect(await codeOf(() => check({ createdAt: NOW - 12 * HOUR }))).toBe('none');
    expect(await codeOf(() => check({ createdAt: NOW - 12 * HOUR - 1 }))).toBe('11014');
    expect(await codeOf(() => check({ lastSeenAt: NOW - 120 * MINUTE }))).toBe('none');
    expect(await codeOf(() => check({ lastSeenAt: NOW - 120 * MINUTE - 1 }))).toBe('11013');
    // Too old and idle: the absolute lifetime is the one reported.
    expect(await codeOf(() => check({ createdAt: NOW - 13 * HOUR, lastSeenAt: NOW - 3 * HOUR }))).toBe('11014');
  });

  it('asks for a touch only when the last one is more than a minute old, at the current time', () => {
    vi.spyOn(Date, 'now').mockReturnValue(NOW);
    expect(check({ lastSeenAt: NOW - MINUTE })).toBeNull();
    expect(check({ lastSeenAt: NOW - MINUTE - 1 })).toEqual(new Date(NOW));
  });
});

describe('the password-check queue', () => {
  /** A task that runs until `finish` is called. */
  const held = () => {
    let finish!: (value: string) => void;
    let fail!: (error: Error) => void;
    let started = false;
    const done = new Promise<string>((resolve, reject) => {
      finish = resolve;
      fail = reject;
    });
    return {
      task: () => {
        started = true;
        return done;
      },
      finish,
      fail,
      started: () => started,
    };
  };
  const settle = () => new Promise((resolve) => setImmediate(resolve));

  it('runs up to `concurrency` at once, lines up `maxWaiting` first come first served, refuses the rest without running them', async () => {
    const queue = createPasswordQueue({ concurrency: 1, maxWaiting: 2 });
    expect([queue.active, queue.waiting, queue.full]).toEqual([0, 0, false]);
    const [first, second, third, fourth] = [held(), held(), held(), held()];
    const firstRun = queue.run(first.task);
    expect([queue.active, queue.waiting, queue.full, first.started()]).toEqual([1, 0, false, true]);
    const secondRun = queue.run(second.task);
    expect([queue.active, queue.waiting, queue.full]).toEqual([1, 1, false]);
    const thirdRun = queue.run(third.task);
    expect([queue.active, queue.waiting, queue.full]).toEqual([1, 2, true]);
    await expect(queue.run(fourth.task)).rejects.toBeInstanceOf(PasswordQueueFull);
    expect(fourth.started()).toBe(false);

    first.finish('one');
    expect(await firstRun).toBe('one');
    await settle();
    // The slot passed to the first in line, not the last.
    expect([second.started(), third.started(), queue.active, queue.waiting]).toEqual([true, false, 1, 1]);
    second.fail(new Error('broken'));
    await expect(secondRun).rejects.toThrow('broken');
    await settle();
    // A failed task frees its slot all the same.
    expect([third.started(), queue.active, queue.waiting]).toEqual([true, 1, 0]);
    third.finish('three');
    expect(await thirdRun).toBe('three');
    expect([queue.active, queue.waiting, queue.full]).toEqual([0, 0, false]);
  });

  it('is full only when every slot runs and the line is full', async () => {
    const queue = createPasswordQueue({ concurrency: 2, maxWaiting: 0 });
    const [first, second] = [held(), held()];
    const runs = [queue.run(first.task)];
    expect([queue.active, queue.full]).toEqual([1, false]);
    runs.push(queue.run(second.task));
    expect([queue.active, queue.full]).toEqual([2, true]);
    await expect(queue.run(held().task)).rejects.toBeInstanceOf(PasswordQueueFull);
    first.finish('a');
    second.finish('b');
    expect(await Promise.all(runs)).toEqual(['a', 'b']);
    expect([queue.active, queue.full]).toEqual([0, false]);
  });

  it('is an Error with its own message', () => {
    const error = new PasswordQueueFull();
    expect(error).toBeInstanceOf(Error);
    expect(error.message).toBe('password-check queue full');
  });

  it('gives each hasher one queue sized from the config, through which every computation but needsRehash goes', async () => {
    const calls: string[] = [];
    const gate = held();
    const hasher: PasswordHasher = {
      parameters: { N: 4096, r: 8, p: 1 },
      hash: async (password) => {
        calls.push(`hash ${password}`);
        return gate.task();
      },
      verify: async (password, stored) => {
        calls.push(`verify ${password} ${stored}`);
        return true;
      },
      verifyDummy: async (password) => {
        calls.push(`dummy ${password}`);
        return false;
      },
      needsRehash: (stored) => stored === 'old',
    };
    const config = { passwordCheckConcurrency: 1, passwordCheckQueue: 1 };
    const checks = passwordChecksOf({ hasher, config });
    expect(passwordChecksOf({ hasher, config: { passwordCheckConcurrency: 9, passwordCheckQueue: 9 } })).toBe(checks);
    expect(passwordChecksOf({ hasher: { ...hasher }, config })).not.toBe(checks);
    expect(checks.parameters).toBe(hasher.parameters);

    const hashing = checks.hash('p1');
    expect(checks.queue.active).toBe(1);
    const verifying = checks.verify('p2', 'stored');
    expect(checks.queue.waiting).toBe(1);
    await expect(checks.verifyDummy('p3')).rejects.toBeInstanceOf(PasswordQueueFull);
    // Parsing only: answered at once although the queue is full.
    expect([checks.needsRehash('old'), checks.needsRehash('new')]).toEqual([true, false]);
    gate.finish('hashed');
    expect(await hashing).toBe('hashed');
    expect(await verifying).toBe(true);
    expect(await checks.verifyDummy('p4')).toBe(false);
    expect(calls).toEqual(['hash p1', 'verify p2 stored', 'dummy p4']);
    // The method is looked up when called (tests spy on the hasher after the app built its checks).
    const spy = vi.spyOn(hasher, 'verify').mockResolvedValue(false);
    expect(await checks.verify('p5', 'stored')).toBe(false);
    expect(spy).toHaveBeenCalledWith('p5', 'stored');
  });

  it('answers a full queue 4029 with Retry-After: 1 and lets other failures through untouched', async () => {
    const headers: Record<string, string> = {};
    const reply = { header: (name: string, value: string) => (headers[name] = value) } as unknown as FastifyReply;
    expect(await boundedPasswordWork(reply, async () => 'done')).toBe('done');
    expect(headers).toEqual({});
    const other = new Error('disk');
    await expect(boundedPasswordWork(reply, () => Promise.reject(other))).rejects.toBe(other);
    expect(headers).toEqual({});
    expect(await codeOf(() => boundedPasswordWork(reply, () => Promise.reject(new PasswordQueueFull())))).toBe('4029');
    expect(headers).toEqual({ 'Retry-After': '1' });
  });
});

describe('stored password hashes', () => {
  const hasher = createPasswordHasher(12);
  const salt = Buffer.from('0123456789abcdef').toString('base64');
  const key64 = Buffer.alloc(64, 7).toString('base64');
  /** The real scrypt key of 'Pass#word1' under `parameters`, as a stored value. */
  const storedWith = async ({ N, r, p }: { N: number; r: number; p: number }, keyLength = 64) => {
    const key = await new Promise<Buffer>((resolve, reject) =>
      scrypt('Pass#word1', Buffer.from(salt, 'base64'), keyLength, { N, r, p, maxmem: scryptMemory({ N, r, p }) }, (error, derived) => (error ? reject(error) : resolve(derived))),
    );
    return `scrypt$${N}$${r}$${p}$${salt}$${key.toString('base64')}`;
  };

  it("computes scrypt's memory as OpenSSL counts it and picks p = 1 off OWASP's table", () => {
    expect(scryptMemory({ N: 1024, r: 8, p: 3 })).toBe(128 * 8 * 1026 + 128 * 8 * 3);
    expect(scryptParametersFor(12)).toEqual({ N: 4096, r: 8, p: 1 });
    expect(scryptParametersFor(18).p).toBe(1);
    expect(hasher.parameters).toEqual({ N: 4096, r: 8, p: 1 });
  });

  it('refuses malformed stored values and flags them for re-hashing', async () => {
    const malformed = [
      `bcrypt$4096$8$1$${salt}$${key64}`,
      `scrypt$4096$8$1$$${key64}`,
      `scrypt$4096$8$1$${salt}$`,
      `scrypt$4096$8$1$${salt}$${key64}$extra`,
      `scrypt$4095$8$1$${salt}$${key64}`,
      `scrypt$1$8$1$${salt}$${key64}`,
      `scrypt$0$8$1$${salt}$${key64}`,
      `scrypt$-4096$8$1$${salt}$${key64}`,
      `scrypt$4096.5$8$1$${salt}$${key64}`,
      `scrypt$4096$0$1$${salt}$${key64}`,
      `scrypt$4096$1.5$1$${salt}$${key64}`,
      `scrypt$4096$x$1$${salt}$${key64}`,
      `scrypt$4096$8$0$${salt}$${key64}`,
      `scrypt$4096$8$1.5$${salt}$${key64}`,
      `scrypt$4096$8$x$${salt}$${key64}`,
      `scrypt$4096$8$1$${salt}$===`,
    ];
    // r = 0: node's scrypt computes a key with it; the stored value is still refused
    malformed.push(await storedWith({ N: 4096, r: 0, p: 1 }));
    for (const stored of malformed) {
      expect(await hasher.verify('Pass#word1', stored), stored).toBe(false);
      expect(hasher.needsRehash(stored), stored).toBe(true);
    }
  });

  it('accepts N = 2, r = 1, p = 1 (the smallest valid set)', async () => {
    const tiny = await storedWith({ N: 2, r: 1, p: 1 });
    expect(await hasher.verify('Pass#word1', tiny)).toBe(true);
    expect(await hasher.verify('Pass#word2', tiny)).toBe(false);
  });

  it('flags for re-hashing any stored value whose N, r, p or key length differs from the current ones', async () => {
    const current = await hasher.hash('Pass#word1');
    expect(hasher.needsRehash(current)).toBe(false);
    const [, , , , saltPart, keyPart] = current.split('$');
    expect(hasher.needsRehash(`scrypt$8192$8$1$${saltPart}$${keyPart}`)).toBe(true);
    expect(hasher.needsRehash(`scrypt$4096$16$1$${saltPart}$${keyPart}`)).toBe(true);
    expect(hasher.needsRehash(`scrypt$4096$8$2$${saltPart}$${keyPart}`)).toBe(true);
    expect(hasher.needsRehash(`scrypt$4096$8$1$${saltPart}$${Buffer.alloc(32, 1).toString('base64')}`)).toBe(true);
  });

  it("verifies with the stored key's own length", async () => {
    const short = await storedWith({ N: 4096, r: 8, p: 1 }, 32);
    expect(await hasher.verify('Pass#word1', short)).toBe(true);
    expect(await hasher.verify('Pass#word2', short)).toBe(false);
  });

  it('normalises passwords to NFC, so both spellings of an accented letter match', async () => {
    const stored = await hasher.hash('Caf\u00e9#123');
    expect(await hasher.verify('Cafe\u0301#123', stored)).toBe(true);
    expect(await hasher.verify('Cafe#123', stored)).toBe(false);
  });

  it("verifies hashes up to the legacy 2^17 set's memory (above node's default maxmem), never beyond", async () => {
    // made inside the test: its memory limit is fixed when the hasher is created
    const hasher = createPasswordHasher(12);
    // 2^13 with r=16: more than the current 2^12 set takes, less than the legacy limit.
    expect(await hasher.verify('Pass#word1', await storedWith({ N: 8192, r: 16, p: 1 }))).toBe(true);
    // Exactly the legacy memory (128 MiB, real work): verifies only with maxmem set from the parameters.
    expect(await hasher.verify('Pass#word1', await storedWith({ N: 131072, r: 8, p: 1 }))).toBe(true);
    // Far beyond (16 TiB): refused as malformed, never handed to scrypt (which would fail).
    expect(await hasher.verify('Pass#word1', `scrypt$131072$1048576$1$${salt}$${key64}`)).toBe(false);
  });

  it('spends a verification on unknown users and always answers false', async () => {
    const own = createPasswordHasher(12);
    expect(await own.verifyDummy('Pass#word1')).toBe(false);
    expect(await own.verifyDummy('')).toBe(false);
  });
});

describe('upgrading a hash at sign-in (no database reached)', () => {
  const noDb = new Proxy(
    {},
    {
      get: () => {
        throw new Error('the database must not be reached');
      },
    },
  ) as Db;
  const checksWith = (needsRehash: boolean, hash: () => Promise<string>) => ({ needsRehash: () => needsRehash, hash }) as unknown as Parameters<typeof upgradePasswordHash>[1];

  it('does nothing for a current hash, gives up on a full queue, and lets other failures through', async () => {
    const hash = vi.fn(async () => 'new');
    expect(await upgradePasswordHash(noDb, checksWith(false, hash), { id: 1, password: 'old' }, 'pw')).toBe(false);
    expect(hash).not.toHaveBeenCalled();
    expect(
      await upgradePasswordHash(
        noDb,
        checksWith(true, () => Promise.reject(new PasswordQueueFull())),
        { id: 1, password: 'old' },
        'pw',
      ),
    ).toBe(false);
    const broken = new Error('scrypt failed');
    await expect(
      upgradePasswordHash(
        noDb,
        checksWith(true, () => Promise.reject(broken)),
        { id: 1, password: 'old' },
        'pw',
      ),
    ).rejects.toBe(broken);
  });
});
