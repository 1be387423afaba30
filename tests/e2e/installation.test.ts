// The installation screens end to end, in English and Chinese: the real server (seeding its demo
// fleet on the fresh database) and the built console in Chromium. From the fleet tree to a machine,
// through every tab, to a consumer session with item pictures; a voucher-code search lands on its
// session; fleet changes with their failures (docs/product-rules.md#error-catalogue); the quarantine list and its retry.
// Every test signs in on its own fresh browser context; they share only the read-only `target`.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { en } from '../../i18n/en';
import { zh } from '../../i18n/zh';
import { MACHINE_TABS } from '../../src/installation/machine/tabs';
import { api, browserAvailable, eventually, keepEvidence, launchBrowser, newContext, snap, startServer, type RunningServer } from './harness';

const PASSWORD = 'Fleet#2026';

interface FleetNode {
  id: number;
  name: string;
  parentId: number | null;
  totalMachineCount: number;
  machineCount: number;
  children: FleetNode[];
}

interface Target {
  fleet: FleetNode;
  machine: { id: number; termNo: string };
  session: { id: number; voucherCode: string };
}

/** Content that proves each tab rendered (test ids of src/installation/machine). */
const TAB_CONTENT: Record<string, string> = {
  Overview: 'overview',
  ProfileSetting: 'profile-form',
  RemoteControl: 'remote-control',
  StatusHistory: 'status-history',
  OnlineOfflineHistory: 'online-history',
  ServiceSessions: 'service-sessions',
  EventHistory: 'event-history',
  ConsumerSessions: 'consumer-sessions',
};

const walk = (nodes: FleetNode[]): FleetNode[] => nodes.flatMap((node) => [node, ...walk(node.children)]);

/** A second-level fleet holding machines, one of its machines, and a recent session with a voucher code and items. */
const findTarget = async (server: RunningServer, token: string): Promise<Target> => {
  const tree = await api<FleetNode[]>(server, 'GET', '/fleet/tree', { token });
  const candidates = walk(tree).filter((fleet) => fleet.parentId !== null && fleet.machineCount > 0 && tree.some((root) => root.id === fleet.parentId));
  for (const fleet of candidates) {
    const machines = await api<{ list: Array<{ id: number; termNo: string }> }>(server, 'POST', '/rvm/page', { token, body: { pageNum: 1, pageSize: 10, fleetId: [fleet.id] } });
    for (const machine of machines.list) {
      const sessions = await api<{ list: Array<{ id: number; voucherCode: string | null; itemCount: number; rejectedCount: number }> }>(
        server,
        'POST',
        '/rvmpage/consumerSessions',
        { token, body: { id: machine.id, pageNum: 1, pageSize: 100 } },
      );
      const session =
        sessions.list.find((candidate) => candidate.voucherCode && candidate.itemCount >= 2 && candidate.rejectedCount > 0) ??
        sessions.list.find((candidate) => candidate.voucherCode && candidate.itemCount > 0);
      if (session) return { fleet, machine, session: { id: session.id, voucherCode: session.voucherCode! } };
    }
  }
  throw new Error('the demo fleet has no second-level fleet with a machine and a recent voucher session');
};

/** The list's rows have come and its columns fit its width (no scrolling sideways inside the table). */
const expectColumnsInView = async (page: Page, testId: string, what: string) => {
  const list = page.getByTestId(testId);
  await list.locator('tbody tr').first().waitFor();
  const table = await list.locator('.MuiTableContainer-root').evaluate((element) => ({ scroll: element.scrollWidth, client: element.clientWidth }));
  expect(table.scroll, `${what}: ${table.scroll} px of columns in ${table.client} px`).toBeLessThanOrEqual(table.client);
  return list;
};

const signIn = async (page: Page, server: RunningServer) => {
  await page.goto(`${server.url}/login`);
  await page.locator('input[name="username"]').fill('admin');
  await page.locator('input[name="password"]').fill(PASSWORD);
  await page.locator('button[type="submit"]').click();
  await page.waitForURL('**/index/index');
};

const useLanguage = async (page: Page, lang: 'en' | 'zh') => {
  await page.evaluate((value) => localStorage.setItem('lang', value), lang);
};

/** Every item picture of the page has loaded (an <img> that failed has naturalWidth 0). */
const expectPicturesLoaded = async (page: Page) => {
  const pictures = page.getByTestId('item-picture');
  await pictures.first().waitFor();
  await eventually(() => pictures.evaluateAll((images) => (images as HTMLImageElement[]).every((image) => image.complete && image.naturalWidth > 0))).toBe(true);
  return pictures.count();
};

describe.skipIf(!browserAvailable())('installation screens end to end', () => {
  let server: RunningServer;
  let browser: Browser;
  let target: Target;
  let context: BrowserContext | undefined;
  const freshPage = async (viewport: { width: number; height: number }) => {
    context = await newContext(browser, { viewport });
    return context.newPage();
  };

  afterEach(async ({ task }) => {
    await keepEvidence(task, [context]);
    await context?.close();
    context = undefined;
  });

  beforeAll(async () => {
    server = await startServer();
    browser = await launchBrowser();
    // The seeded admin must change the password before anything else: done through the API.
    const first = await api<{ tokenInfo: { tokenValue: string } }>(server, 'POST', '/login/login', { body: { username: 'admin', password: 'Admin@123' } });
    await api(server, 'PUT', `/user/password?password=${encodeURIComponent(PASSWORD)}`, { token: first.tokenInfo.tokenValue, body: { oldPassword: 'Admin@123' } });
    const login = await api<{ tokenInfo: { tokenValue: string } }>(server, 'POST', '/login/login', { body: { username: 'admin', password: PASSWORD } });
    target = await findTarget(server, login.tokenInfo.tokenValue);
  });

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  for (const [lang, texts] of [
    ['en', en],
    ['zh', zh],
  ] as const) {
    it(`walks from the fleet tree to a machine, through every tab, to a session with pictures (${lang})`, async () => {
      const page = await freshPage({ width: 1440, height: 900 });
      await signIn(page, server);
      await useLanguage(page, lang);
      await page.goto(`${server.url}/installation/fleetManagement`);
      await page.getByRole('heading', { name: texts.menu.fleetManagement }).waitFor();

      // Fleet tree: choose the fleet; the list keeps only its machines (sub-fleets included).
      await page.getByTestId(`fleet-node-${target.fleet.id}`).getByRole('treeitem').first().click();
      await page.waitForURL((url) => decodeURIComponent(url.search).includes(`"fleetId":[${target.fleet.id}]`));
      const row = page.getByTestId('machine-list').locator('tr', { hasText: target.machine.termNo });
      await row.waitFor();
      // The unfiltered list may show the row already: click only once the filter has applied (every row is of the
      // fleet, a district without sub-fleets), or the click may land on a row the re-render replaces.
      await eventually(async () => {
        const shown = await page.getByTestId('machine-list').locator('tbody tr').allInnerTexts();
        return shown.length > 0 && shown.every((text) => text.includes(target.fleet.name));
      }).toBe(true);
      await expect(page.getByTestId('machine-list').locator('[data-status]').first().isVisible()).resolves.toBe(true);
      await snap(page, `installation-fleet-${lang}`);

      // A machine row opens its page, first tab Overview.
      await row.click();
      await page.waitForURL(`**/installation/rvmpage/${target.machine.id}/Overview`);
      await page.getByTestId('overview-identity').getByText(target.machine.termNo).waitFor();
      expect(await page.getByTestId('bin-level').count()).toBeGreaterThan(0);
      await snap(page, `installation-overview-${lang}`);

      // Every tab, in menu order, by keyboard-reachable links.
      const tabLabels = await page.getByRole('tab').allInnerTexts();
      expect(tabLabels).toEqual(MACHINE_TABS.map((tab) => texts.menu[tab as keyof typeof texts.menu]));
      for (const tab of MACHINE_TABS) {
        await page.getByTestId(`tab-${tab}`).click();
        await page.waitForURL(`**/installation/rvmpage/${target.machine.id}/${tab}`);
        await page.getByTestId(TAB_CONTENT[tab]).waitFor();
        if (tab === 'StatusHistory' || tab === 'OnlineOfflineHistory') {
          await eventually(() => page.getByTestId('timeline-chart').getAttribute('data-bands').then(Number)).toBeGreaterThan(0);
          await page.getByTestId(TAB_CONTENT[tab]).locator('tbody tr').first().waitFor();
        }
        if (tab === 'RemoteControl') await page.getByTestId('command-history').locator('[data-testid="stream-state"][data-state="open"]').waitFor();
        await snap(page, `installation-tab-${tab}-${lang}`);
      }

      // The session: filtered by its voucher code, opened from its row.
      const sessions = page.getByTestId('consumer-sessions');
      await page.getByLabel(texts.fleet.consumerSession.voucherCode).fill(target.session.voucherCode);
      await page.getByRole('button', { name: texts.installation.common.filter }).click();
      // The unfiltered list may show the same row already: click only once the filter has applied
      // (every row is the voucher's), or the click may land on a row the re-render replaces.
      await eventually(async () => {
        const shown = await sessions.locator('tbody tr').allInnerTexts();
        return shown.length > 0 && shown.every((text) => text.includes(target.session.voucherCode));
      }).toBe(true);
      // refunds in the license account's currency (the demo account pays Hong Kong dollars), not a bare number
      expect(await sessions.locator('tbody tr', { hasText: target.session.voucherCode }).innerText()).toContain('HK$');
      await sessions.locator('tbody tr', { hasText: target.session.voucherCode }).click();
      await page.waitForURL(`**/installation/rvmpage/${target.machine.id}/ConsumerSessions/${target.session.id}`);
      await page.getByTestId('session-voucher').getByText(target.session.voucherCode).waitFor();
      expect(await expectPicturesLoaded(page)).toBeGreaterThan(0);
      await snap(page, `installation-session-${lang}`);
    });

    it(`finds a consumer session by its voucher code and opens it (${lang})`, async () => {
      const page = await freshPage({ width: 1280, height: 800 });
      await signIn(page, server);
      await useLanguage(page, lang);
      await page.goto(`${server.url}/search/search`);
      await page.getByTestId('search-input').fill(target.session.voucherCode.toLowerCase());
      await page.keyboard.press('Enter');
      await page.waitForURL(`**/installation/rvmpage/${target.machine.id}/ConsumerSessions/${target.session.id}`);
      await page.getByTestId('session-voucher').getByText(target.session.voucherCode).waitFor();
      await expectPicturesLoaded(page);

      // Back on the search page the hits are listed (no second jump); a machine search lists typed hits.
      await page.goBack();
      await page.getByTestId('search-hit-session').first().waitFor();
      await page.getByTestId('search-input').fill(target.machine.termNo);
      await page.getByTestId('search-submit').click();
      await page.getByTestId('search-hit-machine').filter({ hasText: target.machine.termNo }).first().waitFor();
      await page.getByText(texts.fleet.search.hitTypes.machine).first().waitFor();
      await snap(page, `installation-search-${lang}`);
      await page.getByTestId('search-hit-machine').filter({ hasText: target.machine.termNo }).first().click();
      await page.waitForURL(`**/installation/rvmpage/${target.machine.id}/Overview`);
    });
  }

  it('checks the profile rules, manages fleets with their failures, shows an unknown machine and the quarantine', async () => {
    const page = await freshPage({ width: 1440, height: 900 });
    await signIn(page, server);
    await useLanguage(page, 'en');

    // ProfileSetting: docs/product-rules.md#validation-rules before saving, then a valid save.
    await page.goto(`${server.url}/installation/rvmpage/${target.machine.id}/ProfileSetting`);
    const form = page.getByTestId('profile-form');
    await form.waitFor();
    await form.locator('input[name="binFullHeight"]').fill('149');
    await form.locator('input[name="binEmptyHeight"]').fill('40');
    await form.locator('input[name="offTime"]').fill('00:00');
    await page.locator('button[type="submit"]').click();
    await page.getByText(en.fleet.validation.binEmptyAboveFull).waitFor();
    await page.getByText(en.validation.endAfterStart).waitFor();
    await snap(page, 'installation-profile-rules-en');
    await form.locator('input[name="binEmptyHeight"]').fill('140');
    await form.locator('input[name="binFullHeight"]').fill('30');
    await form.locator('input[name="offTime"]').fill('23:00');
    await form.locator('input[name="onTime"]').fill('06:00');
    await page.locator('button[type="submit"]').click();
    await page.getByText(en.installation.profile.saved).waitFor();

    // Unknown machine: the not-found state.
    await page.goto(`${server.url}/installation/rvmpage/987654/Overview`);
    await page.getByTestId('machine-not-found').getByText(en.errors['6001']).waitFor();

    // Fleets: create, rename, move below another fleet, delete; deleting a fleet with machines answers 6000.
    await page.goto(`${server.url}/installation/fleetManagement`);
    await page.getByTestId('fleet-create').click();
    await page.getByRole('dialog').locator('input[name="name"]').fill('E2E Depot');
    await page.getByRole('dialog').locator('button[type="submit"]').click();
    await page.getByText(en.installation.fleet.created).first().waitFor();
    const created = page.getByTestId('fleet-tree').getByRole('treeitem', { name: /E2E Depot/ });
    await created.waitFor();
    const createdId = Number((await created.locator('xpath=..').getAttribute('data-testid'))!.replace('fleet-node-', ''));
    await page.getByTestId(`fleet-actions-${createdId}`).click();
    await page.getByTestId('fleet-action-rename').click();
    await page.getByRole('dialog').locator('input[name="name"]').fill('E2E Depot North');
    await page.getByRole('dialog').locator('button[type="submit"]').click();
    await page
      .getByTestId('fleet-tree')
      .getByRole('treeitem', { name: /E2E Depot North/ })
      .waitFor();
    await page.getByTestId(`fleet-actions-${createdId}`).click();
    await page.getByTestId('fleet-action-move').click();
    await page.getByRole('dialog').getByRole('combobox').click();
    await page.getByRole('option', { name: target.fleet.name, exact: true }).click();
    await page.getByRole('dialog').locator('button[type="submit"]').click();
    await page.getByText(en.installation.fleet.moved).first().waitFor();
    await page.getByTestId(`fleet-actions-${createdId}`).click();
    await page.getByTestId('fleet-action-delete').click();
    await page.getByRole('dialog').locator('button[type="submit"]').click();
    await page.getByText(en.installation.fleet.deleted).first().waitFor();
    await eventually(() => page.getByTestId(`fleet-node-${createdId}`).count()).toBe(0);
    await page.getByTestId(`fleet-actions-${target.fleet.id}`).click();
    await page.getByTestId('fleet-action-delete').click();
    await page.getByRole('dialog').locator('button[type="submit"]').click();
    await page.getByText(en.errors['6000']).first().waitFor();
    await snap(page, 'installation-fleet-delete-refused-en');
    await page.keyboard.press('Escape');

    // Quarantine: the list and a retry run.
    await page.goto(`${server.url}/index/quarantineOverview`);
    await page.getByTestId('quarantine-list').locator('tbody tr').first().waitFor();
    await page.getByTestId('retry-all').click();
    await page
      .getByText(/Retry finished/)
      .first()
      .waitFor();
    await page.getByTestId('retry-state').waitFor();
    await snap(page, 'installation-quarantine-en');

    // At 1280 px every column is in view in both languages: the quarantine's raw content gives the room and no
    // cell wraps; the machine's consumer sessions show their period in one column.
    await page.setViewportSize({ width: 1280, height: 900 });
    for (const lang of ['en', 'zh'] as const) {
      await useLanguage(page, lang);
      await page.goto(`${server.url}/index/quarantineOverview`);
      await page.getByRole('heading', { level: 1, name: (lang === 'en' ? en : zh).menu.quarantineOverview }).waitFor();
      const quarantine = await expectColumnsInView(page, 'quarantine-list', `quarantine list (${lang})`);
      const rowHeights = await quarantine.locator('tbody tr').evaluateAll((rows) => rows.map((row) => row.getBoundingClientRect().height));
      expect(Math.max(...rowHeights), `quarantine rows (${lang}) on one line`).toBeLessThan(2 * Math.min(...rowHeights));

      await page.goto(`${server.url}/installation/rvmpage/${target.machine.id}/ConsumerSessions`);
      await page.getByRole('button', { name: (lang === 'en' ? en : zh).installation.range.last30 }).click();
      await expectColumnsInView(page, TAB_CONTENT.ConsumerSessions, `consumer sessions (${lang})`);
    }
  });
});
