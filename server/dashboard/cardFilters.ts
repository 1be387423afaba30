// The machine list body of each home machine card, written once: time limits relative to "now"
// (`now-7d`), resolved to an instant when used. The dashboard's cards carry them resolved; the
// built-in saved filters (server/seed/builtInFilters.ts) store some of them as they are, so they
// never go stale, and every read of a saved filter resolves them.
import { HOME_LIMITS } from '../../resources/machine';
import type { MACHINE_CARDS, MachineFilter } from '../../resources/dashboard';

export const CARD_FILTERS: Readonly<Record<(typeof MACHINE_CARDS)[number], MachineFilter>> = {
  machines: {},
  downOverHour: { downSince: `now-${HOME_LIMITS.downHours}h` },
  full: { full: true },
  offlineOverWeek: { offlineSince: `now-${HOME_LIMITS.offlineDays}d` },
  profileMismatch: { profileMismatch: true },
  offline: { currentSts: 'Offline' },
  highRejectRate: { highRejectRate: true },
  quarantined: { quarantined: true },
  notUsed: { notUsedSince: `now-${HOME_LIMITS.notUsedHours}h` },
  needsClean: { needsClean: true },
  octopusOffline: { octopusOffline: true },
  alipayOffline: { alipayOffline: true },
};

const RELATIVE = /^now-(\d{1,5})([hd])$/;
const HOUR = 3_600_000;

/** The filter with every `now-<n>h` / `now-<n>d` value replaced by that instant before `now` (ISO). */
export const resolveRelativeTimes = <T extends Record<string, unknown>>(filter: T, now: Date): T =>
  Object.fromEntries(
    Object.entries(filter).map(([name, value]) => {
      const match = typeof value === 'string' ? RELATIVE.exec(value) : null;
      if (!match) return [name, value];
      const hours = Number(match[1]) * (match[2] === 'd' ? 24 : 1);
      return [name, new Date(now.getTime() - hours * HOUR).toISOString()];
    }),
  ) as T;
