// Message retention (docs/api-hookups.md "Retention"): settled messages do not stay forever. Delivered ones
// (`success`) go DELIVERED_RETENTION_DAYS after their last send, failed ones (`fail`, the dead letters an
// operator may still replay) FAILED_RETENTION_DAYS after; pending ones (`notSent`) are never deleted. In
// statements of at most `batchRows` rows read through hookup_message_settled_idx, so no run holds many row
// locks or one long transaction; every instance runs the job, and `for update skip locked` makes two
// instances share the rows (each row is deleted by one of them) instead of waiting on each other.
import { sql } from 'drizzle-orm';
import { rowsOf, type Db } from '../db/client';

const DAY_MS = 24 * 60 * 60_000;

export const DELIVERED_RETENTION_DAYS = 30;
export const FAILED_RETENTION_DAYS = 90;
export const HOOKUP_RETENTION_JOB = 'hookupRetention';

export interface HookupRetention {
  /** Days a `success` message is kept after its last send. */
  deliveredDays: number;
  /** Days a `fail` message is kept after its last send. */
  failedDays: number;
  /** Rows one statement deletes at most. */
  batchRows: number;
  /** Statements one run issues at most per status; the next run (an hour later) continues. */
  batchesPerRun: number;
}

export const RETENTION: HookupRetention = { deliveredDays: DELIVERED_RETENTION_DAYS, failedDays: FAILED_RETENTION_DAYS, batchRows: 1000, batchesPerRun: 50 };

/** Deletes the settled messages past their retention at `now`; answers how many went. */
export const deleteSettledMessages = async (db: Db, now: Date, retention: HookupRetention = RETENTION): Promise<number> => {
  let deleted = 0;
  for (const [status, days] of [
    ['success', retention.deliveredDays],
    ['fail', retention.failedDays],
  ] as const) {
    const expiredBefore = new Date(now.getTime() - days * DAY_MS);
    for (let batch = 0; batch < retention.batchesPerRun; batch++) {
      // The batch is read once (materialized): as a subquery re-run per row, `limit … skip locked` would
      // pass over the rows this statement already deleted and take the next ones, without limit. The delete
      // checks the status again: a message resent since it was read is pending, not settled.
      const result = await db.execute(sql`
        with batch as materialized (
          select id from hookup_message where status = ${status} and last_send_time < ${expiredBefore.toISOString()}::timestamptz
          limit ${retention.batchRows} for update skip locked
        )
        delete from hookup_message m using batch where m.id = batch.id and m.status = ${status}
        returning m.id`);
      const gone = rowsOf(result);
      deleted += gone.length;
      if (gone.length < retention.batchRows) break;
    }
  }
  return deleted;
};
