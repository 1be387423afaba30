// The rules of the callers kept in memory (server/auth/callerCache.ts), without a database: served only
// while changes are heard, forgotten on any change, never kept from a load a change overlapped, and
// never older than the time to live.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { CallerCache } from '../../server/auth/callerCache';
import { CallerChangeFeed, changesCallers } from '../../server/db/callerChanges';

const liveFeed = () => {
  const feed = new CallerChangeFeed();
  feed.setLive(true);
  return feed;
};

afterEach(() => {
  vi.useRealTimers();
});

describe('CallerCache', () => {
  it('answers what it was given, counting hits, until a change is signalled', () => {
    const feed = liveFeed();
    const cache = new CallerCache<string>(feed, 30_000);
    expect(cache.get('a')).toBeUndefined();
    cache.remember('a', 'caller a', cache.generation);
    expect(cache.get('a')).toBe('caller a');
    expect(cache.get('a')).toBe('caller a');
    expect(cache.hits).toBe(2);
    feed.changed();
    expect(cache.get('a')).toBeUndefined();
    expect(cache.size).toBe(0);
  });

  it('does not keep a load that a change overlapped (its generation is past)', () => {
    const feed = liveFeed();
    const cache = new CallerCache<string>(feed, 30_000);
    const before = cache.generation;
    feed.changed();
    expect(cache.generation).toBe(before + 1);
    cache.remember('a', 'stale', before);
    expect(cache.get('a')).toBeUndefined();
    cache.remember('a', 'fresh', cache.generation);
    expect(cache.get('a')).toBe('fresh');
  });

  it('keeps and serves nothing while the feed is not live, and forgets everything when it stops being live', () => {
    const feed = new CallerChangeFeed();
    const cache = new CallerCache<string>(feed, 30_000);
    cache.remember('a', 'caller a', cache.generation);
    expect(cache.size).toBe(0);
    feed.setLive(true);
    cache.remember('a', 'caller a', cache.generation);
    expect(cache.get('a')).toBe('caller a');
    feed.setLive(false);
    expect(cache.get('a')).toBeUndefined();
    cache.remember('b', 'caller b', cache.generation);
    expect(cache.size).toBe(0);
  });

  it('serves an entry up to its time to live and not a moment after; 0 keeps nothing', () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(1_000_000);
    const cache = new CallerCache<string>(liveFeed(), 30_000);
    cache.remember('a', 'caller a', cache.generation);
    vi.setSystemTime(1_030_000);
    expect(cache.get('a')).toBe('caller a');
    vi.setSystemTime(1_030_001);
    expect(cache.get('a')).toBeUndefined();
    expect(cache.size).toBe(0);

    const off = new CallerCache<string>(liveFeed(), 0);
    off.remember('a', 'caller a', off.generation);
    expect(off.get('a')).toBeUndefined();
  });

  it('drops the oldest entry beyond its capacity; forget and close remove entries', () => {
    const feed = liveFeed();
    const cache = new CallerCache<string>(feed, 30_000, 2);
    cache.remember('a', 'A', cache.generation);
    cache.remember('b', 'B', cache.generation);
    cache.remember('c', 'C', cache.generation);
    expect([cache.get('a'), cache.get('b'), cache.get('c')]).toEqual([undefined, 'B', 'C']);
    cache.forget('b');
    expect(cache.get('b')).toBeUndefined();
    cache.close();
    expect(cache.size).toBe(0);
    // closed: a later change no longer reaches it (unsubscribed)
    const generation = cache.generation;
    feed.changed();
    expect(cache.generation).toBe(generation);
  });

  it('counts an entry loaded again as the newest, and replaces it without dropping another', () => {
    const full = new CallerCache<string>(liveFeed(), 30_000, 2);
    full.remember('a', 'A', full.generation);
    full.remember('b', 'B', full.generation);
    // at capacity: the same key again takes no other entry's place
    full.remember('b', 'B2', full.generation);
    expect([full.size, full.get('a'), full.get('b')]).toEqual([2, 'A', 'B2']);

    const cache = new CallerCache<string>(liveFeed(), 30_000, 3);
    cache.remember('a', 'A', cache.generation);
    cache.remember('b', 'B', cache.generation);
    cache.remember('a', 'A2', cache.generation);
    cache.remember('c', 'C', cache.generation);
    // 'b' is now the oldest: the next new key drops it, not 'a'
    cache.remember('d', 'D', cache.generation);
    expect([cache.get('a'), cache.get('b'), cache.get('c'), cache.get('d')]).toEqual(['A2', undefined, 'C', 'D']);
  });
});

describe('changesCallers', () => {
  it('flags writes to the tables a caller is read from, and nothing else', () => {
    expect(changesCallers('update "sys_token" set "revoked_at" = $1, "revoke_reason" = $2 where "sys_token"."id" = $3')).toBe(true);
    expect(changesCallers('delete from "sys_user_role" where "sys_user_role"."user_id" = $1')).toBe(true);
    expect(changesCallers('insert into "sys_role_permission" ("role_id", "permission_id") values ($1, $2)')).toBe(true);
    expect(changesCallers('update "license_account_user_relation" set "is_default" = $1')).toBe(true);
    expect(changesCallers('truncate sys_permission')).toBe(true);
    // reads, locking reads, the token's "last seen" and other tables
    expect(changesCallers('select * from "sys_user" where "sys_user"."id" = $1')).toBe(false);
    expect(changesCallers('select * from "sys_user" where "id" = $1 for update')).toBe(false);
    expect(changesCallers('with roles as (select role_id from sys_user_role) select * from roles')).toBe(false);
    expect(changesCallers('update "sys_token" set "last_seen_at" = $1 where "sys_token"."id" = $2')).toBe(false);
    expect(changesCallers('delete from "sys_token" where ("sys_token"."user_id" = $1 and "sys_token"."created_at" < $2)')).toBe(false);
    expect(changesCallers('delete from "sys_token" where "sys_token"."user_id" = $1')).toBe(true);
    expect(changesCallers('update "rvm" set "online" = $1 where "rvm"."id" = $2')).toBe(false);
    // a table whose name only starts like one of them
    expect(changesCallers('insert into "sys_user_setting" ("user_id") values ($1)')).toBe(false);
  });
});
