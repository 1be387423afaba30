// Upgrading a stored password hash to the current parameters after a successful sign-in, the only
// moment the server holds the password: run after the answer went out (the sign-in does not wait for
// a second hash), through the instance's bounded queue (a full queue skips it: the next sign-in tries
// again). The update applies only if the stored hash is still the one that was checked, so a password
// changed meanwhile is never overwritten. Neither the change time nor the sessions are touched.
import { and, eq } from 'drizzle-orm';
import type { Db } from '../db/client';
import { sysUser } from '../db/schema';
import { PasswordQueueFull, type PasswordChecks } from './passwordQueue';

/** Answers true when the user's hash was replaced by one with the current parameters. */
export const upgradePasswordHash = async (db: Db, checks: PasswordChecks, user: { id: number; password: string }, password: string): Promise<boolean> => {
  if (!checks.needsRehash(user.password)) return false;
  let upgraded: string;
  try {
    upgraded = await checks.hash(password);
  } catch (error) {
    if (error instanceof PasswordQueueFull) return false;
    throw error;
  }
  const changed = await db
    .update(sysUser)
    .set({ password: upgraded })
    .where(and(eq(sysUser.id, user.id), eq(sysUser.password, user.password)))
    .returning({ id: sysUser.id });
  return changed.length > 0;
};
