// Session tokens: 32 random bytes (base64url) handed out once, stored only as their SHA-256 hash.
// Every check reads the database, so any instance accepts a token another instance issued.
import { createHash, randomBytes } from 'node:crypto';
import { and, desc, eq, gt, inArray, isNull, lt } from 'drizzle-orm';
import type { ServerConfig } from '../config';
import type { Db } from '../db/client';
import { sysToken } from '../db/schema';
import { AppError } from '../lib/errors';

const TOKEN_FORMAT = /^[A-Za-z0-9_-]{43}$/;
const TOUCH_INTERVAL_MS = 60_000;
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

export type RevokeReason = 'logout' | 'passwordChange' | 'passwordReset' | 'disabled' | 'deleted' | 'superseded';

export const sha256 = (value: string) => createHash('sha256').update(value).digest('hex');
export const randomSecret = () => randomBytes(32).toString('base64url');

export interface TokenRow {
  id: number;
  userId: number;
  /** The client's UTC offset sent at sign-in (local times in exports). */
  utcOffsetMinutes: number | null;
}

/** Issues a token; past MAX_SESSIONS_PER_USER live sessions the oldest are superseded (11016). */
export const issueToken = async (db: Db, config: ServerConfig, userId: number, utcOffsetMinutes?: number): Promise<string> => {
  const value = randomSecret();
  const now = new Date();
  await db.transaction(async (tx) => {
    await tx.insert(sysToken).values({ userId, tokenHash: sha256(value), createdAt: now, lastSeenAt: now, utcOffsetMinutes });
    const live = await tx
      .select({ id: sysToken.id })
      .from(sysToken)
      .where(
        and(
          eq(sysToken.userId, userId),
          isNull(sysToken.revokedAt),
          gt(sysToken.createdAt, new Date(now.getTime() - config.tokenMaxHours * HOUR)),
          gt(sysToken.lastSeenAt, new Date(now.getTime() - config.tokenIdleMinutes * MINUTE)),
        ),
      )
      .orderBy(desc(sysToken.createdAt), desc(sysToken.id));
    const surplus = live.slice(config.maxSessionsPerUser).map((row) => row.id);
    if (surplus.length > 0) {
      await tx.update(sysToken).set({ revokedAt: now, revokeReason: 'superseded' }).where(inArray(sysToken.id, surplus));
    }
    // Housekeeping: rows past their absolute lifetime for a day can no longer tell the client anything useful.
    await tx.delete(sysToken).where(and(eq(sysToken.userId, userId), lt(sysToken.createdAt, new Date(now.getTime() - config.tokenMaxHours * HOUR - 24 * HOUR))));
  });
  return value;
};

/** The stored hash of a token header value; 11011 without one, 11012 when it cannot be a token. */
export const tokenHashOf = (value: string | undefined): string => {
  if (!value) throw new AppError('11011');
  if (!TOKEN_FORMAT.test(value)) throw new AppError('11012');
  return sha256(value);
};

/**
 * The forced-logout checks of a stored token (11013 to 11016). Answers the new last-seen time when
 * the row is due a touch (at most once a minute: idle expiry needs no finer grain, and it spares a
 * write per request), else null.
 */
export const checkTokenRow = (config: ServerConfig, row: { revoked: boolean; revokeReason: string | null; createdAt: number; lastSeenAt: number }): Date | null => {
  if (row.revoked) throw new AppError(row.revokeReason === 'superseded' ? '11016' : '11015');
  const now = Date.now();
  if (now - row.createdAt > config.tokenMaxHours * HOUR) throw new AppError('11014');
  if (now - row.lastSeenAt > config.tokenIdleMinutes * MINUTE) throw new AppError('11013');
  return now - row.lastSeenAt > TOUCH_INTERVAL_MS ? new Date(now) : null;
};

export const touchToken = (db: Db, tokenId: number, at: Date) => db.update(sysToken).set({ lastSeenAt: at }).where(eq(sysToken.id, tokenId));

/** Checks a token header value, answering the forced-logout codes 11011 to 11016. */
export const authenticate = async (db: Db, config: ServerConfig, value: string | undefined): Promise<TokenRow> => {
  const [row] = await db
    .select()
    .from(sysToken)
    .where(eq(sysToken.tokenHash, tokenHashOf(value)))
    .limit(1);
  if (!row) throw new AppError('11012');
  const touch = checkTokenRow(config, {
    revoked: Boolean(row.revokedAt),
    revokeReason: row.revokeReason,
    createdAt: row.createdAt.getTime(),
    lastSeenAt: row.lastSeenAt.getTime(),
  });
  if (touch) await touchToken(db, row.id, touch);
  return { id: row.id, userId: row.userId, utcOffsetMinutes: row.utcOffsetMinutes ?? null };
};

export const revokeToken = (db: Db, tokenId: number, reason: RevokeReason) =>
  db
    .update(sysToken)
    .set({ revokedAt: new Date(), revokeReason: reason })
    .where(and(eq(sysToken.id, tokenId), isNull(sysToken.revokedAt)));

export const revokeUserTokens = (db: Db, userId: number, reason: RevokeReason) =>
  db
    .update(sysToken)
    .set({ revokedAt: new Date(), revokeReason: reason })
    .where(and(eq(sysToken.userId, userId), isNull(sysToken.revokedAt)));
