// Service personnel and bans end to end (docs/service-personnel.md): the real server with simulated machines
// inside it (as `npm start -- --simulate`), the built console in Chromium. English: add a service person, see the
// personnel settings, make the personnel package; ban a consumer through the form, make the ban list package,
// deploy it to the simulated machines, and see a machine's consumer sessions list the banned consumer refused.
// Chinese: every screen again. Each screen passes the axe audit and fits 1280 px; with E2E_SHOTS_DIR set, shots go to its personnel/.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { en } from '../../i18n/en';
import { zh } from '../../i18n/zh';
import { adminPastForcedChange, watchRequests, checkScreen as checkScreenAt } from './a11ySteps';
import { api, browserAvailable, eventually, keepEvidence, launchBrowser, newContext, type RunningServer } from './harness';
import { connectedMachines, startWithSimulatedFleet } from './simulatedFleet';
import { E2E_HOOK_TIMEOUT, E2E_TEST_TIMEOUT } from './timeouts';

const PASSWORD = 'Personnel#2026';
const SIMULATED = 3;
const BANNED = 'E2E-BANNED-7';
/** Waits on machine behaviour (a rollout, consumers arriving), not just a render. */
const slowly = <T>(read: () => T | Promise<T>) => expect.poll(read, { timeout: 240_000, interval: 500 });

type Lang = 'en' | 'zh';
interface MachineRow {
  id: number;
  termNo: string;
}
interface SessionRow {
  userId: string | null;
  refusal: string | null;
}

/** Types a date and time into the form's picker (its sections, from the year on) in the browser's local time. */
const typeDateTime = async (page: Page, label: string, date: Date) => {
  const pad = (value: number) => String(value).padStart(2, '0');
  await page
    .getByRole('group', { name: new RegExp(`^${label}`) })
    .locator('[role="spinbutton"]')
    .first()
    .click();
  await page.keyboard.type(`${date.getFullYear()}${pad(date.getMonth() + 1)}${pad(date.getDate())}${pad(date.getHours())}${pad(date.getMinutes())}`);
};

describe.skipIf(!browserAvailable())('service personnel and bans end to end', () => {
  let server: RunningServer;
  let browser: Browser;
  let token: string;
  let context: BrowserContext | undefined;
  let simulated: MachineRow[] = [];

  const freshPage = async (lang: Lang) => {
    context = await newContext(browser, { viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    watchRequests(page);
    await page.goto(`${server.url}/login`);
    await page.evaluate((value) => localStorage.setItem('lang', value), lang);
    await page.goto(`${server.url}/login`);
    await page.locator('input[name="username"]').fill('admin');
    await page.locator('input[name="password"]').fill(PASSWORD);
    await page.locator('button[type="submit"]').click();
    await page.waitForURL('**/index/index');
    return page;
  };

  /** No serious axe violation, no page-wide horizontal scroll at 1280 px, a full-page shot. */
  /** The screen as it is (checkScreen), its shot under personnel/. */
  const checkScreen = (page: Page, name: string) => checkScreenAt(page, `personnel/${name}`);

  /** The simulated machines' consumer sessions of the banned consumer, through the API. */
  const refusedOn = async () => {
    for (const machine of simulated) {
      const answer = await api<{ list: SessionRow[] }>(server, 'POST', '/rvmpage/consumerSessions', { token, body: { id: machine.id, userId: BANNED } });
      if (answer.list.some((session) => session.refusal === 'banned')) return machine;
    }
    return undefined;
  };

  beforeAll(async () => {
    // consumers arrive often enough that a banned one comes back within a minute or two
    server = await startWithSimulatedFleet(SIMULATED, 2400);
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

  it('bans a consumer, deploys the ban list, and the machine refuses the consumer (en)', { timeout: E2E_TEST_TIMEOUT }, async () => {
    const page = await freshPage('en');
    const texts = en.personnel;

    // a service person through the form; the list under the personnel tabs
    await page.goto(`${server.url}/service/personnalSetting/create`);
    await page.locator('input[name="loginName"]').fill('tech.chan');
    await page.locator('input[name="realName"]').fill('Chan Tai Man');
    await page.locator('input[name="company"]').fill('CleanCo');
    await page.locator('input[name="password"]').fill('Keypad-2026');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.waitForURL(/\/service\/personnalSetting$/);
    await page.getByRole('cell', { name: 'tech.chan' }).waitFor();
    await checkScreen(page, 'personnel-en');
    await page.getByTestId('personnel-tab-levels').click();
    await page.waitForURL(/\/service\/personnalSetting\/levels$/);
    await checkScreen(page, 'levels-en');

    // the personnel package: its contents show the person with a hash, never a password
    await page.goto(`${server.url}/service/createServicePersonnelPackage`);
    await page.getByRole('cell', { name: 'tech.chan' }).waitFor();
    await expect(page.getByTestId('personnel-package').textContent()).resolves.not.toContain('Keypad-2026');
    await checkScreen(page, 'personnel-package-en');
    await page.getByTestId('package-create').click();
    await page.getByTestId('package-made').waitFor();
    await checkScreen(page, 'personnel-package-made-en');

    // the ban, through the form
    await page.goto(`${server.url}/service/banManagement/create`);
    await page.locator('input[name="consumerId"]').fill(BANNED);
    await page.locator('input[name="reason"]').fill('Fed stones as bottles');
    await typeDateTime(page, en.resources.consumerBan.fields.startTime, new Date(Date.now() - 3_600_000));
    await typeDateTime(page, en.resources.consumerBan.fields.endTime, new Date(Date.now() + 30 * 86_400_000));
    await page.getByRole('button', { name: 'Save' }).click();
    await page.waitForURL(/\/service\/banManagement$/);
    await page.getByRole('cell', { name: BANNED }).waitFor();
    await checkScreen(page, 'bans-en');

    // the ban list package opens the new-deployment form with it; all at once to every machine of its models
    await page.getByTestId('ban-package').click();
    await page.getByRole('dialog').getByRole('button', { name: texts.bans.makePackage }).click();
    await page.waitForURL(/\/service\/setup\/deployments\/create\?packageId=\d+/);
    await page.getByTestId('chosen-package').waitFor();
    await page.getByRole('button', { name: en.deployments.form.allAtOnce }).click();
    await eventually(async () => Number(await page.getByTestId('preview-result').getAttribute('data-total'))).toBeGreaterThanOrEqual(SIMULATED);
    await page.getByTestId('create-deployment').click();
    await page.waitForURL(/\/service\/setup\/deployments\/\d+$/);

    // the personnel deployment screen shows the ban list package applied on the simulated machines
    await page.goto(`${server.url}/service/personnalDeploy`);
    const banRow = page.locator('[data-testid="personnel-package-row"][data-type="banList"]');
    await slowly(async () => {
      await page.reload();
      await banRow.getByTestId('deployment-progress').waitFor();
      return Number(await banRow.getByTestId('deployment-progress').getAttribute('data-applied'));
    }).toBeGreaterThanOrEqual(SIMULATED);
    await checkScreen(page, 'personnel-deploy-en');

    // a simulated machine turns the banned consumer away; its consumer sessions say so
    const machine = await slowly(refusedOn).toBeTruthy().then(refusedOn);
    await page.goto(`${server.url}/installation/rvmpage/${machine!.id}/ConsumerSessions`);
    await page.getByLabel(en.fleet.consumerSession.userId).fill(BANNED);
    await page.getByRole('button', { name: en.installation.common.filter }).click();
    const refused = page.getByTestId('consumer-sessions').locator('tbody tr').filter({ hasText: BANNED });
    await refused.first().getByText(texts.refusals.banned).waitFor();
    await checkScreen(page, 'consumer-sessions-refused-en');
  });

  it('every screen in Chinese', { timeout: E2E_TEST_TIMEOUT }, async () => {
    const page = await freshPage('zh');
    await page.goto(`${server.url}/service/personnalSetting`);
    await page.getByRole('tab', { name: zh.personnel.tabs.personnel, exact: true }).waitFor();
    await page.getByRole('cell', { name: 'tech.chan' }).waitFor();
    await checkScreen(page, 'personnel-zh');
    await page.goto(`${server.url}/service/personnalSetting/levels`);
    await page.getByRole('tab', { name: zh.personnel.tabs.levels, exact: true }).waitFor();
    await checkScreen(page, 'levels-zh');
    await page.goto(`${server.url}/service/createServicePersonnelPackage`);
    await page.getByText(zh.personnel.package.intro).waitFor();
    await page.getByRole('cell', { name: 'tech.chan' }).waitFor();
    await checkScreen(page, 'personnel-package-zh');
    await page.goto(`${server.url}/service/banManagement`);
    await page.getByRole('cell', { name: BANNED }).waitFor();
    await checkScreen(page, 'bans-zh');
    await page.goto(`${server.url}/service/personnalDeploy`);
    await page.getByText(zh.personnel.deploy.intro).waitFor();
    await page.locator('[data-testid="personnel-package-row"]').first().waitFor();
    await checkScreen(page, 'personnel-deploy-zh');
    const machine = (await refusedOn())!;
    await page.goto(`${server.url}/installation/rvmpage/${machine.id}/ConsumerSessions`);
    await page.getByLabel(zh.fleet.consumerSession.userId).fill(BANNED);
    await page.getByRole('button', { name: zh.installation.common.filter }).click();
    await page.getByTestId('consumer-sessions').getByText(zh.personnel.refusals.banned).first().waitFor();
    await checkScreen(page, 'consumer-sessions-refused-zh');
  });
});
