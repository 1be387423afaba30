// Machine configuration end to end (docs/machine-configuration.md): the real server with simulated machines
// inside it (SIMULATE, as `npm start -- --simulate`), the built console in Chromium. English: a refund value
// entered and then edited in Service › Refund, the two versions compared, the newer made into a package,
// deployed to the fleet of the simulated machines from the new-deployment form, and the machines' next consumer
// sessions carrying the new refund. Chinese: the screens again, and a repeated item refused with its name.
// Every screen passes the axe audit and fits 1280 px; with E2E_SHOTS_DIR set, screenshots go to its configuration/.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { en } from '../../i18n/en';
import { zh } from '../../i18n/zh';
import { adminPastForcedChange, checkScreen as checkScreenAt } from './a11ySteps';
import { RA } from './consoleSteps';
import { api, browserAvailable, eventually, keepEvidence, launchBrowser, newContext, type RunningServer } from './harness';
import { connectedMachines, startWithSimulatedFleet } from './simulatedFleet';
import { E2E_HOOK_TIMEOUT, E2E_TEST_TIMEOUT } from './timeouts';

const PASSWORD = 'Config#2026';
const SIMULATED = 4;
const NEW_REFUND = 0.55;
/** Waits that span machine behaviour (download, apply, the rollout job every 10 s, the next consumers). */
const slowly = <T>(read: () => T | Promise<T>) => expect.poll(read, { timeout: 180_000, interval: 500 });

type Lang = 'en' | 'zh';
interface MachineRow {
  id: number;
  termNo: string;
  termType: string;
  fleetId: number;
}
interface SessionRow {
  id: number;
  startTime: string;
}
interface SessionItem {
  itemType: string;
  refund: number;
  rejectReason: number | null;
}

describe.skipIf(!browserAvailable())('machine configuration end to end', () => {
  let server: RunningServer;
  let browser: Browser;
  let token: string;
  let context: BrowserContext | undefined;
  let simulated: MachineRow[] = [];

  const freshPage = async (lang: Lang) => {
    context = await newContext(browser, { viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    await page.goto(`${server.url}/login`);
    await page.evaluate((value) => localStorage.setItem('lang', value), lang);
    await page.goto(`${server.url}/login`);
    await page.locator('input[name="username"]').fill('admin');
    await page.locator('input[name="password"]').fill(PASSWORD);
    await page.locator('button[type="submit"]').click();
    await page.waitForURL('**/index/index');
    return page;
  };

  /** No serious axe violation, no horizontal scroll at 1280 px, a screenshot. */
  /** The screen as it is (checkScreen), its shot under configuration/. */
  const checkScreen = (page: Page, name: string) => checkScreenAt(page, `configuration/${name}`);

  /** Picks an option of the create or edit form's select (the list's filter bar has a select of the same label). */
  const chooseOption = async (page: Page, label: string, option: string) => {
    const combobox = page.locator('form:has(button[type="submit"])').getByRole('combobox', { name: new RegExp(`^${label}`) });
    await eventually(async () => {
      if ((await page.getByRole('option', { name: option, exact: true }).count()) === 0) await combobox.click();
      await page.getByRole('option', { name: option, exact: true }).click({ timeout: 2000 });
      return combobox.textContent();
    }).toContain(option);
  };

  beforeAll(async () => {
    // a simulated day in about a minute: the machines' next consumers come within seconds of the new refund
    server = await startWithSimulatedFleet(SIMULATED, 1500);
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
  });

  it('edits a refund value, packages the version, deploys it to a fleet, and the next sessions carry it (en)', { timeout: E2E_TEST_TIMEOUT }, async () => {
    const texts = en.machineConfiguration;
    const fields = en.resources.refund.fields;
    const page = await freshPage('en');
    await page.goto(`${server.url}/service/refund`);
    await page.getByTestId('configuration-versions').waitFor();
    await checkScreen(page, 'refund-empty-en');

    // a value, then an edit of it: two versions
    await page.getByRole('link', { name: RA.en.create, exact: true }).first().click();
    await page.waitForURL('**/service/refund/create');
    await page.getByRole('button', { name: RA.en.save }).waitFor();
    await chooseOption(page, fields.itemType, en.resources.refund.enums.itemType.plasticBottle);
    await page.locator('input[name="value"]').fill('0.45');
    await page.locator('input[name="currency"]').fill('HKD');
    await checkScreen(page, 'refund-create-en');
    await page.getByRole('button', { name: RA.en.save }).click();
    await page.waitForURL(`${server.url}/service/refund`);
    await page.locator('table tbody tr', { hasText: en.resources.refund.enums.itemType.plasticBottle }).click();
    await page.locator('input[name="value"]').fill(String(NEW_REFUND));
    await page.getByRole('button', { name: RA.en.save }).click();
    await page.waitForURL(`${server.url}/service/refund`);
    await page.locator('table tbody tr', { hasText: String(NEW_REFUND) }).waitFor();
    await checkScreen(page, 'refund-list-en');

    // the versions: compare 1 → 2, then make 2 a package
    await page.getByTestId('configuration-versions').click();
    const dialog = page.getByTestId('configuration-versions-dialog');
    await dialog.getByTestId('configuration-version-2').waitFor();
    await dialog.getByTestId('configuration-compare').click();
    const diff = dialog.getByTestId('configuration-diff');
    await diff.getByText(`${fields.value} 0.45 → ${NEW_REFUND}`).waitFor();
    await expect(diff.getByText(texts.diff.changed).count()).resolves.toBe(1);
    await checkScreen(page, 'refund-versions-diff-en');
    await dialog.getByTestId('configuration-make-package-2').click();
    const models = [...new Set(simulated.map((machine) => machine.termType))];
    await dialog.getByTestId('configuration-package-adaptedModels').fill(models.join(', '));
    await checkScreen(page, 'refund-package-form-en');
    await dialog.getByTestId('configuration-package-create').click();
    const made = dialog.getByTestId('configuration-package-made');
    await made.waitFor();
    await checkScreen(page, 'refund-package-made-en');
    await made.getByRole('link', { name: texts.package.deploy }).click();

    // the new-deployment form with the package chosen: the fleet of a simulated machine
    await page.waitForURL(/\/service\/setup\/deployments\/create/);
    await page.getByTestId('chosen-package').waitFor();
    const target = simulated[0];
    const fleet = await api<{ name: string }>(server, 'GET', `/fleet/${target.fleetId}`, { token });
    await page.getByRole('button', { name: en.generic.tree.expandAll }).click();
    await page.getByRole('checkbox', { name: fleet.name, exact: true }).check();
    // all at once: the fleet's machines that are not simulated never connect, and a first wave of them would wait
    await page.getByRole('button', { name: en.deployments.form.allAtOnce }).click();
    await eventually(async () => Number(await page.getByTestId('preview-result').getAttribute('data-total'))).toBeGreaterThan(0);
    await page.getByTestId('create-deployment').click();
    await page.waitForURL(/\/service\/setup\/deployments\/\d+$/);
    const deploymentId = Number(new URL(page.url()).pathname.split('/').pop());

    // the simulated machines of that fleet apply it, and their next consumers get the new refund
    const inFleet = simulated.filter((machine) => machine.fleetId === target.fleetId);
    const appliedAt = new Map<number, string>();
    await slowly(async () => {
      const targets = await api<{ list: Array<{ rvmId: number; status: string; finishedTime: string | null }> }>(server, 'POST', `/deployment/${deploymentId}/targets`, {
        token,
        body: { pageNum: 1, pageSize: 500 },
      });
      for (const row of targets.list) if (row.status === 'applied' && row.finishedTime) appliedAt.set(row.rvmId, row.finishedTime);
      return inFleet.every((machine) => appliedAt.has(machine.id));
    }).toBe(true);
    const refundsAfter = async () => {
      const refunds: number[] = [];
      for (const machine of inFleet) {
        const sessions = await api<{ list: SessionRow[] }>(server, 'POST', '/rvmpage/consumerSessions', { token, body: { id: machine.id, pageNum: 1, pageSize: 50 } });
        for (const session of sessions.list.filter((row) => row.startTime > appliedAt.get(machine.id)!)) {
          const detail = await api<{ items: SessionItem[] }>(server, 'GET', `/rvmpage/consumerSessionDetails?id=${session.id}`, { token });
          refunds.push(...detail.items.filter((item) => item.itemType === 'plasticBottle' && item.rejectReason === null).map((item) => item.refund));
        }
      }
      return refunds;
    };
    await slowly(async () => (await refundsAfter()).length).toBeGreaterThan(0);
    expect(new Set(await refundsAfter())).toEqual(new Set([NEW_REFUND]));

    // the other kinds: the same list with its versions, and their create forms
    for (const screen of ['assortment', 'sorting', 'mainConfig']) {
      await page.goto(`${server.url}/service/${screen}`);
      await page.getByTestId('configuration-versions').waitFor();
      await checkScreen(page, `${screen}-en`);
      await page.getByRole('link', { name: RA.en.create, exact: true }).first().click();
      await page.getByRole('button', { name: RA.en.save }).waitFor();
      await checkScreen(page, `${screen}-create-en`);
    }
  });

  it('shows the screens in Chinese and refuses a repeated item by its name (zh)', { timeout: E2E_TEST_TIMEOUT }, async () => {
    const page = await freshPage('zh');
    await page.goto(`${server.url}/service/refund`);
    await page.locator('table tbody tr').first().waitFor();
    await checkScreen(page, 'refund-list-zh');
    await page.getByRole('link', { name: RA.zh.create, exact: true }).first().click();
    await page.waitForURL('**/service/refund/create');
    await page.getByRole('button', { name: RA.zh.save }).waitFor();
    await chooseOption(page, zh.resources.refund.fields.itemType, zh.resources.refund.enums.itemType.plasticBottle);
    await page.locator('input[name="value"]').fill('0.5');
    await page.locator('input[name="currency"]').fill('HKD');
    await page.getByRole('button', { name: RA.zh.save }).click();
    await page.getByText('物品类型“塑料瓶”已存在').first().waitFor();
    await checkScreen(page, 'refund-repeated-zh');
    await page.goto(`${server.url}/service/refund`);
    await page.getByTestId('configuration-versions').click();
    const dialog = page.getByTestId('configuration-versions-dialog');
    await dialog.getByTestId('configuration-compare').click();
    await dialog.getByTestId('configuration-diff').waitFor();
    await checkScreen(page, 'refund-versions-diff-zh');
    for (const screen of ['assortment', 'sorting', 'mainConfig']) {
      await page.goto(`${server.url}/service/${screen}`);
      await page.getByTestId('configuration-versions').waitFor();
      await checkScreen(page, `${screen}-zh`);
    }
  });
});
