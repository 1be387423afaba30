// The home dashboard end to end (src/dashboard): the real server with its demo fleet and the built
// console in Chromium. Signed in, the home route shows every card; "Offline" opens the machine list
// filtered on it, whose total is the card's number, the filter shown as a removable chip; in Chinese
// the cards read in Chinese and a status segment of the chart opens its list the same way.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { en } from '../../i18n/en';
import { zh } from '../../i18n/zh';
import { api, browserAvailable, eventually, keepEvidence, launchBrowser, newContext, snap, startServer, type RunningServer } from './harness';
import { CATALOGUES, type Lang } from './consoleSteps';

const PASSWORD = 'Home#2026';
const CARD_KEYS = [
  'machines',
  'downOverHour',
  'full',
  'offlineOverWeek',
  'profileMismatch',
  'offline',
  'highRejectRate',
  'quarantined',
  'notUsed',
  'needsClean',
  'octopusOffline',
  'alipayOffline',
  'consumerSessions',
  'refundValue',
  'totalVolume',
  'volumeThisMonth',
  'volumeLastMonth',
  'rejectRate',
  'todayReport',
  'monthlyReport',
] as const;

/** Digits of a number as the console formats it ("1,234" / "1,234"). */
const numberOf = (text: string | null) => Number((text ?? '').replace(/[^0-9]/g, ''));

/** The total of the list's pagination ("1-2 of 2" / "第 1-2 条，共 2 条"): its last number. */
const listTotal = async (page: Page) => {
  const info = page.getByTestId('machine-list').locator('.MuiTablePagination-displayedRows');
  await info.waitFor();
  return Number((await info.textContent())!.match(/(\d+)\D*$/)![1]);
};

describe.skipIf(!browserAvailable())('home dashboard end to end', () => {
  let server: RunningServer;
  let browser: Browser;
  let token: string;
  let context: BrowserContext | undefined;

  beforeAll(async () => {
    server = await startServer();
    browser = await launchBrowser();
    // The seeded admin must change the password before anything else: done through the API.
    const first = await api<{ tokenInfo: { tokenValue: string } }>(server, 'POST', '/login/login', { body: { username: 'admin', password: 'Admin@123' } });
    await api(server, 'PUT', `/user/password?password=${encodeURIComponent(PASSWORD)}`, { token: first.tokenInfo.tokenValue, body: { oldPassword: 'Admin@123' } });
    token = (await api<{ tokenInfo: { tokenValue: string } }>(server, 'POST', '/login/login', { body: { username: 'admin', password: PASSWORD } })).tokenInfo.tokenValue;
    // A machine that never connected is Offline: at least one, whatever the demo fleet's state.
    const [fleet] = await api<Array<{ id: number }>>(server, 'GET', '/fleet/tree', { token });
    await api(server, 'POST', '/rvm', { token, body: { termNo: 'E2EOFFLINE', serialNumber: 'E2EOFFLINE', termType: 'H30', fleetId: fleet.id } });
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

  const signedIn = async (lang: Lang) => {
    context = await newContext(browser, { viewport: { width: 1440, height: 900 } });
    const page = await context.newPage();
    await page.goto(`${server.url}/login`);
    await page.evaluate((value) => localStorage.setItem('lang', value), lang);
    await page.goto(`${server.url}/login`);
    await page.locator('input[name="username"]').fill('admin');
    await page.locator('input[name="password"]').fill(PASSWORD);
    await page.locator('button[type="submit"]').click();
    await page.waitForURL('**/index/index');
    await page.getByTestId('machine-cards').waitFor();
    return page;
  };

  it('shows every card, and "Offline" opens the machine list whose total is the card (en)', async () => {
    const page = await signedIn('en');
    for (const key of CARD_KEYS) await expect(page.getByTestId(`card-${key}`).textContent()).resolves.toContain(en.dashboard.cards[key].title);
    await page.getByTestId('chart-volume').locator('.recharts-bar-rectangle').first().waitFor();
    await snap(page, 'dashboard-en');

    const offline = page.getByTestId('card-offline');
    const value = numberOf(await offline.getByTestId('card-value').textContent());
    expect(value).toBeGreaterThan(0);
    await offline.getByRole('button', { name: new RegExp(en.dashboard.cards.offline.title) }).click();
    await page.waitForURL((url) => url.pathname === '/installation/fleetManagement' && decodeURIComponent(url.search).includes('"currentSts":"Offline"'));
    expect(await listTotal(page)).toBe(value);
    // The server agrees: the card's filter lists as many machines.
    const filter = JSON.parse(new URL(page.url()).searchParams.get('filter')!);
    expect((await api<{ total: number }>(server, 'POST', '/rvm/page', { token, body: { pageNum: 1, pageSize: 1, ...filter } })).total).toBe(value);
    const chip = page.getByTestId('filter-chips').locator('[data-filter="currentSts"]');
    await expect(chip.textContent()).resolves.toBe(`${en.resources.machine.filters.currentSts}: ${en.fleet.statuses.Offline}`);
    await snap(page, 'dashboard-offline-list-en');

    // Removing the chip removes the filter: the whole fleet again.
    await chip.locator('.MuiChip-deleteIcon').click();
    await eventually(() => decodeURIComponent(new URL(page.url()).search).includes('currentSts')).toBe(false);
    const all = await api<{ machineCount: number }>(server, 'GET', '/dashboard', { token });
    await eventually(() => listTotal(page)).toBe(all.machineCount);
    await expect(page.getByTestId('filter-chips').count()).resolves.toBe(0);

    // A card's time limit is a moment: its filter input shows the chip's date and time, so editing keeps the time.
    await page.goto(`${server.url}/index/index`);
    await page
      .getByTestId('card-offlineOverWeek')
      .getByRole('button', { name: new RegExp(en.dashboard.cards.offlineOverWeek.title) })
      .click();
    await page.waitForURL((url) => url.pathname === '/installation/fleetManagement' && decodeURIComponent(url.search).includes('offlineSince'));
    const sinceChip = await page.getByTestId('filter-chips').locator('[data-filter="offlineSince"]').textContent();
    const chipTime = /(\d{4}-\d{2}-\d{2} \d{2}:\d{2})/.exec(sinceChip ?? '')?.[1];
    expect(chipTime, `chip "${sinceChip}"`).toBeDefined();
    await eventually(() => page.getByTestId('input-offlineSince').inputValue()).toBe(chipTime);
  });

  it('reads in Chinese, and a status segment opens its machine list (zh)', async () => {
    const page = await signedIn('zh');
    for (const key of CARD_KEYS) await expect(page.getByTestId(`card-${key}`).textContent()).resolves.toContain(zh.dashboard.cards[key].title);
    await page.getByTestId('chart-status').getByText(zh.dashboard.charts.statusOverview).waitFor();
    await snap(page, 'dashboard-zh');

    const answer = await api<{ charts: { statusOverview: Array<{ key: string; value: number }> } }>(server, 'GET', '/dashboard', { token });
    const segment = answer.charts.statusOverview.find((item) => item.value > 0)!;
    await page.getByTestId('chart-status').locator(`[data-segment="${segment.key}"]`).click();
    await page.waitForURL((url) => url.pathname === '/installation/fleetManagement' && decodeURIComponent(url.search).includes(`"currentSts":"${segment.key}"`));
    expect(await listTotal(page)).toBe(segment.value);
    await page
      .getByTestId('filter-chips')
      .getByText(`${CATALOGUES.zh.resources.machine.filters.currentSts}: ${zh.fleet.statuses[segment.key as 'Up']}`)
      .waitFor();
  });
});
