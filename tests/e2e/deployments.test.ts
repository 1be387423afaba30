// Packages and deployments end to end (docs/deployments.md): the real server with its embedded MQTT
// gateway and simulated machines inside it (SIMULATE, as `npm start -- --simulate`; no deployment
// failures), the built console in Chromium. English: upload a package through the form (progress and
// cancel shown, a 50 MB file too, the upload going on after its connection was reset), roll it out in three waves to the simulated machines and watch the
// statuses move on the deployment page without a reload, then see the new version on Software upgrade
// (whose "Start upgrade" opens the form with the package chosen) and in the machine's version history.
// Chinese: 8200 for a configuration package sent again and 8100 for a package without its file, in the
// user's language at the form; pause, resume and a confirmed cancel. Every screen passes the axe audit
// and fits 1280 and 1440 px in both languages; with E2E_SHOTS_DIR set, screenshots at both widths go to its deployments/.
import { createHash } from 'node:crypto';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { en } from '../../i18n/en';
import { zh } from '../../i18n/zh';
import { adminPastForcedChange, checkScreen as checkScreenAt, watchRequests } from './a11ySteps';
import { api, browserAvailable, eventually, keepEvidence, launchBrowser, markDocument, newContext, type RunningServer } from './harness';
import { connectedMachines, startWithSimulatedFleet } from './simulatedFleet';
import { E2E_HOOK_TIMEOUT, E2E_TEST_TIMEOUT } from './timeouts';

const PASSWORD = 'Deploy#2026';
const SIMULATED = 8;
const WIDTHS = [1280, 1440] as const;
/** Waits that span machine behaviour (downloads, applying, the rollout job every 10 s), not just a render. */
const slowly = <T>(read: () => T | Promise<T>) => expect.poll(read, { timeout: 180_000, interval: 250 });

type Lang = 'en' | 'zh';
interface MachineRow {
  id: number;
  termNo: string;
  termType: string;
  sts: string;
  softwareVersion: string | null;
}

/** Whether `text` is `template` with its placeholders filled in (the fixed parts, in order). */
const filledIn = (template: string, text: string | null) => {
  let from = 0;
  for (const part of template.split(/%\{\w+\}/).filter(Boolean)) {
    const at = (text ?? '').indexOf(part, from);
    if (at < 0) return false;
    from = at + part.length;
  }
  return true;
};
/** The plural form of a `one |||| many` text. */
const form = (text: string, count: number) => text.split(' |||| ')[count === 1 ? 0 : 1] ?? text;

describe.skipIf(!browserAvailable())('packages and deployments end to end', () => {
  let server: RunningServer;
  let browser: Browser;
  let token: string;
  let context: BrowserContext | undefined;
  /** The simulated machines (connected, with a secret), by id. */
  let simulated: MachineRow[] = [];
  const scratch = join(tmpdir(), `rvm-deploy-e2e-${process.pid}`);

  const uploadFile = async (name: string, bytes: Buffer) => {
    const response = await fetch(`${server.url}/test-api/file?resource=deploymentPackage&field=file&name=${encodeURIComponent(name)}`, {
      method: 'POST',
      headers: { 'rvm-token': token, 'content-type': 'application/octet-stream' },
      body: new Uint8Array(bytes),
    });
    const envelope = (await response.json()) as { resCode: string; resData: { id: number } };
    expect(envelope.resCode).toBe('00000');
    return envelope.resData.id;
  };
  const createPackage = async (body: Record<string, unknown>) => api<{ id: number }>(server, 'POST', '/package', { token, body });
  const deploymentOf = (id: number) => api<{ status: string; counts: Record<string, number>; total: number }>(server, 'GET', `/deployment/${id}`, { token });

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

  /** The screen at both widths (checkScreen). `busy`: a request stays open on purpose (an upload), so only the screen's heading is waited for. */
  const checkScreen = (page: Page, name: string, { busy = false } = {}) =>
    checkScreenAt(page, `deployments/${name}`, { widths: WIDTHS, ...(busy ? { ready: () => page.getByRole('heading', { level: 1 }).first().waitFor() } : {}) });

  /** Adds machines to the form's machine picker by their RVM numbers. */
  const pickMachines = async (page: Page, label: string, machines: readonly MachineRow[]) => {
    const input = page.getByRole('combobox', { name: label, exact: true });
    for (const machine of machines) {
      await input.fill(machine.termNo);
      await page.getByRole('option', { name: machine.termNo, exact: true }).click();
    }
    await page.keyboard.press('Escape');
  };

  const pickPackage = async (page: Page, name: string) => {
    await page.getByTestId('package-picker').getByRole('combobox').fill(name);
    await page
      .getByRole('option', { name: new RegExp(name) })
      .first()
      .click();
  };

  beforeAll(async () => {
    mkdirSync(scratch, { recursive: true });
    // Machines' clocks 20 times real time: a software install (20-90 simulated seconds) takes 1-4.5 s, so the three
    // waves wait mostly on the rollout job's 10 s ticks (at 2 they waited up to 45 s per wave: 122 s of the file's 476 s on a busy machine)
    server = await startWithSimulatedFleet(SIMULATED, 20);
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
    rmSync(scratch, { recursive: true, force: true });
  });

  it('uploads a package with progress, rolls it out in waves live, and shows the new version (en)', { timeout: E2E_TEST_TIMEOUT }, async () => {
    const texts = en.deployments;
    // The two models with the most simulated machines; a machine of another model is chosen too, to be left out.
    const byModel = new Map<string, MachineRow[]>();
    for (const machine of simulated) byModel.set(machine.termType, [...(byModel.get(machine.termType) ?? []), machine]);
    const models = [...byModel.keys()].sort((a, b) => byModel.get(b)!.length - byModel.get(a)!.length).slice(0, 2);
    const targeted = simulated.filter((machine) => models.includes(machine.termType));
    const otherModel = simulated.filter((machine) => !models.includes(machine.termType));
    const page = await freshPage('en');

    // Packages tab: the generic list under Setup's two tabs.
    await page.goto(`${server.url}/service/setup`);
    await page.getByTestId('setup-tab-packages').waitFor();
    await checkScreen(page, 'packages-en');

    // Upload through the form, slowly (the network throttled), so its progress shows; a 50 MB file first, cancelled.
    await page.getByRole('link', { name: 'Create' }).click();
    await page.locator('input[name="name"]').fill('core 9.0.0');
    await page.getByRole('combobox', { name: new RegExp(`^${en.resources.deploymentPackage.fields.resourceType}`) }).click();
    await page.getByRole('option', { name: en.resources.deploymentPackage.enums.resourceType.software }).click();
    await page.locator('input[name="version"]').fill('9.0.0');
    await page.locator('input[name="adaptedModels"]').fill(models.join(', '));
    const cdp = await context!.newCDPSession(page);
    await cdp.send('Network.enable');
    await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 20, downloadThroughput: -1, uploadThroughput: 256 * 1024 });
    const fileInput = page.getByTestId('file-input-file');
    const big = join(scratch, 'big.bin');
    writeFileSync(big, Buffer.alloc(50 * 1024 * 1024, 7));
    await fileInput.locator('input[type="file"]').setInputFiles(big);
    const progress = fileInput.getByRole('status');
    await progress.getByText(en.generic.file.uploading.replace('%{name}', 'big.bin').replace('%{size}', '50.0 MB')).waitFor();
    await expect(progress.getByRole('progressbar').isVisible()).resolves.toBe(true);
    await checkScreen(page, 'package-upload-progress-en', { busy: true });
    await fileInput.getByRole('button', { name: en.generic.file.cancel }).click();
    await progress.waitFor({ state: 'detached' });
    await expect(fileInput.getByText('big.bin').count()).resolves.toBe(0); // no file kept

    const small = join(scratch, 'core-9.0.0.zip');
    const smallBytes = Buffer.concat([Buffer.from('PK\x03\x04'), Buffer.alloc(600 * 1024, 1)]);
    writeFileSync(small, smallBytes);
    // The upload is resumable (tus, docs/files.md "Resumable uploads"): its first PATCH loses its connection (reset
    // by the test), and the console asks the server how much it kept (HEAD) and sends from there. (That a cut PATCH
    // keeps the bytes that arrived is tests/server/resumableUpload.test.ts's.)
    const tusRequests: Array<{ method: string; offset: number }> = [];
    const answeredOffsets: number[] = [];
    page.on('request', (request) => {
      if (request.url().includes('/test-api/file/upload')) tusRequests.push({ method: request.method(), offset: Number(request.headers()['upload-offset'] ?? -1) });
    });
    page.on('response', (response) => {
      if (response.request().method() === 'HEAD' && response.url().includes('/test-api/file/upload/')) answeredOffsets.push(Number(response.headers()['upload-offset']));
    });
    // (the DevTools protocol's own interception, for the upload's address only: Playwright's page.route would take every request)
    let broken = false;
    cdp.on('Fetch.requestPaused', (paused) => {
      const first = !broken && paused.request.method === 'PATCH';
      if (first) broken = true;
      void (
        first ? cdp.send('Fetch.failRequest', { requestId: paused.requestId, errorReason: 'ConnectionReset' }) : cdp.send('Fetch.continueRequest', { requestId: paused.requestId })
      ).catch(() => undefined);
    });
    await cdp.send('Fetch.enable', { patterns: [{ urlPattern: '*/test-api/file/upload/*', requestStage: 'Request' }] });
    await fileInput.locator('input[type="file"]').setInputFiles(small);
    await eventually(async () => broken).toBe(true);
    await cdp.send('Fetch.disable');
    // its progress moves (several readings) before the file is stored
    const percents = new Set<string>();
    await eventually(async () => {
      const caption = await progress
        .locator('.MuiTypography-caption')
        .textContent({ timeout: 200 })
        .catch(() => null);
      if (caption) percents.add(caption);
      return (await progress.count()) === 0 && (await fileInput.getByText('core-9.0.0.zip').count()) === 1;
    }).toBe(true);
    expect(percents.size).toBeGreaterThan(1);
    // one upload: created once, its PATCH cut, the offset asked, the rest sent from the offset answered
    expect(tusRequests.filter((request) => request.method === 'POST')).toHaveLength(1);
    const afterBreak = tusRequests.slice(tusRequests.findIndex((request) => request.method === 'PATCH') + 1).filter((request) => request.method !== 'DELETE');
    expect(afterBreak.map((request) => request.method)).toEqual(['HEAD', 'PATCH']);
    expect(afterBreak[1].offset).toBe(answeredOffsets[0]);
    await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: -1 });
    await page.getByRole('button', { name: 'Save' }).click();
    await page.waitForURL(`${server.url}/service/setup`);
    await page.locator('table tbody tr', { hasText: 'core 9.0.0' }).getByText(en.resources.deploymentPackage.enums.uploadStatus.uploaded).waitFor();
    // the stored file is the one chosen, byte for byte, despite the break
    const packages = await api<{ list: Array<{ name: string; file: number }> }>(server, 'POST', '/package/page', {
      token,
      body: { pageNum: 1, pageSize: 10, nameLike: 'core 9.0.0' },
    });
    const [stored] = await api<Array<{ sha256: string; size: number }>>(server, 'GET', `/file/info?ids=${packages.list[0].file}`, { token });
    expect(stored).toMatchObject({ size: smallBytes.length, sha256: createHash('sha256').update(smallBytes).digest('hex') });

    // Deployments tab: empty, then the form.
    await page.getByTestId('setup-tab-deployments').click();
    await page.getByTestId('deployments-empty').waitFor();
    await checkScreen(page, 'deployments-empty-en');
    await page.getByTestId('deployments-empty').getByText(texts.list.new).click();
    await pickPackage(page, 'core 9.0.0');
    await page.getByTestId('chosen-package').getByText(models.join(', ')).waitFor();
    await pickMachines(page, texts.form.machines, [...targeted, ...otherModel]);
    // the preview: the targeted machines, the other model's left out with why, in words
    const preview = page.getByTestId('preview-result');
    await eventually(() => preview.getAttribute('data-total')).toBe(String(targeted.length));
    if (otherModel.length) {
      await expect(preview.locator('[data-reason="wrongModel"]').first().textContent()).resolves.toBe(
        form(texts.preview.reasons.wrongModel, otherModel.length).replace('%{smart_count}', String(otherModel.length)),
      );
      await preview.getByRole('cell', { name: texts.exclusions.wrongModel }).first().waitFor();
    }
    // three waves: 1 machine, then 2, then the rest
    await page.getByRole('radio', { name: texts.form.waveSizes }).check();
    await page.getByRole('textbox', { name: texts.form.waveSizesText }).fill('1, 2');
    await eventually(() => page.getByTestId('preview-waves').textContent()).toContain(`1, 2, ${targeted.length - 3}`);
    await checkScreen(page, 'deployment-form-en');
    await page.getByTestId('create-deployment').click();
    await page.waitForURL(/\/service\/setup\/deployments\/\d+$/);
    const deploymentId = Number(new URL(page.url()).pathname.split('/').pop());

    // The deployment page follows by itself: every status and wave, until completed, without a reload.
    await page.getByTestId('deployment-page').waitFor();
    await markDocument(page);
    const tile = (status: string) => page.getByTestId('status-counts').locator(`[data-status="${status}"]`);
    const seen = new Set<string>();
    await slowly(async () => {
      for (const status of ['toBeIssued', 'issued', 'inProcess']) if (Number(await tile(status).getAttribute('data-count')) > 0) seen.add(status);
      return tile('applied').getAttribute('data-count');
    }).toBe(String(targeted.length));
    expect(seen.has('toBeIssued')).toBe(true); // waves 2 and 3 waited while wave 1 ran
    await eventually(() => page.getByTestId('deployment-page').getAttribute('data-status')).toBe('completed');
    await expect(page.getByTestId('waves-table').locator('tr[data-started="true"]').count()).resolves.toBe(3);
    await expect(tile('applied').textContent()).resolves.toContain(texts.targetStatuses.applied);
    expect(await page.evaluate(() => (window as { __e2eMark?: boolean }).__e2eMark)).toBe(true);
    expect((await deploymentOf(deploymentId)).status).toBe('completed');
    await checkScreen(page, 'deployment-completed-en');

    // The list shows it completed with its progress.
    await page.getByRole('link', { name: texts.backToList }).first().click();
    const listed = page.locator('table tbody tr').first();
    await listed.locator('[data-status="completed"]').waitFor();
    await expect(listed.getByTestId('deployment-progress').getAttribute('data-applied')).resolves.toBe(String(targeted.length));
    await checkScreen(page, 'deployments-en');

    // Software upgrade: the new version counted per model; "Start upgrade" opens the form with the package chosen.
    await page.goto(`${server.url}/service/softwareUpgrade`);
    const card = page.getByTestId(`model-${models[0]}`);
    await eventually(() => card.locator('tr[data-version="9.0.0"]').getAttribute('data-machines')).toBe(String(byModel.get(models[0])!.length));
    await card.getByText(en.deployments.upgrade.newestChip, { exact: true }).waitFor();
    // the machines behind the newest package, listed on demand, each linking to its machine page
    const behind = Number(await card.getByTestId('behind-count').getAttribute('data-count'));
    expect(behind).toBe(
      Number(
        await card
          .locator('tbody tr')
          .evaluateAll((rows) => rows.filter((row) => row.getAttribute('data-version') !== '9.0.0').reduce((sum, row) => sum + Number(row.getAttribute('data-machines')), 0)),
      ),
    );
    await card.getByTestId('behind-count').click();
    const behindRows = card.getByTestId('behind-machines').locator('tbody tr');
    await eventually(() => behindRows.count()).toBe(Math.min(behind, 10));
    await expect(behindRows.first().getByRole('link').getAttribute('href')).resolves.toMatch(/^\/installation\/rvmpage\/\d+$/);
    await checkScreen(page, 'software-upgrade-en');
    await card.getByTestId('start-upgrade').click();
    await page.getByTestId('chosen-package').waitFor();
    await expect(page.getByTestId('package-picker').getByRole('combobox').inputValue()).resolves.toBe('core 9.0.0 · 9.0.0');

    // The machine's version history on its Overview tab.
    await page.goto(`${server.url}/installation/rvmpage/${targeted[0].id}/Overview`);
    const history = page.getByTestId('version-history-table').locator('tbody tr').first();
    await history.getByText('9.0.0', { exact: true }).waitFor();
    await expect(history.textContent()).resolves.toContain(en.deployments.versionHistory.sources.deployment);
    await history.getByRole('link', { name: `#${deploymentId}` }).waitFor();
    await checkScreen(page, 'machine-version-history-en');

    await page.goto(`${server.url}/service/ai`);
    await page.getByTestId('ai-page').locator('[data-testid^="ai-model-"]').first().waitFor();
    await checkScreen(page, 'ai-en');
  });

  it('answers 8200 and 8100 at the form in Chinese; pause, resume and a confirmed cancel', { timeout: E2E_TEST_TIMEOUT }, async () => {
    const texts = zh.deployments;
    const machine = simulated[0];
    // A configuration package already applied by the machine: sending it again is refused (8200).
    const file = await uploadFile('settings.txt', Buffer.from('volume=3\n'));
    const settings = await createPackage({ name: 'settings 1', resourceType: 'configuration', version: 'c1', adaptedModels: machine.termType, file });
    const first = await api<{ id: number }>(server, 'POST', '/deployment', { token, body: { packageId: settings.id, targets: { machineIds: [machine.id] }, waves: [100] } });
    await slowly(async () => (await deploymentOf(first.id)).status).toBe('completed');

    const page = await freshPage('zh');
    await page.goto(`${server.url}/service/setup/deployments/create?packageId=${settings.id}`);
    await page.getByTestId('chosen-package').waitFor();
    await pickMachines(page, texts.form.machines, [machine]);
    const preview = page.getByTestId('preview-result');
    await eventually(() => preview.getAttribute('data-total')).toBe('0');
    await preview.getByRole('cell', { name: texts.exclusions.alreadyDelivered }).waitFor();
    await checkScreen(page, 'deployment-form-8200-zh');
    await page.getByTestId('create-deployment').click();
    await expect.poll(() => page.getByTestId('deployment-form-error').textContent()).toContain(zh.errors['8200']);

    // A package without its file: 8100 in the preview and at the package input.
    const bare = await createPackage({ name: 'core draft', resourceType: 'software', version: '9.1.0', adaptedModels: machine.termType });
    await page.goto(`${server.url}/service/setup/deployments/create?packageId=${bare.id}&models=${machine.termType}`);
    await expect.poll(() => page.getByTestId('preview-error').textContent()).toContain(zh.errors['8100']);
    await page.getByTestId('create-deployment').click();
    await expect.poll(() => page.getByTestId('package-picker').locator('.MuiFormHelperText-root').textContent()).toContain(zh.errors['8100']);

    // Pause, resume and cancel a rollout that waits (its machine is offline: not simulated).
    const offline = (await api<{ list: MachineRow[] }>(server, 'POST', '/rvm/page', { token, body: { pageNum: 1, pageSize: 100 } })).list.find(
      (row) => !simulated.some((known) => known.id === row.id) && row.termType === machine.termType && row.sts === 'active',
    )!;
    // created through the form, all at once, with a business gate over one minute of sessions
    await page.goto(`${server.url}/service/setup/deployments/create?packageId=${settings.id}`);
    await page.getByTestId('chosen-package').waitFor();
    await pickMachines(page, texts.form.machines, [offline]);
    await page.getByRole('button', { name: texts.form.allAtOnce }).click();
    await page.getByRole('switch', { name: texts.form.gateEnabled }).check();
    await page.getByRole('spinbutton', { name: texts.form.windowMinutes }).fill('1');
    await eventually(() => page.getByTestId('preview-result').getAttribute('data-total')).toBe('1');
    await page.getByTestId('create-deployment').click();
    await page.waitForURL(/\/service\/setup\/deployments\/\d+$/);
    const status = () => page.getByTestId('deployment-page').getAttribute('data-status');
    await eventually(status).toBe('running');
    // the gate's first check (the job runs every 10 s): no machine updated yet, so not enough data
    await slowly(() => page.getByTestId('gate-panel').getAttribute('data-verdict')).toBe('notEnoughData');
    await page.getByTestId('gate-panel').locator('tr[data-side="others"]').getByText(texts.gate.others).waitFor();
    await checkScreen(page, 'deployment-gate-zh');
    await page.getByTestId('control-pause').click();
    await eventually(status).toBe('paused');
    expect(filledIn(texts.pause.operator, await page.getByTestId('pause-reason').textContent())).toBe(true);
    await checkScreen(page, 'deployment-paused-zh');
    await page.getByTestId('control-resume').click();
    await eventually(status).toBe('running');
    await page.getByTestId('control-cancel').click();
    const dialog = page.getByRole('dialog');
    await dialog.getByText(texts.controls.cancelContent).waitFor();
    await checkScreen(page, 'deployment-cancel-dialog-zh');
    await dialog.getByRole('button', { name: texts.controls.cancelConfirm }).click();
    await eventually(status).toBe('cancelled');
    await eventually(() => page.getByTestId('status-counts').locator('[data-status="voided"]').getAttribute('data-count')).toBe('1');
    await expect(page.getByTestId('status-counts').locator('[data-status="voided"]').textContent()).resolves.toContain(texts.targetStatuses.voided);

    // An AI package applied by the machine: the AI screen counts it.
    const model = await createPackage({
      name: 'vision 2',
      resourceType: 'ai',
      version: 'v2',
      adaptedModels: machine.termType,
      file: await uploadFile('vision.bin', Buffer.alloc(4096, 3)),
    });
    const ai = await api<{ id: number }>(server, 'POST', '/deployment', { token, body: { packageId: model.id, targets: { machineIds: [machine.id] }, waves: [100] } });
    await slowly(async () => (await deploymentOf(ai.id)).status).toBe('completed');
    await page.goto(`${server.url}/service/ai`);
    await eventually(() => page.getByTestId(`ai-model-${machine.termType}`).locator('tr[data-package="vision 2"]').getAttribute('data-machines')).toBe('1');
    // which machine runs it, linked to the deployment that installed it
    await page.getByTestId(`ai-model-${machine.termType}`).locator('tr[data-package="vision 2"]').getByTestId('ai-running-count').click();
    await page
      .getByTestId('ai-machines')
      .getByRole('link', { name: `#${ai.id}` })
      .waitFor();

    // The other screens in Chinese.
    for (const [path, name, ready] of [
      ['/service/setup', 'packages-zh', 'setup-tab-packages'],
      ['/service/setup/create', 'package-create-zh', 'file-input-file'],
      ['/service/setup/deployments', 'deployments-zh', 'deployment-list'],
      [`/service/setup/deployments/${first.id}`, 'deployment-completed-zh', 'deployment-page'],
      ['/service/softwareUpgrade', 'software-upgrade-zh', 'software-upgrade'],
      ['/service/ai', 'ai-zh', 'ai-page'],
      [`/installation/rvmpage/${machine.id}/Overview`, 'machine-version-history-zh', 'version-history-table'],
    ] as const) {
      await page.goto(`${server.url}${path}`);
      await page.getByTestId(ready).waitFor();
      await checkScreen(page, name);
    }
  });
});
