// Sign-in failures, counted in the database (so every instance sees them) inside a sliding
// LOGIN_LOCK_MINUTES window, by lower-cased user name (known or not, so the answers do not reveal
// which names exist) and client address, in three dimensions (README "Permissions and security"):
// - the (user name, address) pair: LOGIN_MAX_FAILURES failures lock that pair (code 7);
// - the user name across addresses: LOGIN_ACCOUNT_MAX_FAILURES lock the account for everyone (code 7);
// - the address across user names: LOGIN_ADDRESS_MAX_FAILURES and the address is refused (4029).
// Only failures count. Before its password is checked, a sign-in reserves a slot (a `pending` row)
// under per-name and per-address transaction advisory locks, so parallel requests on any number of
// instances never check more passwords than the limits allow; a success gives its slot back (and
// clears its pair's failures), a failure keeps it. A sign-in that finds the slots taken only by checks
// still running waits for them (they may succeed) rather than being refused.
import { and, eq, lt, or, sql } from 'drizzle-orm';
import type { ServerConfig } from '../config';
import type { Db } from '../db/client';
import { loginAttempt } from '../db/schema';

type LimitConfig = Pick<ServerConfig, 'loginMaxFailures' | 'loginAccountMaxFailures' | 'loginAddressMaxFailures' | 'loginLockMinutes'>;

const key = (username: string) => username.trim().toLowerCase();
const addressKey = (address: string) => address.slice(0, 64);
const windowMs = (config: LimitConfig) => config.loginLockMinutes * 60_000;
/** First keys of the two-key advisory locks ("LGN", "LGA"), apart from the migration lock's one-key space. */
const NAME_LOCK = 0x4c474e;
const ADDRESS_LOCK = 0x4c4741;
/** A reservation older than this was abandoned (its instance died mid-check): it counts as a failure. */
const STALE_PENDING_MS = 2 * 60_000;
/** How long a sign-in waits for running checks to free a slot before answering 4029. */
const SLOT_WAIT_MS = 10_000;
/** Checks running on other instances are not announced here: look again after this, doubling up to SLOT_POLL_MAX_MS. */
const SLOT_POLL_MS = 200;
const SLOT_POLL_MAX_MS = 1_000;
/** Sign-ins of this process waiting for a slot at most; more answer 4029 at once. */
const MAX_SLOT_WAITERS = 200;

export type LoginClaim =
  /** A slot is reserved: check the password, then `recordFailure` or `recordSuccess`. */
  | { kind: 'claimed'; id: number; username: string; address: string; attemptsLeft: number; retryAfterIfLocked: number }
  /** The pair or the account has too many failures: code 7. */
  | { kind: 'locked'; retryAfter: number }
  /** The address has too many failures: 4029. */
  | { kind: 'throttled'; retryAfter: number }
  /** Every slot is held by a check still running (here or on another instance), even after waiting: 4029. */
  | { kind: 'busy'; retryAfter: number };

interface Row {
  username: string;
  address: string;
  attemptedAt: Date;
  pending: boolean;
}

const secondsUntil = (time: number) => Math.max(1, Math.ceil((time - Date.now()) / 1000));

/** When `rows` (failures of one dimension, at its limit) fall below it: the oldest leaves the window. */
const retryAfterOf = (config: LimitConfig, rows: Row[]) => secondsUntil(Math.min(...rows.map((row) => row.attemptedAt.getTime()), Date.now()) + windowMs(config));

const tryClaim = (db: Db, config: LimitConfig, username: string, address: string): Promise<LoginClaim> =>
  db.transaction(async (tx) => {
    // Always the name first, then the address: no two sign-ins wait for each other in a circle.
    await tx.execute(sql`select pg_advisory_xact_lock(${NAME_LOCK}::int4, hashtext(${username}))`);
    await tx.execute(sql`select pg_advisory_xact_lock(${ADDRESS_LOCK}::int4, hashtext(${address}))`);
    const since = new Date(Date.now() - windowMs(config));
    const mine = or(eq(loginAttempt.username, username), eq(loginAttempt.address, address));
    await tx.delete(loginAttempt).where(and(mine, lt(loginAttempt.attemptedAt, since)));
    // Bounded: reservations never exceed the limits, so at most their sum of rows.
    const rows: Row[] = await tx
      .select({ username: loginAttempt.username, address: loginAttempt.address, attemptedAt: loginAttempt.attemptedAt, pending: loginAttempt.pending })
      .from(loginAttempt)
      .where(mine);
    const staleBefore = Date.now() - STALE_PENDING_MS;
    const failed = (row: Row) => !row.pending || row.attemptedAt.getTime() < staleBefore;
    const pair = rows.filter((row) => row.username === username && row.address === address);
    const account = rows.filter((row) => row.username === username);
    const fromAddress = rows.filter((row) => row.address === address);
    const limits: Array<[Row[], number]> = [
      [pair, config.loginMaxFailures],
      [account, config.loginAccountMaxFailures],
    ];

    const addressFailures = fromAddress.filter(failed);
    if (addressFailures.length >= config.loginAddressMaxFailures) return { kind: 'throttled', retryAfter: retryAfterOf(config, addressFailures) };
    const locking = limits.filter(([dimension, max]) => dimension.filter(failed).length >= max);
    if (locking.length) return { kind: 'locked', retryAfter: Math.max(...locking.map(([dimension]) => retryAfterOf(config, dimension.filter(failed)))) };
    if ([...limits, [fromAddress, config.loginAddressMaxFailures] as [Row[], number]].some(([dimension, max]) => dimension.length >= max)) {
      return { kind: 'busy', retryAfter: 1 };
    }

    const [row] = await tx.insert(loginAttempt).values({ username, address, pending: true }).returning({ id: loginAttempt.id });
    // If this check fails: the attempts left, and (when none) how long the lock will last.
    const left = Math.min(...limits.map(([dimension, max]) => max - dimension.length - 1));
    const lockedBy = limits.filter(([dimension, max]) => max - dimension.length - 1 <= 0);
    const retryAfterIfLocked = lockedBy.length ? Math.max(...lockedBy.map(([dimension]) => retryAfterOf(config, dimension))) : 0;
    return { kind: 'claimed', id: row.id, username, address, attemptsLeft: left, retryAfterIfLocked };
  });

/** Sign-ins of this process waiting for a slot (in arrival order), woken when a check here ends with their name or address. */
const waiters = new Set<{ username: string; address: string; wake: () => void }>();

/**
 * One check of this name and address ended. A failure may lock what they wait for: all look again.
 * A slot given back admits one: the longest waiting looks again (the others at their next poll).
 */
const checkEnded = (username: string, address: string, outcome: 'failed' | 'slotFreed') => {
  for (const waiter of waiters) {
    if (waiter.username !== username && waiter.address !== address) continue;
    waiter.wake();
    if (outcome === 'slotFreed') return;
  }
};

const waitForSlot = (username: string, address: string, pollMs: number) =>
  new Promise<void>((resolve) => {
    const waiter = {
      username,
      address,
      wake: () => {
        clearTimeout(timer);
        waiters.delete(waiter);
        resolve();
      },
    };
    const timer = setTimeout(waiter.wake, pollMs);
    waiters.add(waiter);
  });

/**
 * Reserves a slot for one password check of `username` from `address` (request.ip), waiting up to a
 * few seconds while every slot is held by a check still running.
 */
export const claimLoginSlot = async (db: Db, config: LimitConfig, rawUsername: string, rawAddress: string): Promise<LoginClaim> => {
  const username = key(rawUsername);
  const address = addressKey(rawAddress);
  const deadline = Date.now() + SLOT_WAIT_MS;
  for (let pollMs = SLOT_POLL_MS; ; pollMs = Math.min(pollMs * 2, SLOT_POLL_MAX_MS)) {
    const claim = await tryClaim(db, config, username, address);
    if (claim.kind !== 'busy' || Date.now() >= deadline || waiters.size >= MAX_SLOT_WAITERS) return claim;
    await waitForSlot(username, address, Math.min(pollMs, deadline - Date.now()));
  }
};

/** The check failed: the slot stays taken, as a failure. */
export const recordFailure = async (db: Db, claim: Extract<LoginClaim, { kind: 'claimed' }>) => {
  await db.update(loginAttempt).set({ pending: false }).where(eq(loginAttempt.id, claim.id));
  checkEnded(claim.username, claim.address, 'failed');
};

/** No password was checked after all (e.g. the check queue was full): the slot is given back. */
export const releaseSlot = async (db: Db, claim: Extract<LoginClaim, { kind: 'claimed' }>) => {
  await db.delete(loginAttempt).where(eq(loginAttempt.id, claim.id));
  checkEnded(claim.username, claim.address, 'slotFreed');
};

/**
 * The right password: the slot is given back and the pair's failures are forgotten. Failures from
 * other addresses stay (the owner signing in does not reset an attacker's count), and so do other
 * checks of the pair still running.
 */
export const recordSuccess = async (db: Db, claim: Extract<LoginClaim, { kind: 'claimed' }>) => {
  const pairFailures = and(eq(loginAttempt.username, claim.username), eq(loginAttempt.address, claim.address), eq(loginAttempt.pending, false));
  await db.delete(loginAttempt).where(or(eq(loginAttempt.id, claim.id), pairFailures));
  checkEnded(claim.username, claim.address, 'slotFreed');
};

/** Periodic sweep: rows past the window (of names and addresses never seen again). */
export const sweepLoginAttempts = (db: Db, config: LimitConfig, now = new Date()) =>
  db.delete(loginAttempt).where(lt(loginAttempt.attemptedAt, new Date(now.getTime() - windowMs(config))));
