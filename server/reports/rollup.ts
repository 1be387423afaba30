// The report roll-ups (server/db/schema/reports.ts): a column per material and per reject reason.
// Kept current by the gateway in the session's own statement (per machine: hour, UTC day, UTC week) and at
// the end of each batch (per account and hour, in key order like the dashboard's AccountUsageBatch);
// filled in bulk by the demo seed and the migration that created them.
import { sql, type SQL } from 'drizzle-orm';
import { ITEM_TYPES, REJECT_REASON_CODES } from '../../resources/fleetCatalogue';
import type { Db } from '../db/client';
import { materialColumn, reasonColumn } from '../db/schema/reports';

/** Every count column of the three roll-ups, in table order. */
export const COUNT_COLUMNS: readonly string[] = ['items', 'accepted', 'rejected', ...ITEM_TYPES.map(materialColumn), ...REJECT_REASON_CODES.map(reasonColumn)];

export interface ItemLike {
  itemType: string;
  rejectReason?: number | null;
}

/** The count columns of some items (one session), in COUNT_COLUMNS order. */
export const countsOfItems = (items: readonly ItemLike[]): number[] => {
  const counts = new Map<string, number>(COUNT_COLUMNS.map((column) => [column, 0]));
  const bump = (column: string) => counts.set(column, (counts.get(column) ?? 0) + 1);
  for (const item of items) {
    bump('items');
    if (item.rejectReason === undefined || item.rejectReason === null) {
      bump('accepted');
      bump(materialColumn(item.itemType));
    } else {
      bump('rejected');
      bump(reasonColumn(item.rejectReason));
    }
  }
  return COUNT_COLUMNS.map((column) => counts.get(column) ?? 0);
};

/** `count(*) filter (...)` per column over consumer_session_item rows aliased `i` (backfill, raw checks). */
export const itemAggregates = (alias = 'i'): string =>
  [
    'count(*)',
    `count(*) filter (where ${alias}.reject_reason is null)`,
    `count(*) filter (where ${alias}.reject_reason is not null)`,
    ...ITEM_TYPES.map((type) => `count(*) filter (where ${alias}.reject_reason is null and ${alias}.item_type = '${type}')`),
    ...REJECT_REASON_CODES.map((code) => `count(*) filter (where ${alias}.reject_reason = ${code})`),
  ].join(', ');

const columnList = COUNT_COLUMNS.join(', ');
const sumList = COUNT_COLUMNS.map((column) => `sum(${column})`).join(', ');
const addExcluded = (table: string) => COUNT_COLUMNS.map((column) => `${column} = ${table}.${column} + excluded.${column}`).join(', ');

/** The SQL of the bulk fill; `where` restricts the sessions (one account for the seed, none for the migration). */
export const backfillStatements = (where = 'true'): string[] => [
  `insert into rvm_hourly_items (rvm_id, hour, license_account_id, ${columnList})
   select s.rvm_id, to_timestamp(floor(extract(epoch from s.start_time) / 3600) * 3600), s.license_account_id, ${itemAggregates('i')}
   from consumer_session s join consumer_session_item i on i.session_id = s.id where ${where} group by 1, 2, 3 order by 2, 1`,
  `insert into rvm_daily_items (rvm_id, day, license_account_id, ${columnList})
   select rvm_id, (hour at time zone 'UTC')::date, license_account_id, ${sumList}
   from rvm_hourly_items h where ${where.replaceAll('s.', 'h.')} group by 1, 2, 3 order by 2, 1`,
  `insert into rvm_weekly_items (rvm_id, week, license_account_id, ${columnList})
   select rvm_id, date_trunc('week', day)::date, license_account_id, ${sumList}
   from rvm_daily_items h where ${where.replaceAll('s.', 'h.')} group by 1, 2, 3 order by 2, 1`,
  `insert into account_hourly_items (license_account_id, hour, ${columnList})
   select license_account_id, hour, ${sumList} from rvm_hourly_items h where ${where.replaceAll('s.', 'h.')} group by 1, 2 order by 1, 2`,
];

/** Fills the report roll-ups of one license account from its stored sessions (demo seed, tests). */
export const fillReportRollups = async (db: Db, licenseAccountId: number): Promise<void> => {
  const account = Number(licenseAccountId);
  await db.execute(sql.raw(`delete from rvm_hourly_items where license_account_id = ${account}`));
  await db.execute(sql.raw(`delete from rvm_daily_items where license_account_id = ${account}`));
  await db.execute(sql.raw(`delete from account_hourly_items where license_account_id = ${account}`));
  await db.execute(sql.raw(`delete from rvm_weekly_items where license_account_id = ${account}`));
  for (const statement of backfillStatements(`s.license_account_id = ${account}`)) await db.execute(sql.raw(statement));
};

/**
 * The per-machine parts of the gateway's session statement: three CTEs that add the session's counts
 * to its machine's hour, UTC day and UTC week, only when the session row `s` was inserted (a re-sent session adds nothing).
 */
export const sessionRollupCtes = (rvmId: number, licenseAccountId: number, startTime: string, items: readonly ItemLike[]): SQL => {
  const values = sql.join(
    countsOfItems(items).map((count) => sql`${count}::int`),
    sql`, `,
  );
  return sql`, ri_h as (
        insert into rvm_hourly_items (rvm_id, hour, license_account_id, ${sql.raw(columnList)})
        select ${rvmId}, to_timestamp(floor(extract(epoch from ${startTime}::timestamptz) / 3600) * 3600), ${licenseAccountId}, ${values} from s
        on conflict (rvm_id, hour) do update set ${sql.raw(addExcluded('rvm_hourly_items'))}
      ), ri_d as (
        insert into rvm_daily_items (rvm_id, day, license_account_id, ${sql.raw(columnList)})
        select ${rvmId}, (${startTime}::timestamptz at time zone 'UTC')::date, ${licenseAccountId}, ${values} from s
        on conflict (rvm_id, day) do update set ${sql.raw(addExcluded('rvm_daily_items'))}
      ), ri_w as (
        insert into rvm_weekly_items (rvm_id, week, license_account_id, ${sql.raw(columnList)})
        select ${rvmId}, date_trunc('week', ${startTime}::timestamptz at time zone 'UTC')::date, ${licenseAccountId}, ${values} from s
        on conflict (rvm_id, week) do update set ${sql.raw(addExcluded('rvm_weekly_items'))}
      )`;
};

/** The account roll-up rows of one gateway batch, written once at its end in key order (no deadlock). */
export class ReportItemsBatch {
  private readonly rows = new Map<string, { account: number; hour: number; counts: number[] }>();

  add(licenseAccountId: number, startTime: Date, items: readonly ItemLike[]): void {
    const hour = Math.floor(startTime.getTime() / 3_600_000) * 3_600_000;
    const key = `${licenseAccountId}/${hour}`;
    const row = this.rows.get(key) ?? { account: licenseAccountId, hour, counts: COUNT_COLUMNS.map(() => 0) };
    countsOfItems(items).forEach((count, index) => (row.counts[index] += count));
    this.rows.set(key, row);
  }

  async flush(tx: Db): Promise<void> {
    if (this.rows.size === 0) return;
    const rows = [...this.rows.values()].sort((a, b) => a.account - b.account || a.hour - b.hour);
    this.rows.clear();
    const arrays = [
      sql`${sql.param(rows.map((row) => row.account))}::int4[]`,
      sql`${sql.param(rows.map((row) => row.hour))}::float8[]`,
      ...COUNT_COLUMNS.map((_, index) => sql`${sql.param(rows.map((row) => row.counts[index]))}::int4[]`),
    ];
    await tx.execute(sql`
      insert into account_hourly_items (license_account_id, hour, ${sql.raw(columnList)})
      select u.account, to_timestamp(u.hour / 1000.0), ${sql.raw(COUNT_COLUMNS.map((column) => `u.${column}`).join(', '))}
      from unnest(${sql.join(arrays, sql`, `)}) as u(account, hour, ${sql.raw(columnList)})
      order by u.account, u.hour
      on conflict (license_account_id, hour) do update set ${sql.raw(addExcluded('account_hourly_items'))}`);
  }
}

/** Machines about to be deleted: their items leave the account roll-up in the deleting transaction (their own rows cascade). */
export const forgetMachinesReportItems = async (tx: Db, ids: readonly number[]): Promise<void> => {
  if (ids.length === 0) return;
  const named = COUNT_COLUMNS.map((column) => `sum(${column}) as ${column}`).join(', ');
  const subtract = COUNT_COLUMNS.map((column) => `${column} = a.${column} - gone.${column}`).join(', ');
  await tx.execute(sql`
    with gone as (
      select license_account_id, hour, ${sql.raw(named)} from rvm_hourly_items where rvm_id = any(${sql.param([...ids])}::int4[]) group by 1, 2
    )
    update account_hourly_items a set ${sql.raw(subtract)}
    from gone where a.license_account_id = gone.license_account_id and a.hour = gone.hour`);
};
