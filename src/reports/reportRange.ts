// The report screen's range (pure): two local days picked with date inputs become the wire's
// [from, to) instants — from the first day's local midnight to the midnight after the last day.
import { addDays, format } from 'date-fns';

export interface DayRange {
  /** `YYYY-MM-DD` local days, both included. */
  first: string;
  last: string;
}

export const dayInput = (date: Date): string => format(date, 'yyyy-MM-dd');

/** The last `days` local days up to yesterday (complete days), e.g. "last 30 days". */
export const lastDays = (days: number, now: Date = new Date()): DayRange => ({
  first: dayInput(addDays(now, -days)),
  last: dayInput(addDays(now, -1)),
});

/** A `YYYY-MM-DD` local day as the Date of its midnight; null when empty or unreadable. */
export const localMidnight = (day: string): Date | null => {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(day);
  if (!match) return null;
  const date = new Date(Number(match[1]), Number(match[2]) - 1, Number(match[3]));
  return Number.isNaN(date.getTime()) ? null : date;
};

/** The body part of a range, or null when a day is missing or the last is before the first. */
export const rangeBody = (range: DayRange): { from: string; to: string; utcOffsetMinutes: number } | null => {
  const from = localMidnight(range.first);
  const last = localMidnight(range.last);
  if (!from || !last || last < from) return null;
  const to = addDays(last, 1);
  return { from: from.toISOString(), to: to.toISOString(), utcOffsetMinutes: -from.getTimezoneOffset() };
};

/** A picker's value of a local day. */
export const dateOf = (day: string): Date | null => localMidnight(day);
