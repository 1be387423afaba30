// The home dashboard (GET /test-api/dashboard, docs/dashboard.md): the card catalogue and the answer's
// types, one definition for the server that computes it, the console that shows it and the generated
// docs. Framework-neutral.
//
// Adding a card: its entry in DASHBOARD_CARDS, and its title and hint in i18n/en/dashboard.ts and
// i18n/zh/dashboard.ts (a missing or extra label fails the type check, src/dashboard/DashboardCards.tsx).
// Every layer iterates the catalogue: the answer's cards and order, the OpenAPI enum, the console's
// grids, tint and number format, the docs table (`npx tsx scripts/dashboardReference.ts`). The only
// server code a card may need is a new machine fact (`fact: true`): its SQL goes in FACTS of
// server/dashboard/definitions.ts (keyed by the card's key: a missing one fails the type check and
// tests/unit/dashboardCatalogue.test.ts), and, being a new machine-list filter, its flag field and filter
// in resources/machine.ts with their labels in i18n/*/fleet.ts (checked by the same test).
import { HOME_LIMITS } from './machine';

/** A list filter body of POST /rvm/page (without paging). */
export type MachineFilter = Record<string, unknown>;

/** Where the console shows a card: the machine grid, the consumer grid, or the reports row (with `report`). */
export type CardSection = 'machines' | 'usage' | 'reports';

/** The sums a usage card reads (server/dashboard/compute.ts). */
type SumMeasure = 'sessions' | 'items' | 'accepted' | 'rejected' | 'refund';
/**
 * The windows of consumer figures: today, this and last local calendar month, the
 * `HOME_LIMITS.rejectRateAverageDays` complete days before today, and every session ever (accepted only).
 */
type ClosedPeriod = 'today' | 'thisMonth' | 'lastMonth' | 'rejectRateDays';
export type UsageFigure =
  /** `averagePerDay`: the card also carries the measure's daily average over `HOME_LIMITS.averageDays` complete days. */
  { period: ClosedPeriod; measure: SumMeasure; averagePerDay?: true } | { period: ClosedPeriod; measure: 'rejectRate' } | { period: 'allTime'; measure: 'accepted' };

interface CardBase<K extends string> {
  key: K;
  /** What the value is, in docs/dashboard.md "Card definitions" (generated from it). */
  definition: string;
}
export interface MachineCardDefinition<K extends string = string> extends CardBase<K> {
  section: 'machines';
  /** The machine-list body whose total is the value; `now-<n>h` / `now-<n>d` end at the answer's `now`. */
  filter: MachineFilter;
  /** The filter is the card's own machine flag, computed by FACTS[key] (server/dashboard/definitions.ts). */
  fact?: true;
  /** A non-zero count needs someone's attention: the console tints the card. */
  attention: boolean;
}
export interface UsageCardDefinition<K extends string = string> extends CardBase<K> {
  section: 'usage' | 'reports';
  figure: UsageFigure;
}

const counting = <K extends string>(key: K, filter: MachineFilter, definition: string, attention = true) =>
  ({ key, section: 'machines', filter, attention, definition }) as const satisfies MachineCardDefinition<K>;
const fact = <K extends string>(key: K, definition: string) =>
  ({ key, section: 'machines', filter: { [key]: true } as MachineFilter, fact: true, attention: true, definition }) as const satisfies MachineCardDefinition<K>;
const usage = <K extends string>(key: K, section: 'usage' | 'reports', figure: UsageFigure, definition: string) =>
  ({ key, section, figure, definition }) as const satisfies UsageCardDefinition<K>;

/**
 * Every home card, in the order of docs/product-rules.md#home-dashboard: the answer's order, and the console's within each section.
 * Definitions docs/dashboard.md#card-definitions; limits HOME_LIMITS (resources/machine.ts).
 */
export const DASHBOARD_CARDS = [
  counting('machines', {}, 'machines in the scope', false),
  counting('downOverHour', { downSince: `now-${HOME_LIMITS.downHours}h` }, 'status (`currentSts`) Down and `statusSince` more than 1 hour before now'),
  fact('full', 'at least one bin (`rvm_bin`) whose `fillPercent` is at or above the machine\'s `binAlreadyFull` (100 when not set) — the Overview tab\'s "full" bin'),
  counting('offlineOverWeek', { offlineSince: `now-${HOME_LIMITS.offlineDays}d` }, 'status Offline and `statusSince` more than 7 days before now'),
  fact(
    'profileMismatch',
    "the machine reports a software version (hello message, `softwareVersion`) and it is not its model's profile version: the version most machines of the same model (`termType`) in the license account run (all states; a tie goes to the greatest version text). The counts per (account, model, version) live in `account_model_versions`, kept by row triggers on `rvm` (migration 0016), so neither the card nor the machine list's flag passes over every machine",
  ),
  counting('offline', { currentSts: 'Offline' }, 'status Offline (the gateway sets it with `online = false`)'),
  fact(
    'highRejectRate',
    'consumer sessions started in the last 24 hours (`startTime ≥ now − 24 h`) have more than 10 items **and** more than 40 % of them rejected (exactly 10 items, or exactly 40 %, is not high)',
  ),
  fact(
    'quarantined',
    'messages of the machine wait in the quarantine (`quarantine_message.causedBy` is its serial number — what the gateway records — or its RVM number); a retry that succeeds removes them',
  ),
  counting(
    'notUsed',
    { notUsedSince: `now-${HOME_LIMITS.notUsedHours}h` },
    'no consumer session in the last 24 hours: `lastSessionTime` (the end of its latest session) before now − 24 h, or never',
  ),
  usage(
    'consumerSessions',
    'usage',
    { period: 'today', measure: 'sessions', averagePerDay: true },
    'sessions started today (local); `average`: per day over the 28 complete days before today',
  ),
  usage('refundValue', 'usage', { period: 'today', measure: 'refund', averagePerDay: true }, "refunds of today's sessions; `average` per day over 28 complete days"),
  usage('totalVolume', 'usage', { period: 'allTime', measure: 'accepted' }, 'accepted containers of every session ever recorded'),
  usage('volumeThisMonth', 'usage', { period: 'thisMonth', measure: 'accepted' }, 'accepted containers of the current local calendar month so far'),
  usage('volumeLastMonth', 'usage', { period: 'lastMonth', measure: 'accepted' }, 'accepted containers of the previous local calendar month'),
  usage(
    'todayReport',
    'reports',
    { period: 'today', measure: 'accepted', averagePerDay: true },
    'accepted containers today; `report`: sessions, items, accepted, rejected, reject rate, refund of today; `average`: accepted per day over 28 complete days',
  ),
  usage('monthlyReport', 'reports', { period: 'thisMonth', measure: 'accepted' }, 'the same for the current month'),
  fact(
    'needsClean',
    'no successful cleaning in the last 7 days: no service session with `cleaningOutcome` completed that started at or after now − 7 days (aborted and failed ones do not count)',
  ),
  fact('octopusOffline', 'an open (not cleared) alarm `am_code_PK_48` "Octopus reader offline" (`KNOWN_ALARMS.octopusOffline`)'),
  fact('alipayOffline', 'an open alarm `am_code_PK_50` "Alipay offline" (`KNOWN_ALARMS.alipayOffline`)'),
  usage(
    'rejectRate',
    'usage',
    { period: 'rejectRateDays', measure: 'rejectRate' },
    '(reject rate average) rejected ÷ items over the 30 complete days before today (one ratio of the sums, not an average of daily ratios)',
  ),
] as const;

export type CardDefinition = (typeof DASHBOARD_CARDS)[number];
export type CardKey = CardDefinition['key'];
export type MachineCardKey = Extract<CardDefinition, { section: 'machines' }>['key'];
/** The machine flags the cards count (boolean fields and filters of resources/machine.ts). */
export type MachineFact = Extract<CardDefinition, { fact: true }>['key'];

export const CARD_KEYS: readonly CardKey[] = DASHBOARD_CARDS.map((card) => card.key);

const isMachineCard = (card: CardDefinition): card is Extract<CardDefinition, { section: 'machines' }> => card.section === 'machines';
export const MACHINE_CARD_DEFINITIONS = DASHBOARD_CARDS.filter(isMachineCard);
export const USAGE_CARD_DEFINITIONS = DASHBOARD_CARDS.filter((card): card is Extract<CardDefinition, { section: 'usage' | 'reports' }> => !isMachineCard(card));
export const MACHINE_CARDS: readonly MachineCardKey[] = MACHINE_CARD_DEFINITIONS.map((card) => card.key);
/** The machine facts the cards count, in card order. */
export const CARD_FACTS: readonly MachineFact[] = MACHINE_CARD_DEFINITIONS.flatMap((card) => ('fact' in card ? [card.key] : []));
/** Each machine card's list body, time limits still relative (`now-7d`): what the built-in saved filters store. */
export const MACHINE_CARD_FILTERS: Readonly<Record<MachineCardKey, MachineFilter>> = Object.fromEntries(MACHINE_CARD_DEFINITIONS.map((card) => [card.key, card.filter])) as Record<
  MachineCardKey,
  MachineFilter
>;

/** The keys of one section, in catalogue order. */
export const cardKeysOf = (section: CardSection): readonly CardKey[] => DASHBOARD_CARDS.filter((card) => card.section === section).map((card) => card.key);

const BY_KEY: ReadonlyMap<string, CardDefinition> = new Map(DASHBOARD_CARDS.map((card) => [card.key, card]));
export const cardDefinition = (key: string): CardDefinition | undefined => BY_KEY.get(key);

/** How a card's value reads: a count, a money amount (refund) or a ratio (reject rate). */
export const cardValueFormat = (key: string): 'count' | 'money' | 'ratio' => {
  const card = cardDefinition(key);
  if (!card || card.section === 'machines') return 'count';
  if (card.figure.measure === 'refund') return 'money';
  return card.figure.measure === 'rejectRate' ? 'ratio' : 'count';
};

/** A machine card with machines to look at. */
export const needsAttention = (key: string): boolean => {
  const card = cardDefinition(key);
  return card?.section === 'machines' && card.attention;
};

export interface Report {
  sessions: number;
  items: number;
  accepted: number;
  rejected: number;
  /** rejected / items; null without items. */
  rejectRate: number | null;
  refund: number;
}

export interface Card {
  key: CardKey;
  /** A count, a money amount (refundValue), a ratio 0..1 (rejectRate), or null when there is nothing to divide. */
  value: number | null;
  /** Machine cards: the POST /rvm/page body whose total is `value`. */
  filter?: MachineFilter;
  /** Average per day over the complete days of the last 4 weeks. */
  average?: number;
  /** Reports: the figures of the period. */
  report?: Report;
}

export interface Segment {
  key: string;
  value: number;
  filter: MachineFilter;
}

export interface Dashboard {
  now: string;
  utcOffsetMinutes: number;
  currency: string;
  machineCount: number;
  cards: Card[];
  charts: {
    statusOverview: Segment[];
    typesOverview: Segment[];
    /** The complete local days of the last 7 days, oldest first. */
    rejectRate: Array<{ day: string; items: number; rejected: number; rate: number | null }>;
    /** The complete local days of the last 4 weeks, oldest first. */
    volumePerDay: Array<{ day: string; sessions: number; accepted: number; rejected: number; refund: number }>;
  };
}

/** The route's answer: the figures and the saved filter that scoped them (null: the whole account). */
export interface DashboardAnswer extends Dashboard {
  savedFilter: { id: number; name: string } | null;
}
