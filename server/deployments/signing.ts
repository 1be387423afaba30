// Signed package download URLs (docs/deployments.md "Download"): HMAC-SHA256 of the delivery id and the
// expiry, with a key every instance shares (table server_secret, made at random on first use), so a URL
// signed by one instance is honoured by another and no one can make or stretch one without the key.
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { Db } from '../db/client';
import { serverSecret } from '../db/schema/deployments';

const KEY_NAME = 'packageDownload';
/** Keys by database: a key never changes once made, so each instance reads it once. */
const keys = new WeakMap<Db, Promise<string>>();

const readOrCreateKey = async (db: Db): Promise<string> => {
  // Two instances making it at once: one insert wins, both read the winner.
  await db
    .insert(serverSecret)
    .values({ name: KEY_NAME, secret: randomBytes(32).toString('base64url') })
    .onConflictDoNothing();
  const [row] = await db.select({ secret: serverSecret.secret }).from(serverSecret).where(eq(serverSecret.name, KEY_NAME));
  return row.secret;
};

export const signingKey = (db: Db): Promise<string> => {
  let key = keys.get(db);
  if (!key) {
    key = readOrCreateKey(db);
    // a failed read is not kept: the next call tries again
    key.catch(() => keys.delete(db));
    keys.set(db, key);
  }
  return key;
};

/** Hex HMAC of `<deployId>.<expires>` (expires: Unix seconds). */
export const signature = (key: string, deployId: number, expires: number) => createHmac('sha256', key).update(`${deployId}.${expires}`).digest('hex');

export const signatureMatches = (key: string, deployId: number, expires: number, given: string): boolean => {
  const expected = Buffer.from(signature(key, deployId, expires), 'hex');
  const actual = /^[0-9a-f]{64}$/.test(given) ? Buffer.from(given, 'hex') : Buffer.alloc(0);
  return actual.length === expected.length && timingSafeEqual(actual, expected);
};

/** The route a machine downloads a delivery's package from (under the API prefix). */
export const DOWNLOAD_PATH = '/gateway/package';

/** `<apiBase>/gateway/package/<deployId>?expires=<s>&signature=<hex>`; `apiBase` is PUBLIC_URL with the API prefix. */
export const downloadUrl = (apiBase: string, key: string, deployId: number, expiresAt: Date): string => {
  const expires = Math.floor(expiresAt.getTime() / 1000);
  return `${apiBase}${DOWNLOAD_PATH}/${deployId}?expires=${expires}&signature=${signature(key, deployId, expires)}`;
};
