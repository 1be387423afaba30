// The report notification scheduler (docs/reports.md, "Notifications"): a periodic job on every
// server instance that produces each enabled subscription's report when its period falls due (weekly:
// Monday 00:00, monthly: the 1st 00:00, in the account's time zone), keeps it as a generated report and
// mails it to the recipients with the file attached.
//
// Exactly once across instances: a run row per (subscription, period, period start) is inserted with
// `on conflict do nothing`, then worked on only by the instance that locks it (`for update skip
// locked`); the report is produced in the same transaction that records it on the run, so it exists
// once or not at all. Mails are recorded per recipient: a retry (SMTP down) mails only those still
// waiting and reuses the stored file. Catch-up: only the latest period that fell due is ever enqueued,
// so a server that was down over several due times produces the last missed period of each
// subscription at its next tick (it also runs at start), never a backlog.
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import { silentLog } from '../lib/logger';
import { and, eq, gt, inArray, isNotNull, sql } from 'drizzle-orm';
import { rowsOf, type Db } from '../db/client';
import { fleet } from '../db/schema/fleet';
import { generatedReport } from '../db/schema/reports';
import { reportNotification, reportNotificationFleet, reportNotificationMail, reportNotificationRun } from '../db/schema/reportNotifications';
import { translate } from '../../i18n';
import { AppError } from '../lib/errors';
import { lastMailing, type RecipientResult } from '../mail/lastMailing';
import type { MailAttachment } from '../mail/mailer';
import type { Services } from '../services';
import { generateReport, type ReportFormat, type ReportKind } from './generate';
import { accountTimeZone, latestDuePeriod, utcOffsetMinutesAt, type PeriodWindow, type ReportPeriod } from './notificationPeriods';
import { recipientsOf, subscriptionMail } from './notificationMail';

export const REPORT_NOTIFICATION_JOB = 'reportNotifications';
/** The job's tick: a due report goes out within this time of its due moment. */
export const TICK_MS = 60_000;
/** Runs read at a time (each is worked on in its own transaction). */
export const BATCH = 20;
/** A tick works runs for at most this long; the rest wait for the next tick. */
export const TICK_BUDGET_MS = 45_000;
/** A run that keeps failing is retried (with back-off) for this long after it was enqueued, then given up. */
export const RETRY_HOURS = 24;
const MINUTE = 60_000;

/** Minutes before the next try after `attempts` failures: 1 (the next tick), 2, 4, ... at most 60. */
export const backoffMinutes = (attempts: number) => Math.min(2 ** Math.max(attempts - 1, 0), 60);

export interface SchedulerOutcome {
  enqueued: number;
  produced: number;
  mailed: number;
  failed: number;
}

/** Inserts the run of every enabled subscription whose latest period fell due after it was created. */
const enqueueDueRuns = async (db: Db, now: Date): Promise<number> => {
  let enqueued = 0;
  const zone = accountTimeZone();
  for (const period of ['weekly', 'monthly'] as const) {
    const window = latestDuePeriod(period, now, zone);
    const result = await db.execute(sql`
      insert into report_notification_run
        (license_account_id, subscription_id, period, period_start, period_end, status, created_time, next_attempt_time)
      select s.license_account_id, s.id, s.period, ${window.start.toISOString()}::timestamptz, ${window.end.toISOString()}::timestamptz,
             'due', ${now.toISOString()}::timestamptz, ${now.toISOString()}::timestamptz
      from report_notification s
      where s.enabled and s.period = ${period} and s.create_time <= ${window.end.toISOString()}::timestamptz
      on conflict (subscription_id, period, period_start) do nothing
      returning id`);
    enqueued += rowsOf(result).length;
  }
  return enqueued;
};

interface ClaimedRun {
  id: number;
  accountId: number;
  subscriptionId: number;
  period: ReportPeriod;
  periodStart: Date | string;
  periodEnd: Date | string;
  status: string;
  generatedReportId: number | null;
  attempts: number;
  createdTime: Date | string;
  name: string;
  report: ReportKind;
  recipients: string;
  format: ReportFormat;
  language: 'en' | 'zh';
  enabled: boolean;
}

/** Locks one unfinished run for this transaction, or nothing when another instance has it (or it is done). */
const claim = async (tx: Db, id: number, now: Date): Promise<ClaimedRun | undefined> => {
  const result = await tx.execute(sql`
    select r.id, r.license_account_id as "accountId", r.subscription_id as "subscriptionId", r.period,
           r.period_start as "periodStart", r.period_end as "periodEnd", r.status,
           r.generated_report_id as "generatedReportId", r.attempts, r.created_time as "createdTime",
           s.name, s.report, s.recipients, s.format, s.language, s.enabled
    from report_notification_run r join report_notification s on s.id = r.subscription_id
    where r.id = ${id} and r.status in ('due', 'produced') and r.next_attempt_time <= ${now.toISOString()}::timestamptz
    for update of r skip locked`);
  const [row] = rowsOf<ClaimedRun>(result);
  return row && { ...row, id: Number(row.id), generatedReportId: row.generatedReportId === null ? null : Number(row.generatedReportId) };
};

/** Records a failed try: retried after the back-off, given up RETRY_HOURS after the run was enqueued. */
const recordFailure = async (tx: Db, run: ClaimedRun, now: Date, error: string) => {
  const attempts = run.attempts + 1;
  const giveUp = now.getTime() - new Date(run.createdTime).getTime() >= RETRY_HOURS * 3_600_000;
  await tx
    .update(reportNotificationRun)
    .set({
      attempts,
      error: error.slice(0, 2000),
      status: giveUp ? 'failed' : run.status,
      nextAttemptTime: new Date(now.getTime() + backoffMinutes(attempts) * MINUTE),
    })
    .where(eq(reportNotificationRun.id, run.id));
};

export const fleetIdsOf = async (tx: Db, subscriptionId: number) =>
  (await tx.select({ id: reportNotificationFleet.fleetId }).from(reportNotificationFleet).where(eq(reportNotificationFleet.subscriptionId, subscriptionId))).map((row) => row.id);

/** The file of an already produced run (a retry of its mails): read back, never produced again. */
const storedFile = async (tx: Db, id: number): Promise<MailAttachment | undefined> => {
  const [row] = await tx
    .select({ filename: generatedReport.fileName, contentType: generatedReport.contentType, content: generatedReport.content })
    .from(generatedReport)
    .where(eq(generatedReport.id, id));
  return row;
};

/** The names of these fleets, sorted (the mail lists them). */
export const fleetNamesOf = async (tx: Db, fleetIds: readonly number[]) =>
  fleetIds.length
    ? (
        await tx
          .select({ name: fleet.name })
          .from(fleet)
          .where(inArray(fleet.id, [...fleetIds]))
      )
        .map((row) => row.name)
        .sort()
    : [];

/** A failure as the operator reads it on the run: a catalogue code with its English text, else the error. */
export const describeFailure = (error: unknown) => (error instanceof AppError ? `${error.code} ${translate('en', `errors.${error.code}`)}` : String(error));

type RunOutcome = 'busy' | 'skipped' | 'mailed' | 'mailPending' | 'failed';

/** One run in one transaction: produce the report if not yet done, then mail every recipient still waiting. */
const processRun = async (services: Services, id: number, now: Date, log: FastifyBaseLogger): Promise<{ outcome: RunOutcome; produced: boolean }> =>
  services.db.transaction(async (tx) => {
    const run = await claim(tx, id, now);
    if (!run) return { outcome: 'busy', produced: false };
    if (!run.enabled) {
      await tx.update(reportNotificationRun).set({ status: 'skipped' }).where(eq(reportNotificationRun.id, run.id));
      return { outcome: 'skipped', produced: false };
    }
    const window: PeriodWindow = { start: new Date(run.periodStart), end: new Date(run.periodEnd) };
    const zone = accountTimeZone(run.accountId);
    const fleetIds = await fleetIdsOf(tx, run.subscriptionId);
    let file: MailAttachment | undefined;
    let generatedReportId = run.generatedReportId;
    let produced = false;
    if (generatedReportId === null) {
      try {
        // A savepoint: a failed production leaves the run's transaction usable to record the failure.
        const generated = await tx.transaction((savepoint) =>
          generateReport(
            { ...services, db: savepoint },
            {
              accountId: run.accountId,
              report: run.report,
              from: window.start,
              to: window.end,
              fleetIds,
              format: run.format,
              language: run.language,
              utcOffsetMinutes: utcOffsetMinutesAt(window.start, zone),
              producedBy: { kind: 'subscription', subscriptionId: run.subscriptionId },
            },
          ),
        );
        generatedReportId = generated.id;
        file = { filename: generated.fileName, contentType: generated.contentType, content: generated.content };
        produced = true;
        await tx
          .update(reportNotificationRun)
          .set({ status: 'produced', generatedReportId, fileName: generated.fileName.slice(0, 200), producedTime: now, error: null })
          .where(eq(reportNotificationRun.id, run.id));
        run.status = 'produced';
      } catch (error) {
        log.warn({ err: error, runId: run.id, subscriptionId: run.subscriptionId }, 'report notification: producing the report failed');
        await recordFailure(tx, run, now, describeFailure(error));
        return { outcome: 'failed', produced: false };
      }
    } else {
      file = await storedFile(tx, generatedReportId);
      if (!file) {
        await tx.update(reportNotificationRun).set({ status: 'failed', error: 'the generated report was deleted' }).where(eq(reportNotificationRun.id, run.id));
        return { outcome: 'failed', produced: false };
      }
    }

    const delivered = new Set(
      (
        await tx
          .select({ recipient: reportNotificationMail.recipient })
          .from(reportNotificationMail)
          .where(and(eq(reportNotificationMail.runId, run.id), isNotNull(reportNotificationMail.deliveredTime)))
      ).map((row) => row.recipient),
    );
    const waiting = recipientsOf(run.recipients).filter((to) => !delivered.has(to));
    const fleetNames = await fleetNamesOf(tx, fleetIds);
    const facts = { subscriptionName: run.name, report: run.report, period: run.period, language: run.language, window, zone, fleetNames, generatedReportId, file };
    const errors: string[] = [];
    const results: RecipientResult[] = [];
    for (const to of waiting) {
      const result = await services.mailer.deliver(tx, { ...subscriptionMail(facts, to, services.config.publicUrl), licenseAccountId: run.accountId }, log);
      results.push({ to, result });
      const values = { outboxId: result.outboxId, deliveredTime: result.delivered ? now : null, error: result.error ?? null };
      await tx
        .insert(reportNotificationMail)
        .values({ runId: run.id, recipient: to, attempts: 1, ...values })
        .onConflictDoUpdate({
          target: [reportNotificationMail.runId, reportNotificationMail.recipient],
          set: { ...values, attempts: sql`${reportNotificationMail.attempts} + 1` },
        });
      if (!result.delivered) errors.push(`${to}: ${result.error ?? 'not delivered'}`);
    }
    // the subscription's "last sent" and "last result" (also written by send now, server/reports/sendNow.ts)
    if (results.length) await tx.update(reportNotification).set(lastMailing(now, results)).where(eq(reportNotification.id, run.subscriptionId));
    if (errors.length) {
      await recordFailure(tx, run, now, errors.join('; '));
      return { outcome: 'mailPending', produced };
    }
    await tx.update(reportNotificationRun).set({ status: 'mailed', mailedTime: now, error: null }).where(eq(reportNotificationRun.id, run.id));
    return { outcome: 'mailed', produced };
  });

/** One tick at `now` (tests pass an advanced clock): enqueue what fell due, then work the unfinished runs. */
export const runReportNotifications = async (services: Services, now: Date, log: FastifyBaseLogger = silentLog): Promise<SchedulerOutcome> => {
  const outcome: SchedulerOutcome = { enqueued: await enqueueDueRuns(services.db, now), produced: 0, mailed: 0, failed: 0 };
  const started = Date.now();
  // In id order, BATCH at a time, until none is left or the tick's time is used up (the rest waits
  // for the next tick); a run another instance holds is passed over, not waited for.
  for (let after = 0; Date.now() - started < TICK_BUDGET_MS;) {
    const open = await services.db
      .select({ id: reportNotificationRun.id })
      .from(reportNotificationRun)
      .where(
        and(
          inArray(reportNotificationRun.status, ['due', 'produced']),
          sql`${reportNotificationRun.nextAttemptTime} <= ${now.toISOString()}::timestamptz`,
          gt(reportNotificationRun.id, after),
        ),
      )
      .orderBy(reportNotificationRun.id)
      .limit(BATCH);
    for (const { id } of open) {
      const result = await processRun(services, id, now, log);
      if (result.produced) outcome.produced += 1;
      if (result.outcome === 'mailed') outcome.mailed += 1;
      if (result.outcome === 'failed' || result.outcome === 'mailPending') outcome.failed += 1;
      after = id;
    }
    if (open.length < BATCH) break;
  }
  return outcome;
};

/** Adds the job to this instance's runner (every TICK_MS, and once at start for the catch-up). */
export const registerReportNotificationJob = (app: FastifyInstance, services: Services) => {
  services.jobs.add({ name: REPORT_NOTIFICATION_JOB, everyMs: TICK_MS, runAtStart: true, run: (now) => runReportNotifications(services, now, app.log) });
};
