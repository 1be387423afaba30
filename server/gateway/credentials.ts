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
  /** The machine; null when it is looked up by serial number (quarantine retry) or enrolling. */
  rvmId: number | null;
  licenseAccountId: number;
  serialNumber: string;
  /**
   * Connected with the account's enrollment key, not its own secret: everything it sends waits in the
   * quarantine, registered or not (a shared key must never let a device speak for a machine).
   */
  enrolled?: boolean;
}

/** A serial number is the MQTT user name and a topic level: letters, digits, _ and - only (no `+ # /`). */
export const SERIAL_NUMBER = /^[A-Za-z0-9_-]{1,32}$/;

/**
 * A machine's MQTT client id: its serial number (the connection commands go to), or `<serial>.<suffix>`
 * for further connections of the same machine, e.g. a command-line publisher beside a subscriber
 * (docs/machine-protocol.md "Identity and access"). `.` never occurs in a serial number.
 */
export const isClientIdOf = (clientId: string, serial: string): boolean =>
  clientId === serial || (clientId.startsWith(`${serial}.`) && /^[A-Za-z0-9_-]{1,16}$/.test(clientId.slice(serial.length + 1)));

/** Another license account already has this serial number's credential (2002 on rotation). */
export class SerialTaken extends Error {}

/** Creates or rotates a machine's secret; answers the secret, which is never stored or shown again. */
export const issueCredential = async (db: Db, machine: { id: number; licenseAccountId: number; serialNumber: string }, userId: number | null): Promise<string> => {
  if (!SERIAL_NUMBER.test(machine.serialNumber)) throw new SerialTaken('invalid serial number');
  const secret = newSecret();
  await db.transaction(async (tx) => {
    // A serial number has one credential in the installation. Another record of the same account
    // (a machine registered again) takes it over; another account's never: that would lock its machine out.
    const [holder] = await tx
      .select()
      .from(rvmCredential)
      .where(and(eq(rvmCredential.serialNumber, machine.serialNumber), sql`${rvmCredential.rvmId} <> ${machine.id}`))
      .for('update');
    if (holder && holder.licenseAccountId !== machine.licenseAccountId) throw new SerialTaken(machine.serialNumber);
    if (holder) await tx.delete(rvmCredential).where(eq(rvmCredential.rvmId, holder.rvmId));
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
 * Who connects with this user name (serial number) and password: the machine holding that serial's
 * credential, or, when the key's account has no machine of that serial, an enrolling device.
 */
export const authenticateMachine = async (db: Db, serialNumber: string, password: string): Promise<MachineIdentity | null> => {
  if (!SERIAL_NUMBER.test(serialNumber) || !password || password.length > 200) return null;
  const [credential] = await db.select().from(rvmCredential).where(eq(rvmCredential.serialNumber, serialNumber)).limit(1);
  if (credential) {
    // A serial number with its own secret connects with that secret only, never with an enrollment key.
    return sameDigest(password, credential.secretHash) ? { rvmId: credential.rvmId, licenseAccountId: credential.licenseAccountId, serialNumber } : null;
  }
  const match = /^(\d{1,9})\.(.+)$/.exec(password);
  if (!match) return null;
  const licenseAccountId = Number(match[1]);
  const [key] = await db.select().from(gatewayEnrollmentKey).where(eq(gatewayEnrollmentKey.licenseAccountId, licenseAccountId)).limit(1);
  if (!key || !sameDigest(match[2], key.keyHash)) return null;
  // The key speaks only for serial numbers the account has not registered: a registered machine
  // connects with its own secret (ProfileSetting › Gateway connection), never as an enrolling device.
  if ((await machineIdBySerial(db, licenseAccountId, serialNumber)) !== null) return null;
  return { rvmId: null, licenseAccountId, serialNumber, enrolled: true };
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
