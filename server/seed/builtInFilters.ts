// Saved filters every user sees and nobody can change (5001), seeded at start. Their names are
// English seed data, shown translated by the console (`generic.savedFilters.builtInNames.<name>`).
// The machine ones are the home dashboard's card filters (server/dashboard/compute.ts, the same
// HOME_LIMITS): their time filters are stored relative to "now" (`now-7d`), since a stored instant
// would go stale, and resolved to an ISO instant whenever a filter is read (GET /saved-filter, the
// dashboard's savedFilterId).
import { HOME_LIMITS } from '../../resources/machine';

export interface BuiltInFilter {
  resource: string;
  name: string;
  filter: Record<string, unknown>;
}

export const BUILT_IN_FILTERS: readonly BuiltInFilter[] = [
  { resource: 'user', name: 'Enabled users', filter: { enabled: true } },
  { resource: 'machine', name: 'Down', filter: { currentSts: 'Down' } },
  { resource: 'machine', name: 'Down more than 1 hour', filter: { downSince: `now-${HOME_LIMITS.downHours}h` } },
  { resource: 'machine', name: 'Offline more than 1 week', filter: { offlineSince: `now-${HOME_LIMITS.offlineDays}d` } },
  { resource: 'machine', name: 'Full', filter: { full: true } },
  { resource: 'machine', name: 'Not used in 24 hours', filter: { notUsedSince: `now-${HOME_LIMITS.notUsedHours}h` } },
];

const RELATIVE = /^now-(\d{1,5})([hd])$/;
const HOUR = 3_600_000;

/** The filter with every `now-<n>h` / `now-<n>d` value replaced by that instant before `now` (ISO). */
export const resolveRelativeTimes = (filter: Record<string, unknown>, now: Date): Record<string, unknown> =>
  Object.fromEntries(
    Object.entries(filter).map(([name, value]) => {
      const match = typeof value === 'string' ? RELATIVE.exec(value) : null;
      if (!match) return [name, value];
      const hours = Number(match[1]) * (match[2] === 'd' ? 24 : 1);
      return [name, new Date(now.getTime() - hours * HOUR).toISOString()];
    }),
  );
