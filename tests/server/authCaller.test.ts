// The rules of server/auth around the caller that need no database: the forced password change, the
// LoginAnswer, work after the answer, the caller's permission checks, and rows shaped as node-postgres
// answers them (a fake database). No server is started: cheap to run against every mutant (Stryker).
import { EventEmitter } from 'node:events';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { FastifyBaseLogger, FastifyReply } from 'fastify';
import { afterAnswer, answeredWorkSettled } from '../../server/auth/afterAnswer';
import { callerOf } from '../../server/auth/guard';
import { buildLoginAnswer, loginAnswerSchema, passwordChangeReason, passwordExpired } from '../../server/auth/loginAnswer';
import { assertPasswordRule } from '../../server/auth/passwordChange';
import { CallerCache } from '../../server/auth/callerCache';
import { Caller, loadCaller, permissionsAndRolesOf, permissionsOf, roleIdsOf, type CallerEntry, type Principal } from '../../server/auth/principal';
import { DEFAULT_CONFIG } from '../../server/config';
import { CallerChangeFeed } from '../../server/db/callerChanges';
import type { Db } from '../../server/db/client';
import { AppError } from '../../server/lib/errors';
import { codeOf } from './appErrors';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const NOW = Date.UTC(2026, 10, 24, 12);

afterEach(() => {
  vi.restoreAllMocks();
});

describe('the forced password change', () => {
  const config = { ...DEFAULT_CONFIG, passwordMaxAgeDays: 90 };
  const DAY = 86_400_000;

  it('expires a password exactly after PASSWORD_MAX_AGE_DAYS', () => {
    vi.spyOn(Date, 'now').mockReturnValue(NOW);
    expect(passwordExpired(config, new Date(NOW - 90 * DAY))).toBe(false);
    expect(passwordExpired(config, new Date(NOW - 90 * DAY - 1))).toBe(true);
  });

  it('names the first sign-in before an expired password, and nothing when neither holds', () => {
    vi.spyOn(Date, 'now').mockReturnValue(NOW);
    const old = new Date(NOW - 91 * DAY);
    const fresh = new Date(NOW - DAY);
    expect(passwordChangeReason(config, { mustChangePassword: true, passwordChangedAt: old })).toBe('firstLogin');
    expect(passwordChangeReason(config, { mustChangePassword: true, passwordChangedAt: fresh })).toBe('firstLogin');
    expect(passwordChangeReason(config, { mustChangePassword: false, passwordChangedAt: old })).toBe('passwordExpired');
    expect(passwordChangeReason(config, { mustChangePassword: false, passwordChangedAt: fresh })).toBeNull();
  });

  it('answers the password rule as 1001 (missing), 1002 (length) or 1004 (content) on the named field', () => {
    const failure = (password: unknown) => {
      try {
        assertPasswordRule('newPassword', password);
        return null;
      } catch (error) {
        const { code, issues } = error as AppError;
        return [code, issues?.map((issue) => [issue.field, issue.message])];
      }
    };
    expect(failure('')).toEqual(['1001', [['newPassword', 'validation.required']]]);
    expect(failure('Ab#1')).toEqual(['1002', [['newPassword', 'validation.passwordLength']]]);
    expect(failure('Abcdef#g')).toEqual(['1004', [['newPassword', 'validation.digit']]]);
    expect(failure('Abcdef#1')).toBeNull();
  });

  it('describes every field of a LoginAnswer with the JSON type of its value, null where it can be null', async () => {
    vi.spyOn(Date, 'now').mockReturnValue(NOW);
    const TYPES = ['object', 'array', 'string', 'integer', 'number', 'boolean', 'null'];
    /** Where `value` does not fit `schema` (types, properties both ways, array items), as paths. */
    const misfits = (schema: Record<string, unknown>, value: unknown, path: string): string[] => {
      const types = ([] as unknown[]).concat(schema.type ?? []);
      if (types.length === 0 || !types.every((type) => TYPES.includes(type as string))) return [`${path}: type ${JSON.stringify(schema.type)}`];
      const actual = value === null ? 'null' : Array.isArray(value) ? 'array' : Number.isInteger(value) ? 'integer' : typeof value;
      if (!types.includes(actual)) return [`${path}: ${actual} is not ${types.join('|')}`];
      if (actual === 'array') {
        const items = (schema.items ?? {}) as Record<string, unknown>;
        // an empty array still needs its items described (the OpenAPI document shows them)
        return [
          ...misfits(items, undefined, `${path}[]`).filter((issue) => !issue.includes('undefined is not')),
          ...(value as unknown[]).flatMap((item, index) => misfits(items, item, `${path}[${index}]`)),
        ];
      }
      if (actual !== 'object') return [];
      const properties = (schema.properties ?? {}) as Record<string, Record<string, unknown>>;
      const fields = new Set([...Object.keys(properties), ...Object.keys(value as object)]);
      return [...fields].flatMap((field) =>
        field in properties
          ? field in (value as object)
            ? misfits(properties[field], (value as Record<string, unknown>)[field], `${path}.${field}`)
            : [`${path}.${field}: missing`]
          : [`${path}.${field}: not described`],
      );
    };
    const principal: Principal = {
      userId: 7,
      userName: 'u',
      realName: 'U',
      superAdmin: false,
      mustChangePassword: false,
      passwordChangedAt: new Date(NOW),
      licenseAccountId: 3,
      licenseAccountName: 'Default',
      licenseAccountCurrency: 'HKD',
      tokenId: 5,
      utcOffsetMinutes: null,
    };
    const db = (roleIds: number[]) => ({ execute: async () => ({ rows: [{ permissions: [{ id: 210201, identifier: 'user:page' }], role_ids: roleIds }] }) }) as unknown as Db;
    const member = await buildLoginAnswer(db([4]), DEFAULT_CONFIG, principal, 'T'.repeat(43));
    const stranger = await buildLoginAnswer(db([]), DEFAULT_CONFIG, { ...principal, licenseAccountId: null, licenseAccountName: null, licenseAccountCurrency: null });
    expect(misfits(loginAnswerSchema(true), member, 'answer')).toEqual([]);
    expect(misfits(loginAnswerSchema(false), stranger, 'answer')).toEqual([]);
    // the two flags of the forced password change are explained in the API document
    const flags = loginAnswerSchema(false).properties as Record<string, { description?: string }>;
    expect(flags.firstLogin.description).toMatch(/first sign-in/);
    expect(flags.passwordExpired.description).toMatch(/PASSWORD_MAX_AGE_DAYS/);
  });

  it('describes the LoginAnswer with tokenInfo only for the sign-in itself', () => {
    const withToken = loginAnswerSchema(true);
    const without = loginAnswerSchema(false);
    expect(withToken.properties).toHaveProperty('tokenInfo', { type: 'object', properties: { tokenName: { type: 'string' }, tokenValue: { type: 'string' } } });
    expect(without.properties).not.toHaveProperty('tokenInfo');
    const { tokenInfo: _left, ...rest } = withToken.properties as Record<string, unknown>;
    expect(rest).toEqual(without.properties);
  });
});

describe('work after the answer', () => {
  const log = () => ({ error: vi.fn() }) as unknown as FastifyBaseLogger & { error: ReturnType<typeof vi.fn> };
  const replyOf = (state: { writableFinished?: boolean; destroyed?: boolean } = {}) => {
    const raw = Object.assign(new EventEmitter(), { writableFinished: false, destroyed: false, ...state });
    return { reply: { raw } as unknown as FastifyReply, raw };
  };
  const tick = () => new Promise((resolve) => setImmediate(resolve));

  it('starts once the answer is finished, or at once when it already is (or the connection is gone)', async () => {
    const owner = {};
    const ran: string[] = [];
    const waiting = replyOf();
    afterAnswer(waiting.reply, owner, log(), async () => ran.push('waiting'));
    afterAnswer(replyOf({ writableFinished: true }).reply, owner, log(), async () => ran.push('finished'));
    afterAnswer(replyOf({ destroyed: true }).reply, owner, log(), async () => ran.push('destroyed'));
    await tick();
    await tick();
    expect(ran.sort()).toEqual(['destroyed', 'finished']);
    waiting.raw.emit('finish');
    // Not synchronously on 'finish': after the answer's last bytes were handed over.
    expect(ran).not.toContain('waiting');
    await answeredWorkSettled(owner);
    expect(ran).toContain('waiting');
  });

  it('runs the work once whether the answer finishes, closes or both', async () => {
    const owner = {};
    const work = vi.fn(async () => undefined);
    const closed = replyOf();
    afterAnswer(closed.reply, owner, log(), work);
    closed.raw.emit('close');
    closed.raw.emit('finish');
    await answeredWorkSettled(owner);
    // A second start would run on the next turn: look after it.
    await tick();
    await tick();
    expect(work).toHaveBeenCalledTimes(1);
    // A connection closed before the answer finished (the client went away) starts it too.
    const gone = replyOf();
    afterAnswer(gone.reply, owner, log(), work);
    gone.raw.emit('close');
    await answeredWorkSettled(owner);
    expect(work).toHaveBeenCalledTimes(2);
  });

  it('logs a failure and still settles; settling waits for work started meanwhile, per owner', async () => {
    const owner = {};
    const other = {};
    const logger = log();
    const failure = new Error('smtp down');
    afterAnswer(replyOf({ writableFinished: true }).reply, owner, logger, () => Promise.reject(failure));
    let chained = false;
    afterAnswer(replyOf({ writableFinished: true }).reply, owner, logger, async () => {
      afterAnswer(replyOf({ writableFinished: true }).reply, owner, logger, async () => {
        chained = true;
      });
    });
    const never = replyOf();
    afterAnswer(never.reply, other, logger, async () => undefined);
    await answeredWorkSettled(owner);
    expect(chained).toBe(true);
    expect(logger.error).toHaveBeenCalledWith({ err: failure }, 'work after the answer failed');
    // Another owner's pending work does not hold this one; an owner without work settles at once.
    await answeredWorkSettled({});
    never.raw.emit('finish');
    await answeredWorkSettled(other);
  });
});

describe("the caller's permission checks", () => {
  const principal = (fields: Partial<Principal> = {}): Principal => ({
    userId: 7,
    userName: 'u',
    realName: 'U',
    superAdmin: false,
    mustChangePassword: false,
    passwordChangedAt: new Date(NOW),
    licenseAccountId: null,
    licenseAccountName: null,
    licenseAccountCurrency: null,
    tokenId: 1,
    utcOffsetMinutes: null,
    ...fields,
  });
  const noDb = {} as Db;
  const caller = (fields: Partial<Principal>, identifiers?: string[]) =>
    new Caller(
      noDb,
      DEFAULT_CONFIG,
      principal(fields),
      'en',
      identifiers?.map((identifier, index) => ({ id: index + 1, identifier })),
    );

  it('grants a superAdmin everything without reading permissions', async () => {
    const admin = caller({ superAdmin: true });
    expect(await admin.can(['user:page'])).toBe(true);
    expect(await admin.covers('*')).toBe(true);
    expect(await codeOf(() => admin.require(['role:add']))).toBe('none');
    expect(admin.userId).toBe(7);
  });

  it('checks the identifiers read with the principal, 4003 when none matches', async () => {
    const holder = caller({ licenseAccountId: 3 }, ['user:page', 'role:*']);
    expect(await holder.permissions()).toEqual([
      { id: 1, identifier: 'user:page' },
      { id: 2, identifier: 'role:*' },
    ]);
    expect(await holder.can(['user:export', 'user:page'])).toBe(true);
    expect(await holder.can(['role:add'])).toBe(true);
    expect(await holder.can(['user:export'])).toBe(false);
    expect(await codeOf(() => holder.require(['user:export']))).toBe('4003');
    expect(await codeOf(() => holder.require(['user:page']))).toBe('none');
  });

  it('lets a holder hand on only what their identifiers cover (a wildcard target needs a wildcard as wide)', async () => {
    const holder = caller({ licenseAccountId: 3 }, ['user:page', 'role:*']);
    expect(await holder.covers('role:add')).toBe(true);
    expect(await holder.covers('user:page')).toBe(true);
    expect(await holder.covers('user:*')).toBe(false);
    expect(await holder.covers('user:export')).toBe(false);
  });

  it('holds nothing outside a license account', async () => {
    const stranger = caller({ licenseAccountId: null });
    expect(await stranger.permissions()).toEqual([]);
    expect(await stranger.can(['user:page'])).toBe(false);
    expect(await stranger.covers('user:page')).toBe(false);
  });

  it('answers 11011 for a handler reached without a caller', async () => {
    expect(await codeOf(() => callerOf({ caller: null } as never))).toBe('11011');
    const present = caller({});
    expect(callerOf({ caller: present } as never)).toBe(present);
  });
});

describe('rows as node-postgres answers them (json already parsed; Stryker runs PGlite only, which answers text)', () => {
  /** A database answering one row to any statement; anything else it is asked is a failure. */
  const answering = (row: Record<string, unknown>) => ({ execute: async () => ({ rows: [row] }) }) as unknown as Db;
  const permissions = [{ id: 210201, identifier: 'user:page' }];

  it("reads the caller's permissions whether they come as json or as text", async () => {
    vi.spyOn(Date, 'now').mockReturnValue(NOW);
    const row = {
      token_id: 5,
      token_user_id: 7,
      utc_offset_minutes: 480,
      revoked: false,
      revoke_reason: null,
      created_ms: NOW - HOUR,
      last_seen_ms: NOW - 1000,
      user_id: 7,
      enabled: true,
      user_name: 'u',
      realname: 'U',
      super_admin: false,
      must_change_password: false,
      password_changed_ms: NOW - HOUR,
      account_id: 3,
      account_name: 'Default',
      account_currency: 'HKD',
    };
    const token = 'A'.repeat(43);
    for (const stored of [permissions, JSON.stringify(permissions)]) {
      const caller = await loadCaller(answering({ ...row, permissions: stored }), DEFAULT_CONFIG, token);
      expect(caller.permissions).toEqual(permissions);
      expect(caller.principal).toEqual({
        userId: 7,
        userName: 'u',
        realName: 'U',
        superAdmin: false,
        mustChangePassword: false,
        passwordChangedAt: new Date(NOW - HOUR),
        licenseAccountId: 3,
        licenseAccountName: 'Default',
        licenseAccountCurrency: 'HKD',
        tokenId: 5,
        utcOffsetMinutes: 480,
      });
    }
  });

  it('builds the LoginAnswer from json or text: the first role as roleId, the version, no machine models yet', async () => {
    vi.spyOn(Date, 'now').mockReturnValue(NOW);
    const principal: Principal = {
      userId: 7,
      userName: 'u',
      realName: 'U',
      superAdmin: false,
      mustChangePassword: true,
      passwordChangedAt: new Date(NOW - 91 * 86_400_000),
      licenseAccountId: 3,
      licenseAccountName: 'Default',
      licenseAccountCurrency: 'HKD',
      tokenId: 5,
      utcOffsetMinutes: null,
    };
    const config = { ...DEFAULT_CONFIG, version: '9.8.7' };
    for (const [stored, roles] of [
      [permissions, [4, 9]],
      [JSON.stringify(permissions), JSON.stringify([4, 9])],
    ] as const) {
      const db = answering({ permissions: stored, role_ids: roles });
      expect(await permissionsAndRolesOf(db, 7, 3)).toEqual({ permissions, roleIds: [4, 9] });
      expect(await buildLoginAnswer(db, config, principal)).toEqual({
        accountName: 'Default',
        licenseAccountId: 3,
        currency: 'HKD',
        userId: 7,
        realName: 'U',
        userName: 'u',
        userInfo: { superAdmin: false, permissions, roleId: 4, roleIds: [4, 9] },
        termType: [],
        firstLogin: true,
        passwordExpired: true,
        version: '9.8.7',
      });
    }
    const withToken = await buildLoginAnswer(answering({ permissions: [], role_ids: [] }), config, { ...principal, licenseAccountId: null }, 'T'.repeat(43));
    expect([withToken.tokenInfo, withToken.userInfo.roleId, withToken.licenseAccountId]).toEqual([{ tokenName: 'rvm-token', tokenValue: 'T'.repeat(43) }, null, null]);
    // Outside a license account nothing is read.
    expect(await permissionsAndRolesOf({} as Db, 7, null)).toEqual({ permissions: [], roleIds: [] });
    expect([await permissionsOf({} as Db, 7, null), await roleIdsOf({} as Db, 7, null)]).toEqual([[], []]);
  });
});

describe('a caller kept in memory (loadCaller with a CallerCache; a fake database counting its work)', () => {
  const TOKEN = 'K'.repeat(43);
  const liveCache = (ttlMs = 3 * HOUR) => {
    const feed = new CallerChangeFeed();
    const cache = new CallerCache<CallerEntry>(feed, ttlMs);
    // going live is itself a change (changes may have been missed): the generation is 1 from here on
    feed.setLive(true);
    return { feed, cache };
  };
  const rowAt = (now: number, fields: Record<string, unknown> = {}) => ({
    token_id: 5,
    token_user_id: 7,
    utc_offset_minutes: null,
    revoked: false,
    revoke_reason: null,
    created_ms: now - HOUR,
    last_seen_ms: now - 1000,
    user_id: 7,
    enabled: true,
    user_name: 'u',
    realname: 'U',
    super_admin: false,
    must_change_password: false,
    password_changed_ms: now - HOUR,
    account_id: 3,
    account_name: 'Default',
    account_currency: 'HKD',
    permissions: JSON.stringify([{ id: 210201, identifier: 'user:page' }]),
    ...fields,
  });
  /** Answers `next()` to the caller query; counts the reads and the token touches (db.update). */
  const database = (next: () => Record<string, unknown> | undefined, duringRead: () => void = () => undefined) => {
    const work = { reads: 0, touches: [] as number[] };
    const db = {
      execute: async () => {
        work.reads += 1;
        duringRead();
        const row = next();
        return { rows: row ? [{ ...row }] : [] };
      },
      update: () => ({ set: ({ lastSeenAt }: { lastSeenAt: Date }) => ({ where: async () => void work.touches.push(lastSeenAt.getTime()) }) }),
    } as unknown as Db;
    return { db, work };
  };

  it('answers a caller read before from memory, without a query, and the same as read', async () => {
    vi.spyOn(Date, 'now').mockReturnValue(NOW);
    const { cache } = liveCache();
    const { db, work } = database(() => rowAt(NOW));
    const read = await loadCaller(db, DEFAULT_CONFIG, TOKEN, cache);
    expect([work.reads, cache.size, cache.hits]).toEqual([1, 1, 0]);
    const kept = await loadCaller(db, DEFAULT_CONFIG, TOKEN, cache);
    expect([work.reads, cache.hits]).toEqual([1, 1]);
    expect(kept).toEqual(read);
    expect(kept.permissions).toEqual([{ id: 210201, identifier: 'user:page' }]);
    // another token is another caller
    await loadCaller(db, DEFAULT_CONFIG, 'L'.repeat(43), cache);
    expect(work.reads).toBe(2);
  });

  it('does not keep a caller whose read a change overlapped', async () => {
    vi.spyOn(Date, 'now').mockReturnValue(NOW);
    const { feed, cache } = liveCache();
    let changeDuringRead = true;
    const { db, work } = database(
      () => rowAt(NOW),
      () => {
        if (changeDuringRead) feed.changed();
        changeDuringRead = false;
      },
    );
    await loadCaller(db, DEFAULT_CONFIG, TOKEN, cache);
    expect(cache.size).toBe(0);
    await loadCaller(db, DEFAULT_CONFIG, TOKEN, cache);
    await loadCaller(db, DEFAULT_CONFIG, TOKEN, cache);
    expect([work.reads, cache.hits]).toEqual([2, 1]);
  });

  it("touches a kept caller's token once a minute, once even for concurrent requests", async () => {
    const now = vi.spyOn(Date, 'now').mockReturnValue(NOW);
    const { cache } = liveCache();
    const { db, work } = database(() => rowAt(NOW));
    await loadCaller(db, DEFAULT_CONFIG, TOKEN, cache);
    expect(work.touches).toEqual([]);
    now.mockReturnValue(NOW + 61_000);
    await Promise.all([loadCaller(db, DEFAULT_CONFIG, TOKEN, cache), loadCaller(db, DEFAULT_CONFIG, TOKEN, cache)]);
    await loadCaller(db, DEFAULT_CONFIG, TOKEN, cache);
    expect(work.touches).toEqual([NOW + 61_000]);
    expect([work.reads, cache.hits]).toEqual([1, 3]);
  });

  it('checks a kept caller it would refuse against the database again: admitted if the row now allows it, else refused and forgotten', async () => {
    const now = vi.spyOn(Date, 'now').mockReturnValue(NOW);
    const { cache } = liveCache();
    let row: Record<string, unknown> | undefined = rowAt(NOW);
    const { db, work } = database(() => row);
    await loadCaller(db, DEFAULT_CONFIG, TOKEN, cache);
    // Two hours idle as far as the kept row knows; another instance has seen the token since.
    const later = NOW + 121 * MINUTE;
    now.mockReturnValue(later);
    row = rowAt(later, { last_seen_ms: later - 1000, utc_offset_minutes: 60 });
    const again = await loadCaller(db, DEFAULT_CONFIG, TOKEN, cache);
    expect([work.reads, again.principal.utcOffsetMinutes]).toEqual([2, 60]);
    // the row read again is the one kept now
    expect((await loadCaller(db, DEFAULT_CONFIG, TOKEN, cache)).principal.utcOffsetMinutes).toBe(60);
    expect(work.reads).toBe(2);

    // Idle again, and this time the database refuses too (revoked meanwhile): refused, nothing kept.
    const latest = later + 121 * MINUTE;
    now.mockReturnValue(latest);
    row = rowAt(latest, { revoked: true, revoke_reason: 'logout' });
    expect(await codeOf(() => loadCaller(db, DEFAULT_CONFIG, TOKEN, cache))).toBe('11015');
    expect([work.reads, cache.size]).toEqual([3, 0]);
    // Kept again, then idle and its token row gone (deleted with its user): 11012, and nothing kept.
    row = rowAt(latest);
    await loadCaller(db, DEFAULT_CONFIG, TOKEN, cache);
    now.mockReturnValue(latest + 121 * MINUTE);
    row = undefined;
    expect(await codeOf(() => loadCaller(db, DEFAULT_CONFIG, TOKEN, cache))).toBe('11012');
    expect(cache.size).toBe(0);
  });
});
