// Audit log retention (docs/audit-log.md "Retention"): entries older than AUDIT_RETENTION_DAYS go, in
// batches, so no run holds many row locks or one long transaction. Every instance runs the job; deleting
// is idempotent and `skip locked` lets two instances share the work instead of waiting on each other.
import { inArray, lt } from 'drizzle-orm';
import type { Db } from '../db/client';
import { auditLog } from '../db/schema';
import type { Services } from '../services';

const DAY_MS = 24 * 60 * 60_000;

export interface RetentionLimits {
  /** Rows one statement deletes at most. */
  batchRows: number;
  /** Statements one run issues at most; the next run (an hour later) continues. */
  batchesPerRun: number;
}

const LIMITS: RetentionLimits = { batchRows: 1000, batchesPerRun: 100 };

/** Deletes entries older than `retentionDays` before `now`; answers how many went. */
export const deleteExpiredEntries = async (db: Db, retentionDays: number, now: Date, limits: RetentionLimits = LIMITS): Promise<number> => {
  const cutoff = new Date(now.getTime() - retentionDays * DAY_MS);
  let deleted = 0;
  for (let batch = 0; batch < limits.batchesPerRun; batch++) {
    const expired = db.select({ id: auditLog.id }).from(auditLog).where(lt(auditLog.time, cutoff)).limit(limits.batchRows).for('update', { skipLocked: true });
    const gone = await db.delete(auditLog).where(inArray(auditLog.id, expired)).returning({ id: auditLog.id });
    deleted += gone.length;
    if (gone.length < limits.batchRows) break;
  }
  return deleted;
};

export const AUDIT_RETENTION_JOB = 'auditRetention';

export const registerAuditRetentionJob = ({ db, config, jobs }: Pick<Services, 'db' | 'config' | 'jobs'>) =>
  jobs.add({ name: AUDIT_RETENTION_JOB, everyMs: 60 * 60_000, runAtStart: true, run: (now) => deleteExpiredEntries(db, config.auditRetentionDays, now) });
