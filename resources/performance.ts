// The performance screen's answers (docs/performance.md), shared by the server that computes them
// (server/performance) and the console that shows them (src/performance).

/** Mean cycles (consumer items) between errors: items ÷ error events; null without error events. */
export const mcbeOf = (items: number, errors: number): number | null => (errors > 0 ? items / errors : null);

export interface McbeFigures {
  items: number;
  errors: number;
  mcbe: number | null;
}

export interface McbeAnswer {
  from: string;
  to: string;
  utcOffsetMinutes: number;
  granularity: 'day' | 'week';
  fleet: { id: number; name: string } | null;
  machine: { id: number; termNo: string } | null;
  total: McbeFigures;
  series: Array<McbeFigures & { start: string; end: string }>;
  /** The chosen fleet's direct sub-fleets (each with everything below it), or the root fleets; `own`: machines directly in the chosen fleet. */
  fleets: Array<McbeFigures & { id: number; name: string; own: boolean }>;
}

export type ErrorSort = 'count' | 'downtime';

export interface ErrorRankRow {
  code: string;
  /** The alarm's text in the request's language, as the machine page's event history shows it. */
  text: string;
  category: string;
  severity: string;
  /** The machine cannot take containers while it is open (it is Down). */
  blocking: boolean;
  count: number;
  cleared: number;
  /** How long the events were open (open ones until now), in seconds. */
  openSeconds: number;
  /** Downtime caused: the open time of blocking alarms (0 for the others). */
  downtimeSeconds: number;
}

export interface ErrorsAnswer {
  from: string;
  to: string;
  utcOffsetMinutes: number;
  sort: ErrorSort;
  fleet: { id: number; name: string } | null;
  machine: { id: number; termNo: string } | null;
  total: { count: number; downtimeSeconds: number };
  list: ErrorRankRow[];
}
