// What a simulated machine keeps of its personnel and ban list packages (docs/service-personnel.md): the
// people who may sign in (login, level, salted hash: the machine never learns a password) and the bans it
// enforces. A technician signs in by typing a password the machine checks against the hash; a banned consumer
// who comes back is refused, and the machine reports the refused session (docs/machine-protocol.md).
import { banOf, readBanList, readPersonnelPackage, type BanEntry, type BanListPackage, type PersonnelEntry, type PersonnelPackage } from '../../resources/personnelContent';
import type { ServiceAction } from '../../resources/servicePersonnel';
import { createPasswordHasher } from '../auth/passwords';
import type { Random } from '../seed/random';

/** Of the consumers arriving at a machine that holds bans in force, the share who are a banned one trying again. */
export const BANNED_RETURN_SHARE = 0.25;

// Verification reads N, r and p from each stored hash; the hasher's own parameters only bound the memory.
const verifier = createPasswordHasher(15);

export class MachineRoster {
  personnel: PersonnelPackage | null = null;
  bans: BanListPackage | null = null;

  constructor(private readonly random: Random) {}

  keeps(resourceType: string) {
    return resourceType === 'personnel' || resourceType === 'banList';
  }

  /** Replaces the list the package carries (a package is the whole list); a text says why it cannot be read. */
  apply(resourceType: string, content: Buffer): string | null {
    const text = content.toString('utf8');
    if (resourceType === 'personnel') {
      const read = readPersonnelPackage(text);
      if (!read) return 'Personnel package unreadable';
      this.personnel = read;
    } else if (resourceType === 'banList') {
      const read = readBanList(text);
      if (!read) return 'Ban list package unreadable';
      this.bans = read;
    }
    return null;
  }

  /** The person whose login and password match, else null (an unknown login spends the same time). */
  async signIn(loginName: string, password: string): Promise<PersonnelEntry | null> {
    const person = this.personnel?.personnel.find((candidate) => candidate.loginName === loginName);
    if (!person) return verifier.verifyDummy(password).then(() => null);
    return (await verifier.verify(password, person.passwordHash)) ? person : null;
  }

  /** What a person's level allows on this machine. */
  allowed(person: PersonnelEntry): readonly ServiceAction[] {
    return this.personnel?.levels[person.accessLevel].actions ?? [];
  }

  /** Who does a visit: a person whose level allows what it needs (a repair needs `repair`), if the machine has a list. */
  technicianFor(needs: ServiceAction): PersonnelEntry | undefined {
    const able = (this.personnel?.personnel ?? []).filter((person) => this.allowed(person).includes(needs));
    return able.length ? this.random.pick(able) : undefined;
  }

  /** Bans in force at `now`. */
  inForce(now: number): BanEntry[] {
    return (this.bans?.bans ?? []).filter((ban) => Date.parse(ban.startTime) <= now && now < Date.parse(ban.endTime));
  }

  /** A banned consumer coming back (BANNED_RETURN_SHARE of arrivals while bans are in force), else undefined. */
  returningBanned(now: number): BanEntry | undefined {
    const bans = this.inForce(now);
    if (!bans.length || !this.random.chance(BANNED_RETURN_SHARE)) return undefined;
    return this.random.pick(bans);
  }

  /** The ban refusing this consumer now, if any. */
  banFor(consumer: { userId?: string; cardNo?: string; voucherCode?: string }, now: number) {
    return banOf(this.bans, consumer, now);
  }
}

/** The consumer fields of a refused session for a ban's consumer. */
export const consumerOfBan = (ban: BanEntry): { userId?: string; cardNo?: string; voucherCode?: string } =>
  ban.consumerKind === 'userId' ? { userId: ban.consumerId } : ban.consumerKind === 'card' ? { cardNo: ban.consumerId } : { voucherCode: ban.consumerId };
