// The report notification scheduler (server/reports/scheduler.ts) with an advanced clock: a due period
// produces exactly one generated report and one mail per recipient (also when run twice, or by two app
// instances at the same moment), nothing before it is due, only the last missed period after downtime;
// a mail failure is recorded and retried at the next tick without producing the report again.
import { and, asc, eq, inArray } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { translate } from '../../i18n';
import { mailOutbox } from '../../server/db/schema/auth';
import { generatedReport } from '../../server/db/schema/reports';
import { reportNotification, reportNotificationMail, reportNotificationRun } from '../../server/db/schema/reportNotifications';
import { openDatabase, type Database } from '../../server/db/client';
import { createMailer, type Mail, type Mailer } from '../../server/mail/mailer';
import { localDateText, localParts, REPORT_TIME_ZONE } from '../../server/reports/notificationPeriods';
import { BATCH, REPORT_NOTIFICATION_JOB, RETRY_HOURS, runReportNotifications } from '../../server/reports/scheduler';
import { startFakeSmtp, type FakeSmtp } from './fakeSmtp';
import { accountNamed } from './fleetHarness';
import { describeFleet } from './fleetSuite';
import { buildWorld, MINUTE, type EventsWorld } from './eventsHarness';

const DAY = 24 * 60 * MINUTE;

describeFleet('report notification scheduler', (context) => {
  const world = {} as EventsWorld;
  let other = 0;
  let second: FastifyInstance;
  let secondDatabase: Database | undefined;
  let smtp: FakeSmtp;
  const services = () => context.server.app.services;
  const db = () => context.server.db;

  /** Creates a subscription through the API; answers its id and when it is next due (from the API's nextDue). */
  const subscribe = async (name: string, body: Record<string, unknown> = {}) => {
    const answer = await context.server.call('POST', '/reportNotification', {
      token: context.token,
      body: { name, report: 'volumes', period: 'weekly', recipients: `${name}@example.com`, format: 'csv', language: 'en', ...body },
    });
    expect(answer.body.resCode, JSON.stringify(answer.body)).toBe('00000');
    return { id: answer.body.resData.id as number, due: new Date(answer.body.resData.nextDue as string) };
  };
  const reportsOf = (id: number) => db().select().from(generatedReport).where(eq(generatedReport.producedBySubscriptionId, id));
  const runsOf = (id: number) => db().select().from(reportNotificationRun).where(eq(reportNotificationRun.subscriptionId, id)).orderBy(asc(reportNotificationRun.periodStart));
  const mailsTo = (name: string) =>
    db()
      .select()
      .from(mailOutbox)
      .where(eq(mailOutbox.recipient, `${name}@example.com`))
      .orderBy(asc(mailOutbox.id));
  const tick = (at: Date) => services().jobs.runNow(REPORT_NOTIFICATION_JOB, at);

  /** Swaps the app's mailer for the test (the scheduler reads services.mailer at each run). */
  const withMailer = async (mailer: Mailer, work: () => Promise<void>) => {
    const original = services().mailer;
    services().mailer = mailer;
    try {
      await work();
    } finally {
      services().mailer = original;
    }
  };

  beforeAll(async () => {
    other = await accountNamed(context.server, 'Scheduled elsewhere');
    Object.assign(world, await buildWorld(context.server.db, context.accountId, other, 'RS'));
    secondDatabase = context.server.backend === 'postgres' ? await openDatabase({ databaseUrl: context.server.databaseUrl }) : undefined;
    second = await context.server.anotherInstance(secondDatabase ? { database: secondDatabase } : {});
    smtp = await startFakeSmtp();
  });
  afterAll(async () => {
    await second?.close();
    await secondDatabase?.close();
    await smtp?.close();
  });

  it('produces a weekly report once at Monday 00:05 local (none at Sunday 23:55), covering the previous Monday to Sunday', async () => {
    const { id, due } = await subscribe('weekly', { recipients: 'weekly@example.com, weekly2@example.com', fleets: [world.fleets.north] });
    const local = localParts(due, REPORT_TIME_ZONE);
    expect([new Date(Date.UTC(local.year, local.month - 1, local.day)).getUTCDay(), local.hour, local.minute]).toEqual([1, 0, 0]); // Monday 00:00

    await tick(new Date(due.getTime() - 5 * MINUTE)); // Sunday 23:55
    expect(await reportsOf(id)).toHaveLength(0);
    expect(await runsOf(id)).toHaveLength(0);
    expect(await mailsTo('weekly')).toHaveLength(0);

    await tick(new Date(due.getTime() + 5 * MINUTE)); // Monday 00:05
    const [report] = await reportsOf(id);
    expect(await reportsOf(id)).toHaveLength(1);
    expect(report).toMatchObject({ licenseAccountId: context.accountId, report: 'volumes', format: 'csv' });
    const from = new Date(due.getTime() - 7 * DAY); // Asia/Hong_Kong has no daylight saving
    expect(report.params).toMatchObject({ from: from.toISOString(), to: due.toISOString(), fleetIds: [world.fleets.north], language: 'en' });
    expect(report.fileName).toBe(`Volumes_${localDateText(from, REPORT_TIME_ZONE)}_${localDateText(new Date(due.getTime() - 1), REPORT_TIME_ZONE)}.csv`);
    const [run] = await runsOf(id);
    expect(run).toMatchObject({ status: 'mailed', generatedReportId: report.id, periodStart: from, periodEnd: due, attempts: 0, error: null });

    const mails = await mailsTo('weekly');
    expect(mails).toHaveLength(1);
    expect(await mailsTo('weekly2')).toHaveLength(1);
    expect(mails[0].subject).toBe(
      translate('en', 'notifications.mail.subject', {
        period: 'Weekly',
        name: 'weekly',
        report: 'Volumes',
        from: localDateText(from, REPORT_TIME_ZONE),
        to: localDateText(new Date(due.getTime() - 1), REPORT_TIME_ZONE),
      }),
    );
    expect(mails[0].body).toContain(`${report.fileName} (#${report.id})`);
    expect(mails[0].body).toContain('RS North');

    // the list shows what happened
    const shown = (await context.server.call('GET', `/reportNotification/${id}`, { token: context.token })).body.resData;
    expect(shown).toMatchObject({ lastStatus: 'mailed', lastProduced: new Date(due.getTime() + 5 * MINUTE).toISOString() });

    // later ticks in the same week produce nothing more
    await tick(new Date(due.getTime() + 6 * MINUTE));
    await tick(new Date(due.getTime() + 3 * DAY));
    expect(await reportsOf(id)).toHaveLength(1);
    expect(await mailsTo('weekly')).toHaveLength(1);
  });

  it('produces once when two app instances on one database run the job at the same moment', async () => {
    const subscriptions = await Promise.all(['race1', 'race2', 'race3'].map((name) => subscribe(name)));
    const at = new Date(subscriptions[0].due.getTime() + 7 * DAY + MINUTE); // the week after: a fresh period for all
    await Promise.all([
      runReportNotifications(services(), at),
      runReportNotifications(second.services, at),
      second.services.jobs.runNow(REPORT_NOTIFICATION_JOB, at),
      services().jobs.runNow(REPORT_NOTIFICATION_JOB, at),
    ]);
    for (const { id } of subscriptions) {
      expect(await reportsOf(id)).toHaveLength(1);
      expect(await runsOf(id)).toHaveLength(1);
    }
    for (const name of ['race1', 'race2', 'race3']) expect(await mailsTo(name)).toHaveLength(1);
  });

  it('works every due run in one tick, past one batch', async () => {
    const names = Array.from({ length: BATCH + 3 }, (_, index) => `many${index}`);
    const subscriptions = [];
    for (const name of names) subscriptions.push(await subscribe(name, { report: 'volumesDaily' }));
    const at = new Date(subscriptions[0].due.getTime() + 28 * DAY + MINUTE); // a week none of the other tests ticked
    const outcome = await runReportNotifications(services(), at);
    expect(outcome.produced).toBeGreaterThanOrEqual(names.length);
    for (const { id } of subscriptions) expect(await runsOf(id), `subscription ${id}`).toMatchObject([{ status: 'mailed' }]);
  });

  it('catches up after downtime: only the last missed period of each subscription, once', async () => {
    const { id, due } = await subscribe('downtime');
    const monthly = await subscribe('downtimeMonthly', { period: 'monthly', language: 'zh', format: 'xlsx' });
    // the server was down over three Mondays and two 1sts; it starts (its first tick) 70 days later
    const restart = new Date(Math.max(due.getTime(), monthly.due.getTime()) + 70 * DAY);
    await tick(restart);
    const runs = await runsOf(id);
    expect(runs).toHaveLength(1);
    expect(runs[0].periodEnd.getTime()).toBeLessThanOrEqual(restart.getTime());
    expect(restart.getTime() - runs[0].periodEnd.getTime()).toBeLessThan(7 * DAY);
    expect(localParts(runs[0].periodEnd, REPORT_TIME_ZONE)).toMatchObject({ hour: 0, minute: 0 });
    const monthlyRuns = await runsOf(monthly.id);
    expect(monthlyRuns).toHaveLength(1);
    expect(localParts(monthlyRuns[0].periodStart, REPORT_TIME_ZONE)).toMatchObject({ day: 1, hour: 0 });
    expect(localParts(monthlyRuns[0].periodEnd, REPORT_TIME_ZONE)).toMatchObject({ day: 1, hour: 0 });
    expect(restart.getTime() - monthlyRuns[0].periodEnd.getTime()).toBeLessThan(31 * DAY);
    expect(await reportsOf(id)).toHaveLength(1);
    const [monthlyReport] = await reportsOf(monthly.id);
    expect(monthlyReport).toMatchObject({ format: 'xlsx', params: expect.objectContaining({ language: 'zh' }) });
    // the Chinese subscription gets a Chinese mail
    const [zhMail] = await mailsTo('downtimeMonthly');
    expect(zhMail.subject.startsWith(`${translate('zh', 'notifications.mail.periods.monthly')}报表“downtimeMonthly”`)).toBe(true);
    expect(zhMail.body).toContain(translate('zh', 'notifications.mail.allFleets'));

    await tick(new Date(restart.getTime() + MINUTE));
    expect(await reportsOf(id)).toHaveLength(1);
    expect(await mailsTo('downtime')).toHaveLength(1);
  });

  it('attaches the generated file; a failed SMTP delivery is recorded and retried at the next tick, only to recipients still waiting, never producing again', async () => {
    const { id, due } = await subscribe('smtp', { recipients: 'smtp@example.com, smtp2@example.com', format: 'xlsx' });
    const at = new Date(due.getTime() + 14 * DAY + 2 * MINUTE); // a week none of the other tests ticked
    const sentTo = (address: string) => smtp.received.filter((mail) => mail.to.includes(address));
    smtp.down = true;
    await withMailer(createMailer({ smtpUrl: smtp.url, mailFrom: 'RVM <rvm@example.com>' }), async () => {
      await tick(at);
      const [run] = await runsOf(id);
      expect(run).toMatchObject({ status: 'produced', attempts: 1 });
      expect(run.error).toMatch(/smtp@example.com: .*421/);
      expect(await reportsOf(id)).toHaveLength(1);
      const failed = await db().select().from(reportNotificationMail).where(eq(reportNotificationMail.runId, run.id));
      expect(failed.map((mail) => [mail.recipient, mail.deliveredTime])).toEqual(
        expect.arrayContaining([
          ['smtp@example.com', null],
          ['smtp2@example.com', null],
        ]),
      );

      await tick(new Date(at.getTime() + 30_000)); // the back-off (until the next tick, 1 minute) is not over: nothing
      expect((await runsOf(id))[0].attempts).toBe(1);

      // the server is back, but one mailbox is refused: the other recipient gets the mail
      smtp.down = false;
      smtp.refuse.add('smtp@example.com');
      await tick(new Date(at.getTime() + 61_000));
      expect((await runsOf(id))[0]).toMatchObject({ status: 'produced', attempts: 2 });
      expect(sentTo('smtp2@example.com')).toHaveLength(1);

      smtp.refuse.clear();
      await tick(new Date(at.getTime() + 61_000 + 2 * MINUTE + 1000)); // back-off after 2 failures: 2 minutes
      const [done] = await runsOf(id);
      expect(done).toMatchObject({ status: 'mailed', error: null, attempts: 2, generatedReportId: run.generatedReportId });
      expect(await reportsOf(id)).toHaveLength(1);
      await tick(new Date(at.getTime() + 30 * MINUTE));
    });
    expect(sentTo('smtp@example.com')).toHaveLength(1);
    expect(sentTo('smtp2@example.com')).toHaveLength(1);
    const [report] = await reportsOf(id);
    // the attachment is the stored file, byte for byte (base64 in the MIME part)
    const raw = sentTo('smtp@example.com')[0].raw;
    const parts = raw.split('\r\n\r\n');
    const index = parts.findIndex((_part, at) => at > 0 && /filename=.*\.xlsx/.test(parts[at - 1]));
    expect(index, raw.slice(0, 2000)).toBeGreaterThan(0);
    expect(Buffer.from(parts[index].split('\r\n--')[0].replace(/\s/g, ''), 'base64').equals(report.content)).toBe(true);
    // every attempt is in the outbox, the failed ones with their error
    expect((await mailsTo('smtp')).map((mail) => [Boolean(mail.sentAt), Boolean(mail.error)])).toEqual([
      [false, true],
      [false, true],
      [true, false],
    ]);
    expect((await mailsTo('smtp2')).map((mail) => [Boolean(mail.sentAt), Boolean(mail.error)])).toEqual([
      [false, true],
      [true, false],
    ]);
  });

  it('records a failed production on the run (no report, no mail) and produces it at a later tick once it can', async () => {
    // a report kind the generator does not know (only possible in the database) makes the production fail
    const [broken] = await db()
      .insert(reportNotification)
      .values({ licenseAccountId: context.accountId, name: 'broken', report: 'sales', period: 'weekly', recipients: 'broken@example.com', format: 'csv', language: 'en' })
      .returning({ id: reportNotification.id });
    const { due } = await subscribe('brokenTwin'); // its next due time is the broken one's
    const at = new Date(due.getTime() + 35 * DAY + 4 * MINUTE); // a week none of the other tests ticked
    await tick(at);
    const [run] = await runsOf(broken.id);
    expect(run).toMatchObject({ status: 'due', attempts: 1, generatedReportId: null });
    expect(run.error).toBeTruthy();
    expect(await reportsOf(broken.id)).toHaveLength(0);
    expect(await mailsTo('broken')).toHaveLength(0);

    await db().update(reportNotification).set({ report: 'volumes' }).where(eq(reportNotification.id, broken.id));
    await tick(new Date(at.getTime() + 61_000));
    expect((await runsOf(broken.id))[0]).toMatchObject({ status: 'mailed', attempts: 1, error: null });
    expect(await reportsOf(broken.id)).toHaveLength(1);
    expect(await mailsTo('broken')).toHaveLength(1);
  });

  it('hands the report to the mailer as an attachment, without SMTP too; skips disabled subscriptions; serves every account', async () => {
    const sent: Mail[] = [];
    const outbox = createMailer({ mailFrom: 'RVM <rvm@example.com>' });
    const recording: Mailer = { send: outbox.send, deliver: (database, mail, log) => (sent.push(mail), outbox.deliver(database, mail, log)) };
    const { id, due } = await subscribe('attached', { report: 'acceptedRejects' });
    const off = await subscribe('switchedOff', { enabled: false });
    const [foreign] = await db()
      .insert(reportNotification)
      .values({ licenseAccountId: other, name: 'Foreign weekly', report: 'volumesDaily', period: 'weekly', recipients: 'foreign@example.com', format: 'csv', language: 'en' })
      .returning({ id: reportNotification.id });
    const at = new Date(due.getTime() + 21 * DAY + 3 * MINUTE);
    await withMailer(recording, () => tick(at));
    const [report] = await reportsOf(id);
    const mine = sent.find((mail) => mail.to === 'attached@example.com');
    expect(mine?.attachments?.map((file) => [file.filename, file.contentType])).toEqual([[report.fileName, report.contentType]]);
    expect(mine?.attachments?.[0].content.equals(report.content)).toBe(true);
    expect(await runsOf(off.id)).toHaveLength(0);
    // the computed columns are the subscription's own: another one's runs do not show on it
    const shownOff = (await context.server.call('GET', `/reportNotification/${off.id}`, { token: context.token })).body.resData;
    expect(shownOff).toMatchObject({ lastStatus: null, lastProduced: null, nextDue: null });
    expect(await reportsOf(off.id)).toHaveLength(0);
    const [foreignReport] = await reportsOf(foreign.id);
    expect(foreignReport).toMatchObject({ licenseAccountId: other, report: 'volumesDaily' });
    expect(
      await db()
        .select()
        .from(reportNotificationRun)
        .where(and(eq(reportNotificationRun.subscriptionId, foreign.id), inArray(reportNotificationRun.status, ['mailed']))),
    ).toHaveLength(1);
  });

  it(`gives a failing run up ${RETRY_HOURS} hours after it was enqueued, not a millisecond before (issue 29 item 24: the limit at its edge)`, async () => {
    expect(RETRY_HOURS).toBe(24);
    const [failing] = await db()
      .insert(reportNotification)
      .values({ licenseAccountId: context.accountId, name: 'failing', report: 'sales', period: 'weekly', recipients: 'failing@example.com', format: 'csv', language: 'en' })
      .returning({ id: reportNotification.id });
    const { due } = await subscribe('failingTwin');
    const at = new Date(due.getTime() + 49 * DAY + 4 * MINUTE); // later than every other test's tick
    await tick(at);
    const [run] = await runsOf(failing.id);
    expect(run).toMatchObject({ status: 'due', attempts: 1 });
    // enqueued at `at` (the database's clock wrote the real time), tried again whenever asked
    const retryAt = async (when: Date) => {
      await db().update(reportNotificationRun).set({ createdTime: at, nextAttemptTime: at }).where(eq(reportNotificationRun.id, run.id));
      await tick(when);
      return (await runsOf(failing.id))[0];
    };
    expect(await retryAt(new Date(at.getTime() + 24 * 3_600_000 - 1))).toMatchObject({ status: 'due', attempts: 2 });
    expect(await retryAt(new Date(at.getTime() + 24 * 3_600_000))).toMatchObject({ status: 'failed', attempts: 3 });
    expect(await mailsTo('failing')).toHaveLength(0);
  });
});
