// A counted rate limit in the database (so it holds across instances): at most `max` hits per
// (scope, subject) inside a sliding window, counted under a transaction advisory lock so parallel
// requests cannot pass it together. Used by forgot-password per address and per user.
import { and, count, eq, gt, lt, min, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { rateLimitHit } from '../db/schema';

/** First key of the two-key advisory lock ("RLH"). */
const LOCK_CLASS = 0x524c48;

export type RateLimitScope = 'forgotAddress' | 'resetMailUser';

export type RateLimitAnswer = { allowed: true } | { allowed: false; retryAfter: number };

/** Counts a hit when under the limit; otherwise answers when to come back (seconds, at least 1). */
export const hitRateLimit = (db: Db, scope: RateLimitScope, rawSubject: string, max: number, windowMinutes: number): Promise<RateLimitAnswer> =>
  db.transaction(async (tx) => {
    const subject = rawSubject.slice(0, 128);
    await tx.execute(sql`select pg_advisory_xact_lock(${LOCK_CLASS}::int4, hashtext(${`${scope}:${subject}`}))`);
    const since = new Date(Date.now() - windowMinutes * 60_000);
    const same = and(eq(rateLimitHit.scope, scope), eq(rateLimitHit.subject, subject));
    await tx.delete(rateLimitHit).where(and(same, lt(rateLimitHit.hitAt, since)));
    const [row] = await tx
      .select({ hits: count(), oldest: min(rateLimitHit.hitAt) })
      .from(rateLimitHit)
      .where(and(same, gt(rateLimitHit.hitAt, since)));
    if ((row?.hits ?? 0) >= max) {
      const oldest = row?.oldest ? new Date(row.oldest).getTime() : Date.now();
      return { allowed: false, retryAfter: Math.max(1, Math.ceil((oldest + windowMinutes * 60_000 - Date.now()) / 1000)) };
    }
    await tx.insert(rateLimitHit).values({ scope, subject });
    return { allowed: true };
  });

/** Periodic sweep: hits older than the longest window. */
export const sweepRateLimitHits = (db: Db, windowMinutes: number, now = new Date()) =>
  db.delete(rateLimitHit).where(lt(rateLimitHit.hitAt, new Date(now.getTime() - windowMinutes * 60_000)));
