// Password hashing with node's memory-hard scrypt, 16-byte salt, 64-byte key, on libuv's thread pool
// (node's async scrypt), never the event loop. The parameters are one of OWASP's equivalent-strength
// scrypt sets, picked by log2(N) (PASSWORD_HASH_LOG_N): N=2^17 p=1, 2^16 p=2, 2^15 p=3 (the default:
// 32 MiB, measured in docs/security.md), 2^14 p=5, 2^13 p=10, all r=8. Below 2^13 (tests only) p=1.
// Stored as `scrypt$N$r$p$salt$hash` (base64): old hashes keep verifying with their own parameters and
// are re-hashed with the current ones at the next successful sign-in (`needsRehash`, server/auth/rehash.ts).
// Routes run every computation through the instance's bounded queue (passwordQueue.ts), never directly.
import { randomBytes, scrypt, timingSafeEqual } from 'node:crypto';

const KEY_LENGTH = 64;
const SALT_LENGTH = 16;
const BLOCK_SIZE = 8;

/** OWASP's scrypt sets of equal strength (Password Storage Cheat Sheet): log2(N) -> p, r = 8. */
export const OWASP_SCRYPT_PARALLELISM: Readonly<Record<number, number>> = { 17: 1, 16: 2, 15: 3, 14: 5, 13: 10 };

export interface ScryptParameters {
  N: number;
  r: number;
  p: number;
}

export const scryptParametersFor = (logN: number): ScryptParameters => ({ N: 2 ** logN, r: BLOCK_SIZE, p: OWASP_SCRYPT_PARALLELISM[logN] ?? 1 });

/**
 * Bytes one computation allocates, as OpenSSL counts them against `maxmem`: the N-block table
 * (128·r·(N+2)) and the p blocks (128·r·p). Node's default limit (32 MiB) is below what 2^15 needs.
 */
export const scryptMemory = ({ N, r, p }: ScryptParameters) => 128 * r * (N + 2) + 128 * r * p;

/** The memory of OWASP's N=2^17 set: hashes made before 2^15 became the default still verify. */
const LEGACY_MEMORY = scryptMemory(scryptParametersFor(17));

const derive = (password: string, salt: Buffer, parameters: ScryptParameters, keyLength: number) =>
  new Promise<Buffer>((resolve, reject) =>
    // maxmem: exactly what these parameters take, so no computation can allocate more.
    scrypt(password.normalize('NFC'), salt, keyLength, { ...parameters, maxmem: scryptMemory(parameters) }, (error, key) => (error ? reject(error) : resolve(key))),
  );

interface StoredHash {
  parameters: ScryptParameters;
  salt: Buffer;
  key: Buffer;
}

const isPowerOfTwo = (value: number) => Number.isSafeInteger(value) && value > 1 && (value & (value - 1)) === 0;

/** The parts of a stored hash; undefined when it is malformed or would need more than `memoryLimit` bytes. */
const parseStored = (stored: string, memoryLimit: number): StoredHash | undefined => {
  const [scheme, n, r, p, salt, key, ...rest] = stored.split('$');
  if (scheme !== 'scrypt' || !salt || !key || rest.length) return undefined;
  const parameters = { N: Number(n), r: Number(r), p: Number(p) };
  if (!isPowerOfTwo(parameters.N) || !Number.isSafeInteger(parameters.r) || parameters.r < 1 || !Number.isSafeInteger(parameters.p) || parameters.p < 1) return undefined;
  if (scryptMemory(parameters) > memoryLimit) return undefined;
  const keyBytes = Buffer.from(key, 'base64');
  return keyBytes.length ? { parameters, salt: Buffer.from(salt, 'base64'), key: keyBytes } : undefined;
};

export interface PasswordHasher {
  /** The parameters new hashes get. */
  readonly parameters: ScryptParameters;
  hash(password: string): Promise<string>;
  /** Constant-time comparison; false for a malformed stored value. */
  verify(password: string, stored: string): Promise<boolean>;
  /** Spends the same time as a real verification (unknown users must not answer faster). */
  verifyDummy(password: string): Promise<false>;
  /** True when `stored` was made with other parameters than the current ones (re-hash after a successful check). */
  needsRehash(stored: string): boolean;
}

export const createPasswordHasher = (logN: number): PasswordHasher => {
  const parameters = scryptParametersFor(logN);
  // Stored hashes may need up to the legacy set's memory (or the current one's, if larger); never more.
  const memoryLimit = Math.max(scryptMemory(parameters), LEGACY_MEMORY);
  const hash = async (password: string) => {
    const salt = randomBytes(SALT_LENGTH);
    const key = await derive(password, salt, parameters, KEY_LENGTH);
    return ['scrypt', parameters.N, parameters.r, parameters.p, salt.toString('base64'), key.toString('base64')].join('$');
  };
  const verify = async (password: string, stored: string) => {
    const parsed = parseStored(stored, memoryLimit);
    if (!parsed) return false;
    const key = await derive(password, parsed.salt, parsed.parameters, parsed.key.length);
    return timingSafeEqual(key, parsed.key);
  };
  let dummy: Promise<string> | undefined;
  return {
    parameters,
    hash,
    verify,
    verifyDummy: async (password) => {
      dummy ??= hash(randomBytes(12).toString('base64'));
      await verify(password, await dummy);
      return false;
    },
    needsRehash: (stored) => {
      const parsed = parseStored(stored, Number.POSITIVE_INFINITY);
      return !parsed || parsed.parameters.N !== parameters.N || parsed.parameters.r !== parameters.r || parsed.parameters.p !== parameters.p || parsed.key.length !== KEY_LENGTH;
    },
  };
};
