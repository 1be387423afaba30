// The alarm notification job (service › event notifications). For every enabled rule and each event
// it matches (same license account, code in the rule's list, machine in the rule's fleets or their
// sub-fleets, or any fleet when it lists none, raised after the rule was created): one `raised` mail,
// a `reminder` every reminderHours while the alarm stays open (seq 1, 2, ...), one `cleared` mail.
//
// Exactly once across instances: a notification's row is inserted first (`on conflict do nothing
// returning`, unique per rule, event, kind and seq) and only the instance that inserted it sends, in
// the same transaction as the mail's outbox row. Every query is bounded: raised mails only for events
// of the last LOOKBACK_HOURS (a rule switched back on, or a server that was down, does not flood
// anyone), reminders from the small partial index of open alarms, cleared mails only for events whose
// raised mail went out; at most BATCH notifications per kind and run.
import type { FastifyBaseLogger } from 'fastify';
import { silentLog } from '../lib/logger';
import { eq, sql, type SQL } from 'drizzle-orm';
import { rowsOf } from '../db/client';
import { eventNotification, eventNotificationRule } from '../db/schema/liveFleet';
import { lastMailing, type RecipientResult } from '../mail/lastMailing';
import type { Services } from '../services';
import { notificationMail, type NotificationFacts, type NotificationKind } from './mail';

export const LOOKBACK_HOURS = 24;
export const BATCH = 200;
const SMALLINT_MAX = 32767;

interface Candidate {
  ruleId: number;
  ruleName: string;
  recipients: string;
  accountId: number;
  eventId: number;
  rvmId: number;
  termNo: string;
  address: string | null;
  code: string;
  raisedTime: Date | string;
  clearedTime: Date | string | null;
  detail: string | null;
  seq: number;
}

/** The rule matches the event's machine: no fleets listed, or one of them (or a sub-fleet) holds it. */
const RULE_FLEETS = sql`(
  not exists (select 1 from event_notification_rule_fleet x where x.rule_id = r.id)
  or exists (select 1 from rule_fleet rf where rf.rule_id = r.id and rf.fleet_id = m.fleet_id))`;

const candidates = async (services: Services, kind: NotificationKind, now: Date): Promise<Candidate[]> => {
  const at = sql`${now.toISOString()}::timestamptz`;
  const since = sql`${new Date(now.getTime() - LOOKBACK_HOURS * 3_600_000).toISOString()}::timestamptz`;
  // seq: the reminder due now (only the latest one when runs were missed), 0 for the other kinds.
  const seq: SQL = kind === 'reminder' ? sql`least(floor(extract(epoch from ${at} - e.raised_time) / (r.reminder_hours * 3600)), ${SMALLINT_MAX})::int` : sql`0`;
  const condition: SQL =
    kind === 'raised'
      ? sql`e.raised_time >= ${since} and ${RULE_FLEETS}`
      : kind === 'reminder'
        ? sql`r.reminder_hours > 0 and e.cleared_time is null and e.raised_time <= ${at} - make_interval(hours => r.reminder_hours::int) and ${RULE_FLEETS}`
        : sql`r.notify_on_clear and e.cleared_time is not null and exists (
            select 1 from event_notification s where s.rule_id = r.id and s.event_id = e.id and s.kind = 'raised' and s.seq = 0)`;
  const result = await services.db.execute(sql`
    with recursive rule_fleet(rule_id, fleet_id) as (
      select rule_id, fleet_id from event_notification_rule_fleet
      union
      select rf.rule_id, f.id from fleet f join rule_fleet rf on f.parent_id = rf.fleet_id
    )
    select r.id as "ruleId", r.name as "ruleName", r.recipients, r.license_account_id as "accountId",
           e.id as "eventId", e.code, e.raised_time as "raisedTime", e.cleared_time as "clearedTime", e.detail,
           m.id as "rvmId", m.term_no as "termNo", m.address, ${seq} as seq
    from event_notification_rule r
    join rvm_event e on e.license_account_id = r.license_account_id
      and e.code = any(string_to_array(regexp_replace(r.alarm_codes, '\\s', '', 'g'), ','))
      and e.raised_time >= r.create_time
    join rvm m on m.id = e.rvm_id and m.license_account_id = r.license_account_id
    where r.enabled and ${condition}
      and not exists (
        select 1 from event_notification n
        where n.rule_id = r.id and n.event_id = e.id and n.kind = ${kind} and n.seq = ${seq})
    order by e.raised_time, e.id, r.id
    limit ${BATCH}`);
  return rowsOf<Candidate>(result);
};

export const recipientsOf = (list: string) => [
  ...new Set(
    list
      .split(',')
      .map((address) => address.trim())
      .filter(Boolean),
  ),
];

/** The notification's first mail and, when any recipient's mail did not go out, each reason (`<address>: <error>`). */
export const notificationOutcome = (results: readonly RecipientResult[]) => {
  const failures = results.filter(({ result }) => !result.delivered).map(({ to, result }) => `${to}: ${result.error ?? 'not delivered'}`);
  return { mailId: results[0]?.result.outboxId ?? null, mailError: failures.length ? failures.join('\n').slice(0, 2000) : null };
};

/** Claims one notification and, if this call claimed it, mails every recipient; true when sent. */
const claimAndSend = (services: Services, kind: NotificationKind, row: Candidate, now: Date, log: FastifyBaseLogger) =>
  services.db.transaction(async (tx) => {
    const claimed = await tx
      .insert(eventNotification)
      .values({ licenseAccountId: row.accountId, ruleId: row.ruleId, eventId: row.eventId, kind, seq: row.seq, sentTime: now })
      .onConflictDoNothing()
      .returning({ id: eventNotification.id });
    if (claimed.length === 0) return false;
    const facts: NotificationFacts = {
      kind,
      seq: row.seq,
      ruleName: row.ruleName,
      rvmId: row.rvmId,
      termNo: row.termNo,
      address: row.address,
      code: row.code,
      raisedTime: new Date(row.raisedTime),
      clearedTime: row.clearedTime === null ? null : new Date(row.clearedTime),
      detail: row.detail,
    };
    const results: RecipientResult[] = [];
    for (const to of recipientsOf(row.recipients)) {
      results.push({ to, result: await services.mailer.deliver(tx, { ...notificationMail(facts, to, services.config.publicUrl), licenseAccountId: row.accountId }, log) });
    }
    // the rule's "last sent" and "last result" (also written by send now, server/events/sendNow.ts)
    if (results.length) await tx.update(eventNotificationRule).set(lastMailing(now, results)).where(eq(eventNotificationRule.id, row.ruleId));
    // the notification list (docs/api-hookups.md "Notification list") shows a failed mail as failed, with why
    if (results.length) await tx.update(eventNotification).set(notificationOutcome(results)).where(eq(eventNotification.id, claimed[0].id));
    return true;
  });

/** One run of the job at `now`; answers how many notifications this call sent. */
export const notifyEvents = async (services: Services, now: Date, log: FastifyBaseLogger = silentLog): Promise<{ sent: number }> => {
  let sent = 0;
  // In this order, so an alarm raised and cleared between two runs gets its raised mail first.
  for (const kind of ['raised', 'reminder', 'cleared'] as const) {
    for (const row of await candidates(services, kind, now)) {
      if (await claimAndSend(services, kind, row, now, log)) sent += 1;
    }
  }
  return { sent };
};
