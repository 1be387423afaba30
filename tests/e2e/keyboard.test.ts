// Issue 12, keyboard: an operator without a mouse signs in, finds a machine through the sidebar, the
// fleet tree (arrow keys, ARIA tree pattern) and the machine list, moves between the machine page's
// tabs with the arrow keys, changes a profile setting and saves it with Enter; the change is read
// back through the API. Only page.keyboard acts on the page (no clicks); the focus is visible at
// each step. Also: Escape closes a (non-forced) dialog and gives the focus back to its button.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext } from 'playwright-core';
import { en } from '../../i18n/en';
import { api, browserAvailable, eventually, keepEvidence, launchBrowser, newContext, startServer, type RunningServer } from './harness';
import { adminPastForcedChange, describeFocus, focusIsOn, focusIsVisible, pressUntilFocused, settle, watchRequests } from './a11ySteps';

const ADMIN_PASSWORD = 'Keys#2026';

interface FleetNode {
  id: number;
  name: string;
  totalMachineCount: number;
  children: FleetNode[];
}

describe.skipIf(!browserAvailable())('keyboard only', () => {
  let server: RunningServer;
  let browser: Browser;
  let context: BrowserContext | undefined;
  let token: string;
  let fleet: FleetNode;

  beforeAll(async () => {
    server = await startServer();
    browser = await launchBrowser();
    token = await adminPastForcedChange(server, ADMIN_PASSWORD);
    // a top-level fleet with machines (the list of a fleet includes its sub-fleets' machines)
    const tree = await api<FleetNode[]>(server, 'GET', '/fleet/tree', { token });
    fleet = tree.find((node) => node.totalMachineCount > 0)!;
    expect(fleet).toBeDefined();
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

  it('signs in, opens a machine and changes its profile with the keyboard alone', async () => {
    context = await newContext(browser, { viewport: { width: 1440, height: 900 } });
    const page = await context.newPage();
    watchRequests(page);
    const expectVisibleFocus = async (where: string) => {
      expect(await focusIsVisible(page), `no visible focus on ${where}: ${await describeFocus(page)}`).toBe(true);
    };

    // Sign in: the user name field has the focus, Tab to the password, Enter submits.
    await page.goto(`${server.url}/login`);
    await page.locator('input[name="username"]:focus').waitFor();
    await page.keyboard.type('admin');
    await page.keyboard.press('Tab');
    expect(await focusIsOn(page, 'input[name="password"]')).toBe(true);
    await page.keyboard.type(ADMIN_PASSWORD);
    await page.keyboard.press('Enter');
    await page.waitForURL('**/index/index');
    await page.getByTestId('sidebar').waitFor();

    // Sidebar: open the Installation area, then Fleet management.
    await pressUntilFocused(page, '[data-menu-key="installation"]');
    await expectVisibleFocus('the Installation menu entry');
    await page.keyboard.press('Enter');
    await page.locator('[data-menu-key="installation"][aria-expanded="true"]').waitFor();
    await pressUntilFocused(page, '[data-menu-key="fleetManagement"]');
    await page.keyboard.press('Enter');
    await page.waitForURL('**/installation/fleetManagement');

    // Fleet tree: Tab enters it once (on "All fleets"), arrows move, Enter selects.
    await page.getByTestId(`fleet-node-${fleet.id}`).waitFor();
    await pressUntilFocused(page, '[role="treeitem"]');
    expect(await focusIsOn(page, '[data-testid="fleet-node-all"]')).toBe(true);
    await expectVisibleFocus('the fleet tree');
    await pressUntilFocused(page, `[data-testid="fleet-node-${fleet.id}"] [role="treeitem"]`, { key: 'ArrowDown', limit: 50 });
    await page.keyboard.press('Enter');
    await page.waitForURL((url) => decodeURIComponent(url.search).includes(`"fleetId":[${fleet.id}]`));
    await eventually(() => page.getByTestId(`fleet-node-${fleet.id}`).getByRole('treeitem').getAttribute('aria-selected')).toBe('true');

    // Machine list (the fleet's machines loaded): Tab to the first machine row, Enter opens its page.
    const firstRow = page.getByTestId('machine-list').locator('tbody tr').first();
    await firstRow.waitFor();
    await settle(page);
    await pressUntilFocused(page, '[data-testid="machine-list"] tbody tr');
    await expectVisibleFocus('a machine row');
    await page.keyboard.press('Enter');
    await page.waitForURL(/\/installation\/rvmpage\/\d+\/Overview$/);
    const machineId = Number(/rvmpage\/(\d+)\//.exec(page.url())![1]);
    await page.locator('[data-testid="machine-page"][data-tab="Overview"] [data-testid="overview"]').waitFor();

    // Tabs: the selected tab is the tab list's one stop; ArrowRight moves to the next, Enter opens it.
    await pressUntilFocused(page, '[role="tab"][aria-selected="true"]');
    await page.keyboard.press('ArrowRight');
    expect(await focusIsOn(page, '[data-testid="tab-ProfileSetting"]')).toBe(true);
    await expectVisibleFocus('the ProfileSetting tab');
    await page.keyboard.press('Enter');
    await page.waitForURL(`**/installation/rvmpage/${machineId}/ProfileSetting`);

    // Profile: replace the address, Enter saves (implicit submission of the form).
    const address = `12 Keyboard Lane ${Date.now() % 100_000}`;
    await page.getByTestId('profile-form').locator('input[name="address"]').waitFor();
    await pressUntilFocused(page, 'input[name="address"]');
    await expectVisibleFocus('the address field');
    await page.keyboard.press('ControlOrMeta+a');
    await page.keyboard.type(address);
    await page.keyboard.press('Enter');
    await page.getByText(en.installation.profile.saved).first().waitFor();
    await eventually(async () => (await api<{ address: string | null }>(server, 'GET', `/rvmpage/profile?id=${machineId}`, { token })).address).toBe(address);

    // A remote command's dialog: opened with Enter, closed with Escape, the focus back on its button.
    await pressUntilFocused(page, '[role="tab"][aria-selected="true"]', { key: 'Shift+Tab' });
    await pressUntilFocused(page, '[data-testid="tab-RemoteControl"]', { key: 'ArrowRight', limit: 10 });
    await page.keyboard.press('Enter');
    await page.waitForURL(`**/installation/rvmpage/${machineId}/RemoteControl`);
    await page.getByTestId('action-restart').waitFor();
    await pressUntilFocused(page, '[data-testid="action-restart"]');
    await page.keyboard.press('Enter');
    await page.getByRole('dialog').waitFor();
    await page.keyboard.press('Escape');
    await eventually(() => page.getByRole('dialog').count()).toBe(0);
    await eventually(() => focusIsOn(page, '[data-testid="action-restart"]')).toBe(true);
  });
});
