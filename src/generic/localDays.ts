// Local days as the day pickers and day ranges carry them: `yyyy-MM-dd` text, and that day's local
// midnight as a Date (pure; the reports and performance screens share it).
import { addDays, format } from 'date-fns';

/** A Date's local day as `yyyy-MM-dd`. */
export const dayText = (date: Date): string => format(date, 'yyyy-MM-dd');

/** A `yyyy-MM-dd` local day as the Date of its midnight; null when empty or unreadable. */
export const localMidnight = (day: string): Date | null => {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(day);
  if (!match) return null;
  const date = new Date(Number(match[1]), Number(match[2]) - 1, Number(match[3]));
  return Number.isNaN(date.getTime()) ? null : date;
};

/** The local day `days` after (or before, when negative) `day`. */
export const shiftDay = (day: string, days: number): string => dayText(addDays(localMidnight(day) ?? new Date(Number.NaN), days));
