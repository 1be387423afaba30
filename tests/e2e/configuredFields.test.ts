// A configured type with a multiReference field and an image field with its own size and type limits, done as an
// administrator would in Chromium: declared in System settings › Resource types, then used in the type's generic
// form (fleets picked as chips, the image's limit shown and enforced before sending, the upload), listed, filtered,
// and deleted with its record's file (docs/files.md "Files and their records").
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import type { Browser, BrowserContext } from 'playwright-core';
import { api, browserAvailable, eventually, keepEvidence, launchBrowser, newContext, startServer, type RunningServer } from './harness';
import { CATALOGUES, RA, bulkDelete, choose, row, signIn, useLanguage } from './consoleSteps';
import { adminPastForcedChange } from './a11ySteps';

const ADMIN_PASSWORD = 'Fleet#2026';
const en = CATALOGUES.en;
const rt = en.resourceTypes;

describe.skipIf(!browserAvailable())('configured multiReference and image limits, end to end', () => {
  let server: RunningServer;
  let browser: Browser;
  let token: string;
  const contexts: BrowserContext[] = [];
  const scratch = mkdtempSync(join(tmpdir(), 'rvm-e2e-configured-'));

  beforeAll(async () => {
    server = await startServer({ DEMO_FLEET: '0' });
    browser = await launchBrowser();
    token = await adminPastForcedChange(server, ADMIN_PASSWORD);
    for (const name of ['North', 'South']) await api(server, 'POST', '/fleet', { token, body: { name } });
  });

  afterEach(async ({ task }) => {
    await keepEvidence(task, contexts);
    for (const open of contexts.splice(0)) await open.close();
  });

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    rmSync(scratch, { recursive: true, force: true });
  });

  it('declares the fields in the type builder, then picks fleets, uploads within the limit and deletes the record with its file', async () => {
    const context = await newContext(browser);
    contexts.push(context);
    const page = await context.newPage();
    await signIn(page, server, 'admin', ADMIN_PASSWORD);
    await page.waitForURL('**/index/index');
    await useLanguage(page, server, 'en');

    await page.locator('[data-menu-key="systemSettings"]').click();
    // a click that lands while the sidebar re-renders (menu and permissions arriving on a busy machine) can be
    // lost, as a user's would: clicked again until the screen is there (seen once in CI: still on the dashboard)
    await eventually(async () => {
      if (!(await page.getByRole('link', { name: rt.buttons.create }).isVisible())) await page.locator('[data-menu-key="resourceTypes"]').click();
      return page.getByRole('link', { name: rt.buttons.create }).isVisible();
    }).toBe(true);
    await page.getByRole('link', { name: rt.buttons.create }).click();
    const form = page.locator('form');
    const field = (index: number) => form.locator(`[data-field-index="${index}"]`);
    await form.locator('input[name="name"]').fill('depot');
    await form.locator('input[name="labelEn"]').fill('Depots');
    await form.locator('input[name="labelZh"]').fill('仓库');
    await form.locator('input[name="fields.0.name"]').fill('title');
    await form.locator('input[name="fields.0.labelEn"]').fill('Title');
    await form.locator('input[name="fields.0.labelZh"]').fill('标题');
    // several fleets, a deleted fleet leaving the list
    await form.getByRole('button', { name: rt.buttons.addField }).click();
    await form.locator('input[name="fields.1.name"]').fill('fleets');
    await choose(page, field(1), rt.editor.field.type, rt.editor.kinds.multiReference);
    await form.locator('input[name="fields.1.labelEn"]').fill('Fleets');
    await form.locator('input[name="fields.1.labelZh"]').fill('机群');
    await choose(page, field(1), rt.editor.field.reference, 'Fleet (fleet)');
    await choose(page, field(1), rt.editor.field.onDelete, rt.editor.onDelete.removeFromList);
    // a PNG of at most 0.01 MB
    await form.getByRole('button', { name: rt.buttons.addField }).click();
    await form.locator('input[name="fields.2.name"]').fill('photo');
    await choose(page, field(2), rt.editor.field.type, rt.editor.kinds.image);
    await form.locator('input[name="fields.2.labelEn"]').fill('Photo');
    await form.locator('input[name="fields.2.labelZh"]').fill('照片');
    // the editor's own check first: over the kind's maximum, a type that is no image
    await form.locator('input[name="fields.2.maxMegabytes"]').fill('6');
    await form.locator('input[name="fields.2.accept"]').fill('application/pdf');
    await page.getByRole('button', { name: rt.buttons.save }).click();
    await field(2).getByText(rt.validation.maxMegabytes.replace('%{max}', '5')).waitFor();
    await field(2).getByText(rt.validation.imageTypesOnly.replace('%{type}', 'application/pdf')).waitFor();
    await form.locator('input[name="fields.2.maxMegabytes"]').fill('0.01');
    await form.locator('input[name="fields.2.accept"]').fill('image/png');
    for (const label of ['title (Title)', 'fleets (Fleets)', 'photo (Photo)']) await form.getByRole('checkbox', { name: label }).check();
    await form.getByRole('button', { name: rt.buttons.addFilter }).click();
    const filterRow = form.locator('.RaSimpleFormIterator-line').filter({ has: page.locator('input[name="filters.0.field"]') });
    await choose(page, filterRow, rt.editor.filterField, 'fleets (Fleets)');
    await choose(page, filterRow, rt.editor.operator, rt.editor.operators.eq);
    await page.getByRole('button', { name: rt.buttons.save }).click();
    await page.waitForURL(/\/systemSettings\/resourceTypes(\?.*)?$/);
    await row(page, 'depot').waitFor();
    const [saved] = (await api<Array<{ name: string; fields: Record<string, Record<string, unknown>> }>>(server, 'GET', '/resource-types', { token })).filter(
      (type) => type.name === 'depot',
    );
    expect(saved.fields.fleets).toMatchObject({ type: 'multiReference', reference: 'fleet', onDelete: 'setNull' });
    expect(saved.fields.photo).toMatchObject({ type: 'image', maxBytes: 10486, accept: ['image/png'] });

    // the type's own form
    await page.locator('[data-menu-key="custom_depot"]').click();
    await page.waitForURL('**/systemSettings/depot');
    await page.getByRole('link', { name: RA.en.create }).first().click();
    await page.locator('input[name="title"]').fill('Depot A');
    const fleets = page.getByRole('combobox', { name: 'Fleets' });
    for (const name of ['North', 'South']) {
      await fleets.click();
      await fleets.fill(name.slice(0, 3));
      await page.getByRole('option', { name, exact: true }).click();
    }
    const upload = page.getByTestId('file-input-photo');
    const big = join(scratch, 'big.png');
    // random pixels do not compress: about 43 KB, well over 0.01 MB
    writeFileSync(
      big,
      await sharp(randomBytes(120 * 120 * 3), { raw: { width: 120, height: 120, channels: 3 } })
        .png()
        .toBuffer(),
    );
    await upload.locator('input[type="file"]').setInputFiles(big);
    await upload.getByText(/^big\.png is too large: at most/).waitFor();
    const small = join(scratch, 'small.png');
    writeFileSync(
      small,
      await sharp({ create: { width: 8, height: 8, channels: 3, background: '#16a085' } })
        .png()
        .toBuffer(),
    );
    await upload.locator('input[type="file"]').setInputFiles(small);
    await upload.getByText(/^small\.png/).waitFor();
    await page.getByRole('button', { name: RA.en.save }).click();
    await page.waitForURL(/\/systemSettings\/depot(\?.*)?$/);
    const record = row(page, 'Depot A');
    await record.getByText('North').waitFor();
    await record.getByText('South').waitFor();

    const [stored] = (
      await api<{ list: Array<{ id: number; photo: number; fleets: number[] }> }>(server, 'POST', '/custom/depot/page', { token, body: { pageNum: 1, pageSize: 10 } })
    ).list;
    expect(stored.fleets).toHaveLength(2);
    expect(await api<unknown[]>(server, 'GET', `/file/info?ids=${stored.photo}`, { token })).toHaveLength(1);

    // delete the record from its list: its file goes with it
    await bulkDelete(page, 'en', ['Depot A']);
    await row(page, 'Depot A').waitFor({ state: 'detached' });
    await eventually(() => api<unknown[]>(server, 'GET', `/file/info?ids=${stored.photo}`, { token })).toEqual([]);
  });
});
