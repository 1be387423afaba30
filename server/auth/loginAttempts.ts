// Sign-in attempts counted in the database per lower-cased user name (known or not, so the
// answers do not reveal which names exist) inside a sliding LOGIN_LOCK_MINUTES window.
// An attempt is recorded BEFORE the password is checked, counted under a per-name transaction
// advisory lock: parallel requests, on any number of app instances sharing the database, can
// never check more than LOGIN_MAX_FAILURES passwords per window. A success clears the count.
import { and, count, eq, gt, lt, sql } from 'drizzle-orm';
import type { ServerConfig } from '../config';
import type { Db } from '../db/client';
import { loginAttempt } from '../db/schema';

const key = (username: string) => username.trim().toLowerCase();
const windowStart = (config: ServerConfig) => new Date(Date.now() - config.loginLockMinutes * 60_000);
/** First key of the two-key advisory lock ("LGN"), apart from the migration lock's one-key space. */
const LOCK_CLASS = 0x4c474e;

export const recentFailures = async (db: Db, config: ServerConfig, username: string): Promise<number> => {
  const [row] = await db
    .select({ failures: count() })
    .from(loginAttempt)
    .where(and(eq(loginAttempt.username, key(username)), gt(loginAttempt.attemptedAt, windowStart(config))));
  return row?.failures ?? 0;
};

/**
 * Records an attempt (counted as a failure until `clearFailures`) and answers its number inside
 * the window, this one included; null when the limit is already reached (nothing recorded: the
 * lock window does not slide while locked).
 */
export const claimAttempt = (db: Db, config: ServerConfig, username: string): Promise<number | null> =>
  db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(${LOCK_CLASS}::int4, hashtext(${key(username)}))`);
    await tx.delete(loginAttempt).where(and(eq(loginAttempt.username, key(username)), lt(loginAttempt.attemptedAt, windowStart(config))));
    const failures = await recentFailures(tx, config, username);
    if (failures >= config.loginMaxFailures) return null;
    await tx.insert(loginAttempt).values({ username: key(username) });
    return failures + 1;
  });

export const clearFailures = (db: Db, username: string) => db.delete(loginAttempt).where(eq(loginAttempt.username, key(username)));
