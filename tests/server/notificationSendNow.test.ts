// "Send now" of report and event notifications (server/reports/sendNow.ts, server/events/sendNow.ts) and the
// Mails sent list (resources/mailOutbox.ts), against a fake SMTP server: one mail per recipient, the last
// sent time and result recorded (also by the jobs), failures recorded with their reason and answered 9313,
// the edit permission and the caller's license account enforced, no mail server answered 9311, a send already
// under way 9312 (PostgreSQL: a second connection holds the row).
import { and, eq, like } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { translate } from '../../i18n';
import { openDatabase } from '../../server/db/client';
import { mailOutbox } from '../../server/db/schema/auth';
import { eventNotificationRule } from '../../server/db/schema/liveFleet';
import { generatedReport } from '../../server/db/schema/reports';
import { reportNotification } from '../../server/db/schema/reportNotifications';
import { notifyEvents } from '../../server/events/notifications';
import { createMailer, type Mailer } from '../../server/mail/mailer';
import { REPORT_NOTIFICATION_JOB } from '../../server/reports/scheduler';
import { startFakeSmtp, type FakeSmtp } from './fakeSmtp';
import { accountNamed } from './fleetHarness';
import { describeFleet } from './fleetSuite';
import { addEvent, buildWorld, MINUTE, type EventsWorld } from './eventsHarness';

type Kind = 'reportNotification' | 'eventNotification';

describeFleet('send now and the mails sent', (context) => {
  const world = {} as EventsWorld;
  let other = 0;
  let smtp: FakeSmtp;
  let original: Mailer;
  const services = () => context.server.app.services;
  const db = () => context.server.db;
  const call = (method: 'GET' | 'POST' | 'PUT', path: string, options: { body?: unknown; lang?: string; token?: string } = {}) =>
    context.server.call(method, path, { token: options.token ?? context.token, body: options.body, lang: options.lang });
  const sendNow = (kind: Kind, id: number, options: { lang?: string; token?: string } = {}) => call('POST', `/${kind}/sendNow?id=${id}`, options);
  const received = (address: string) => smtp.received.filter((mail) => mail.to.includes(address));
  const outboxOf = (prefix: string) =>
    db()
      .select()
      .from(mailOutbox)
      .where(like(mailOutbox.recipient, `${prefix}%`));

  const create = async (kind: Kind, name: string, recipients: string) => {
    const body =
      kind === 'reportNotification'
        ? { name, report: 'volumes', period: 'weekly', recipients, format: 'csv', language: 'en' }
        : { name, alarmCodes: 'am_code_PK_17, am_code_PK_18', recipients, fleets: [world.fleets.north] };
    const answer = await call('POST', `/${kind}`, { body });
    expect(answer.body.resCode, JSON.stringify(answer.body)).toBe('00000');
    return answer.body.resData as { id: number; lastSent: string | null; lastResult: string | null; nextDue?: string };
  };
  const read = async (kind: Kind, id: number) =>
    (await call('GET', `/${kind}/${id}`)).body.resData as { lastSent: string | null; lastResult: string | null; lastError: string | null };

  beforeAll(async () => {
    other = await accountNamed(context.server, 'Sent elsewhere');
    Object.assign(world, await buildWorld(db(), context.accountId, other, 'SN'));
    smtp = await startFakeSmtp();
    original = services().mailer;
    services().mailer = createMailer({ smtpUrl: smtp.url, mailFrom: 'RVM <rvm@example.com>' });
  });
  afterAll(async () => {
    services().mailer = original;
    await smtp?.close();
  });

  it('a report notification: produces the report once and mails each recipient exactly once; last sent and result recorded; listed in Mails sent', async () => {
    const created = await create('reportNotification', 'Try weekly', 'snr1@example.com, snr2@example.com');
    expect(created).toMatchObject({ lastSent: null, lastResult: null });
    const before = Date.now();
    const answer = await sendNow('reportNotification', created.id);
    expect(answer.body, JSON.stringify(answer.body)).toMatchObject({ resCode: '00000', resData: { id: created.id, lastResult: 'sent', lastError: null, recipients: 2 } });
    expect(received('snr1@example.com')).toHaveLength(1);
    expect(received('snr2@example.com')).toHaveLength(1);
    expect(received('snr1@example.com')[0].raw).toContain('Try weekly');
    const reports = await db().select().from(generatedReport).where(eq(generatedReport.producedBySubscriptionId, created.id));
    expect(reports).toHaveLength(1);

    const shown = await read('reportNotification', created.id);
    expect(shown).toMatchObject({ lastResult: 'sent', lastError: null });
    expect(new Date(shown.lastSent!).getTime()).toBeGreaterThanOrEqual(before - 1000);
    expect(new Date(shown.lastSent!).getTime()).toBeLessThanOrEqual(Date.now());

    // the outbox rows carry the account; the Mails sent list shows them as sent
    const rows = await outboxOf('snr');
    expect(rows.map((row) => [row.recipient, row.licenseAccountId, row.sentAt !== null, row.error]).sort()).toEqual([
      ['snr1@example.com', context.accountId, true, null],
      ['snr2@example.com', context.accountId, true, null],
    ]);
    const listed = await call('POST', '/mail-outbox/page', { body: { pageNum: 1, pageSize: 10, recipientLike: 'snr' } });
    expect(listed.body.resData.list.map((row: { recipient: string; status: string }) => [row.recipient, row.status]).sort()).toEqual([
      ['snr1@example.com', 'sent'],
      ['snr2@example.com', 'sent'],
    ]);
    expect(listed.body.resData.list[0]).not.toHaveProperty('body', expect.stringContaining('snr')); // the list has no text column
  });

  it('an event rule: one test mail per recipient naming the rule and its alarms; last sent recorded', async () => {
    const created = await create('eventNotification', 'Doors test', 'sne1@example.com');
    const answer = await sendNow('eventNotification', created.id);
    expect(answer.body).toMatchObject({ resCode: '00000', resData: { lastResult: 'sent', recipients: 1 } });
    expect(received('sne1@example.com')).toHaveLength(1);
    const [stored] = await outboxOf('sne1@');
    expect(stored.subject).toBe(`${translate('en', 'events.mail.subjectTest', { name: 'Doors test' })} / ${translate('zh', 'events.mail.subjectTest', { name: 'Doors test' })}`);
    expect(stored.body).toContain(`am_code_PK_17 ${translate('en', 'fleet.alarms.am_code_PK_17')}`);
    expect(stored.body).toContain('SN North');
    expect(await read('eventNotification', created.id)).toMatchObject({ lastResult: 'sent', lastError: null });
  });

  it('a refused mailbox: 9313 with the reason in English and Chinese, recorded as the last result and in Mails sent', async () => {
    const created = await create('eventNotification', 'Refused test', 'snf1@example.com, snf2@example.com');
    smtp.refuse.add('snf1@example.com');
    try {
      for (const lang of ['en', 'zh'] as const) {
        const answer = await sendNow('eventNotification', created.id, { lang });
        expect(answer.status).toBe(400);
        expect(answer.body.resCode).toBe('9313');
        expect(answer.body.resData).toMatchObject({ lastResult: 'failed', recipients: 1 });
        expect(answer.body.resData.lastError).toMatch(/^snf1@example.com: .*550/);
        expect(answer.body.resMsg).toBe(translate(lang, 'errors.9313', { reason: answer.body.resData.lastError }));
      }
    } finally {
      smtp.refuse.clear();
    }
    const shown = await read('eventNotification', created.id);
    expect(shown.lastResult).toBe('failed');
    expect(shown.lastError).toMatch(/snf1@example.com: .*550/);
    expect(received('snf2@example.com')).toHaveLength(2); // the other recipient got each try
    const listed = await call('POST', '/mail-outbox/page', { body: { pageNum: 1, pageSize: 10, recipientLike: 'snf1', status: 'failed' } });
    expect(listed.body.resData.total).toBe(2);
    expect(listed.body.resData.list[0].error).toMatch(/550/);

    // the next good send clears the failure
    expect((await sendNow('eventNotification', created.id)).body.resCode).toBe('00000');
    expect(await read('eventNotification', created.id)).toMatchObject({ lastResult: 'sent', lastError: null });
  });

  it('needs the edit permission (4003) and mails nothing; Mails sent needs its own', async () => {
    const report = await create('reportNotification', 'Guarded weekly', 'snp@example.com');
    const rule = await create('eventNotification', 'Guarded rule', 'snp@example.com');
    const permissions = (await call('POST', '/permission/page', { body: { pageNum: 1, pageSize: 500, identifierLike: 'Notification:page' } })).body.resData.list as Array<{
      id: number;
      identifier: string;
    }>;
    const ids = permissions.filter((item) => ['reportNotification:page', 'eventNotification:page'].includes(item.identifier)).map((item) => item.id);
    expect(ids).toHaveLength(2);
    const role = await call('POST', '/role', { body: { name: 'SN readers', permissions: ids } });
    await context.server.createUser({ name: 'snreader', roles: [role.body.resData.id] }, context.token);
    const reader = await context.server.login('snreader', 'Passw0rd!');
    expect((await sendNow('reportNotification', report.id, { token: reader })).body.resCode).toBe('4003');
    expect((await sendNow('eventNotification', rule.id, { token: reader })).body.resCode).toBe('4003');
    expect((await call('POST', '/mail-outbox/page', { body: { pageNum: 1, pageSize: 10 }, token: reader })).body.resCode).toBe('4003');
    expect(received('snp@example.com')).toHaveLength(0);
    expect(await read('reportNotification', report.id)).toMatchObject({ lastSent: null, lastResult: null });
  });

  it("keeps to the caller's license account: another account's notifications answer 2003 and mail nothing; its mails stay out of the list", async () => {
    const [report] = await db()
      .insert(reportNotification)
      .values({ licenseAccountId: other, name: 'Foreign weekly', report: 'volumes', period: 'weekly', recipients: 'sno@example.com', format: 'csv' })
      .returning({ id: reportNotification.id });
    const [rule] = await db()
      .insert(eventNotificationRule)
      .values({ licenseAccountId: other, name: 'Foreign rule', alarmCodes: 'am_code_PK_17', recipients: 'sno@example.com' })
      .returning({ id: eventNotificationRule.id });
    expect((await sendNow('reportNotification', report.id)).body.resCode).toBe('2003');
    expect((await sendNow('eventNotification', rule.id)).body.resCode).toBe('2003');
    expect(received('sno@example.com')).toHaveLength(0);
    await db().insert(mailOutbox).values({ recipient: 'sno@example.com', subject: 'elsewhere', body: '-', licenseAccountId: other });
    const listed = await call('POST', '/mail-outbox/page', { body: { pageNum: 1, pageSize: 10, recipientLike: 'sno@' } });
    expect(listed.body.resData.total).toBe(0);
  });

  it('without a mail server: 9311 in both languages and nothing written', async () => {
    const rule = await create('eventNotification', 'No server', 'sns@example.com');
    services().mailer = createMailer({ mailFrom: 'RVM <rvm@example.com>' });
    try {
      for (const lang of ['en', 'zh'] as const) {
        const answer = await sendNow('eventNotification', rule.id, { lang });
        expect(answer.body).toMatchObject({ resCode: '9311', resMsg: translate(lang, 'errors.9311') });
      }
    } finally {
      services().mailer = createMailer({ smtpUrl: smtp.url, mailFrom: 'RVM <rvm@example.com>' });
    }
    expect(await outboxOf('sns@')).toHaveLength(0);
    expect(await read('eventNotification', rule.id)).toMatchObject({ lastSent: null, lastResult: null });
  });

  it('the jobs record last sent and result too: the report scheduler at its due time, the alarm job per mail', async () => {
    const report = await create('reportNotification', 'Scheduled weekly', 'snj@example.com');
    const at = new Date(new Date(report.nextDue!).getTime() + 5 * MINUTE);
    await services().jobs.runNow(REPORT_NOTIFICATION_JOB, at);
    expect(await read('reportNotification', report.id)).toMatchObject({ lastSent: at.toISOString(), lastResult: 'sent' });

    const rule = await create('eventNotification', 'Job rule', 'snk@example.com');
    await addEvent(db(), context.accountId, world.machines.m1, 'am_code_PK_17', new Date(Date.now() + 10));
    const now = new Date(Date.now() + 1000);
    await notifyEvents(services(), now);
    expect(received('snk@example.com')).toHaveLength(1);
    expect(await read('eventNotification', rule.id)).toMatchObject({ lastSent: now.toISOString(), lastResult: 'sent' });
  });

  it('a send already under way (the row held by another connection) answers 9312 and mails nothing', async (test) => {
    if (context.server.backend !== 'postgres') return test.skip();
    const rule = await create('eventNotification', 'Busy rule', 'snb@example.com');
    const holder = await openDatabase({ databaseUrl: context.server.databaseUrl });
    try {
      let release = () => undefined as void;
      const released = new Promise<void>((resolve) => (release = resolve));
      let locked = () => undefined as void;
      const isLocked = new Promise<void>((resolve) => (locked = resolve));
      const holding = holder.db.transaction(async (tx) => {
        await tx
          .select()
          .from(eventNotificationRule)
          .where(and(eq(eventNotificationRule.id, rule.id)))
          .for('update');
        locked();
        await released;
      });
      await isLocked;
      const answer = await sendNow('eventNotification', rule.id, { lang: 'zh' });
      release();
      await holding;
      expect(answer.body).toMatchObject({ resCode: '9312', resMsg: translate('zh', 'errors.9312') });
      expect(received('snb@example.com')).toHaveLength(0);
    } finally {
      await holder.close();
    }
  });
});
