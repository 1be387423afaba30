// The answer of GET /dashboard (server/dashboard/compute.ts, docs/dashboard.md).

/** A POST /rvm/page body without paging: the machine list's filter. */
export type MachineFilter = Record<string, unknown>;

export const MACHINE_CARD_KEYS = [
  'machines', 'downOverHour', 'full', 'offlineOverWeek', 'profileMismatch', 'offline', 'highRejectRate', 'quarantined', 'notUsed',
  'needsClean', 'octopusOffline', 'alipayOffline',
] as const;

export type CardKey =
  | (typeof MACHINE_CARD_KEYS)[number]
  | 'consumerSessions' | 'refundValue' | 'totalVolume' | 'volumeThisMonth' | 'volumeLastMonth' | 'todayReport' | 'monthlyReport' | 'rejectRate';

export interface Report {
  sessions: number;
  items: number;
  accepted: number;
  rejected: number;
  rejectRate: number | null;
  refund: number;
}

export interface DashboardCard {
  key: CardKey;
  value: number | null;
  filter?: MachineFilter;
  average?: number;
  report?: Report;
}

export interface Segment {
  key: string;
  value: number;
  filter: MachineFilter;
}

export interface DashboardAnswer {
  now: string;
  utcOffsetMinutes: number;
  currency: string;
  machineCount: number;
  savedFilter: { id: number; name: string } | null;
  cards: DashboardCard[];
  charts: {
    statusOverview: Segment[];
    typesOverview: Segment[];
    rejectRate: Array<{ day: string; items: number; rejected: number; rate: number | null }>;
    volumePerDay: Array<{ day: string; sessions: number; accepted: number; rejected: number; refund: number }>;
  };
}
