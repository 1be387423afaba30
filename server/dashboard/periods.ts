// The dashboard's periods in the caller's local time (a fixed UTC offset, the browser's at the time of
// the call): local days numbered from the epoch, today, this and last month, and the complete-day
// windows of docs/product-rules.md#home-dashboard (averages over 4 weeks, reject-rate average over 30 days, curve over 7 days).
import { HOME_LIMITS } from '../../resources/machine';
import { DAY_MS, dayStart, localDayOf } from '../lib/localDays';

export interface Periods {
  now: Date;
  offsetMinutes: number;
  /** Local day number of `now` (days since 1970-01-01 local). */
  today: number;
  todayStart: Date;
  monthStart: Date;
  lastMonthStart: Date;
  /** First local day of the month, of last month (day numbers). */
  monthFirstDay: number;
  lastMonthFirstDay: number;
  /** The earliest instant any windowed figure needs. */
  earliest: Date;
}

export const periodsOf = (now: Date, offsetMinutes: number): Periods => {
  const today = localDayOf(now.getTime(), offsetMinutes);
  const local = new Date(today * DAY_MS);
  const monthFirstDay = Date.UTC(local.getUTCFullYear(), local.getUTCMonth(), 1) / DAY_MS;
  const lastMonthFirstDay = Date.UTC(local.getUTCFullYear(), local.getUTCMonth() - 1, 1) / DAY_MS;
  const windowDays = Math.max(HOME_LIMITS.averageDays, HOME_LIMITS.rejectRateAverageDays, HOME_LIMITS.rejectRateCurveDays);
  const earliestDay = Math.min(lastMonthFirstDay, today - windowDays);
  return {
    now,
    offsetMinutes,
    today,
    todayStart: dayStart(today, offsetMinutes),
    monthStart: dayStart(monthFirstDay, offsetMinutes),
    lastMonthStart: dayStart(lastMonthFirstDay, offsetMinutes),
    monthFirstDay,
    lastMonthFirstDay,
    earliest: dayStart(earliestDay, offsetMinutes),
  };
};
