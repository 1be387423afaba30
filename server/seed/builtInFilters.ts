// Saved filters every user sees and nobody can change (5001), seeded at start. Their names are
// English seed data, shown translated by the console (`generic.savedFilters.builtInNames.<name>`).
// The machine ones are the home dashboard's card filters (resources/dashboard.ts), with their time
// limits relative to "now": a stored instant would go stale.
import { MACHINE_CARD_FILTERS as CARD_FILTERS } from '../../resources/dashboard';

export interface BuiltInFilter {
  resource: string;
  name: string;
  filter: Record<string, unknown>;
}

export const BUILT_IN_FILTERS: readonly BuiltInFilter[] = [
  { resource: 'user', name: 'Enabled users', filter: { enabled: true } },
  { resource: 'machine', name: 'Down', filter: { currentSts: 'Down' } },
  { resource: 'machine', name: 'Down more than 1 hour', filter: CARD_FILTERS.downOverHour },
  { resource: 'machine', name: 'Offline more than 1 week', filter: CARD_FILTERS.offlineOverWeek },
  { resource: 'machine', name: 'Full', filter: CARD_FILTERS.full },
  { resource: 'machine', name: 'Not used in 24 hours', filter: CARD_FILTERS.notUsed },
];
