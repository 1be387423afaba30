// Time ranges of the history tabs (pure): presets counted back from now, and the
// local wall-clock text form of a command's date-time params (`yyyy-MM-ddTHH:mm`).
import { format } from 'date-fns';

export interface TimeRange {
  from: Date;
  to: Date;
}

export const RANGE_PRESETS = [1, 7, 30] as const;
export const DEFAULT_RANGE_DAYS = 7;

/** The last `days` days up to `now` (the tabs' default is the last 7 days). */
export const lastDays = (days: number, now: Date = new Date()): TimeRange => ({
  from: new Date(now.getTime() - days * 86_400_000),
  to: now,
});

/** A Date as local wall-clock text (minutes). */
export const toLocalInput = (date: Date): string => format(date, "yyyy-MM-dd'T'HH:mm");

/** Local wall-clock text as a Date; null when empty or unreadable. */
export const fromLocalInput = (value: string): Date | null => {
  const match = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})$/.exec(value);
  if (!match) return null;
  const [, year, month, day, hour, minute] = match.map(Number);
  const date = new Date(year, month - 1, day, hour, minute);
  return Number.isNaN(date.getTime()) ? null : date;
};

/** The wire form of a range: ISO instants (the server reads [from, to)). */
export const rangeBody = (range: TimeRange) => ({ from: range.from.toISOString(), to: range.to.toISOString() });
