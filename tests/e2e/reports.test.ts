// The Reports screen end to end (src/reports): the real server with its demo fleet and the built
// console in Chromium. Signed in through the login page, Reports › Report shows Volumes for the last
// 30 days (chart and table); the XLSX downloaded through the download client holds the table's rows
// (read back with exceljs). In Chinese the screen reads in Chinese and a reject report shows its reasons.
// With E2E_SHOTS_DIR set, screenshots at 1280 and 1440 px in both languages go to its reports/ (looked at, not asserted).
import ExcelJS from 'exceljs';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { en } from '../../i18n/en';
import { zh } from '../../i18n/zh';
import { api, browserAvailable, eventually, keepEvidence, launchBrowser, newContext, SHOTS_ROOT, snap, startServer, type RunningServer } from './harness';

const PASSWORD = 'Report#2026';

/** Digits of a number as the console formats it ("1,234"). */
const numberOf = (text: string | null) => Number((text ?? '').replace(/[^0-9]/g, ''));

describe.skipIf(!browserAvailable())('reports end to end', () => {
  let server: RunningServer;
  let browser: Browser;
  let context: BrowserContext | undefined;

  beforeAll(async () => {
    server = await startServer();
    browser = await launchBrowser();
    // The seeded admin must change the password before anything else: done through the API.
    const first = await api<{ tokenInfo: { tokenValue: string } }>(server, 'POST', '/login/login', { body: { username: 'admin', password: 'Admin@123' } });
    await api(server, 'PUT', `/user/password?password=${encodeURIComponent(PASSWORD)}`, { token: first.tokenInfo.tokenValue, body: { oldPassword: 'Admin@123' } });
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

  const openReports = async (lang: 'en' | 'zh', width = 1280) => {
    context = await newContext(browser, { viewport: { width, height: 900 } });
    const page = await context.newPage();
    await page.goto(`${server.url}/login`);
    await page.evaluate((value) => localStorage.setItem('lang', value), lang);
    await page.goto(`${server.url}/login`);
    await page.locator('input[name="username"]').fill('admin');
    await page.locator('input[name="password"]').fill(PASSWORD);
    await page.locator('button[type="submit"]').click();
    await page.waitForURL('**/index/index');
    await page.goto(`${server.url}/reports/report`);
    await page.getByTestId('report-table').locator('tbody tr').first().waitFor();
    return page;
  };

  /** The table's body rows as cell texts. */
  const tableRows = (page: Page) =>
    page
      .getByTestId('report-table')
      .locator('tbody tr')
      .evaluateAll((rows) => rows.map((row) => [...row.querySelectorAll('td')].map((cell) => cell.textContent ?? '')));

  const shoot = async (page: Page, name: string) => {
    await snap(page, `reports/${name}`);
  };

  it('Volumes for the last 30 days: chart and table, and the XLSX download holds the same rows (en)', async () => {
    const page = await openReports('en');
    await expect(page.getByTestId('report-page').textContent()).resolves.toContain(en.reports.kinds.volumes.description);
    await page.getByTestId('report-chart').locator('.recharts-bar-rectangle').first().waitFor();
    const rows = await tableRows(page);
    expect(rows.length).toBeGreaterThan(1);
    // The last row is the total of the whole selection; machines with the most accepted first.
    expect(rows.at(-1)![0]).toBe(en.reports.totalRow);
    const accepted = rows.slice(0, -1).map((row) => numberOf(row[2]));
    expect(accepted).toEqual([...accepted].sort((a, b) => b - a));
    expect(accepted[0]).toBeGreaterThan(0);

    const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('download-xlsx').click()]);
    expect(download.suggestedFilename()).toMatch(/^Volumes_\d{4}-\d{2}-\d{2}_\d{4}-\d{2}-\d{2}\.xlsx$/);
    const path = await download.path();
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.readFile(path);
    const sheetRows: unknown[][] = [];
    workbook.worksheets[0].eachRow((row) => sheetRows.push((row.values as unknown[]).slice(1)));
    expect(sheetRows[0]).toEqual(['RVM number', 'Fleet', 'Accepted', ...Object.values(en.fleet.itemTypes)]);
    // The table's page (first rows) and its total row are the file's first rows and last row.
    const fileRows = sheetRows.slice(1);
    for (const [index, row] of rows.slice(0, -1).entries()) {
      expect([fileRows[index][0], fileRows[index][1], fileRows[index][2]]).toEqual([row[0], row[1], numberOf(row[2])]);
      expect(fileRows[index].slice(3)).toEqual(row.slice(3).map(numberOf));
    }
    expect(fileRows.at(-1)!.slice(2)).toEqual(rows.at(-1)!.slice(2).map(numberOf));
    await shoot(page, 'volumes-en-1280');
  });

  it('reads in Chinese; a reject report shows its reasons; generated reports are listed (zh)', async () => {
    const page = await openReports('zh', 1440);
    await expect(page.getByTestId('report-page').textContent()).resolves.toContain(zh.reports.kinds.volumes.description);
    await shoot(page, 'volumes-zh-1440');
    await page.getByTestId('report-kind').locator('[role="combobox"]').click();
    await page.locator('[data-kind="acceptedRejects"]').click();
    await page.getByTestId('reason-table').waitFor();
    await eventually(async () => (await tableRows(page)).at(-1)?.[0]).toBe(zh.reports.totalRow);
    await shoot(page, 'rejects-zh-1440');
    await page.getByTestId('generate').click();
    await page.getByTestId('tab-generated').click();
    await eventually(async () => page.getByTestId('generated-reports').locator('tbody tr').count()).toBeGreaterThan(0);
    await expect(page.getByTestId('generated-reports').textContent()).resolves.toContain('Accepted_Rejects_Counts_');
    await shoot(page, 'generated-zh-1440');
  });

  it.skipIf(!SHOTS_ROOT)('screenshots: English at 1440 px and Chinese at 1280 px, the daily and barcode reports', async () => {
    const page = await openReports('en', 1440);
    await page.getByTestId('report-kind').locator('[role="combobox"]').click();
    await page.locator('[data-kind="volumesDaily"]').click();
    await page.getByTestId('report-chart').locator('.recharts-bar-rectangle').first().waitFor();
    await shoot(page, 'daily-en-1440');
    await context!.close();
    const zhPage = await openReports('zh', 1280);
    await zhPage.getByTestId('report-kind').locator('[role="combobox"]').click();
    await zhPage.locator('[data-kind="barcodeRejects"]').click();
    await eventually(async () => (await tableRows(zhPage)).length).toBeGreaterThan(1);
    await shoot(zhPage, 'barcode-zh-1280');
  });
});
