// What a personnel package and a ban list package hold (docs/service-personnel.md#packages): JSON a machine
// reads strictly. Shared by the server, which writes them, and the simulated machines, which read them.
import { ACCESS_LEVELS, SERVICE_ACTIONS, type AccessLevel, type ServiceAction } from './servicePersonnel';
import { CONSUMER_KINDS, type ConsumerKind } from './consumerBan';

export const PERSONNEL_FORMAT = 'rvm-service-personnel';
export const BAN_LIST_FORMAT = 'rvm-ban-list';

export interface PersonnelEntry {
  loginName: string;
  realName: string;
  accessLevel: AccessLevel;
  company: string | null;
  /** `scrypt$N$r$p$salt$key` (base64): the password never travels. */
  passwordHash: string;
}

export interface PersonnelPackage {
  format: typeof PERSONNEL_FORMAT;
  version: 1;
  levels: Record<AccessLevel, { actions: ServiceAction[]; signOutMinutes: number }>;
  personnel: PersonnelEntry[];
}

export interface BanEntry {
  consumerKind: ConsumerKind;
  consumerId: string;
  reason: string;
  startTime: string;
  endTime: string;
}

export interface BanListPackage {
  format: typeof BAN_LIST_FORMAT;
  version: 1;
  bans: BanEntry[];
}

const HASH = /^scrypt\$\d+\$\d+\$\d+\$[A-Za-z0-9+/=]+\$[A-Za-z0-9+/=]+$/;
const isText = (value: unknown): value is string => typeof value === 'string' && value.length > 0;
const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** A personnel package's content, or null when it is not one (a machine then reports the apply failed). */
export const readPersonnelPackage = (text: string): PersonnelPackage | null => {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return null;
  }
  if (!isObject(value) || value.format !== PERSONNEL_FORMAT || value.version !== 1 || !isObject(value.levels) || !Array.isArray(value.personnel)) return null;
  const levels = value.levels;
  for (const level of ACCESS_LEVELS) {
    const entry = levels[level];
    if (!isObject(entry) || !Array.isArray(entry.actions) || !entry.actions.every((action) => (SERVICE_ACTIONS as readonly unknown[]).includes(action))) return null;
    if (!Number.isInteger(entry.signOutMinutes)) return null;
  }
  for (const person of value.personnel as unknown[]) {
    if (!isObject(person) || !isText(person.loginName) || !isText(person.realName) || !(ACCESS_LEVELS as readonly unknown[]).includes(person.accessLevel)) return null;
    if (typeof person.passwordHash !== 'string' || !HASH.test(person.passwordHash)) return null;
  }
  return value as unknown as PersonnelPackage;
};

/** A ban list package's content, or null when it is not one. */
export const readBanList = (text: string): BanListPackage | null => {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return null;
  }
  if (!isObject(value) || value.format !== BAN_LIST_FORMAT || value.version !== 1 || !Array.isArray(value.bans)) return null;
  for (const ban of value.bans as unknown[]) {
    if (!isObject(ban) || !(CONSUMER_KINDS as readonly unknown[]).includes(ban.consumerKind) || !isText(ban.consumerId)) return null;
    if (typeof ban.startTime !== 'string' || typeof ban.endTime !== 'string' || Number.isNaN(Date.parse(ban.startTime)) || Number.isNaN(Date.parse(ban.endTime))) return null;
  }
  return value as unknown as BanListPackage;
};

/** The ban that refuses this consumer at `now`, if any (docs/service-personnel.md#bans). */
export const banOf = (list: BanListPackage | null, consumer: { userId?: string; cardNo?: string; voucherCode?: string }, now: number): BanEntry | undefined => {
  if (!list) return undefined;
  const ids: Record<ConsumerKind, string | undefined> = { userId: consumer.userId, card: consumer.cardNo, voucher: consumer.voucherCode };
  return list.bans.find((ban) => ids[ban.consumerKind] === ban.consumerId && Date.parse(ban.startTime) <= now && now < Date.parse(ban.endTime));
};
