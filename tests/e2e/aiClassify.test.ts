// Image classification end to end (docs/ai-training.md#image-classification): simulated machines inside the
// real server upload item pictures, they are collected and labelled (through the API: Image labeling has its
// own test), the server's trainer trains a model, and in Chromium the model is run over the pool, its
// confusion matrix shows the labelled samples, and a picture's label is corrected by keyboard right there (the
// server keeps it, the matrix follows). English and Chinese, the axe audit, 1280 and 1440 px; with E2E_SHOTS_DIR set,
// screenshots go to its ai/.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { en } from '../../i18n/en';
import { zh } from '../../i18n/zh';
import { adminPastForcedChange, settle, checkScreen as checkScreenAt } from './a11ySteps';
import { api, browserAvailable, FREE_PORT, keepEvidence, launchBrowser, newContext, startServer, type RunningServer } from './harness';
import { E2E_HOOK_TIMEOUT, E2E_TEST_TIMEOUT } from './timeouts';

const PASSWORD = 'Classify#2026';
/** The item types the machines report and the labels given to them here. */
const LABEL_OF: Record<string, string> = { plasticBottle: 'bottle', can: 'can', glass: 'glass', plasticCup: 'cup', flat: 'flat', others: 'others' };

type Lang = 'en' | 'zh';
interface Confusion {
  labels: string[];
  matrix: number[][];
  total: number;
  predicted: number;
}

/** Waits between polls of a condition on the server (a collection run, a training task). */
const pause = () => new Promise((resolve) => setTimeout(resolve, 500));

describe.runIf(browserAvailable())('AI training: a trained model reviewed on Image classification', () => {
  let server: RunningServer;
  let browser: Browser;
  let context: BrowserContext | undefined;
  let token: string;
  let packageId: number;

  const freshPage = async (lang: Lang, width = 1280): Promise<Page> => {
    context = await newContext(browser);
    const page = await context.newPage();
    await page.setViewportSize({ width, height: 900 });
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

  const confusion = () => api<Confusion>(server, 'GET', `/ai/classify/confusion?packageId=${packageId}`, { token });
  const matrixSum = (answer: Confusion) => answer.matrix.flat().reduce((sum, count) => sum + count, 0);

  beforeAll(async () => {
    server = await startServer({ MQTT_PORT: FREE_PORT, MQTT_HOST: '127.0.0.1', SIMULATE: '2', SIMULATE_SPEED: '1500', SIMULATE_PICTURE_RATE: '1' });
    browser = await launchBrowser();
    token = await adminPastForcedChange(server, PASSWORD);
    // a loop, not expect.poll (that belongs to tests): enough pictures of two kinds at least
    const deadline = Date.now() + 240_000;
    for (;;) {
      const preview = await api<Array<{ itemType: string; pictures: number }>>(server, 'POST', '/ai/sample/preview', { token, body: {} });
      if (preview.reduce((sum, row) => sum + row.pictures, 0) >= 40 && preview.filter((row) => row.pictures >= 3).length >= 2) break;
      if (Date.now() > deadline) throw new Error(`too few pictures in 4 minutes:\n${server.output().slice(-3000)}`);
      await pause();
    }
    await api(server, 'POST', '/ai/sample/collect', { token, body: {} });
    while ((await api<Array<{ status: string }>>(server, 'GET', '/ai/sample/jobs', { token })).some((job) => job.status === 'running')) await pause();
    // every sample labelled as what the machine took it for
    const samples = await api<{ list: Array<{ id: number; itemType: string }> }>(server, 'GET', '/ai/sample/page?pageSize=500', { token });
    const byLabel = new Map<string, number[]>();
    for (const sample of samples.list) byLabel.set(LABEL_OF[sample.itemType] ?? 'others', [...(byLabel.get(LABEL_OF[sample.itemType] ?? 'others') ?? []), sample.id]);
    for (const [label, ids] of byLabel) await api(server, 'PUT', '/ai/sample/label', { token, body: { ids, label } });
    // the server's own trainer (npm start runs one) trains it
    const task = await api<{ id: number }>(server, 'POST', '/ai/training-task', {
      token,
      body: { basicModel: 'none', newModelName: 'e2e_classifier', taskType: 'classification', epochs: 2 },
    });
    for (;;) {
      const row = await api<{ status: string; packageId: number | null; failure: string | null }>(server, 'GET', `/ai/training-task/${task.id}`, { token });
      if (row.status === 'executionSucceeded' && row.packageId) {
        packageId = row.packageId;
        break;
      }
      if (row.status === 'executionFailed' || Date.now() > deadline + 240_000) throw new Error(`training ended ${row.status}: ${row.failure}\n${server.output().slice(-3000)}`);
      await pause();
    }
  }, E2E_HOOK_TIMEOUT * 2);

  afterEach(async ({ task }) => {
    await keepEvidence(task, [context]);
    await context?.close();
    context = undefined;
  });

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('runs the model over the pool, shows its confusion matrix, and corrects a label by keyboard (en)', { timeout: E2E_TEST_TIMEOUT }, async () => {
    const page = await freshPage('en');
    await page.goto(`${server.url}/service/imageClassify`);
    await page.getByTestId('classify-run').click();
    // the matrix counts every labelled sample once the model has seen the pool
    const matrix = page.getByTestId('classify-matrix');
    await matrix.waitFor();
    const before = await confusion();
    expect(before.predicted).toBeGreaterThanOrEqual(40);
    expect(matrixSum(before)).toBe(before.total);
    const shownSum = await page.getByTestId('matrix-cell').evaluateAll((cells) => cells.reduce((sum, cell) => sum + Number(cell.textContent?.trim() || 0), 0));
    expect(shownSum).toBe(before.total);

    // the first picture: number key 1 gives it the first label (bottle), the server keeps it
    await page.locator('[data-testid="prediction-tile"] img').first().waitFor();
    const first = page.getByTestId('prediction-tile').first();
    const id = Number(await first.getAttribute('data-id'));
    const grid = page.getByTestId('prediction-grid');
    await grid.focus();
    const target = (await first.getAttribute('data-label')) === 'bottle' ? { key: 'Digit2', label: 'can' } : { key: 'Digit1', label: 'bottle' };
    await page.keyboard.press(target.key);
    await expect.poll(() => first.getAttribute('data-label')).toBe(target.label);
    const labelOf = async () =>
      (await api<{ list: Array<{ id: number; label: string }> }>(server, 'GET', `/ai/classify/page?packageId=${packageId}&pageSize=500`, { token })).list.find(
        (row) => row.id === id,
      )?.label;
    await expect.poll(labelOf).toBe(target.label);
    // its count moved to the row of its new label: the shown matrix follows
    const row = page.locator(`[data-testid="matrix-row"][data-label="${target.label}"]`);
    const predicted = await first.getAttribute('data-predicted');
    const after = await confusion();
    await expect
      .poll(() => row.locator(`[data-testid="matrix-cell"][data-predicted="${predicted}"]`).textContent())
      .toBe(String(after.matrix[after.labels.indexOf(target.label)][after.labels.indexOf(predicted!)]));
    // Ctrl+Z gives it its label back
    await page.keyboard.press('Control+z');
    await expect.poll(labelOf).not.toBe(target.label);
    await checkScreen(page, 'image-classify-en');

    // the wrong ones only: every tile shown has a label other than the model's
    await page.getByTestId('shown-wrong').click();
    await settle(page);
    const pairs = await page.getByTestId('prediction-tile').evaluateAll((tiles) => tiles.map((tile) => [tile.getAttribute('data-label'), tile.getAttribute('data-predicted')]));
    for (const [label, model] of pairs) expect(label).not.toBe(model);
    await page.getByText(en.aiTraining.classify.wrong).first().waitFor();
  });

  for (const [lang, width] of [
    ['en', 1440],
    ['zh', 1280],
    ['zh', 1440],
  ] as const)
    it(`fits ${width} px in ${lang === 'en' ? 'English' : 'Chinese'}`, { timeout: E2E_TEST_TIMEOUT }, async () => {
      const page = await freshPage(lang, width);
      await page.goto(`${server.url}/service/imageClassify`);
      await page.getByTestId('classify-matrix').waitFor();
      await page.locator('[data-testid="prediction-tile"] img').first().waitFor();
      await page.getByText((lang === 'en' ? en : zh).aiTraining.classify.matrix, { exact: true }).waitFor();
      await checkScreen(page, `image-classify-${lang}`);
    });
});
