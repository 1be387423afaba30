// Reports › notifications as a user meets it: sign in through the real login page, create a weekly
// subscription in the console (a wrong recipient is named in the form first), then the scheduler's clock
// is advanced past the next Monday 00:00 and the list shows the report as produced and mailed; the
// generated report and the outbox mail are read back from the database. "Send now" on a row mails the report
// at once through a fake SMTP server and the row shows when it was sent.
//
// The server runs in this process (buildApp serving the console globalSetup.ts built, on a free port),
// so the test can call its job runner with an advanced clock, which a child process would not allow.
// E2E_SHOTS_DIR=/tmp/shots also saves the list and the create form at 1280 and
// 1440 px in English and Chinese.
import { and, eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, inject, it } from 'vitest';
import { translate } from '../../i18n';
import { buildApp } from '../../server/app';
import { mailOutbox } from '../../server/db/schema/auth';
import { generatedReport } from '../../server/db/schema/reports';
import { createMailer } from '../../server/mail/mailer';
import { REPORT_NOTIFICATION_JOB } from '../../server/reports/scheduler';
import { startFakeSmtp } from '../server/fakeSmtp';
import { adminPastForcedChange, audit, blocking, describeViolations, type Violation } from './a11ySteps';
import { CATALOGUES, RA, expectHeading, row, shot, signIn, useLanguage, type Lang } from './consoleSteps';
import { api, browserAvailable, eventually, keepEvidence, launchBrowser, newContext, SHOTS_ROOT, type RunningServer } from './harness';

const ADMIN_PASSWORD = 'Report#2026';
const ROUTE = '/reports/notifications';

const fields = (lang: Lang) => CATALOGUES[lang].resources.reportNotification.fields;
const enums = (lang: Lang) => CATALOGUES[lang].resources.reportNotification.enums;
const singular = (lang: Lang) => CATALOGUES[lang].resources.reportNotification.name.split('||||')[0].trim();
const plural = (lang: Lang) => (CATALOGUES[lang].resources.reportNotification.name.split('||||')[1] ?? singular(lang)).trim();

/** A form field's error text (the toast repeats it after the catalogue message). */
const fieldError = (page: Page, text: string) => page.locator('[id$="-helper-text"]').filter({ hasText: text });

interface Subscription {
  id: number;
  nextDue: string;
  lastStatus: string | null;
}

describe.skipIf(!browserAvailable())('report notifications end to end', () => {
  let app: FastifyInstance;
  let server: RunningServer;
  let browser: Browser;
  let token: string;
  const contexts: BrowserContext[] = [];

  beforeAll(async () => {
    // In-memory PGlite, no demo fleet: one fleet is enough for the form's picker.
    app = await buildApp({ staticDir: inject('consoleDir'), config: { passwordHashLogN: 14 }, demoFleet: false });
    await app.listen({ port: 0, host: '127.0.0.1' });
    const address = app.server.address();
    const port = typeof address === 'object' && address ? address.port : 0;
    server = { url: `http://127.0.0.1:${port}`, port, dataDir: '', stop: () => app.close(), output: () => '' };
    app.services.config.publicUrl = server.url;
    browser = await launchBrowser();
    token = await adminPastForcedChange(server, ADMIN_PASSWORD);
    await api(server, 'POST', '/fleet', { token, body: { name: 'Harbour fleet' } });
  });

  afterEach(async ({ task }) => {
    await keepEvidence(task, contexts);
    for (const open of contexts.splice(0)) await open.close();
  });

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  const signedIn = async (width = 1280): Promise<Page> => {
    const context = await newContext(browser, { viewport: { width, height: 900 }, timezoneId: 'Asia/Hong_Kong' });
    contexts.push(context);
    const page = await context.newPage();
    await signIn(page, server, 'admin', ADMIN_PASSWORD);
    await page.waitForURL('**/index/index');
    return page;
  };

  /** With E2E_SHOTS_DIR set, the page from the top in its notifications/ (shot). */
  const shoot = (page: Page, name: string) => shot(page, `notifications/${name}`);

  it('done means: a weekly subscription created in the console is produced and mailed once its Monday 00:00 has passed', async () => {
    const page = await signedIn();
    await useLanguage(page, server, 'en', ROUTE);
    await expectHeading(page, plural('en'));
    await page.getByRole('link', { name: RA.en.create }).click();
    await expectHeading(page, `Create ${singular('en')}`);

    await page.locator('input[name="name"]').fill('Harbour weekly');
    await page.getByRole('combobox', { name: fields('en').report }).click();
    await page.getByRole('option', { name: enums('en').report.acceptedRejects }).click();
    await page.locator('input[name="recipients"]').fill('ops@example.com, not-an-address');
    await page.getByRole('button', { name: RA.en.save }).click();
    // the server names the wrong address on the field, in the user's language
    await fieldError(page, translate('en', 'notifications.validation.badRecipient', { address: 'not-an-address' })).waitFor();
    const violations: Violation[] = await audit(page, 'create form with an error');

    // Enter submits (the error toast of the first try may still cover the Save button)
    await page.locator('input[name="recipients"]').fill('ops@example.com, lead@example.org');
    await page.locator('input[name="recipients"]').press('Enter');
    await eventually(
      async () =>
        (await api<{ list: Subscription[] }>(server, 'POST', '/reportNotification/page', { token, body: { pageNum: 1, pageSize: 10, nameLike: 'Harbour weekly' } })).list.length,
    ).toBe(1);
    const [created] = (await api<{ list: Subscription[] }>(server, 'POST', '/reportNotification/page', { token, body: { pageNum: 1, pageSize: 10, nameLike: 'Harbour weekly' } }))
      .list;
    expect(created).toMatchObject({
      report: 'acceptedRejects',
      period: 'weekly',
      recipients: 'ops@example.com, lead@example.org',
      format: 'xlsx',
      language: 'en',
      lastStatus: null,
    });

    await page.goto(`${server.url}${ROUTE}`);
    await row(page, 'Harbour weekly').waitFor();
    expect(await row(page, 'Harbour weekly').textContent()).not.toContain(enums('en').lastResult.sent);

    // the scheduler's clock: Sunday 23:55 produces nothing, Monday 00:05 (Hong Kong) produces it
    const due = new Date(created.nextDue);
    await app.services.jobs.runNow(REPORT_NOTIFICATION_JOB, new Date(due.getTime() - 5 * 60_000));
    expect(await app.services.db.select().from(generatedReport).where(eq(generatedReport.producedBySubscriptionId, created.id))).toHaveLength(0);
    await app.services.jobs.runNow(REPORT_NOTIFICATION_JOB, new Date(due.getTime() + 5 * 60_000));

    await page.reload();
    await row(page, 'Harbour weekly')
      .filter({ hasText: enums('en').lastResult.sent })
      .waitFor();
    expect((await api<Subscription>(server, 'GET', `/reportNotification/${created.id}`, { token })).lastStatus).toBe('mailed');
    // "Last sent" shows Monday 00:05 in the browser's (Hong Kong) time
    const producedAt = new Date(due.getTime() + 5 * 60_000);
    const local = new Date(producedAt.getTime() + 8 * 3_600_000).toISOString().slice(0, 16).replace('T', ' ');
    expect(await row(page, 'Harbour weekly').textContent()).toContain(local);

    const reports = await app.services.db.select().from(generatedReport).where(eq(generatedReport.producedBySubscriptionId, created.id));
    expect(reports).toHaveLength(1);
    // the Report screen's "Generated reports" lists it as produced by the subscription
    type Generated = { id: number; fileName: string; producedBy: { kind: string; subscriptionId: number | null } };
    const generated = await api<{ list: Generated[] }>(server, 'POST', '/report/generated/page', { token, body: { pageNum: 1, pageSize: 20 } });
    expect(generated.list.filter((item) => item.producedBy.subscriptionId === created.id)).toEqual([
      expect.objectContaining({ id: reports[0].id, fileName: reports[0].fileName, producedBy: expect.objectContaining({ kind: 'subscription' }) }),
    ]);
    expect(reports[0]).toMatchObject({ report: 'acceptedRejects', format: 'xlsx' });
    const mails = await app.services.db
      .select()
      .from(mailOutbox)
      .where(and(eq(mailOutbox.recipient, 'ops@example.com')));
    expect(mails).toHaveLength(1);
    expect(mails[0].subject).toContain('"Harbour weekly"');
    expect(mails[0].body).toContain(reports[0].fileName);
    await shoot(page, 'list-after-run-en-1280');
    // WCAG 2.1 A/AA (axe): nothing serious or critical on the form (with its error) or the list (with a status chip)
    violations.push(...(await audit(page, 'list after a run')));
    expect(blocking(violations), describeViolations(violations)).toEqual([]);
  });

  it('send now: confirmed on the row, the report is mailed at once and the row shows when it was sent', async () => {
    const smtp = await startFakeSmtp();
    const original = app.services.mailer;
    app.services.mailer = createMailer({ smtpUrl: smtp.url, mailFrom: 'RVM <rvm@example.com>' });
    try {
      const created = await api<Subscription>(server, 'POST', '/reportNotification', {
        token,
        body: { name: 'Pier weekly', report: 'volumes', period: 'weekly', recipients: 'pier@example.com', format: 'csv', language: 'en' },
      });
      const page = await signedIn();
      await useLanguage(page, server, 'en', ROUTE);
      await row(page, 'Pier weekly').waitFor();
      const sendNow = CATALOGUES.en.notifications.sendNow;
      await row(page, 'Pier weekly').getByRole('button', { name: sendNow.action }).click();
      await page.getByRole('dialog').getByRole('button', { name: sendNow.action }).click();
      await page.getByText(sendNow.sent.split('||||')[0].trim().replace('%{smart_count}', '1')).first().waitFor();
      await row(page, 'Pier weekly')
        .filter({ hasText: enums('en').lastResult.sent })
        .waitFor();
      const sent = (await api<Subscription & { lastSent: string }>(server, 'GET', `/reportNotification/${created.id}`, { token })).lastSent;
      const local = new Date(new Date(sent).getTime() + 8 * 3_600_000).toISOString().slice(0, 19).replace('T', ' ');
      await row(page, 'Pier weekly').filter({ hasText: local }).waitFor();
      expect(smtp.received.filter((mail) => mail.to.includes('pier@example.com'))).toHaveLength(1);
      // the record's page (a row click opens the form) offers it too
      await row(page, 'Pier weekly').getByText('Pier weekly').click();
      await page.locator('input[name="recipients"]').waitFor();
      await page.getByRole('button', { name: sendNow.action }).waitFor();
    } finally {
      app.services.mailer = original;
      await smtp.close();
    }
  });

  it.skipIf(!SHOTS_ROOT)('screenshots: the list and the create form at 1280 and 1440 px, English and Chinese', async () => {
    await api(server, 'POST', '/reportNotification', {
      token,
      body: { name: '月度条码拒收', report: 'barcodeRejects', period: 'monthly', recipients: 'qa@example.com', format: 'csv', language: 'zh' },
    });
    for (const width of [1280, 1440]) {
      for (const lang of ['en', 'zh'] as const) {
        const page = await signedIn(width);
        await useLanguage(page, server, lang, ROUTE);
        await expectHeading(page, plural(lang));
        await row(page, 'Harbour weekly').waitFor();
        await shoot(page, `list-${lang}-${width}`);
        await page.getByRole('link', { name: RA[lang].create }).click();
        await page.locator('input[name="name"]').fill(lang === 'en' ? 'Depot monthly' : '仓库月报');
        await page.locator('input[name="recipients"]').fill('ops@example.com, nope');
        await page.getByRole('button', { name: RA[lang].save }).click();
        await fieldError(page, translate(lang, 'notifications.validation.badRecipient', { address: 'nope' })).waitFor();
        await shoot(page, `create-${lang}-${width}`);
      }
    }
  });
});
