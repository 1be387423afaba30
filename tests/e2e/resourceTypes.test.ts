// Issue 9 "Resource types by configuration, at run time", done as a new user would: the real server,
// the real console in Chromium through the login page. A superAdmin defines a "Barcode" type in
// System settings › Resource types (barcode 3–20 digits and unique, item type choice, refund with 2
// decimals, active on by default), grants a role its list, show, create, edit and export in the role editor,
// and a user of that role creates, filters, exports and edits barcodes — all without a restart. Only
// the seeded admin's first password change and the clerk's account go through the API.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { audit, blocking, describeViolations } from './a11ySteps';
import { api, browserAvailable, eventually, keepEvidence, launchBrowser, newContext, startServer, type RunningServer } from './harness';
import {
  CATALOGUES,
  RA,
  bulkDelete,
  changeForcedPassword,
  choose,
  columnTexts,
  expectColumn,
  expectHeading,
  exportList,
  fillFilter,
  parseCsv,
  row,
  shot,
  signIn,
  treeBox,
  useLanguage,
  type Lang,
} from './consoleSteps';

const ADMIN_PASSWORD = 'Fleet#2026';
const en = CATALOGUES.en;
const rt = (lang: Lang) => CATALOGUES[lang].resourceTypes;

interface LoginAnswer {
  tokenInfo: { tokenValue: string };
}

/** The page fits its window: nothing scrolls sideways (tables scroll inside themselves). */
const expectNoSidewaysScroll = async (page: Page) => {
  await eventually(() => page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
};

/** Screenshots at 1280 and 1440 px (test-results/), each checked for sideways scrolling; no serious axe violation. */
const look = async (page: Page, name: string) => {
  const violations = blocking(await audit(page, name));
  expect(violations, describeViolations(violations)).toEqual([]);
  for (const width of [1280, 1440]) {
    await page.setViewportSize({ width, height: 900 });
    await expectNoSidewaysScroll(page);
    await shot(page, `${name}-${width}`);
  }
  await page.setViewportSize({ width: 1280, height: 800 });
};

describe.skipIf(!browserAvailable())('resource types configured at run time, end to end', () => {
  let server: RunningServer;
  let browser: Browser;
  let token: string;
  const contexts: BrowserContext[] = [];

  beforeAll(async () => {
    server = await startServer({ DEMO_FLEET: '0' });
    browser = await launchBrowser();
    const first = await api<LoginAnswer>(server, 'POST', '/login/login', { body: { username: 'admin', password: 'Admin@123' } });
    await api(server, 'PUT', `/user/password?password=${encodeURIComponent(ADMIN_PASSWORD)}`, { token: first.tokenInfo.tokenValue, body: { oldPassword: 'Admin@123' } });
    token = (await api<LoginAnswer>(server, 'POST', '/login/login', { body: { username: 'admin', password: ADMIN_PASSWORD } })).tokenInfo.tokenValue;
  });

  afterEach(async ({ task }) => {
    await keepEvidence(task, contexts);
    for (const open of contexts.splice(0)) await open.close();
  });

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  const signedIn = async (username: string, password: string) => {
    const context = await newContext(browser);
    contexts.push(context);
    const page = await context.newPage();
    await signIn(page, server, username, password);
    return page;
  };

  it('done means: a superAdmin defines Barcodes, a role grants them, a clerk creates, filters, exports and edits barcodes', async () => {
    const admin = await signedIn('admin', ADMIN_PASSWORD);
    await admin.waitForURL('**/index/index');
    await useLanguage(admin, server, 'en');

    // System settings › Resource types (a superAdmin's screen)
    await admin.locator('[data-menu-key="systemSettings"]').click();
    await admin.locator('[data-menu-key="resourceTypes"]').click();
    await admin.waitForURL('**/systemSettings/resourceTypes');
    await admin.getByText(rt('en').empty).waitFor();
    await admin.getByRole('link', { name: rt('en').buttons.create }).click();
    await admin.getByRole('heading', { name: rt('en').editor.createTitle }).waitFor();

    // the editor's own validation, no browser bubble: an empty save marks the inputs in the app's words
    await admin.getByRole('button', { name: rt('en').buttons.save }).click();
    await admin.getByText(rt('en').validation.checkBelow).waitFor();
    expect(await admin.locator('form').evaluate((form: HTMLFormElement) => form.noValidate)).toBe(true);

    const form = admin.locator('form');
    await form.locator('input[name="name"]').fill('barcode');
    await form.locator('input[name="labelEn"]').fill('Barcodes');
    await form.locator('input[name="labelZh"]').fill('条码');
    const field = (index: number) => form.locator(`[data-field-index="${index}"]`);
    const addField = async (index: number) => {
      await form.getByRole('button', { name: rt('en').buttons.addField }).click();
      await field(index).waitFor();
    };
    // barcode: text, 3–20 digits, required, unique
    await form.locator('input[name="fields.0.name"]').fill('code');
    await form.locator('input[name="fields.0.labelEn"]').fill('Barcode');
    await form.locator('input[name="fields.0.labelZh"]').fill('条码');
    await form.locator('input[name="fields.0.minLength"]').fill('3');
    await form.locator('input[name="fields.0.maxLength"]').fill('20');
    await form.locator('input[name="fields.0.required"]').check();
    await form.locator('input[name="fields.0.unique"]').check();
    await field(0)
      .getByRole('button', { name: rt('en').buttons.addPattern })
      .click();
    await form.locator('input[name="fields.0.patterns.0.regex"]').fill('^[0-9]+$');
    await form.locator('input[name="fields.0.patterns.0.messageEn"]').fill('Digits only');
    await form.locator('input[name="fields.0.patterns.0.messageZh"]').fill('只能是数字');
    // item type: a choice of two
    await addField(1);
    await form.locator('input[name="fields.1.name"]').fill('itemType');
    await choose(admin, field(1), rt('en').editor.field.type, rt('en').editor.kinds.enum);
    await form.locator('input[name="fields.1.labelEn"]').fill('Item type');
    await form.locator('input[name="fields.1.labelZh"]').fill('物品类型');
    for (const [index, [value, labelEn, labelZh]] of [
      ['pet', 'PET bottle', 'PET瓶'],
      ['can', 'Can', '罐'],
    ].entries()) {
      await field(1)
        .getByRole('button', { name: rt('en').buttons.addOption })
        .click();
      await form.locator(`input[name="fields.1.options.${index}.value"]`).fill(value);
      await form.locator(`input[name="fields.1.options.${index}.labelEn"]`).fill(labelEn);
      await form.locator(`input[name="fields.1.options.${index}.labelZh"]`).fill(labelZh);
    }
    await form.locator('input[name="fields.1.required"]').check();
    // refund: a number with 2 decimals
    await addField(2);
    await form.locator('input[name="fields.2.name"]').fill('refund');
    await choose(admin, field(2), rt('en').editor.field.type, rt('en').editor.kinds.number);
    await form.locator('input[name="fields.2.labelEn"]').fill('Refund');
    await form.locator('input[name="fields.2.labelZh"]').fill('退款');
    await form.locator('input[name="fields.2.min"]').fill('0');
    await form.locator('input[name="fields.2.scale"]').fill('2');
    // active: yes/no, on by default
    await addField(3);
    await form.locator('input[name="fields.3.name"]').fill('active');
    await choose(admin, field(3), rt('en').editor.field.type, rt('en').editor.kinds.boolean);
    await form.locator('input[name="fields.3.labelEn"]').fill('Active');
    await form.locator('input[name="fields.3.labelZh"]').fill('启用');
    await form.locator('input[name="fields.3.defaultTrue"]').check();
    // the list: every column, filters on the barcode (contains) and the item type, sorted by barcode
    for (const label of ['code (Barcode)', 'itemType (Item type)', 'refund (Refund)', 'active (Active)']) await form.getByRole('checkbox', { name: label }).check();
    for (const [index, [fieldLabel, operator]] of [
      ['code (Barcode)', rt('en').editor.operators.like],
      ['itemType (Item type)', rt('en').editor.operators.eq],
    ].entries()) {
      await form.getByRole('button', { name: rt('en').buttons.addFilter }).click();
      const filterRow = form.locator('.RaSimpleFormIterator-line').filter({ has: admin.locator(`input[name="filters.${index}.field"]`) });
      await choose(admin, filterRow, rt('en').editor.filterField, fieldLabel);
      await choose(admin, filterRow, rt('en').editor.operator, operator);
    }
    await choose(admin, form, rt('en').editor.sortField, 'code (Barcode)');
    await look(admin, 'types-editor-en');
    await admin.getByRole('button', { name: rt('en').buttons.save }).click();

    await admin.waitForURL(/\/systemSettings\/resourceTypes(\?.*)?$/);
    const typeRow = row(admin, 'barcode');
    await typeRow.getByText('Barcodes').waitFor();
    await typeRow.getByText(rt('en').status.active).waitFor();
    // the superAdmin's sidebar has the new entry at once
    await admin.locator('[data-menu-key="custom_barcode"]').waitFor();
    await look(admin, 'types-list-en');
    // and its (empty) list opens at once: registered without a reload
    await admin.locator('[data-menu-key="custom_barcode"]').click();
    // under its menu parent's area, as the area's own screens (resources/configuredTypes.ts configuredRoute)
    await admin.waitForURL('**/systemSettings/barcode');
    await expectHeading(admin, 'Barcodes');
    await admin.getByRole('link', { name: RA.en.create }).first().waitFor();

    // The role editor offers the type's permissions under System settings, labelled from the type
    await admin.locator('[data-menu-key="role"]').click();
    await admin.waitForURL('**/systemSettings/role');
    await admin.getByRole('link', { name: RA.en.create }).click();
    await admin.locator('input[name="name"]').fill('Barcode clerk');
    await admin.locator('textarea[name="description"]').fill('Keeps the barcodes');
    await admin.getByRole('button', { name: en.generic.tree.expandAll }).click();
    // editing reads the record first (GET one needs show, as for every resource)
    for (const action of ['page', 'show', 'create', 'edit', 'export'] as const) {
      await treeBox(admin, en.generic.permissionActions.label.replace('%{resource}', 'Barcodes').replace('%{action}', en.generic.permissionActions[action])).check();
    }
    await admin.getByRole('button', { name: RA.en.save }).click();
    await admin.waitForURL(/\/systemSettings\/role(\?.*)?$/);
    await row(admin, 'Barcode clerk').waitFor();

    // the clerk: an account with that role (through the API), first sign-in changes the password
    const roles = await api<{ list: Array<{ id: number; name: string }> }>(server, 'POST', '/role/page', { token, body: { pageNum: 1, pageSize: 50, nameLike: 'Barcode clerk' } });
    await api(server, 'POST', '/user', {
      token,
      body: { name: 'clerk', realname: 'Cleo Clerk', roles: [roles.list[0].id], password: 'Clerk#2026', confirmPassword: 'Clerk#2026' },
    });
    const clerk = await signedIn('clerk', 'Clerk#2026');
    await changeForcedPassword(clerk, 'en', 'Clerk#2026', 'Clerk#2027');
    await signIn(clerk, server, 'clerk', 'Clerk#2027');
    await clerk.waitForURL('**/index/index');
    await clerk.locator('[data-menu-key="systemSettings"]').click();
    await clerk.locator('[data-menu-key="custom_barcode"]').click();
    await clerk.waitForURL('**/systemSettings/barcode');
    await expectHeading(clerk, 'Barcodes');
    // only what the role grants: no user list, no type editor
    expect(await clerk.locator('[data-menu-key="user"], [data-menu-key="resourceTypes"]').count()).toBe(0);

    // create: the type's own checks in the form, the server's for uniqueness
    const create = async (code: string, itemType: string, refund: string) => {
      await clerk.getByRole('link', { name: RA.en.create }).click();
      await clerk.locator('input[name="code"]').fill(code);
      await choose(clerk, clerk.locator('form'), 'Item type', itemType);
      await clerk.locator('input[name="refund"]').fill(refund);
    };
    await create('12', 'PET bottle', '0.125');
    // active starts on, as declared
    expect(await clerk.locator('input[name="active"]').isChecked()).toBe(true);
    await clerk.getByRole('button', { name: RA.en.save }).click();
    await clerk.getByText(en.validation.lengthBetween.replace('%{min}', '3').replace('%{max}', '20')).waitFor();
    await clerk.getByText(en.validation.scale.replace('%{scale}', '2')).waitFor();
    await clerk.locator('input[name="code"]').fill('12a45');
    await clerk.getByRole('button', { name: RA.en.save }).click();
    await clerk.getByText('Digits only').waitFor();
    await clerk.locator('input[name="code"]').fill('123456');
    await clerk.locator('input[name="refund"]').fill('0.25');
    await clerk.getByRole('button', { name: RA.en.save }).click();
    await clerk.waitForURL(/\/systemSettings\/barcode(\?.*)?$/);
    await row(clerk, '123456').waitFor();
    await create('7654321', 'Can', '0.5');
    await clerk.getByRole('button', { name: RA.en.save }).click();
    await clerk.waitForURL(/\/systemSettings\/barcode(\?.*)?$/);
    await expectColumn(clerk, 'code', ['123456', '7654321']);
    await create('123456', 'Can', '1');
    await clerk.getByRole('button', { name: RA.en.save }).click();
    await clerk.locator('input[name="code"][aria-invalid="true"]').waitFor();
    // an address from before types moved under their menu parent (a bookmark) still opens the list
    await clerk.goto(`${server.url}/custom/barcode`);
    await clerk.waitForURL(/\/systemSettings\/barcode(\?.*)?$/);
    await expectColumn(clerk, 'code', ['123456', '7654321']);
    expect(await columnTexts(clerk, 'itemType')).toEqual(['PET bottle', 'Can']);
    await look(clerk, 'types-barcodes-en');

    // filter (barcode contains), keep it as a saved filter, apply it again, and export what is shown
    await fillFilter(clerk, 'codeLike', '765');
    await expectColumn(clerk, 'code', ['7654321']);
    await clerk.getByRole('button', { name: en.generic.savedFilters.button }).click();
    await clerk.getByRole('menuitem', { name: en.generic.savedFilters.saveCurrent }).click();
    const saveFilter = clerk.getByRole('dialog');
    await saveFilter.getByLabel(en.generic.savedFilters.name).fill('Sevens');
    await saveFilter.getByRole('button', { name: RA.en.save }).click();
    await saveFilter.waitFor({ state: 'hidden' });
    await fillFilter(clerk, 'codeLike', '');
    await expectColumn(clerk, 'code', ['123456', '7654321']);
    await clerk.getByRole('button', { name: en.generic.savedFilters.button }).click();
    await clerk.getByRole('menuitem', { name: 'Sevens' }).click();
    await expectColumn(clerk, 'code', ['7654321']);
    const csv = await exportList(clerk, 'en', 'csv');
    const [header, ...lines] = parseCsv(csv.bytes);
    expect(header).toEqual(expect.arrayContaining(['Barcode', 'Item type', 'Refund']));
    expect(lines).toHaveLength(1);
    expect(lines[0]).toEqual(expect.arrayContaining(['7654321', 'Can']));

    // edit
    await row(clerk, '7654321').click();
    await clerk.waitForURL(/\/systemSettings\/barcode\/\d+$/);
    await clerk.locator('input[name="refund"]').fill('0.75');
    await clerk.getByRole('button', { name: RA.en.save }).click();
    await clerk.waitForURL(/\/systemSettings\/barcode(\?.*)?$/);
    await eventually(() => columnTexts(clerk, 'refund')).toEqual(['0.75']);
    // what the server stored
    const stored = await api<{ list: Array<{ code: string; refund: number; active: boolean; itemType: string }> }>(server, 'POST', '/custom/barcode/page', {
      token,
      body: { pageNum: 1, pageSize: 10, sort: 'code', order: 'ASC' },
    });
    expect(stored.list.map(({ code, refund, active, itemType }) => ({ code, refund: Number(refund), active, itemType }))).toEqual([
      { code: '123456', refund: 0.25, active: true, itemType: 'pet' },
      { code: '7654321', refund: 0.75, active: true, itemType: 'can' },
    ]);

    // the superAdmin removes a field holding data: refused (9401), then archived on confirmation
    await admin.goto(`${server.url}/systemSettings/resourceTypes/barcode`);
    const editor = admin.locator('form');
    await editor.locator('input[name="fields.0.name"]').waitFor();
    // the field row whose name input holds "active" (the value property: React does not mirror it in the attribute)
    const activeName = await editor
      .locator('input[name^="fields."][name$=".name"]')
      .evaluateAll((inputs) => (inputs as HTMLInputElement[]).find((input) => input.value === 'active')?.name);
    const activeLine = editor.locator('li.RaSimpleFormIterator-line').filter({ has: admin.locator(`input[name="${activeName}"]`) });
    // the row's own Remove comes last (nested option or pattern rows come before it)
    await activeLine.getByRole('button', { name: 'Remove' }).last().click();
    await editor.getByRole('button', { name: rt('en').buttons.save }).click();
    const archive = admin.getByRole('dialog', { name: rt('en').archiveDialog.title });
    await archive.getByText(rt('en').archiveDialog.fields.replace('%{fields}', 'active')).waitFor();
    await archive.getByRole('button', { name: rt('en').archiveDialog.confirm }).click();
    await admin.waitForURL(/\/systemSettings\/resourceTypes(\?.*)?$/);
    // the clerk's next visit of the list has no Active column, still without a restart
    await clerk.goto(`${server.url}/systemSettings/barcode`);
    await expectColumn(clerk, 'code', ['7654321']);
    expect(await clerk.locator('table thead th').allTextContents()).not.toContain('Active');
  });

  it('in Chinese: a type under Service, its list, the editor and a refused delete speak Chinese and fit 1280 px', async () => {
    // its own type and records, arranged through the API
    await api(server, 'POST', '/resource-types', {
      token,
      body: {
        name: 'deposit',
        labels: { en: 'Deposits', zh: '押金' },
        menuParent: 'service',
        fields: {
          label: { type: 'text', labels: { en: 'Label', zh: '标签' }, required: true, maxLength: 40 },
          material: {
            type: 'enum',
            labels: { en: 'Material', zh: '材质' },
            options: [
              { value: 'glass', labels: { en: 'Glass', zh: '玻璃' } },
              { value: 'pet', labels: { en: 'PET', zh: 'PET瓶' } },
            ],
          },
          amount: { type: 'number', labels: { en: 'Amount', zh: '金额' }, scale: 2 },
        },
        list: { columns: ['label', 'material', 'amount'], filters: [{ field: 'label', operator: 'like', alwaysOn: true }], defaultSort: { field: 'label', order: 'ASC' } },
        actions: ['page', 'show', 'create', 'edit', 'delete', 'export'],
      },
    });
    const depositIds: number[] = [];
    for (const [label, material, amount] of [
      ['Bottle 1 L', 'glass', 0.5],
      ['Bottle 2 L', 'pet', 0.25],
    ] as const) {
      depositIds.push((await api<{ id: number }>(server, 'POST', '/custom/deposit', { token, body: { label, material, amount } })).id);
    }
    const admin = await signedIn('admin', ADMIN_PASSWORD);
    await admin.waitForURL('**/index/index');
    await useLanguage(admin, server, 'zh', '/systemSettings/resourceTypes');
    const typeRow = row(admin, 'deposit');
    await typeRow.getByText('押金').waitFor();
    await typeRow.getByText(rt('zh').status.active).waitFor();
    await look(admin, 'types-list-zh');
    await typeRow.getByRole('link', { name: 'deposit', exact: true }).click();
    await admin.getByRole('heading', { name: rt('zh').editor.editTitle.replace('%{name}', 'deposit') }).waitFor();
    expect(await admin.locator('input[name="fields.1.options.0.labelZh"]').inputValue()).toBe('玻璃');
    await look(admin, 'types-editor-zh');
    // the sidebar entry sits under its menu parent (Service), labelled in Chinese
    // The group is opened only when closed (a click on an open group closes it), and the entry clicked again while the
    // page has not moved: the sidebar is rendered anew when the configured types' answer arrives (their labels join the
    // messages), which on a busy machine can come after this page shows; a click landing then was lost once in CI at
    // load 9 (no navigation within 30 s).
    const service = admin.locator('[data-menu-key="service"]');
    const deposits = admin.locator('[data-menu-key="custom_deposit"]').getByText('押金');
    await eventually(async () => {
      if (new URL(admin.url()).pathname.endsWith('/service/deposit')) return true;
      if (await deposits.isVisible()) await deposits.click({ timeout: 5_000 }).catch(() => undefined);
      else if ((await service.getAttribute('aria-expanded')) !== 'true') await service.click();
      return new URL(admin.url()).pathname.endsWith('/service/deposit');
    }).toBe(true);
    await expectHeading(admin, '押金');
    await eventually(() => columnTexts(admin, 'material')).toEqual(['玻璃', 'PET瓶']);
    await look(admin, 'types-deposits-zh');
    // a second type refers to the first (onDelete restrict, the default): one deposit is held
    await api(server, 'POST', '/resource-types', {
      token,
      body: {
        name: 'depositRule',
        labels: { en: 'Deposit rules', zh: '押金规则' },
        menuParent: 'service',
        fields: {
          title: { type: 'text', labels: { en: 'Title', zh: '名称' }, required: true },
          deposit: { type: 'reference', reference: 'deposit', onDelete: 'restrict', labels: { en: 'Deposit', zh: '押金' } },
        },
        list: { columns: ['title', 'deposit'] },
        actions: ['page', 'show', 'create', 'edit', 'delete'],
      },
    });
    await api(server, 'POST', '/custom/depositRule', { token, body: { title: 'Glass only', deposit: depositIds[0] } });
    // deleting the held deposit is refused as a code-declared resource's would be (5002, in Chinese), nothing deleted
    await bulkDelete(admin, 'zh', ['Bottle 1 L']);
    await admin.getByText(CATALOGUES.zh.errors['5002']).first().waitFor();
    await look(admin, 'types-deposits-refused-zh');
    const kept = await api<{ list: Array<{ label: string }> }>(server, 'POST', '/custom/deposit/page', { token, body: { pageNum: 1, pageSize: 10 } });
    expect(kept.list.map((deposit) => deposit.label).sort()).toEqual(['Bottle 1 L', 'Bottle 2 L']);
  });
});
