// The performance screen's date range (docs/performance.md): whole local days [from, to] at the caller's
// UTC offset, never older than three calendar months before today (9340), never after today; its
// chart buckets (days, or ISO weeks from Monday for ranges longer than a month).
import { AppError, invalidField } from '../lib/errors';
import { DAY_MS, dayLabel, dayStart, localDayOf } from '../lib/localDays';

/** How far back the performance screen may look (three months: docs/product-rules.md#business-constants). */
export const PERFORMANCE_MONTHS = 3;
/** Ranges of more days than this are charted per week. */
export const DAILY_CHART_MAX_DAYS = 31;

export type Granularity = 'day' | 'week';

export interface PerformanceRange {
  now: Date;
  offsetMinutes: number;
  /** Local day numbers (days since 1970-01-01 at the offset), both inclusive. */
  fromDay: number;
  toDay: number;
  /** [start, end) instants of the range. */
  start: Date;
  end: Date;
  granularity: Granularity;
}

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** The local day number of a `YYYY-MM-DD` text, or undefined when it is no real date. */
export const dayOfLabel = (label: string): number | undefined => {
  const match = DATE.exec(label);
  if (!match) return undefined;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const time = Date.UTC(year, month - 1, day);
  const date = new Date(time);
  if (date.getUTCFullYear() !== year || date.getUTCMonth() !== month - 1 || date.getUTCDate() !== day) return undefined;
  return time / DAY_MS;
};

/** The first day that may be asked for: today three calendar months back (the 31st of May goes back to the 28th/29th of February). */
export const earliestDayOf = (today: number): number => {
  const date = new Date(today * DAY_MS);
  const year = date.getUTCFullYear();
  const month = date.getUTCMonth() - PERFORMANCE_MONTHS;
  const lastOfMonth = new Date(Date.UTC(year, month + 1, 0)).getUTCDate();
  return Date.UTC(year, month, Math.min(date.getUTCDate(), lastOfMonth)) / DAY_MS;
};

export const todayOf = (now: Date, offsetMinutes: number) => localDayOf(now.getTime(), offsetMinutes);

/** Checks and resolves a request's range: 1003 not a date, 9340 before the earliest day, 1004 after today or ending before it starts. */
export const resolveRange = (body: { from: string; to: string; granularity?: Granularity }, offsetMinutes: number, now = new Date()): PerformanceRange => {
  const fromDay = dayOfLabel(body.from);
  if (fromDay === undefined) throw invalidField('from', 'validation.date', '1003');
  const toDay = dayOfLabel(body.to);
  if (toDay === undefined) throw invalidField('to', 'validation.date', '1003');
  const today = todayOf(now, offsetMinutes);
  const earliest = earliestDayOf(today);
  if (fromDay < earliest) throw new AppError('9340', { resData: { earliestDay: dayLabel(earliest), today: dayLabel(today) } });
  if (toDay > today) throw invalidField('to', 'validation.max', '1004', { max: dayLabel(today) });
  if (toDay < fromDay) throw invalidField('to', 'validation.endAfterStart', '1004');
  return {
    now,
    offsetMinutes,
    fromDay,
    toDay,
    start: dayStart(fromDay, offsetMinutes),
    end: dayStart(toDay + 1, offsetMinutes),
    granularity: body.granularity ?? (toDay - fromDay + 1 > DAILY_CHART_MAX_DAYS ? 'week' : 'day'),
  };
};

/** Monday of the ISO week of a local day (1970-01-01 was a Thursday). */
const mondayOf = (day: number) => day - ((((day + 3) % 7) + 7) % 7);

export interface Bucket {
  /** First and last local day of the bucket, clipped to the range. */
  firstDay: number;
  lastDay: number;
}

/** The chart's buckets: every day, or every ISO week (the first and last clipped to the range). */
export const bucketsOf = (range: PerformanceRange): Bucket[] => {
  const buckets: Bucket[] = [];
  for (let day = range.fromDay; day <= range.toDay;) {
    const last = range.granularity === 'day' ? day : Math.min(range.toDay, mondayOf(day) + 6);
    buckets.push({ firstDay: day, lastDay: last });
    day = last + 1;
  }
  return buckets;
};

export { dayLabel };
