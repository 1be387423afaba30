// The performance screen's fleet roll-ups (server/db/schema/performance.ts) as the gateway keeps them:
// a batch's new consumer sessions and error events are summed in memory per machine and written at the
// end of the batch's transaction, per fleet, in key order (like the dashboard's account roll-up:
// concurrent batches lock a fleet's hot rows briefly and always in the same order, no deadlock).
import { sql } from 'drizzle-orm';
import type { Db } from '../db/client';

const HOUR = 3_600_000;

/** The UTC day (YYYY-MM-DD) of an instant: the day an error event is counted on in fleet_daily_errors. */
const utcDay = (time: Date) => time.toISOString().slice(0, 10);

interface HourRow {
  rvm: number;
  hour: number;
  sessions: number;
  items: number;
  accepted: number;
  rejected: number;
  cents: number;
  errors: number;
}

interface ErrorRow {
  rvm: number;
  day: string;
  code: string;
  raised: number;
  cleared: number;
  ms: number;
}

export class PerformanceBatch {
  private readonly hours = new Map<string, HourRow>();
  private readonly errors = new Map<string, ErrorRow>();

  private hourRow(rvm: number, time: Date): HourRow {
    const hour = Math.floor(time.getTime() / HOUR) * HOUR;
    const key = `${rvm}/${hour}`;
    let row = this.hours.get(key);
    if (!row) {
      row = { rvm, hour, sessions: 0, items: 0, accepted: 0, rejected: 0, cents: 0, errors: 0 };
      this.hours.set(key, row);
    }
    return row;
  }

  private errorRow(rvm: number, raisedTime: Date, code: string): ErrorRow {
    const day = utcDay(raisedTime);
    const key = `${rvm}/${day}/${code}`;
    let row = this.errors.get(key);
    if (!row) {
      row = { rvm, day, code, raised: 0, cleared: 0, ms: 0 };
      this.errors.set(key, row);
    }
    return row;
  }

  /** A new consumer session (counted by its start time). */
  session(rvm: number, startTime: Date, usage: { items: number; accepted: number; rejected: number; refund: number }): void {
    const row = this.hourRow(rvm, startTime);
    row.sessions++;
    row.items += usage.items;
    row.accepted += usage.accepted;
    row.rejected += usage.rejected;
    row.cents += Math.round(usage.refund * 100);
  }

  /** A new error event (alarm of severity "error") raised at `raisedTime`. */
  errorRaised(rvm: number, code: string, raisedTime: Date): void {
    this.hourRow(rvm, raisedTime).errors++;
    this.errorRow(rvm, raisedTime, code).raised++;
  }

  /** An error event cleared: its open time is counted on the day it was raised. */
  errorCleared(rvm: number, code: string, raisedTime: Date, clearedTime: Date): void {
    const row = this.errorRow(rvm, raisedTime, code);
    row.cleared++;
    row.ms += clearedTime.getTime() - raisedTime.getTime();
  }

  async flush(tx: Db): Promise<void> {
    if (this.hours.size) {
      const rows = [...this.hours.values()];
      this.hours.clear();
      const column = <T>(pick: (row: HourRow) => T) => sql.param(rows.map(pick));
      // The machine's fleet now: a machine moving fleets waits for this transaction (its row is locked
      // by the session's write) and then moves its share, this batch's included (migration trigger).
      await tx.execute(sql`
        insert into fleet_hourly_usage (fleet_id, hour, license_account_id, sessions, items, accepted, rejected, refund, errors)
        select r.fleet_id, to_timestamp(u.hour / 1000.0), r.license_account_id, sum(u.sessions), sum(u.items), sum(u.accepted),
          sum(u.rejected), sum(u.cents) / 100.0, sum(u.errors)
        from unnest(${column((row) => row.rvm)}::int4[], ${column((row) => row.hour)}::float8[], ${column((row) => row.sessions)}::int4[],
          ${column((row) => row.items)}::int4[], ${column((row) => row.accepted)}::int4[], ${column((row) => row.rejected)}::int4[],
          ${column((row) => row.cents)}::int8[], ${column((row) => row.errors)}::int4[])
          as u(rvm, hour, sessions, items, accepted, rejected, cents, errors)
        join rvm r on r.id = u.rvm
        group by r.fleet_id, u.hour, r.license_account_id
        order by r.fleet_id, u.hour
        on conflict (fleet_id, hour) do update set sessions = fleet_hourly_usage.sessions + excluded.sessions,
          items = fleet_hourly_usage.items + excluded.items, accepted = fleet_hourly_usage.accepted + excluded.accepted,
          rejected = fleet_hourly_usage.rejected + excluded.rejected, refund = fleet_hourly_usage.refund + excluded.refund,
          errors = fleet_hourly_usage.errors + excluded.errors`);
    }
    if (this.errors.size) {
      const rows = [...this.errors.values()];
      this.errors.clear();
      const column = <T>(pick: (row: ErrorRow) => T) => sql.param(rows.map(pick));
      await tx.execute(sql`
        insert into fleet_daily_errors (fleet_id, day, code, license_account_id, raised, cleared, cleared_ms)
        select r.fleet_id, u.day::date, u.code, r.license_account_id, sum(u.raised), sum(u.cleared), sum(u.ms)
        from unnest(${column((row) => row.rvm)}::int4[], ${column((row) => row.day)}::text[], ${column((row) => row.code)}::text[],
          ${column((row) => row.raised)}::int4[], ${column((row) => row.cleared)}::int4[], ${column((row) => row.ms)}::int8[])
          as u(rvm, day, code, raised, cleared, ms)
        join rvm r on r.id = u.rvm
        group by r.fleet_id, u.day, u.code, r.license_account_id
        order by r.fleet_id, u.day, u.code
        on conflict (fleet_id, day, code) do update set raised = fleet_daily_errors.raised + excluded.raised,
          cleared = fleet_daily_errors.cleared + excluded.cleared, cleared_ms = fleet_daily_errors.cleared_ms + excluded.cleared_ms`);
    }
  }
}

/** Fills the fleet roll-ups of a license account from its stored rows (demo seed; the migration does the same for all). */
export const fillPerformanceRollups = async (db: Db, licenseAccountId: number): Promise<void> => {
  await db.execute(sql`
    insert into fleet_hourly_usage (fleet_id, hour, license_account_id, sessions, items, accepted, rejected, refund, errors)
    select x.fleet_id, x.hour, ${licenseAccountId}, sum(x.sessions), sum(x.items), sum(x.accepted), sum(x.rejected), sum(x.refund), sum(x.errors)
    from (
      select r.fleet_id, h.hour, h.sessions, h.items, h.accepted, h.rejected, h.refund, 0 as errors
      from rvm_hourly_usage h join rvm r on r.id = h.rvm_id where h.license_account_id = ${licenseAccountId}
      union all
      select r.fleet_id, to_timestamp(floor(extract(epoch from e.raised_time) / 3600) * 3600), 0, 0, 0, 0, 0, 1
      from rvm_event e join rvm r on r.id = e.rvm_id where e.license_account_id = ${licenseAccountId} and e.severity = 'error'
    ) x group by 1, 2 order by 1, 2
    on conflict (fleet_id, hour) do update set sessions = excluded.sessions, items = excluded.items, accepted = excluded.accepted,
      rejected = excluded.rejected, refund = excluded.refund, errors = excluded.errors`);
  await db.execute(sql`
    insert into fleet_daily_errors (fleet_id, day, code, license_account_id, raised, cleared, cleared_ms)
    select r.fleet_id, (e.raised_time at time zone 'UTC')::date, e.code, ${licenseAccountId}, count(*), count(e.cleared_time),
      coalesce(sum(round(extract(epoch from (e.cleared_time - e.raised_time)) * 1000)), 0)
    from rvm_event e join rvm r on r.id = e.rvm_id where e.license_account_id = ${licenseAccountId} and e.severity = 'error'
    group by 1, 2, 3 order by 1, 2, 3
    on conflict (fleet_id, day, code) do update set raised = excluded.raised, cleared = excluded.cleared, cleared_ms = excluded.cleared_ms`);
};
