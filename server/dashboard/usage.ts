// Consumer figures of the dashboard per local day, from two sources that give the same numbers:
// - the whole license account: the account's 15-minute roll-up (account_usage_15m, a few thousand rows
//   for two months whatever the fleet size), kept current with every new consumer session;
// - a saved filter's machines: their consumer sessions themselves (local days cannot be cut out of the
//   per-machine UTC-day roll-up), and the per-machine day roll-up (rvm_daily_usage) for the all-time total.
import { sql, type SQL } from 'drizzle-orm';
import { rowsOf, type Db } from '../db/client';
import type { Periods } from './periods';

export interface DayUsage {
  /** Local day number (periods.ts). */
  day: number;
  sessions: number;
  items: number;
  accepted: number;
  rejected: number;
  refund: number;
}

export interface UsageFigures {
  /** Days from `periods.earliest` to now that have sessions. */
  days: DayUsage[];
  /** Accepted items ever recorded. */
  allTimeAccepted: number;
}

/** A day's sums as the database answers them (numbers may come back as strings). */
export interface UsageRow {
  day: number | string;
  sessions: number | string;
  items: number | string;
  accepted: number | string;
  rejected: number | string;
  refund: number | string | null;
}

export const toDays = (rows: UsageRow[]): DayUsage[] =>
  rows.map((row) => ({
    day: Number(row.day),
    sessions: Number(row.sessions),
    items: Number(row.items),
    accepted: Number(row.accepted),
    rejected: Number(row.rejected),
    refund: Number(row.refund ?? 0),
  }));

/** The local day number (days since 1970-01-01 in the caller's UTC offset) of a timestamp. */
// date_part (double precision), not extract (numeric): half the time over thousands of roll-up rows, same day numbers.
export const localDay = (time: SQL, periods: Periods) => sql`floor((date_part('epoch', ${time}) + ${periods.offsetMinutes * 60}) / 86400)::int`;

/** The sessions of the account's machines matching `machines` (a condition on table rvm), or of every machine. */
export const usageFromSessions = async (db: Db, account: number, periods: Periods, machines?: SQL): Promise<UsageFigures> => {
  const scope = machines ? sql`and cs.rvm_id in (select rvm.id from rvm where ${machines})` : sql``;
  const dailyScope = machines ? sql`and d.rvm_id in (select rvm.id from rvm where ${machines})` : sql``;
  const [days, total] = await Promise.all([
    db.execute(sql`
      select ${localDay(sql`cs.start_time`, periods)} as day, count(*) as sessions, coalesce(sum(cs.item_count), 0) as items,
        coalesce(sum(cs.accepted_count), 0) as accepted, coalesce(sum(cs.rejected_count), 0) as rejected, coalesce(sum(cs.total_refund), 0) as refund
      from consumer_session cs
      where cs.license_account_id = ${account} and cs.start_time >= ${periods.earliest.toISOString()}::timestamptz
        and cs.start_time <= ${periods.now.toISOString()}::timestamptz ${scope}
      group by 1`),
    db.execute(sql`select coalesce(sum(d.accepted), 0) as accepted from rvm_daily_usage d where d.license_account_id = ${account} ${dailyScope}`),
  ]);
  return { days: toDays(rowsOf<UsageRow>(days)), allTimeAccepted: Number(rowsOf<{ accepted: number | string }>(total)[0]?.accepted ?? 0) };
};
