// The report screen's range (pure): two local days picked with date inputs become the wire's
// [from, to) instants — from the first day's local midnight to the midnight after the last day.
import { addDays } from 'date-fns';
import { dayText, localMidnight } from '../generic/localDays';

export interface DayRange {
  /** `YYYY-MM-DD` local days, both included. */
  first: string;
  last: string;
}

export const dayInput = dayText;

/** The last `days` local days up to yesterday (complete days), e.g. "last 30 days". */
export const lastDays = (days: number, now: Date = new Date()): DayRange => ({
  first: dayInput(addDays(now, -days)),
  last: dayInput(addDays(now, -1)),
});

/** The body part of a range, or null when a day is missing or the last is before the first. */
export const rangeBody = (range: DayRange): { from: string; to: string; utcOffsetMinutes: number } | null => {
  const from = localMidnight(range.first);
  const last = localMidnight(range.last);
  if (!from || !last || last < from) return null;
  const to = addDays(last, 1);
  return { from: from.toISOString(), to: to.toISOString(), utcOffsetMinutes: -from.getTimezoneOffset() };
};

/**
 * A stored range [from, to) as the local days it covers, the last one included, as the form said it
 * ("2026-10-28 – 2026-11-26", not "… – 2026-11-27 00:00:00"). Takes the client's local date-time texts.
 */
export const includedDays = (from?: string, to?: string): string => {
  const day = (text: string | undefined, before: number) => {
    if (!text) return '';
    const time = new Date(text.replace(' ', 'T')).getTime();
    return Number.isNaN(time) ? text : dayText(new Date(time - before));
  };
  return `${day(from, 0)} – ${day(to, 1)}`;
};

/** A picker's value of a local day. */
export const dateOf = (day: string): Date | null => localMidnight(day);
