// Session tokens: 32 random bytes (base64url) handed out once, stored only as their SHA-256 hash.
// Every check reads the database, so any instance accepts a token another instance issued.
import { createHash, randomBytes } from 'node:crypto';
import { and, desc, eq, gt, inArray, isNull, lt } from 'drizzle-orm';
import type { ServerConfig } from '../config';
import type { Db } from '../db/client';
import { sysToken } from '../db/schema';
import { AppError } from '../lib/errors';

export const TOKEN_NAME = 'rvm-token';
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
    await tx
      .delete(sysToken)
      .where(and(eq(sysToken.userId, userId), lt(sysToken.createdAt, new Date(now.getTime() - config.tokenMaxHours * HOUR - 24 * HOUR))));
  });
  return value;
};

/** Checks a token header value, answering the forced-logout codes 11011 to 11016. */
export const authenticate = async (db: Db, config: ServerConfig, value: string | undefined): Promise<TokenRow> => {
  if (!value) throw new AppError('11011');
  if (!TOKEN_FORMAT.test(value)) throw new AppError('11012');
  const [row] = await db.select().from(sysToken).where(eq(sysToken.tokenHash, sha256(value))).limit(1);
  if (!row) throw new AppError('11012');
  if (row.revokedAt) throw new AppError(row.revokeReason === 'superseded' ? '11016' : '11015');
  const now = Date.now();
  if (now - row.createdAt.getTime() > config.tokenMaxHours * HOUR) throw new AppError('11014');
  if (now - row.lastSeenAt.getTime() > config.tokenIdleMinutes * MINUTE) throw new AppError('11013');
  // Touch at most once a minute: idle expiry needs no finer grain, and it spares a write per request.
  if (now - row.lastSeenAt.getTime() > TOUCH_INTERVAL_MS) {
    await db.update(sysToken).set({ lastSeenAt: new Date(now) }).where(eq(sysToken.id, row.id));
  }
  return { id: row.id, userId: row.userId, utcOffsetMinutes: row.utcOffsetMinutes ?? null };
};

export const revokeToken = (db: Db, tokenId: number, reason: RevokeReason) =>
  db.update(sysToken).set({ revokedAt: new Date(), revokeReason: reason }).where(and(eq(sysToken.id, tokenId), isNull(sysToken.revokedAt)));

export const revokeUserTokens = (db: Db, userId: number, reason: RevokeReason) =>
  db.update(sysToken).set({ revokedAt: new Date(), revokeReason: reason }).where(and(eq(sysToken.userId, userId), isNull(sysToken.revokedAt)));
