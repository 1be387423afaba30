// The APIs area as an operator meets it (docs/api-hookups.md): register an app pointing at a small receiver
// this test starts, see its secret once, subscribe it to consumer sessions of a fleet, watch machine sessions
// arrive signed (verified by the `standardwebhooks` library), stop the receiver and see the failures on the
// transactions screen, start it, replay and see everything delivered; deleting the bound app answers 9001 in
// the user's language; the twelve screens pass the accessibility audit and fit 1280 px in both languages.
//
// The server runs in this process (buildApp serving the built console), so the test feeds machine messages
// through the gateway's intake and runs the delivery with a simulated clock. E2E_SHOTS_DIR=/tmp/shots
// also saves every screen at 1280 and 1440 px in English and Chinese.
import type { FastifyInstance } from 'fastify';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, inject, it } from 'vitest';
import { walkMenu } from '../../resources/menu';
import { buildApp } from '../../server/app';
import { rvm } from '../../server/db/schema/fleet';
import { deliverDue, RETRY_SCHEDULE_MS } from '../../server/hookups/delivery';
import { adminPastForcedChange, audit, blocking, describeViolations, navigateInApp, settle, type Violation } from './a11ySteps';
import { CATALOGUES, RA, expectHeading, row, shot, signIn, useLanguage, type Lang } from './consoleSteps';
import { api, browserAvailable, eventually, keepEvidence, launchBrowser, newContext, SHOTS_ROOT, type RunningServer } from './harness';
import { ingest, sessionMessage, startReceiver, type MachineRef, type Receiver } from '../server/hookupsHarness';

const ADMIN_PASSWORD = 'Hookup#2026';
const SCREENS = walkMenu()
  .filter((node) => node.route?.startsWith('/apis/') && node.route !== '/apis/apisManager')
  .map((node) => node.route as string);
const texts = (lang: Lang) => CATALOGUES[lang].hookups;
const labels = (lang: Lang) => CATALOGUES[lang].resources;
/** A list screen's heading: its resource's plural name. */
const plural = (lang: Lang, name: string) => {
  const [one, many] = (labels(lang) as unknown as Record<string, { name: string }>)[name].name.split('||||');
  return (many ?? one).trim();
};

describe.skipIf(!browserAvailable())('API hookups end to end', () => {
  let app: FastifyInstance;
  let server: RunningServer;
  let browser: Browser;
  let token: string;
  let receiver: Receiver;
  const machines: MachineRef[] = [];
  const contexts: BrowserContext[] = [];

  beforeAll(async () => {
    app = await buildApp({ staticDir: inject('consoleDir'), config: { passwordHashLogN: 14 }, demoFleet: false });
    await app.listen({ port: 0, host: '127.0.0.1' });
    const address = app.server.address();
    const port = typeof address === 'object' && address ? address.port : 0;
    server = { url: `http://127.0.0.1:${port}`, port, dataDir: '', stop: () => app.close(), output: () => '' };
    browser = await launchBrowser();
    token = await adminPastForcedChange(server, ADMIN_PASSWORD);
    const fleet = await api<{ id: number; licenseAccountId: number }>(server, 'POST', '/fleet', { token, body: { name: 'Harbour fleet' } });
    const account = (await api<{ licenseAccountId: number }>(server, 'GET', '/login/current', { token })).licenseAccountId;
    for (const termNo of ['HB-1', 'HB-2']) {
      const serial = `${termNo.replace('-', '')}X${Math.random().toString(36).slice(2, 8)}`;
      const [created] = await app.services.db
        .insert(rvm)
        .values({ licenseAccountId: account, fleetId: fleet.id, termNo, serialNumber: serial, termType: 'H30' })
        .returning({ id: rvm.id });
      machines.push({ id: created.id, serial, licenseAccountId: account });
    }
    receiver = await startReceiver();
  });

  afterEach(async ({ task }) => {
    await keepEvidence(task, contexts);
    for (const open of contexts.splice(0)) await open.close();
  });

  afterAll(async () => {
    await receiver?.close();
    await browser?.close();
    await server?.stop();
  });

  const signedIn = async (width = 1280): Promise<Page> => {
    const context = await newContext(browser, { viewport: { width, height: 900 }, permissions: ['clipboard-read', 'clipboard-write'] });
    contexts.push(context);
    const page = await context.newPage();
    await signIn(page, server, 'admin', ADMIN_PASSWORD);
    await page.waitForURL('**/index/index');
    return page;
  };

  /** With E2E_SHOTS_DIR set, the page from the top in its hookups/ (shot). */
  const shoot = (page: Page, name: string) => shot(page, `hookups/${name}`);

  const toast = (page: Page, text: string) => page.getByText(text).first().waitFor();

  it('done means: an app registered in the console receives the sessions signed, failures show and a replay delivers them; a bound app cannot be deleted', async () => {
    const page = await signedIn();
    const en = labels('en');
    await useLanguage(page, server, 'en', '/apis/csThridApp');
    await expectHeading(page, plural('en', 'csThridApp'));
    await page.getByRole('link', { name: RA.en.create }).click();
    await page.locator('input[name="name"]').fill('Harbour loyalty');
    await page.locator('input[name="url"]').fill(receiver.url);
    const fleets = page.getByRole('combobox', { name: en.csThridApp.fields.fleets });
    await fleets.click();
    await page.getByRole('option', { name: 'Harbour fleet' }).click();
    await page.keyboard.press('Escape');
    await shoot(page, 'csThridApp-create-en-1280');
    await page.getByRole('button', { name: RA.en.save }).click();
    await row(page, 'Harbour loyalty').waitFor();

    // the secret: shown once, with a copy button
    await row(page, 'Harbour loyalty')
      .getByRole('button', { name: texts('en').secret.show })
      .click();
    const dialog = page.getByRole('dialog');
    await dialog.getByText(texts('en').secret.once).waitFor();
    const secret = await dialog.getByTestId('hookup-secret').inputValue();
    expect(secret).toMatch(/^whsec_/);
    await dialog.getByRole('button', { name: texts('en').secret.copy }).click();
    await toast(page, texts('en').secret.copied);
    await shoot(page, 'csThridApp-secret-en-1280');
    const audited: Violation[] = await audit(page, 'secret dialog');
    await dialog.getByRole('button', { name: texts('en').secret.close }).click();
    receiver.secret = secret;
    // now only a rotation gives a secret
    await row(page, 'Harbour loyalty')
      .getByRole('button', { name: texts('en').secret.rotate })
      .waitFor();

    // subscribe it to consumer sessions (all the app's fleets)
    await page.goto(`${server.url}/apis/csApi/create`);
    await page.getByRole('combobox', { name: en.csApi.fields.appId }).click();
    await page.getByRole('option', { name: 'Harbour loyalty' }).click();
    // the family's one event is there from the start (the declared default)
    await page.locator('.MuiChip-label', { hasText: 'Consumer session completed' }).waitFor();
    await page.getByRole('button', { name: RA.en.save }).click();
    await row(page, 'Harbour loyalty').waitFor();

    // machines end sessions: they arrive at the receiver, signed
    const now = Date.now();
    await ingest(
      app.services.db,
      machines.flatMap((machine, index) => [sessionMessage(machine, new Date(now + index * 100)), sessionMessage(machine, new Date(now + 1000 + index * 100))]),
    );
    await deliverDue(app.services.db, new Date(now + 5_000));
    expect(receiver.received).toHaveLength(4);
    expect(receiver.refused).toBe(0);

    // the receiver goes away: two more sessions (ended just now, so inside the replay dialog's default "last day")
    // fail through the whole schedule (simulated clock)
    await receiver.stop();
    await ingest(
      app.services.db,
      machines.map((machine) => sessionMessage(machine, new Date(now - 2_000))),
    );
    let clock = now + 6_000;
    for (const delay of RETRY_SCHEDULE_MS) {
      clock += delay;
      await deliverDue(app.services.db, new Date(clock));
    }
    await page.goto(`${server.url}/apis/csApiTransaction`);
    await expectHeading(page, plural('en', 'csApiTransaction'));
    await eventually(() => page.locator('table tbody tr').filter({ hasText: en.csApiTransaction.enums.status.fail }).count()).toBe(2);
    expect(await row(page, 'HB-1').filter({ hasText: 'ECONNREFUSED' }).count()).toBe(1);
    await shoot(page, 'csApiTransaction-failed-en-1280');

    // back: replay the failed ones of the last day, they are delivered
    await receiver.start();
    await page.getByRole('button', { name: texts('en').messages.replay }).click();
    // the console's own pickers (24-hour, the console's format), never the browser's native date-time input
    const from = page.getByRole('dialog').getByTestId('input-from');
    await from.waitFor();
    expect(await from.inputValue()).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}$/);
    expect(await page.getByRole('dialog').locator('input[type="datetime-local"], input[type="date"]').count()).toBe(0);
    await page
      .getByRole('dialog')
      .getByRole('button', { name: texts('en').messages.replay })
      .click();
    await toast(page, '2 failed messages queued again');
    await deliverDue(app.services.db, new Date(clock + 1_000));
    expect(receiver.received).toHaveLength(6);
    await page.reload();
    await eventually(() => page.locator('table tbody tr').filter({ hasText: en.csApiTransaction.enums.status.success }).count()).toBe(6);

    // the notification list shows the webhooks
    await page.goto(`${server.url}/apis/notificationList`);
    await eventually(() => page.locator('table tbody tr').filter({ hasText: 'Harbour loyalty' }).count()).toBe(6);

    // machines are bound to it: 9001, in English, then in Chinese
    for (const lang of ['en', 'zh'] as const) {
      await useLanguage(page, server, lang, '/apis/csThridApp');
      // check(), not click(): a refused delete leaves the row selected (react-admin keeps the selection)
      await row(page, 'Harbour loyalty').getByRole('checkbox').check();
      await page.getByRole('button', { name: RA[lang].delete }).click();
      await page.getByRole('dialog').getByRole('button', { name: RA[lang].confirm }).click();
      await toast(page, CATALOGUES[lang].errors['9001']);
    }
    const apps = await api<{ list: Array<{ name: string }> }>(server, 'POST', '/hookup/cs/app/page', { token, body: { pageNum: 1, pageSize: 10 } });
    expect(apps.list.map((app) => app.name)).toEqual(['Harbour loyalty']);
    expect(blocking(audited), describeViolations(blocking(audited))).toEqual([]);
  });

  // The accessibility sweep (a11y.test.ts) audits these screens in both languages with the demo fleet; here they hold
  // this file's apps, messages and webhooks, audited once (in English: axe's rules read colours and roles, not words).
  it('every screen of the APIs area fits 1280 px in English and Chinese and passes the accessibility audit with its rows', async () => {
    const violations: Violation[] = [];
    for (const lang of ['en', 'zh'] as const) {
      for (const width of [1280, 1440]) {
        if (width === 1440 && !SHOTS_ROOT) continue;
        const page = await signedIn(width);
        for (const [index, route] of SCREENS.entries()) {
          if (index === 0) await useLanguage(page, server, lang, route);
          else await navigateInApp(page, route);
          await settle(page);
          const key = route.split('/').pop() as string;
          await expectHeading(page, plural(lang, key));
          if (width === 1280) {
            if (lang === 'en') violations.push(...(await audit(page, `${route} (${lang})`)));
            const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
            expect(overflow, `${route} (${lang}) is wider than the window`).toBeLessThanOrEqual(0);
          }
          await shoot(page, `${key}-${lang}-${width}`);
        }
      }
    }
    expect(blocking(violations), describeViolations(blocking(violations))).toEqual([]);
  });
});
