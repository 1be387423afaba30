// The answer of GET /test-api/dashboard (docs/dashboard.md): one definition for the server that
// computes it and the console that shows it. Framework-neutral.

/** A list filter body of POST /rvm/page (without paging). */
export type MachineFilter = Record<string, unknown>;

export const MACHINE_CARDS = [
  'machines', 'downOverHour', 'full', 'offlineOverWeek', 'profileMismatch', 'offline', 'highRejectRate', 'quarantined',
  'notUsed', 'needsClean', 'octopusOffline', 'alipayOffline',
] as const;
export const USAGE_CARDS = [
  'consumerSessions', 'refundValue', 'totalVolume', 'volumeThisMonth', 'volumeLastMonth', 'todayReport', 'monthlyReport', 'rejectRate',
] as const;
export type CardKey = (typeof MACHINE_CARDS)[number] | (typeof USAGE_CARDS)[number];

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
