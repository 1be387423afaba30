// service › performance end to end (src/performance, docs/performance.md): the real server with its demo
// fleet and the built console in Chromium. Signed in through the login page, the screen shows the MCBE
// chart, the totals and the main errors ranking (ranked again by downtime); the date picker offers no
// day older than three months and a typed older day is refused before any call. English and Chinese,
// screenshots at 1280 and 1440 px (with E2E_SHOTS_DIR set).
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { api, browserAvailable, eventually, keepEvidence, launchBrowser, newContext, snap, startServer, type RunningServer } from './harness';
import { CATALOGUES, type Lang } from './consoleSteps';

const PASSWORD = 'Perf#2026';

describe.skipIf(!browserAvailable())('performance screen end to end', () => {
  let server: RunningServer;
  let browser: Browser;
  let context: BrowserContext | undefined;
  let earliest = '';

  beforeAll(async () => {
    server = await startServer();
    browser = await launchBrowser();
    const first = await api<{ tokenInfo: { tokenValue: string } }>(server, 'POST', '/login/login', { body: { username: 'admin', password: 'Admin@123' } });
    await api(server, 'PUT', `/user/password?password=${encodeURIComponent(PASSWORD)}`, { token: first.tokenInfo.tokenValue, body: { oldPassword: 'Admin@123' } });
    const token = (await api<{ tokenInfo: { tokenValue: string } }>(server, 'POST', '/login/login', { body: { username: 'admin', password: PASSWORD } })).tokenInfo.tokenValue;
    const offset = -new Date().getTimezoneOffset();
    earliest = (await api<{ earliestDay: string }>(server, 'GET', `/performance/options?utcOffsetMinutes=${offset - (offset % 15)}`, { token })).earliestDay;
  });

  afterEach(async ({ task }) => {
    await keepEvidence(task, [context]);
    await context?.close();
    context = undefined;
  });

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  const open = async (lang: Lang, width: number) => {
    context = await newContext(browser, { viewport: { width, height: 900 } });
    const page = await context.newPage();
    await page.goto(`${server.url}/login`);
    await page.evaluate((value) => localStorage.setItem('lang', value), lang);
    await page.goto(`${server.url}/login`);
    await page.locator('input[name="username"]').fill('admin');
    await page.locator('input[name="password"]').fill(PASSWORD);
    await page.locator('button[type="submit"]').click();
    await page.waitForURL('**/index/index');
    await page.goto(`${server.url}/service/performance`);
    await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe(CATALOGUES[lang].menu.performance);
    await page.getByTestId('performance-chart').locator('.recharts-line-curve').waitFor();
    await page.getByTestId('performance-error-row').first().waitFor();
    return page;
  };

  const shoot = async (page: Page, name: string) => {
    await snap(page, `performance/${name}`);
  };

  for (const lang of ['en', 'zh'] as const) {
    it(`shows the MCBE chart, the totals and the main errors ranking (${lang}, 1280 and 1440 px)`, async () => {
      const texts = CATALOGUES[lang].performance;
      const page = await open(lang, 1280);
      await expect(page.getByTestId('performance-chart').textContent()).resolves.toContain(texts.chart.day);
      expect(Number((await page.getByTestId('performance-items').textContent())!.replace(/[^0-9]/g, ''))).toBeGreaterThan(0);
      const errors = page.getByTestId('performance-errors');
      await expect(errors.textContent()).resolves.toContain(texts.errors.title);
      // The alarm texts are the event history's (fleet.alarms) in the console's language.
      const firstCode = (await page.getByTestId('performance-error-row').first().locator('td').nth(1).textContent())!;
      const alarms = CATALOGUES[lang].fleet.alarms as Record<string, string>;
      await expect(page.getByTestId('performance-error-row').first().textContent()).resolves.toContain(alarms[firstCode]);
      // Every row is within the page's width (1280 px: no horizontal scrolling).
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(1280);
      await shoot(page, `performance-${lang}-1280`);
      await errors.getByRole('button', { name: texts.errors.byDowntime }).click();
      await eventually(async () => await errors.getByRole('button', { name: texts.errors.byDowntime }).getAttribute('aria-pressed')).toBe('true');
      await page.getByRole('button', { name: texts.range.last3Months }).click();
      await eventually(async () => page.getByTestId('performance-chart').textContent()).toContain(texts.chart.week);
      // the demo fleet's history is shorter than three months: the chart starts at its first week and says so
      await expect(page.getByTestId('performance-data-from').textContent()).resolves.toMatch(/\d{4}-\d{2}-\d{2}/);
      await page.setViewportSize({ width: 1440, height: 900 });
      await shoot(page, `performance-${lang}-1440`);
    });
  }

  it('the date picker offers nothing older than three months; a typed older day is refused', async () => {
    const page = await open('en', 1440);
    const texts = CATALOGUES.en.performance;
    // The calendar of "From" after the whole three months: the day before the earliest is disabled, no earlier month.
    await page.getByRole('button', { name: texts.range.last3Months }).click();
    await page
      .getByTestId('performance-filters')
      .getByRole('button', { name: /choose date/i })
      .first()
      .click();
    const calendar = page.getByRole('dialog');
    await calendar.waitFor();
    await expect(calendar.getByRole('button', { name: /previous month/i }).isDisabled()).resolves.toBe(true);
    const earliestDate = Number(earliest.slice(8, 10));
    if (earliestDate > 1) {
      await expect(calendar.getByRole('gridcell', { name: String(earliestDate - 1), exact: true }).isDisabled()).resolves.toBe(true);
    }
    await expect(calendar.getByRole('gridcell', { name: String(earliestDate), exact: true }).isDisabled()).resolves.toBe(false);
    await page.keyboard.press('Escape');
    // Typed: a day before the earliest.
    const older = new Date(`${earliest}T00:00:00Z`);
    older.setUTCDate(older.getUTCDate() - 1);
    const from = page.getByRole('group', { name: texts.range.from });
    await from.locator('[role="spinbutton"]').first().click();
    await page.keyboard.type(older.toISOString().slice(0, 10).replace(/-/g, ''));
    let calls = 0;
    page.on('request', (request) => {
      if (request.url().includes('/performance/mcbe')) calls++;
    });
    await page.getByRole('button', { name: texts.range.apply }).click();
    await page.getByText(texts.range.tooOld.replace('%{earliest}', earliest)).waitFor();
    expect(calls).toBe(0);
  });
});
