// "Send now" of an alarm notification rule (docs/reports.md "Trying a notification"): no alarm is
// raised, so each recipient gets a test mail saying what the rule mails about, through the job's mail
// (services.mailer, mail_outbox) in one transaction that also writes the rule's "last sent" and "last
// result". The rule's row is locked for that transaction (`for update skip locked`): a second click, on
// any instance, answers 9312 instead of mailing twice.
import { and, eq } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { eventNotification as declaration } from '../../resources/eventNotification';
import { callerOf } from '../auth/guard';
import { eventNotificationRule, eventNotificationRuleFleet } from '../db/schema/liveFleet';
import { AppError } from '../lib/errors';
import type { TypedApp } from '../lib/typedApp';
import { lastMailing, type RecipientResult } from '../mail/lastMailing';
import { fleetNamesOf } from '../reports/scheduler';
import { answerOf, answerSendNow, notLocked, requireSmtp, sendingAccount, sendNowRoute, type SendNowAnswer } from '../reports/sendNow';
import type { Services } from '../services';
import { ruleTestMail } from './mail';
import { recipientsOf } from './notifications';

/** Mails rule `id` of `accountId`'s test to every recipient now; the outcome is recorded on the rule either way. */
export const sendEventNotificationNow = async (services: Services, accountId: number, id: number, now: Date, log: FastifyBaseLogger): Promise<SendNowAnswer> =>
  services.db.transaction(async (tx) => {
    const scope = and(eq(eventNotificationRule.id, id), eq(eventNotificationRule.licenseAccountId, accountId));
    const [rule] = await tx.select().from(eventNotificationRule).where(scope).for('update', { skipLocked: true });
    if (!rule) throw await notLocked(tx.select({ id: eventNotificationRule.id }).from(eventNotificationRule).where(scope));
    requireSmtp(services);
    const recipients = recipientsOf(rule.recipients);
    if (recipients.length === 0) throw new AppError('9310');
    const fleetIds = (await tx.select({ id: eventNotificationRuleFleet.fleetId }).from(eventNotificationRuleFleet).where(eq(eventNotificationRuleFleet.ruleId, id))).map(
      (row) => row.id,
    );
    const facts = {
      ruleName: rule.name,
      alarmCodes: recipientsOf(rule.alarmCodes),
      fleetNames: await fleetNamesOf(tx, fleetIds),
      reminderHours: rule.reminderHours,
      notifyOnClear: rule.notifyOnClear,
    };
    const results: RecipientResult[] = [];
    for (const to of recipients) {
      results.push({ to, result: await services.mailer.deliver(tx, { ...ruleTestMail(facts, to, services.config.publicUrl), licenseAccountId: accountId }, log) });
    }
    const values = lastMailing(now, results);
    await tx.update(eventNotificationRule).set(values).where(eq(eventNotificationRule.id, id));
    return answerOf(id, results.filter(({ result }) => result.delivered).length, values);
  });

export const registerEventNotificationSendNow = (app: TypedApp, services: Services) => {
  app.post(`${declaration.apiPath}/sendNow`, sendNowRoute(declaration, 'Mail a test of the rule to its recipients now (no alarm is raised)'), async (request) => {
    const caller = callerOf(request);
    const answer = await sendEventNotificationNow(services, sendingAccount(caller), request.query.id, new Date(), request.log);
    return answerSendNow(request, services.db, declaration.name, answer);
  });
};
