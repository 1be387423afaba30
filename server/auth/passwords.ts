// Password hashing with node's memory-hard scrypt (OWASP: N=2^17, r=8, p=1), 16-byte salt, 64-byte key.
// Stored as `scrypt$N$r$p$salt$hash` (base64) so parameters can change without invalidating old hashes.
// Each computation takes 128*N*r bytes (128 MB at N=2^17): routes run them through the instance's bounded
// queue (passwordQueue.ts), never directly.
import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';

const KEY_LENGTH = 64;
const SALT_LENGTH = 16;

const derive = (password: string, salt: Buffer, options: ScryptOptions, keyLength: number) =>
  new Promise<Buffer>((resolve, reject) =>
    // maxmem: scrypt needs 128*N*r bytes; node's 32 MB default is too small for N=2^17.
    scrypt(password.normalize('NFC'), salt, keyLength, { ...options, maxmem: 256 * 1024 * 1024 }, (error, key) =>
      error ? reject(error) : resolve(key),
    ),
  );

export interface PasswordHasher {
  hash(password: string): Promise<string>;
  /** Constant-time comparison; false for a malformed stored value. */
  verify(password: string, stored: string): Promise<boolean>;
  /** Spends the same time as a real verification (unknown users must not answer faster). */
  verifyDummy(password: string): Promise<false>;
}

export const createPasswordHasher = (logN: number): PasswordHasher => {
  const params = { N: 2 ** logN, r: 8, p: 1 };
  const hash = async (password: string) => {
    const salt = randomBytes(SALT_LENGTH);
    const key = await derive(password, salt, params, KEY_LENGTH);
    return ['scrypt', params.N, params.r, params.p, salt.toString('base64'), key.toString('base64')].join('$');
  };
  const verify = async (password: string, stored: string) => {
    const [scheme, n, r, p, salt, expected] = stored.split('$');
    if (scheme !== 'scrypt' || !salt || !expected) return false;
    const expectedKey = Buffer.from(expected, 'base64');
    const options = { N: Number(n), r: Number(r), p: Number(p) };
    if (![options.N, options.r, options.p].every(Number.isInteger) || expectedKey.length === 0) return false;
    const key = await derive(password, Buffer.from(salt, 'base64'), options, expectedKey.length);
    return timingSafeEqual(key, expectedKey);
  };
  let dummy: Promise<string> | undefined;
  return {
    hash,
    verify,
    verifyDummy: async (password) => {
      dummy ??= hash(randomBytes(12).toString('base64'));
      await verify(password, await dummy);
      return false;
    },
  };
};
