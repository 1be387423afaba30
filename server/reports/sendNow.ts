// "Send now" of a report notification (docs/reports.md "Trying a notification"): produce the report of the
// period just over (as the scheduler would at its next due time) and mail it to every recipient at once,
// through the scheduler's mail (services.mailer, mail_outbox) in one transaction that also writes the
// subscription's "last sent" and "last result". The subscription's row is locked for that transaction
// (`for update skip locked`): a second click, on this instance or another, answers 9312 instead of
// mailing twice. The shared plumbing (route options, the answer, refusals) serves the event rules' send
// now too (server/events/sendNow.ts).
import { and, eq } from 'drizzle-orm';
import type { FastifyBaseLogger, FastifyRequest } from 'fastify';
import { translate, type Locale } from '../../i18n';
import { reportNotification as declaration } from '../../resources/reportNotification';
import type { ResourceDeclaration } from '../../resources/types';
import { auditActor, recordEvent } from '../audit/record';
import { callerOf } from '../auth/guard';
import type { Caller } from '../auth/principal';
import type { Db } from '../db/client';
import { reportNotification } from '../db/schema/reportNotifications';
import { envelopeSchema, failureResponses, localeOf, ok } from '../lib/envelope';
import { AppError } from '../lib/errors';
import { RowId, StrictObject, type TypedApp } from '../lib/typedApp';
import { lastMailing, type RecipientResult } from '../mail/lastMailing';
import type { Services } from '../services';
import { generateReport, type ReportKind } from './generate';
import { recipientsOf, subscriptionMail } from './notificationMail';
import { accountTimeZone, latestDuePeriod, utcOffsetMinutesAt, type ReportPeriod } from './notificationPeriods';
import { describeFailure, fleetIdsOf, fleetNamesOf } from './scheduler';

/** What a send now did: the notification's new "last sent" and "last result", and how many recipients were mailed. */
export interface SendNowAnswer {
  id: number;
  lastSent: string;
  lastResult: 'sent' | 'failed';
  lastError: string | null;
  recipients: number;
}

const ANSWER = {
  type: 'object',
  properties: {
    id: { type: 'integer' },
    lastSent: { type: 'string', format: 'date-time' },
    lastResult: { type: 'string', enum: ['sent', 'failed'] },
    lastError: { type: ['string', 'null'] },
    recipients: { type: 'integer', description: 'Recipients mailed (each gets one mail)' },
  },
};

/** Route options of a send now: the declaration's edit permission, OpenAPI text, `?id=`. */
export const sendNowRoute = (resource: ResourceDeclaration, summary: string) => {
  const permission = resource.permissions.edit!;
  return {
    config: { permissions: [permission] },
    schema: {
      tags: [resource.name],
      summary,
      description:
        `Needs ${permission} (superAdmin passes); the caller's license account only (another's: 2003). ` +
        'Refusals: 9310 no recipients, 9311 no mail server configured (SMTP_URL), 9312 already being sent; ' +
        '9313 when a mail did not go out (the failure is recorded as the last result, resData has it). docs/reports.md "Trying a notification".',
      security: [{ rvmToken: [] }],
      querystring: StrictObject({ id: RowId() }),
      response: { 200: envelopeSchema(ANSWER), ...failureResponses(true) },
    },
  };
};

/** The caller's license account (a caller without one has no notification: 2003). */
export const sendingAccount = (caller: Caller) => {
  if (caller.principal.licenseAccountId === null) throw new AppError('2003');
  return caller.principal.licenseAccountId;
};

/** Checked once the notification is known to be the caller's (another account's answers 2003 either way), before anything is written. */
export const requireSmtp = (services: Services) => {
  if (!services.mailer.smtpConfigured) throw new AppError('9311');
};

/** The row was not locked: another send holds it (9312), or it is not the caller's (2003). */
export const notLocked = async (exists: Promise<unknown[]>) => new AppError((await exists).length ? '9312' : '2003');

/** Audits the send, then answers it: a failure (recorded, committed) is 9313 with the reason, else success. */
export const answerSendNow = async (request: FastifyRequest, db: Db, resource: string, answer: SendNowAnswer) => {
  const caller = callerOf(request);
  await recordEvent(db, {
    ...auditActor(caller.principal),
    action: 'update',
    resource,
    recordId: answer.id,
    detail: { sendNow: answer.lastResult, recipients: answer.recipients },
    outcome: answer.lastResult === 'sent' ? 'success' : 'failure',
  });
  if (answer.lastResult === 'failed') {
    const reason = answer.lastError ?? '';
    throw new AppError('9313', { resMsg: translate(localeOf(request), 'errors.9313', { reason }), resData: answer });
  }
  return ok(request, answer);
};

export const answerOf = (id: number, recipients: number, values: ReturnType<typeof lastMailing>): SendNowAnswer => ({
  id,
  recipients,
  lastSent: values.lastSent.toISOString(),
  lastResult: values.lastResult,
  lastError: values.lastError,
});

/** Produces and mails subscription `id` of `accountId` now; the outcome is recorded on the subscription either way. */
export const sendReportNotificationNow = async (services: Services, accountId: number, id: number, now: Date, log: FastifyBaseLogger): Promise<SendNowAnswer> =>
  services.db.transaction(async (tx) => {
    const scope = and(eq(reportNotification.id, id), eq(reportNotification.licenseAccountId, accountId));
    const [subscription] = await tx.select().from(reportNotification).where(scope).for('update', { skipLocked: true });
    if (!subscription) throw await notLocked(tx.select({ id: reportNotification.id }).from(reportNotification).where(scope));
    requireSmtp(services);
    const recipients = recipientsOf(subscription.recipients);
    if (recipients.length === 0) throw new AppError('9310');
    const period: ReportPeriod = subscription.period === 'monthly' ? 'monthly' : 'weekly';
    const language: Locale = subscription.language === 'zh' ? 'zh' : 'en';
    const zone = accountTimeZone(accountId);
    const window = latestDuePeriod(period, now, zone);
    const fleetIds = await fleetIdsOf(tx, id);
    let generated;
    try {
      // A savepoint: a failed production leaves the transaction usable to record the failure.
      generated = await tx.transaction((savepoint) =>
        generateReport(
          { ...services, db: savepoint },
          {
            accountId,
            report: subscription.report as ReportKind,
            from: window.start,
            to: window.end,
            fleetIds,
            format: subscription.format === 'csv' ? 'csv' : 'xlsx',
            language,
            utcOffsetMinutes: utcOffsetMinutesAt(window.start, zone),
            producedBy: { kind: 'subscription', subscriptionId: id },
          },
        ),
      );
    } catch (error) {
      log.warn({ err: error, subscriptionId: id }, 'report notification send now: producing the report failed');
      const failed = { lastSent: now, lastResult: 'failed' as const, lastError: describeFailure(error).slice(0, 2000) };
      await tx.update(reportNotification).set(failed).where(eq(reportNotification.id, id));
      return answerOf(id, 0, failed);
    }
    const file = { filename: generated.fileName, contentType: generated.contentType, content: generated.content };
    const facts = {
      subscriptionName: subscription.name,
      report: subscription.report,
      period,
      language,
      window,
      zone,
      fleetNames: await fleetNamesOf(tx, fleetIds),
      generatedReportId: generated.id,
      file,
    };
    const results: RecipientResult[] = [];
    for (const to of recipients) {
      results.push({ to, result: await services.mailer.deliver(tx, { ...subscriptionMail(facts, to, services.config.publicUrl), licenseAccountId: accountId }, log) });
    }
    const values = lastMailing(now, results);
    await tx.update(reportNotification).set(values).where(eq(reportNotification.id, id));
    return answerOf(id, results.filter(({ result }) => result.delivered).length, values);
  });

export const registerReportNotificationSendNow = (app: TypedApp, services: Services) => {
  app.post(
    `${declaration.apiPath}/sendNow`,
    sendNowRoute(declaration, "Produce the report of the period just over and mail it to the subscription's recipients now"),
    async (request) => {
      const caller = callerOf(request);
      const answer = await sendReportNotificationNow(services, sendingAccount(caller), request.query.id, new Date(), request.log);
      return answerSendNow(request, services.db, declaration.name, answer);
    },
  );
};
