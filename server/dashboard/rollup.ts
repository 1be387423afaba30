// The dashboard's roll-ups (server/db/schema/dashboard.ts): how they are kept current (a gateway
// batch's sessions, the demo seed, a machine's deletion) and how the dashboard reads them.
import { sql, type SQL } from 'drizzle-orm';
import { rowsOf, type Db } from '../db/client';
import type { Periods } from './periods';
import { localDay, toDays, usageFromSessions, type UsageFigures, type UsageRow } from './usage';
import { fillPerformanceRollups, PerformanceBatch } from '../performance/rollup';

const QUARTER = 900_000;

/** One new consumer session, as the account roll-up counts it. */
export interface SessionUsage {
  licenseAccountId: number;
  rvmId: number;
  startTime: Date;
  items: number;
  accepted: number;
  rejected: number;
  refund: number;
}

/**
 * The account roll-up rows of one gateway batch: summed in memory, written once at the end of the
 * batch's transaction in key order, so concurrent batches (intake shards, server instances) lock
 * the account's few hot rows briefly and always in the same order (no deadlock).
 */
export class AccountUsageBatch {
  private readonly rows = new Map<string, { account: number; bucket: number; sessions: number; items: number; accepted: number; rejected: number; cents: number }>();
  /** The performance screen's fleet roll-ups of the same batch (sessions here, error events from the alarm handler). */
  readonly performance = new PerformanceBatch();

  add(session: SessionUsage): void {
    this.performance.session(session.rvmId, session.startTime, session);
    const bucket = Math.floor(session.startTime.getTime() / QUARTER) * QUARTER;
    const key = `${session.licenseAccountId}/${bucket}`;
    const row = this.rows.get(key) ?? { account: session.licenseAccountId, bucket, sessions: 0, items: 0, accepted: 0, rejected: 0, cents: 0 };
    row.sessions++;
    row.items += session.items;
    row.accepted += session.accepted;
    row.rejected += session.rejected;
    row.cents += Math.round(session.refund * 100);
    this.rows.set(key, row);
  }

  async flush(tx: Db): Promise<void> {
    await this.flushAccounts(tx);
    await this.performance.flush(tx);
  }

  private async flushAccounts(tx: Db): Promise<void> {
    if (this.rows.size === 0) return;
    const rows = [...this.rows.values()].sort((a, b) => a.account - b.account || a.bucket - b.bucket);
    this.rows.clear();
    const column = <T>(pick: (row: (typeof rows)[number]) => T) => rows.map(pick);
    await tx.execute(sql`
      insert into account_usage_15m (license_account_id, bucket, sessions, items, accepted, rejected, refund)
      select u.account, to_timestamp(u.bucket / 1000.0), u.sessions, u.items, u.accepted, u.rejected, u.cents / 100.0
      from unnest(${sql.param(column((row) => row.account))}::int4[], ${sql.param(column((row) => row.bucket))}::float8[],
        ${sql.param(column((row) => row.sessions))}::int4[], ${sql.param(column((row) => row.items))}::int4[],
        ${sql.param(column((row) => row.accepted))}::int4[], ${sql.param(column((row) => row.rejected))}::int4[],
        ${sql.param(column((row) => row.cents))}::int8[]) as u(account, bucket, sessions, items, accepted, rejected, cents)
      order by u.account, u.bucket
      on conflict (license_account_id, bucket) do update set sessions = account_usage_15m.sessions + excluded.sessions,
        items = account_usage_15m.items + excluded.items, accepted = account_usage_15m.accepted + excluded.accepted,
        rejected = account_usage_15m.rejected + excluded.rejected, refund = account_usage_15m.refund + excluded.refund`);
  }
}

/** Fills the roll-ups of a license account from its stored sessions and cleanings (demo seed; the migration does the same for all). */
export const fillRollups = async (db: Db, licenseAccountId: number): Promise<void> => {
  await db.execute(sql`
    insert into account_usage_15m (license_account_id, bucket, sessions, items, accepted, rejected, refund)
    select license_account_id, to_timestamp(floor(extract(epoch from start_time) / 900) * 900), count(*), sum(item_count), sum(accepted_count),
      sum(rejected_count), sum(total_refund)
    from consumer_session where license_account_id = ${licenseAccountId} group by 1, 2 order by 2
    on conflict (license_account_id, bucket) do update set sessions = excluded.sessions, items = excluded.items, accepted = excluded.accepted,
      rejected = excluded.rejected, refund = excluded.refund`);
  await db.execute(sql`
    insert into rvm_hourly_usage (rvm_id, hour, license_account_id, sessions, items, accepted, rejected, refund)
    select rvm_id, to_timestamp(floor(extract(epoch from start_time) / 3600) * 3600), license_account_id, count(*), sum(item_count),
      sum(accepted_count), sum(rejected_count), sum(total_refund)
    from consumer_session where license_account_id = ${licenseAccountId} group by 1, 2, 3 order by 2, 1
    on conflict (rvm_id, hour) do update set sessions = excluded.sessions, items = excluded.items, accepted = excluded.accepted,
      rejected = excluded.rejected, refund = excluded.refund`);
  await db.execute(sql`
    insert into rvm_cleaning_state (rvm_id, license_account_id, last_completed_time)
    select rvm_id, ${licenseAccountId}, max(start_time) from service_session
    where license_account_id = ${licenseAccountId} and cleaning_outcome = 'completed' group by 1
    on conflict (rvm_id) do update set last_completed_time = greatest(rvm_cleaning_state.last_completed_time, excluded.last_completed_time)`);
  // After rvm_hourly_usage: the fleet roll-ups are summed from it.
  await fillPerformanceRollups(db, licenseAccountId);
};

/**
 * Machines about to be deleted take their sessions with them (foreign keys cascade, and so do their
 * per-machine roll-ups): the account roll-up forgets them too, in the deleting transaction.
 */
export const forgetMachinesUsage = async (tx: Db, ids: readonly number[]): Promise<void> => {
  if (ids.length === 0) return;
  await tx.execute(sql`
    with gone as (
      select license_account_id, to_timestamp(floor(extract(epoch from start_time) / 900) * 900) as bucket, count(*) as sessions,
        sum(item_count) as items, sum(accepted_count) as accepted, sum(rejected_count) as rejected, sum(total_refund) as refund
      from consumer_session where rvm_id = any(${sql.param([...ids])}::int4[]) group by 1, 2
    )
    update account_usage_15m a set sessions = a.sessions - gone.sessions, items = a.items - gone.items, accepted = a.accepted - gone.accepted,
      rejected = a.rejected - gone.rejected, refund = a.refund - gone.refund
    from gone where a.license_account_id = gone.license_account_id and a.bucket = gone.bucket`);
};

const sums = sql`sum(sessions) as sessions, sum(items) as items, sum(accepted) as accepted, sum(rejected) as rejected, sum(refund) as refund`;

/** The whole account from its 15-minute roll-up: exact for any offset in whole quarter hours. */
const usageOfAccount = async (db: Db, account: number, periods: Periods): Promise<UsageFigures> => {
  const [days, total] = await Promise.all([
    db.execute(sql`
      select ${localDay(sql`bucket`, periods)} as day, ${sums} from account_usage_15m
      where license_account_id = ${account} and bucket >= ${periods.earliest.toISOString()}::timestamptz
        and bucket <= ${periods.now.toISOString()}::timestamptz
      group by 1`),
    db.execute(sql`select coalesce(sum(accepted), 0) as accepted from account_usage_15m where license_account_id = ${account}`),
  ]);
  return { days: toDays(rowsOf<UsageRow>(days)), allTimeAccepted: Number(rowsOf<{ accepted: number | string }>(total)[0]?.accepted ?? 0) };
};

/** Some machines from their hourly roll-up: exact for offsets in whole hours. */
const usageOfMachines = async (db: Db, account: number, periods: Periods, machines: SQL): Promise<UsageFigures> => {
  const [days, total] = await Promise.all([
    db.execute(sql`
      select ${localDay(sql`hour`, periods)} as day, ${sums} from rvm_hourly_usage
      where license_account_id = ${account} and hour >= ${periods.earliest.toISOString()}::timestamptz
        and hour <= ${periods.now.toISOString()}::timestamptz and rvm_id in (select rvm.id from rvm where ${machines})
      group by 1`),
    db.execute(sql`select coalesce(sum(d.accepted), 0) as accepted from rvm_daily_usage d
      where d.license_account_id = ${account} and d.rvm_id in (select rvm.id from rvm where ${machines})`),
  ]);
  return { days: toDays(rowsOf<UsageRow>(days)), allTimeAccepted: Number(rowsOf<{ accepted: number | string }>(total)[0]?.accepted ?? 0) };
};

/**
 * Some fleets (each with its sub-fleets, listed) from the performance screen's fleet roll-up
 * (fleet_hourly_usage, kept current by the gateway like the others): a few thousand rows for two
 * months, where the machines' hourly roll-up reads a row per machine and hour. Exact for offsets in whole hours.
 */
const usageOfFleets = async (db: Db, account: number, periods: Periods, fleetIds: readonly number[]): Promise<UsageFigures> => {
  const fleets = sql`license_account_id = ${account} and fleet_id = any(${sql.param([...fleetIds])}::int4[])`;
  const [days, total] = await Promise.all([
    db.execute(sql`
      select ${localDay(sql`hour`, periods)} as day, ${sums} from fleet_hourly_usage
      where ${fleets} and hour >= ${periods.earliest.toISOString()}::timestamptz and hour <= ${periods.now.toISOString()}::timestamptz
      group by 1`),
    db.execute(sql`select coalesce(sum(accepted), 0) as accepted from fleet_hourly_usage where ${fleets}`),
  ]);
  return { days: toDays(rowsOf<UsageRow>(days)), allTimeAccepted: Number(rowsOf<{ accepted: number | string }>(total)[0]?.accepted ?? 0) };
};

/** A saved filter that only names fleets (`{ fleetId: [...] }`): its fleet ids, else undefined. */
export const fleetsOnly = (base: Record<string, unknown>): number[] | undefined => {
  const used = Object.entries(base).filter(([, value]) => value !== undefined && value !== null && value !== '' && !(Array.isArray(value) && value.length === 0));
  if (used.length !== 1 || used[0][0] !== 'fleetId') return undefined;
  const ids = (Array.isArray(used[0][1]) ? used[0][1] : [used[0][1]]).filter((id): id is number => typeof id === 'number');
  return ids.length ? ids : undefined;
};

/** The fleets and all their sub-fleets, of the account only. */
const fleetSubtree = async (db: Db, account: number, ids: readonly number[]): Promise<number[]> =>
  rowsOf<{ id: number }>(
    await db.execute(sql`
    with recursive subtree(id) as (
      select id from fleet where license_account_id = ${account} and id = any(${sql.param([...ids])}::int4[])
      union
      select child.id from fleet child join subtree on child.parent_id = subtree.id
    ) select id from subtree`),
  ).map((row) => Number(row.id));

/**
 * The consumer figures of the scope: the whole account (`machines` undefined) from its 15-minute
 * roll-up; a saved filter of fleets only from the fleets' hourly roll-up; the machines of any other
 * saved filter from their hourly roll-up; or — for an offset that is not whole hours (e.g. UTC+5:30)
 * — from their sessions.
 */
export const usageOf = async (db: Db, account: number, periods: Periods, machines: SQL | undefined, base: Record<string, unknown> = {}): Promise<UsageFigures> => {
  if (!machines) return usageOfAccount(db, account, periods);
  if (periods.offsetMinutes % 60 !== 0) return usageFromSessions(db, account, periods, machines);
  const fleets = fleetsOnly(base);
  if (fleets) return usageOfFleets(db, account, periods, await fleetSubtree(db, account, fleets));
  return usageOfMachines(db, account, periods, machines);
};
