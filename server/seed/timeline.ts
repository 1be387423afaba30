// A machine's availability over the window: faults (Down until a technician repairs them),
// connection losses (Offline), nightly Sleep outside its opening hours, and the minor alarms that do
// not stop it. Status priority: Offline > Down > Sleep > Up.
import { ALARMS, KNOWN_ALARMS, findAlarm, type AlarmDefinition, type RvmStatus } from '../../resources/fleetCatalogue';
import type { MachinePlan } from './machines';
import { Random, WeightedTable } from './random';
import { LOCAL_OFFSET_MS } from './vocabulary';

const MINUTE = 60_000;
const HOUR = 3_600_000;
const DAY = 86_400_000;

export interface Outage {
  start: number;
  /** null: still going on at the end of the window. */
  end: number | null;
  alarm: AlarmDefinition;
}

export interface Segment {
  status: RvmStatus;
  start: number;
  end: number | null;
}

export interface AlarmEvent {
  alarm: AlarmDefinition;
  raised: number;
  cleared: number | null;
  detail: string | null;
}

export interface Timeline {
  downs: Outage[];
  offlines: Outage[];
  segments: Segment[];
  online: Array<{ online: boolean; start: number; end: number | null }>;
  minorAlarms: AlarmEvent[];
}

export const FAULTS = new WeightedTable(
  ALARMS.filter((alarm) => alarm.blocking).map((alarm) => [alarm, alarm.category === 'sorter' || alarm.category === 'compactor' || alarm.category === 'conveyor' ? 3 : 1] as const),
);

export const MINOR = new WeightedTable<[AlarmDefinition, number]>(
  (
    [
      [8, 12, 6 * HOUR],
      [7, 3, 4 * HOUR],
      [9, 2, 2 * HOUR],
      [11, 1, HOUR],
      [13, 4, 24 * HOUR],
      [15, 1, 8 * HOUR],
      [20, 1, 12 * HOUR],
      [25, 1, 3 * HOUR],
      [30, 1, 3 * HOUR],
      [33, 3, 0.5 * HOUR],
      [34, 4, 20 * HOUR],
      [36, 2, 3 * HOUR],
      [37, 1, 6 * HOUR],
      [38, 1, 6 * HOUR],
      [41, 4, 30 * HOUR],
      [43, 1, 2 * HOUR],
      [46, 2, 10 * HOUR],
      [48, 4, 5 * HOUR],
      [49, 2, 2 * HOUR],
      [50, 3, 4 * HOUR],
      [51, 4, 0.2 * HOUR],
      [52, 1, 3 * HOUR],
      [53, 6, 0],
      [54, 4, 0],
      [55, 2, 0],
      [56, 3, 0],
      [58, 2, HOUR],
      [59, 5, 2 * HOUR],
      [60, 2, 12 * HOUR],
      [62, 2, 6 * HOUR],
      [63, 3, 0.1 * HOUR],
      [64, 1, 48 * HOUR],
      [66, 1, 10 * HOUR],
      [68, 4, 16 * HOUR],
      [69, 2, 36 * HOUR],
      [70, 2, 0.7 * HOUR],
    ] as const
  ).map(([number, weight, medianDuration]) => [[findAlarm(`am_code_PK_${number}`)!, medianDuration], weight] as const),
);

/** Non-overlapping outages: sorted, and one that starts inside the previous is dropped. */
const disjoint = (outages: Outage[]): Outage[] => {
  const sorted = outages.sort((a, b) => a.start - b.start);
  const kept: Outage[] = [];
  for (const outage of sorted) {
    const last = kept.at(-1);
    if (last && (last.end === null || outage.start < last.end + 10 * MINUTE)) continue;
    kept.push(outage);
  }
  return kept;
};

const outages = (random: Random, count: number, start: number, end: number, median: number, cap: number, alarm: () => AlarmDefinition) =>
  Array.from({ length: count }, () => {
    const from = random.uniform(start, end);
    const to = from + Math.min(cap, Math.max(5 * MINUTE, random.logNormal(median, 0.9)));
    return { start: Math.round(from), end: to >= end ? null : Math.round(to), alarm: alarm() };
  });

const contains = (list: readonly Outage[], time: number) => list.some((o) => time >= o.start && (o.end === null || time < o.end));

const asleep = (plan: MachinePlan, time: number) => {
  if (plan.offMinute === 1440) return false;
  const minute = Math.floor(((((time + LOCAL_OFFSET_MS) % DAY) + DAY) % DAY) / MINUTE);
  return minute < plan.onMinute || minute >= plan.offMinute;
};

export const buildTimeline = (plan: MachinePlan, seed: string | number, start: number, end: number): Timeline => {
  const random = new Random(seed, 'timeline', plan.index);
  const days = (end - start) / DAY;
  const communication = findAlarm(KNOWN_ALARMS.communicationOffline)!;

  const downs = outages(random, random.poisson(days * plan.model.faultRate), start, end, 4 * HOUR, 3 * DAY, () => FAULTS.pick(random));
  // A few machines are out of service right now, and a few have been off-line for over a week.
  if (random.chance(0.01)) downs.push({ start: end - random.uniform(2 * HOUR, 3 * DAY), end: null, alarm: FAULTS.pick(random) });
  const offlines = outages(random, random.poisson(days * 0.05), start, end, 1.5 * HOUR, 4 * DAY, () => communication);
  if (random.chance(0.015) && days > 9) offlines.push({ start: end - random.uniform(8 * DAY, Math.min(days, 25) * DAY), end: null, alarm: communication });
  const down = disjoint(downs);
  const offline = disjoint(offlines);

  const breakpoints = new Set<number>([start]);
  for (const o of [...down, ...offline]) {
    if (o.start > start) breakpoints.add(o.start);
    if (o.end !== null) breakpoints.add(o.end);
  }
  if (plan.offMinute !== 1440) {
    const firstLocalDay = Math.floor((start + LOCAL_OFFSET_MS) / DAY) * DAY - LOCAL_OFFSET_MS;
    for (let day = firstLocalDay; day < end; day += DAY) {
      for (const minute of [plan.onMinute, plan.offMinute]) {
        const time = day + minute * MINUTE;
        if (time > start && time < end) breakpoints.add(time);
      }
    }
  }
  const times = [...breakpoints].sort((a, b) => a - b);
  const segments: Segment[] = [];
  times.forEach((time, i) => {
    const next = i + 1 < times.length ? times[i + 1] : null;
    const probe = time + 1;
    const status: RvmStatus = contains(offline, probe) ? 'Offline' : contains(down, probe) ? 'Down' : asleep(plan, probe) ? 'Sleep' : 'Up';
    const last = segments.at(-1);
    if (last && last.status === status) last.end = next;
    else segments.push({ status, start: time, end: next });
  });

  const online: Timeline['online'] = [];
  let cursor = start;
  for (const o of offline) {
    if (o.start > cursor) online.push({ online: true, start: cursor, end: o.start });
    online.push({ online: false, start: Math.max(o.start, start), end: o.end });
    cursor = o.end ?? end;
  }
  if (cursor < end) online.push({ online: true, start: cursor, end: null });

  const minorAlarms: AlarmEvent[] = Array.from({ length: random.poisson(days * 0.5) }, () => {
    const [alarm, median] = MINOR.pick(random);
    const raised = Math.round(random.uniform(start, end));
    const cleared = median === 0 ? raised + random.int(3, 30) * 1000 : Math.round(raised + random.logNormal(median, 0.8));
    return { alarm, raised, cleared: cleared >= end ? null : cleared, detail: null };
  });
  return { downs: down, offlines: offline, segments, online, minorAlarms };
};

/** The status at `time`, walking forward through the segments (times must not decrease). */
export class StatusCursor {
  private index = 0;
  constructor(private readonly segments: readonly Segment[]) {}

  at(time: number): RvmStatus {
    while (this.index + 1 < this.segments.length && this.segments[this.index + 1].start <= time) this.index++;
    return this.segments[this.index].status;
  }
}
