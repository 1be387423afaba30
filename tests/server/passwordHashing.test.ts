// Password hashing parameters: OWASP's equivalent scrypt sets, scrypt's memory limit set to what the
// parameters need, stored hashes with other parameters still verifying and upgraded at the next
// successful sign-in (after the answer), never over a password changed meanwhile.
import { eq } from 'drizzle-orm';
import { scrypt } from 'node:crypto';
import { describe, expect, it, vi } from 'vitest';
import { answeredWorkSettled } from '../../server/auth/afterAnswer';
import { passwordChecksOf } from '../../server/auth/passwordQueue';
import { createPasswordHasher, scryptMemory, scryptParametersFor } from '../../server/auth/passwords';
import { upgradePasswordHash } from '../../server/auth/rehash';
import { DEFAULT_CONFIG } from '../../server/config';
import { sysUser } from '../../server/db/schema';
import { describeOneBackend, TEST_CONFIG } from './helpers';

const MiB = 1024 * 1024;

// The real scrypt, counted: a refused stored hash must not reach it.
vi.mock('node:crypto', async (importOriginal) => {
  const actual = await importOriginal<typeof import('node:crypto')>();
  return { ...actual, scrypt: vi.fn(actual.scrypt) };
});

describe('password hashing parameters', () => {
  it("uses OWASP's N=2^15 r=8 p=3 by default, within 64 MiB, and maps each OWASP N to its p", () => {
    expect(DEFAULT_CONFIG.passwordHashLogN).toBe(15);
    expect(scryptParametersFor(15)).toEqual({ N: 2 ** 15, r: 8, p: 3 });
    expect([17, 16, 15, 14, 13].map((logN) => scryptParametersFor(logN).p)).toEqual([1, 2, 3, 5, 10]);
    expect(scryptMemory(scryptParametersFor(15))).toBeLessThanOrEqual(64 * MiB);
    // Above node's default maxmem (32 MiB): hashing works only because maxmem is set from the parameters.
    expect(scryptMemory(scryptParametersFor(15))).toBeGreaterThan(32 * MiB);
  });

  it('hashes with the default set and stores its parameters with the hash', async () => {
    const hasher = createPasswordHasher(DEFAULT_CONFIG.passwordHashLogN);
    const stored = await hasher.hash('Correct#Horse1');
    expect(stored).toMatch(/^scrypt\$32768\$8\$3\$[A-Za-z0-9+/=]+\$[A-Za-z0-9+/=]{88}$/);
    expect(await hasher.verify('Correct#Horse1', stored)).toBe(true);
    expect(await hasher.verify('Correct#Horse2', stored)).toBe(false);
    expect(hasher.needsRehash(stored)).toBe(false);
  });

  it('verifies hashes of other parameter sets and flags them for re-hashing; refuses ones beyond the memory limit without computing', async () => {
    const current = createPasswordHasher(12);
    const older = await createPasswordHasher(13).hash('Older#Pass1');
    expect(older.startsWith('scrypt$8192$8$10$')).toBe(true);
    expect(await current.verify('Older#Pass1', older)).toBe(true);
    expect(current.needsRehash(older)).toBe(true);
    // N=2^20 would take 1 GiB: answered false at once instead of allocating it.
    const huge = older.replace('scrypt$8192$8$10$', 'scrypt$1048576$8$1$');
    vi.mocked(scrypt).mockClear();
    expect(await current.verify('Older#Pass1', huge)).toBe(false);
    expect(scrypt).not.toHaveBeenCalled();
    expect(await current.verify('Older#Pass1', older)).toBe(true);
    expect(scrypt).toHaveBeenCalledTimes(1);
    for (const malformed of ['', 'scrypt$1000$8$1$c2FsdA==$a2V5', 'bcrypt$x', 'scrypt$8192$8$0$c2FsdA==$a2V5']) {
      expect(await current.verify('Older#Pass1', malformed), malformed).toBe(false);
      expect(current.needsRehash(malformed), malformed).toBe(true);
    }
  });
});

describeOneBackend('password hash upgrade at sign-in', (server) => {
  const storedHashOf = async (id: number) => (await server.db.select().from(sysUser).where(eq(sysUser.id, id)))[0];
  const signIn = (username: string, password: string) => server.call('POST', '/login/login', { body: { username, password } });

  it('re-hashes an old-parameter hash with the current parameters after a successful sign-in; the password keeps working', async () => {
    const id = await server.createUser({ name: 'oldhash', password: 'Older#Pass1' });
    const oldHash = await createPasswordHasher(13).hash('Older#Pass1');
    await server.db.update(sysUser).set({ password: oldHash }).where(eq(sysUser.id, id));
    const changedAt = (await storedHashOf(id)).passwordChangedAt;

    // A wrong password changes nothing.
    expect((await signIn('oldhash', 'Wrong#Pass1')).body.resCode).toBe('6');
    await answeredWorkSettled(server.app.services);
    expect((await storedHashOf(id)).password).toBe(oldHash);

    expect((await signIn('oldhash', 'Older#Pass1')).body.resCode).toBe('00000');
    await answeredWorkSettled(server.app.services);
    const upgraded = await storedHashOf(id);
    const { N, r, p } = scryptParametersFor(TEST_CONFIG.passwordHashLogN!);
    expect(upgraded.password.startsWith(`scrypt$${N}$${r}$${p}$`)).toBe(true);
    expect(upgraded.password).not.toBe(oldHash);
    expect(upgraded.passwordChangedAt).toEqual(changedAt);

    expect((await signIn('oldhash', 'Older#Pass1')).body.resCode).toBe('00000');
    await answeredWorkSettled(server.app.services);
    // Current parameters: not hashed again.
    expect((await storedHashOf(id)).password).toBe(upgraded.password);
  });

  it('never overwrites a password changed between the check and the upgrade', async () => {
    const id = await server.createUser({ name: 'racing', password: 'Racing#Pass1' });
    const oldHash = await createPasswordHasher(13).hash('Racing#Pass1');
    const newer = await server.app.services.hasher.hash('Changed#Pass2');
    await server.db.update(sysUser).set({ password: newer }).where(eq(sysUser.id, id));
    const checks = passwordChecksOf(server.app.services);
    expect(await upgradePasswordHash(server.db, checks, { id, password: oldHash }, 'Racing#Pass1')).toBe(false);
    expect((await storedHashOf(id)).password).toBe(newer);
  });
});
