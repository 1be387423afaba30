// Sign-in failures counted in the database per lower-cased user name (known or not, so the
// answers do not reveal which names exist) inside a sliding LOGIN_LOCK_MINUTES window.
import { and, count, eq, gt, lt } from 'drizzle-orm';
import type { ServerConfig } from '../config';
import type { Db } from '../db/client';
import { loginAttempt } from '../db/schema';

const key = (username: string) => username.trim().toLowerCase();
const windowStart = (config: ServerConfig) => new Date(Date.now() - config.loginLockMinutes * 60_000);

export const recentFailures = async (db: Db, config: ServerConfig, username: string): Promise<number> => {
  const [row] = await db
    .select({ failures: count() })
    .from(loginAttempt)
    .where(and(eq(loginAttempt.username, key(username)), gt(loginAttempt.attemptedAt, windowStart(config))));
  return row?.failures ?? 0;
};

/** Records a failure and answers the failures now inside the window. */
export const recordFailure = async (db: Db, config: ServerConfig, username: string): Promise<number> => {
  await db.delete(loginAttempt).where(and(eq(loginAttempt.username, key(username)), lt(loginAttempt.attemptedAt, windowStart(config))));
  await db.insert(loginAttempt).values({ username: key(username) });
  return recentFailures(db, config, username);
};

export const clearFailures = (db: Db, username: string) => db.delete(loginAttempt).where(eq(loginAttempt.username, key(username)));
