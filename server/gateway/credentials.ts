// Machine identities at the gateway (docs/machine-protocol.md "Identity and access"). Secrets are 256
// random bits, so a fast SHA-256 digest is as safe to store as a slow password hash (nothing to
// guess) and lets thousands of machines reconnect at once without scrypt's cost per connection.
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { and, eq, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { rvm } from '../db/schema/fleet';
import { gatewayEnrollmentKey, rvmCredential } from '../db/schema/liveFleet';

const digest = (secret: string) => createHash('sha256').update(secret).digest('hex');
const newSecret = () => randomBytes(32).toString('base64url');

const sameDigest = (secret: string, stored: string) => {
  const given = Buffer.from(digest(secret), 'hex');
  const expected = Buffer.from(stored, 'hex');
  return given.length === expected.length && timingSafeEqual(given, expected);
};

export interface MachineIdentity {
  /** Null for an enrolling machine that is not registered yet: its messages go to the quarantine. */
  rvmId: number | null;
  licenseAccountId: number;
  serialNumber: string;
}

/** Creates or rotates a machine's secret; answers the secret, which is never stored or shown again. */
export const issueCredential = async (
  db: Db,
  machine: { id: number; licenseAccountId: number; serialNumber: string },
  userId: number | null,
): Promise<string> => {
  const secret = newSecret();
  await db.transaction(async (tx) => {
    // A serial number has one credential in the installation: a machine re-registered under another
    // record (or account) takes it over, and the old record's secret stops working.
    await tx.delete(rvmCredential).where(and(eq(rvmCredential.serialNumber, machine.serialNumber), sql`${rvmCredential.rvmId} <> ${machine.id}`));
    await tx
      .insert(rvmCredential)
      .values({ rvmId: machine.id, licenseAccountId: machine.licenseAccountId, serialNumber: machine.serialNumber, secretHash: digest(secret), rotatedBy: userId })
      .onConflictDoUpdate({
        target: rvmCredential.rvmId,
        set: { serialNumber: machine.serialNumber, licenseAccountId: machine.licenseAccountId, secretHash: digest(secret), rotatedBy: userId, rotatedTime: new Date() },
      });
  });
  return secret;
};

/** Creates or rotates a license account's enrollment key: `<accountId>.<secret>`, shown once. */
export const issueEnrollmentKey = async (db: Db, licenseAccountId: number, userId: number | null): Promise<string> => {
  const secret = newSecret();
  await db
    .insert(gatewayEnrollmentKey)
    .values({ licenseAccountId, keyHash: digest(secret), rotatedBy: userId })
    .onConflictDoUpdate({ target: gatewayEnrollmentKey.licenseAccountId, set: { keyHash: digest(secret), rotatedBy: userId, rotatedTime: new Date() } });
  return `${licenseAccountId}.${secret}`;
};

/**
 * Who connects with this user name (serial number) and password: the machine with that credential,
 * or, with an enrollment key, a machine of that account (registered under that serial or not yet).
 */
export const authenticateMachine = async (db: Db, serialNumber: string, password: string): Promise<MachineIdentity | null> => {
  if (!serialNumber || serialNumber.length > 32 || !password || password.length > 200) return null;
  const [credential] = await db.select().from(rvmCredential).where(eq(rvmCredential.serialNumber, serialNumber)).limit(1);
  if (credential && sameDigest(password, credential.secretHash)) {
    return { rvmId: credential.rvmId, licenseAccountId: credential.licenseAccountId, serialNumber };
  }
  const match = /^(\d{1,9})\.(.+)$/.exec(password);
  if (!match) return null;
  const licenseAccountId = Number(match[1]);
  const [key] = await db.select().from(gatewayEnrollmentKey).where(eq(gatewayEnrollmentKey.licenseAccountId, licenseAccountId)).limit(1);
  if (!key || !sameDigest(match[2], key.keyHash)) return null;
  return { rvmId: await machineIdBySerial(db, licenseAccountId, serialNumber), licenseAccountId, serialNumber };
};

/** The account's machine with this serial number, if it has been registered. */
export const machineIdBySerial = async (db: Db, licenseAccountId: number, serialNumber: string): Promise<number | null> => {
  const [row] = await db
    .select({ id: rvm.id })
    .from(rvm)
    .where(and(eq(rvm.licenseAccountId, licenseAccountId), eq(rvm.serialNumber, serialNumber)))
    .orderBy(rvm.id)
    .limit(1);
  return row?.id ?? null;
};
