// Generic screens a new user trusts (issue 9), in Chromium against the real server with its demo
// fleet: every main list screen fits a 1280 px window (menus open too; wide tables scroll inside
// themselves), export writes the visible columns, saved filters are the server's only (built-in
// machine ones in the user's language), a used reset link says so, and a deep link opened signed
// out opens after sign-in.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { api, browserAvailable, eventually, expectLoginPage, keepEvidence, launchBrowser, newContext, startServer, type RunningServer } from './harness';
import { CATALOGUES, exportList, parseCsv, type Lang } from './consoleSteps';
import { E2E_HOOK_TIMEOUT, E2E_TEST_TIMEOUT } from './timeouts';

const PASSWORD = 'Fleet#2026';
/** Lists whose every column is in view at 1280 px (cells keep 10 px either side); the others scroll inside their table. */
const LISTS_IN_VIEW = ['/systemSettings/user', '/systemSettings/account'];
/** The main list screens (fleet management holds the machine list). */
const LIST_SCREENS = ['/installation/fleetManagement', '/systemSettings/user', '/systemSettings/role', '/systemSettings/account', '/service/events', '/reports/notifications'];

const signIn = async (page: Page) => {
  await page.locator('input[name="username"]').fill('admin');
  await page.locator('input[name="password"]').fill(PASSWORD);
  await page.locator('button[type="submit"]').click();
};

/** The page's own width against the window's: no horizontal page scroll. */
const pageWidths = (page: Page) => page.evaluate(() => ({ scrollWidth: document.documentElement.scrollWidth, clientWidth: document.documentElement.clientWidth }));
const expectNoPageScroll = async (page: Page, where: string) => {
  const { scrollWidth, clientWidth } = await pageWidths(page);
  expect(scrollWidth, `${where}: page ${scrollWidth} px wide in a ${clientWidth} px window`).toBeLessThanOrEqual(clientWidth);
};

describe.skipIf(!browserAvailable())('generic screens a new user trusts', () => {
  let server: RunningServer;
  let browser: Browser;
  let context: BrowserContext | undefined;
  const freshPage = async (lang: Lang = 'en') => {
    context = await newContext(browser, { viewport: { width: 1280, height: 800 } });
    const page = await context.newPage();
    await page.goto(`${server.url}/login`);
    await page.evaluate((value) => localStorage.setItem('lang', value), lang);
    return page;
  };
  const signedIn = async (lang: Lang) => {
    const page = await freshPage(lang);
    await page.goto(`${server.url}/login`);
    await signIn(page);
    await page.waitForURL('**/index/index');
    return page;
  };

  beforeAll(async () => {
    server = await startServer();
    browser = await launchBrowser();
    const first = await api<{ tokenInfo: { tokenValue: string } }>(server, 'POST', '/login/login', { body: { username: 'admin', password: 'Admin@123' } });
    await api(server, 'PUT', `/user/password?password=${encodeURIComponent(PASSWORD)}`, { token: first.tokenInfo.tokenValue, body: { oldPassword: 'Admin@123' } });
  }, E2E_HOOK_TIMEOUT);

  afterEach(async ({ task }) => {
    await keepEvidence(task, [context]);
    await context?.close();
    context = undefined;
  });

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  for (const lang of ['en', 'zh'] as const) {
    it(
      `every main list screen fits 1280 px, its menus open too; wide tables scroll inside themselves (${lang})`,
      async () => {
        const page = await signedIn(lang);
        const texts = CATALOGUES[lang];
        for (const path of LIST_SCREENS) {
          await page.goto(`${server.url}${path}`);
          await page.locator('table').first().or(page.getByText(texts.generic.empty.invite)).first().waitFor();
          await expectNoPageScroll(page, path);
          if (LISTS_IN_VIEW.includes(path)) {
            const table = page.locator('.RaDataTable-tableWrapper');
            await table.locator('tbody tr').first().waitFor();
            const widths = await table.evaluate((element) => ({ scroll: element.scrollWidth, client: element.clientWidth }));
            expect(widths.scroll, `${path}: ${widths.scroll} px of columns in ${widths.client} px`).toBeLessThanOrEqual(widths.client);
          }
        }

        // fleet management: the toolbar in sight, each of its menus opens without moving the page sideways
        await page.goto(`${server.url}/installation/fleetManagement`);
        const list = page.getByTestId('machine-list');
        await list.locator('table tbody tr').first().waitFor();
        const tools = [
          list.getByRole('button', { name: texts.generic.savedFilters.button, exact: true }),
          list.getByRole('button', { name: texts.generic.export.button, exact: true }),
          list.getByRole('button', { name: lang === 'en' ? 'Columns' : '列', exact: true }),
          list.getByRole('link', { name: lang === 'en' ? 'Create' : '新建', exact: true }), // react-admin's create button is a link
        ];
        for (const [index, tool] of tools.entries()) {
          const name = `toolbar button ${index + 1}`;
          const box = await tool.boundingBox();
          expect(box, name).not.toBeNull();
          expect(box!.x + box!.width, `${name} in sight`).toBeLessThanOrEqual(1280);
        }
        for (const name of [texts.generic.savedFilters.button, texts.generic.export.button, lang === 'en' ? 'Columns' : '列']) {
          await list.getByRole('button', { name, exact: true }).click();
          await page.locator('.MuiPopover-paper:visible').first().waitFor();
          await expectNoPageScroll(page, `${name} menu`);
          await page.keyboard.press('Escape');
          await eventually(() => page.locator('.MuiPopover-paper:visible').count()).toBe(0);
        }
        // the machine table is wider than its room: it scrolls inside its wrapper, not the page
        const wrapper = await list.locator('.RaDataTable-tableWrapper').evaluate((element) => ({ scroll: element.scrollWidth, client: element.clientWidth }));
        expect(wrapper.scroll).toBeGreaterThan(wrapper.client);
        await expectNoPageScroll(page, 'fleet management');
        // ...with its sideways scrollbar in sight in an 800 px high window, the page not scrolled down
        const tableBox = () =>
          list.locator('.RaDataTable-tableWrapper').evaluate((element) => ({ bottom: element.getBoundingClientRect().bottom, width: element.clientWidth, window: innerHeight }));
        const withTree = await tableBox();
        expect(withTree.bottom, 'the table ends above the window bottom').toBeLessThanOrEqual(withTree.window);
        // hiding the fleet tree gives the list its width; the choice holds on the next visit
        await page.getByRole('button', { name: texts.installation.fleet.hideTree, exact: true }).click();
        await page.getByTestId('fleet-panel').waitFor({ state: 'detached' });
        expect((await tableBox()).width).toBeGreaterThan(withTree.width + 200);
        await page.reload();
        await list.locator('tbody tr').first().waitFor();
        expect(await page.getByTestId('fleet-panel').count()).toBe(0);
        await page.getByRole('button', { name: texts.installation.fleet.showTree, exact: true }).click();
        await page.getByTestId('fleet-panel').waitFor();
      },
      E2E_TEST_TIMEOUT,
    );
  }

  it(
    'a deep link opened signed out opens after sign-in',
    async () => {
      const page = await freshPage();
      await page.goto(`${server.url}/systemSettings/user?perPage=10`);
      await expectLoginPage(page);
      expect(new URL(page.url()).searchParams.get('next')).toBe('/systemSettings/user?perPage=10');
      await signIn(page);
      await eventually(() => `${new URL(page.url()).pathname}${new URL(page.url()).search}`).toBe('/systemSettings/user?perPage=10');
      await page.locator('table tbody tr').first().waitFor();

      // a foreign target is ignored: home
      if (context) await context.clearCookies();
      await page.evaluate(() => localStorage.removeItem('tokenValue'));
      await page.goto(`${server.url}/login?next=${encodeURIComponent('//evil.example/')}`);
      await signIn(page);
      await page.waitForURL('**/index/index');
    },
    E2E_TEST_TIMEOUT,
  );

  it(
    'exports the visible columns in the shown order and says so',
    async () => {
      const page = await signedIn('en');
      const texts = CATALOGUES.en;
      await page.goto(`${server.url}/systemSettings/user`);
      await page.locator('table tbody tr').first().waitFor();
      await page.getByRole('button', { name: 'Columns', exact: true }).click();
      await page.locator('.MuiPopover-paper').getByLabel(texts.resources.user.fields.email, { exact: true }).click();
      await page.keyboard.press('Escape');
      await eventually(() => page.locator('table thead th').allInnerTexts()).not.toContain(texts.resources.user.fields.email);
      const headers = (await page.locator('table thead th').allInnerTexts()).map((text) => text.trim()).filter((text) => text && text !== texts.generic.list.actions);

      await page.getByRole('button', { name: texts.generic.export.button }).click();
      await page.getByText(texts.generic.export.visibleColumns.replace('%{count}', String(headers.length))).waitFor();
      await page.keyboard.press('Escape');
      const { bytes } = await exportList(page, 'en', 'csv');
      const [header] = parseCsv(bytes);
      expect(header).toEqual(headers);
      expect(header).not.toContain(texts.resources.user.fields.email);
    },
    E2E_TEST_TIMEOUT,
  );

  it(
    "saved filters: the server's only, built-in machine filters in Chinese that apply the dashboard's conditions",
    async () => {
      const page = await signedIn('zh');
      const texts = CATALOGUES.zh;
      await page.goto(`${server.url}/installation/fleetManagement`);
      const list = page.getByTestId('machine-list');
      await list.locator('table tbody tr').first().waitFor();
      await list.getByRole('button', { name: texts.generic.savedFilters.button, exact: true }).click();
      const menu = page.getByRole('menu');
      for (const name of ['Down', 'Offline more than 1 week', 'Full', 'Not used in 24 hours'] as const) {
        await menu
          .getByRole('menuitem', { name: new RegExp(texts.generic.savedFilters.builtInNames[name]) })
          .first()
          .waitFor();
      }
      await menu.getByRole('menuitem', { name: new RegExp(`^${texts.generic.savedFilters.builtInNames.Full}`) }).click();
      await eventually(() => JSON.parse(new URL(page.url()).searchParams.get('filter') ?? '{}')).toEqual({ full: true });
      // react-admin's own "save current query" is gone from the filter menu
      await list.getByRole('button', { name: '添加筛选', exact: true }).click();
      await page.getByRole('menu').waitFor();
      expect(
        await page
          .getByRole('menu')
          .getByText(/保存当前查询/)
          .count(),
      ).toBe(0);
    },
    E2E_TEST_TIMEOUT,
  );

  it(
    'a used or unknown reset link says the link is no longer valid and offers a new one',
    async () => {
      const page = await freshPage('zh');
      await page.goto(`${server.url}/resetPassword?token=${'x'.repeat(43)}`);
      await page.getByText(CATALOGUES.zh.app.resetPassword.invalidLink).waitFor();
      expect(await page.locator('input[name="password"]').count()).toBe(0);
      await page.getByRole('link', { name: CATALOGUES.zh.app.resetPassword.requestNew }).click();
      await eventually(() => new URL(page.url()).pathname).toBe('/forgotPassword');
    },
    E2E_TEST_TIMEOUT,
  );
});
