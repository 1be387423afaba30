// The Promotion area end to end (docs/promotions.md), against the real server with simulated machines inside it
// (SIMULATE, as `npm start -- --simulate`; no deployment failures) and the built console in Chromium: a 1080×610
// picture uploaded as promotion 1 is refused with the error naming 1080×1110, in English and in Chinese; a right
// one is saved and its page previews the machine screen; an option deployed from Promotion deployment reaches the
// simulated machines, and the screen lists which machines show it. Every screen fits 1280 px in both languages and
// passes the axe audit; with E2E_SHOTS_DIR set, screenshots go to its promotions/.
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { adminPastForcedChange, audit, blocking, describeViolations } from './a11ySteps';
// not a React hook: it stores the language and opens a page (aliased so the hooks rule does not mistake it)
import { CATALOGUES, RA, signIn, useLanguage as openInLanguage } from './consoleSteps';
import { api, browserAvailable, eventually, keepEvidence, launchBrowser, newContext, shoot, type RunningServer } from './harness';
import { connectedMachines, startWithSimulatedFleet } from './simulatedFleet';
import { E2E_HOOK_TIMEOUT, E2E_TEST_TIMEOUT } from './timeouts';

const PASSWORD = 'Promo#2026';
const SIMULATED = 3;
/** Waits on machine behaviour (download, applying at 20× speed, the delivery job every 10 s). */
const slowly = <T>(read: () => T | Promise<T>) => expect.poll(read, { timeout: 180_000, interval: 250 });

type Lang = 'en' | 'zh';
interface MachineRow {
  id: number;
  termNo: string;
  termType: string;
}

describe.skipIf(!browserAvailable())('promotions end to end', () => {
  let server: RunningServer;
  let browser: Browser;
  let token: string;
  let context: BrowserContext | undefined;
  let simulated: MachineRow[] = [];
  const scratch = join(tmpdir(), `rvm-promo-e2e-${process.pid}`);

  const picture = async (name: string, width: number, height: number) => {
    const path = join(scratch, name);
    writeFileSync(
      path,
      await sharp({ create: { width, height, channels: 3, background: '#1f7a4d' } })
        .png()
        .toBuffer(),
    );
    return path;
  };

  /** The page fits 1280 px, passes the audit, and is kept as a screenshot. */
  const look = async (page: Page, name: string) => {
    // every loading indicator gone (lists, reference labels) before the audit and the picture; a determinate bar
    // (a deployment's progress) is content, not loading
    await eventually(() => page.locator('[role="progressbar"]:not([aria-valuenow])').count()).toBe(0);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(1280);
    const violations = blocking(await audit(page, name));
    expect(violations, describeViolations(violations)).toEqual([]);
    await shoot(page, `promotions/${name}`);
  };

  const openPage = async (lang: Lang, path: string) => {
    context = await newContext(browser);
    const page = await context.newPage();
    await signIn(page, server, 'admin', PASSWORD);
    await page.waitForURL('**/index/index');
    await openInLanguage(page, server, lang, path);
    return page;
  };

  beforeAll(async () => {
    mkdirSync(scratch, { recursive: true });
    server = await startWithSimulatedFleet(SIMULATED, 20);
    browser = await launchBrowser();
    token = await adminPastForcedChange(server, PASSWORD);
    simulated = await connectedMachines<MachineRow>(server, token, SIMULATED);
  }, E2E_HOOK_TIMEOUT);

  afterEach(async ({ task }) => {
    await keepEvidence(task, [context]);
    await context?.close();
    context = undefined;
  });

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    rmSync(scratch, { recursive: true, force: true });
  });

  for (const lang of ['en', 'zh'] as const) {
    it(
      `${lang}: a 1080×610 picture as promotion 1 is refused naming 1080×1110; a right one is saved and previewed`,
      async () => {
        const t = CATALOGUES[lang];
        const page = await openPage(lang, '/promotion/promotionResource/create');
        await page.locator('input[name="name"]').fill(`Spring ${lang}`);
        const input = page.getByTestId('file-input-promotion1');
        await input.locator('input[type="file"]').setInputFiles(await picture('wide.png', 1080, 610));
        const expected = t.errors['9603'].replace('%{expected}', '1080×1110').replace('%{actual}', '1080×610');
        await input.getByText(expected).waitFor();
        await look(page, `resource-refused-${lang}`);

        await input.locator('input[type="file"]').setInputFiles(await picture('tall.png', 1080, 1110));
        await input.getByText('tall.png').first().waitFor();
        await page
          .getByTestId('file-input-logo')
          .locator('input[type="file"]')
          .setInputFiles(await picture('logo.png', 280, 100));
        await page.getByTestId('file-input-logo').getByText('logo.png').first().waitFor();
        // both uploads finished (no progress shown) before saving
        await eventually(() => page.getByRole('status').count()).toBe(0);
        const saved = page.waitForResponse((response) => response.request().method() === 'POST' && response.url().endsWith('/test-api/promotion/resource'));
        await page.getByRole('button', { name: RA[lang].save }).click();
        const answer = (await (await saved).json()) as { resCode: string; resData: { id: number } };
        expect(answer.resCode).toBe('00000');
        await page.waitForURL(/\/promotion\/promotionResource(\?.*)?$/);
        await page.getByText(`Spring ${lang}`).waitFor();
        await look(page, `resource-list-${lang}`);
        await openInLanguage(page, server, lang, `/promotion/promotionResource/${answer.resData.id}/show`);
        await page.getByTestId('machine-screen-preview').waitFor();
        await eventually(() => page.getByTestId('preview-promotion1').locator('img').count()).toBe(1);
        await eventually(() => page.getByTestId('preview-logo').locator('img').count()).toBe(1);
        await look(page, `resource-preview-${lang}`);
      },
      E2E_TEST_TIMEOUT,
    );
  }

  it(
    'deploys an option from Promotion deployment and sees which machines show it',
    async () => {
      const model = simulated[0].termType;
      const [resource] = (await api<{ list: Array<{ id: number }> }>(server, 'POST', '/promotion/resource/page', { token, body: { pageNum: 1, pageSize: 10 } })).list;
      const option = await api<{ id: number }>(server, 'POST', '/promotion/option', {
        token,
        body: { name: 'Spring mornings', startDate: '2026-03-01', endDate: '2026-05-31', days: 'mon, tue, wed, thu, fri', startHour: 7, endHour: 11, models: model },
      });
      await api(server, 'POST', '/promotion/item', { token, body: { optionId: option.id, position: 1, resourceId: resource.id, durationSeconds: 20 } });
      await api(server, 'POST', '/promotion/default', { token, body: { resourceId: resource.id, durationSeconds: 15 } });

      for (const lang of ['en', 'zh'] as const) {
        const page = await openPage(lang, '/promotion/createPromotionOption');
        await page.getByText('Spring mornings').waitFor();
        await look(page, `options-${lang}`);
        await page.getByTestId('option-tab-items').click();
        await page.waitForURL('**/promotion/createPromotionOption/items');
        // the item's row, its option named by reference (the list has loaded)
        await page.locator('table').getByText('Spring mornings').waitFor();
        await look(page, `items-${lang}`);
        await openInLanguage(page, server, lang, '/promotion/defaultPromotion');
        await page.getByText(CATALOGUES[lang].resources.defaultPromotion.fields.resourceId).first().waitFor();
        await look(page, `default-${lang}`);
        await context?.close();
        context = undefined;
      }

      const page = await openPage('en', '/promotion/promotionDeployment');
      const t = CATALOGUES.en.promotions;
      await page.getByTestId('promotion-option-select').click();
      await page.getByRole('option', { name: 'Spring mornings' }).click();
      await page.getByTestId('promotion-deploy-submit').click();
      await page.getByTestId('promotion-deploy-created').waitFor();
      await page.getByTestId('promotion-deployments').getByText('Spring mornings').first().waitFor();
      const machine = simulated.find((row) => row.termType === model)!;
      await page.getByLabel(t.showing.search).fill(machine.termNo);
      const row = page.getByTestId(`showing-${machine.termNo}`);
      await slowly(() => row.getByText(/Spring mornings/).count()).toBe(1);
      await look(page, 'deployment-en');

      await openInLanguage(page, server, 'zh', '/promotion/promotionDeployment');
      await page.getByTestId('promotion-deployments').getByText('Spring mornings').first().waitFor();
      await page.getByLabel(CATALOGUES.zh.promotions.showing.search).fill(machine.termNo);
      await slowly(() =>
        page
          .getByTestId(`showing-${machine.termNo}`)
          .getByText(/Spring mornings/)
          .count(),
      ).toBe(1);
      await look(page, 'deployment-zh');
    },
    E2E_TEST_TIMEOUT,
  );
});
