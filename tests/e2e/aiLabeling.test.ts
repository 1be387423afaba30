// AI training end to end (docs/ai-training.md): simulated machines inside the real server upload item pictures
// (SIMULATE_PICTURE_RATE), Get samples collects them, and Image labeling is worked by keyboard in Chromium:
// a number key labels the focused picture and moves on, Space selects, a number labels the selection, Ctrl+Z
// undoes; a label with a space is refused with its message in English and Chinese. The screens pass the axe
// audit and fit 1280 px; with E2E_SHOTS_DIR set, screenshots go to its ai/.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { en } from '../../i18n/en';
import { zh } from '../../i18n/zh';
import { adminPastForcedChange, checkScreen as checkScreenAt } from './a11ySteps';
import { api, browserAvailable, FREE_PORT, keepEvidence, launchBrowser, newContext, startServer, type RunningServer } from './harness';
import { E2E_HOOK_TIMEOUT, E2E_TEST_TIMEOUT } from './timeouts';

const PASSWORD = 'Labels#2026';

type Lang = 'en' | 'zh';
interface LabelAnswer {
  labels: string[];
  counts: Array<{ label: string | null; samples: number }>;
}

describe.runIf(browserAvailable())('AI training: samples from simulated machines, labelled by keyboard', () => {
  let server: RunningServer;
  let browser: Browser;
  let context: BrowserContext | undefined;
  let token: string;

  const freshPage = async (lang: Lang): Promise<Page> => {
    context = await newContext(browser);
    const page = await context.newPage();
    await page.goto(`${server.url}/login`);
    await page.evaluate((value) => localStorage.setItem('lang', value), lang);
    await page.goto(`${server.url}/login`);
    await page.locator('input[name="username"]').fill('admin');
    await page.locator('input[name="password"]').fill(PASSWORD);
    await page.locator('button[type="submit"]').click();
    await page.waitForURL((url) => !url.pathname.startsWith('/login'));
    return page;
  };

  /** The screen as it is (checkScreen), its shot under ai/. */
  const checkScreen = (page: Page, name: string) => checkScreenAt(page, `ai/${name}`);

  const tileLabels = (page: Page) => page.getByTestId('sample-tile').evaluateAll((tiles) => tiles.slice(0, 4).map((tile) => tile.getAttribute('data-label')));
  const counts = async () => Object.fromEntries((await api<LabelAnswer>(server, 'GET', '/ai/label', { token })).counts.map((row) => [row.label ?? '', row.samples]));

  beforeAll(async () => {
    server = await startServer({ MQTT_PORT: FREE_PORT, MQTT_HOST: '127.0.0.1', SIMULATE: '2', SIMULATE_SPEED: '1500', SIMULATE_PICTURE_RATE: '1', TRAINER: '0' });
    browser = await launchBrowser();
    token = await adminPastForcedChange(server, PASSWORD);
    // the machines' pictures arrive over HTTP as their consumers come (a loop: expect.poll belongs to tests, not hooks)
    const deadline = Date.now() + 180_000;
    for (;;) {
      const preview = await api<Array<{ pictures: number }>>(server, 'POST', '/ai/sample/preview', { token, body: {} });
      const pictures = preview.reduce((sum, row) => sum + row.pictures, 0);
      // more than a page of 40: labelling the last unlabelled one of a page brings the next ones
      if (pictures >= 60) break;
      if (Date.now() > deadline) throw new Error(`only ${pictures} pictures arrived in 3 minutes:\n${server.output().slice(-3000)}`);
      // the polling interval of a condition (have enough pictures arrived?)
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
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

  it('collects the pictures and labels them by keyboard, with undo (en)', { timeout: E2E_TEST_TIMEOUT }, async () => {
    const page = await freshPage('en');
    await page.goto(`${server.url}/service/getSamples`);
    await page.getByTestId('collect').click();
    await page.locator('[data-testid="sample-job"][data-status="done"]').first().waitFor();
    await checkScreen(page, 'get-samples-en');

    await page.goto(`${server.url}/service/imageLabeling`);
    const grid = page.getByTestId('sample-grid');
    await page.locator('[data-testid="sample-tile"] img').first().waitFor();
    await grid.focus();
    // 2 = "can" on the first picture, focus moves on; then select the next two and give both 1 = "bottle"
    await page.keyboard.press('Digit2');
    await page.keyboard.press('Space');
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('Space');
    await page.keyboard.press('Digit1');
    await expect.poll(() => tileLabels(page)).toEqual(['can', 'bottle', 'bottle', '']);
    await expect.poll(counts).toMatchObject({ can: 1, bottle: 2 });
    // Ctrl+Z gives the selection its labels back
    await page.keyboard.press('Control+z');
    await expect.poll(() => tileLabels(page)).toEqual(['can', '', '', '']);
    await expect.poll(counts).toMatchObject({ can: 1 });
    expect((await counts()).bottle).toBeUndefined();
    await checkScreen(page, 'image-labeling-en');

    await page.getByTestId('new-label').fill('pet bottle');
    await page.getByTestId('new-label').press('Enter');
    await page.getByText(en.aiTraining.labelRule).waitFor();
  });

  it('refuses a label with a space in Chinese, and shows the training tasks screen (zh)', { timeout: E2E_TEST_TIMEOUT }, async () => {
    const page = await freshPage('zh');
    await page.goto(`${server.url}/service/imageLabeling`);
    await page.locator('[data-testid="sample-tile"] img').first().waitFor();
    await page.getByTestId('new-label').fill('pet bottle');
    await page.getByTestId('new-label').press('Enter');
    await page.getByText(zh.aiTraining.labelRule).waitFor();
    await checkScreen(page, 'image-labeling-zh');
    await page.goto(`${server.url}/service/trainingTask`);
    await page.getByTestId('new-model-name').waitFor();
    await checkScreen(page, 'training-tasks-zh');
  });

  it('brings the next unlabelled pictures once the last one of the page is labelled, with no reload (en)', { timeout: E2E_TEST_TIMEOUT }, async () => {
    const page = await freshPage('en');
    await page.goto(`${server.url}/service/imageLabeling`);
    const tiles = page.getByTestId('sample-tile');
    await tiles.first().waitFor();
    const tileIds = () => tiles.evaluateAll((elements) => elements.map((element) => element.getAttribute('data-id')));
    const first = await tileIds();
    expect(first.length).toBeGreaterThan(1);
    const unlabelledBefore = (await counts())[''];
    await page.getByTestId('sample-grid').focus();
    for (let index = 0; index < first.length; index++) await page.keyboard.press('Digit1');
    // a new page of pictures none of which was on the first, and focus back on its first picture
    await expect.poll(async () => (await tileIds()).some((id) => first.includes(id)), { timeout: 30_000 }).toBe(false);
    expect((await tileIds()).length).toBeGreaterThan(0);
    await expect.poll(async () => page.getByTestId('sample-grid').getAttribute('data-focus')).toBe((await tileIds())[0]);
    expect((await counts())['']).toBe(unlabelledBefore - first.length);
  });
});
