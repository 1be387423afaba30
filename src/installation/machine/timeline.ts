// Pure computations behind the StatusHistory / OnlineOfflineHistory timeline chart: wire slices to
// coloured bands (one lane per value), share of time per value, axis ticks and durations.
// Times arrive as the http client shows them ('yyyy-MM-dd HH:mm:ss', local; docs/ARCHITECTURE.md#console-http-client).

const SHOWN = /^(\d{4})-(\d{2})-(\d{2}) (\d{2}):(\d{2}):(\d{2})$/;
const HOUR = 3_600_000;
const DAY = 24 * HOUR;
/** Neighbouring slices of one value closer than this are drawn as one band. */
const MERGE_GAP_MS = 1000;

/** Epoch milliseconds of a shown local date-time (or an ISO string); null when absent or unreadable. */
export const parseShownTime = (value: string | null | undefined): number | null => {
  if (!value) return null;
  const shown = SHOWN.exec(value);
  if (shown) {
    const [, year, month, day, hour, minute, second] = shown.map(Number);
    return new Date(year, month - 1, day, hour, minute, second).getTime();
  }
  const time = Date.parse(value);
  return Number.isNaN(time) ? null : time;
};

export interface TimelineSlice {
  startTime: string;
  endTime: string;
  [valueKey: string]: unknown;
}

export interface Band {
  /** Index of the value's lane (0 = first lane, drawn on top). */
  lane: number;
  value: string;
  start: number;
  end: number;
}

/**
 * Bands of the chart: each slice on its value's lane, oldest first, touching slices of the same value
 * merged (the server answers one slice per stored interval; a long Up period may be many of them).
 * Values outside `lanes` are dropped: the chart has no row for them.
 */
export const toBands = (slices: readonly TimelineSlice[], valueKey: string, lanes: readonly string[]): Band[] => {
  const bands: Band[] = [];
  const sorted = slices
    .map((slice) => ({ value: String(slice[valueKey]), start: parseShownTime(slice.startTime), end: parseShownTime(slice.endTime) }))
    .filter((slice): slice is { value: string; start: number; end: number } => slice.start !== null && slice.end !== null && slice.end > slice.start)
    .sort((a, b) => a.start - b.start);
  const lastOnLane = new Map<number, Band>();
  for (const slice of sorted) {
    const lane = lanes.indexOf(slice.value);
    if (lane < 0) continue;
    const previous = lastOnLane.get(lane);
    if (previous && slice.start - previous.end <= MERGE_GAP_MS) {
      previous.end = Math.max(previous.end, slice.end);
      continue;
    }
    const band = { lane, value: slice.value, start: slice.start, end: slice.end };
    bands.push(band);
    lastOnLane.set(lane, band);
  }
  return bands;
};

export interface TimeShare {
  value: string;
  seconds: number;
  /** Whole percent of the summed time (0 when nothing was recorded). */
  percent: number;
}

/** Seconds and share per lane value, in lane order (the server's `secondsBy`). */
export const timeShares = (secondsBy: Readonly<Record<string, number>> | undefined, lanes: readonly string[]): TimeShare[] => {
  const seconds = lanes.map((value) => Math.max(0, secondsBy?.[value] ?? 0));
  const total = seconds.reduce((sum, value) => sum + value, 0);
  return lanes.map((value, index) => ({ value, seconds: seconds[index], percent: total ? Math.round((seconds[index] / total) * 100) : 0 }));
};

const HOUR_STEPS = [1, 2, 3, 6, 12];

/** Tick positions for a time axis: local midnights for ranges over two days, whole hours otherwise. */
export const timeTicks = (from: number, to: number, maxTicks = 8): number[] => {
  if (!(to > from) || maxTicks < 1) return [];
  const span = to - from;
  const ticks: number[] = [];
  if (span > 2 * DAY) {
    const stepDays = Math.max(1, Math.ceil(span / DAY / maxTicks));
    const first = new Date(from);
    const cursor = new Date(first.getFullYear(), first.getMonth(), first.getDate() + (first.getHours() || first.getMinutes() || first.getSeconds() ? 1 : 0));
    while (cursor.getTime() <= to) {
      ticks.push(cursor.getTime());
      cursor.setDate(cursor.getDate() + stepDays);
    }
    return ticks;
  }
  const stepHours = HOUR_STEPS.find((step) => span / (step * HOUR) <= maxTicks) ?? 24;
  const cursor = new Date(from);
  cursor.setMinutes(0, 0, 0);
  if (cursor.getTime() < from) cursor.setHours(cursor.getHours() + 1);
  while (cursor.getHours() % stepHours !== 0) cursor.setHours(cursor.getHours() + 1);
  while (cursor.getTime() <= to) {
    ticks.push(cursor.getTime());
    cursor.setHours(cursor.getHours() + stepHours);
  }
  return ticks;
};

export type DurationUnit = 'd' | 'h' | 'm' | 's';

/** "2d 3h", "3h 5m", "4m 10s", "12s": the two largest units (words from the caller, i18n). */
export const formatDuration = (totalSeconds: number, unit: (unit: DurationUnit, count: number) => string): string => {
  const seconds = Math.max(0, Math.round(totalSeconds));
  const parts: Array<[DurationUnit, number]> = [
    ['d', Math.floor(seconds / 86_400)],
    ['h', Math.floor((seconds % 86_400) / 3600)],
    ['m', Math.floor((seconds % 3600) / 60)],
    ['s', seconds % 60],
  ];
  const first = parts.findIndex(([, count]) => count > 0);
  if (first < 0) return unit('s', 0);
  return parts
    .slice(first, first + 2)
    .filter(([, count], index) => index === 0 || count > 0)
    .map(([name, count]) => unit(name, count))
    .join(' ');
};
