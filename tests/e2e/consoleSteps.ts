// What a user does in the console, as Playwright steps over the real DOM (labels from the catalogues,
// never test ids the user cannot see unless the shell provides them). Shared by the e2e suites.
import { readFileSync } from 'node:fs';
import ExcelJS from 'exceljs';
import { expect } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import { en } from '../../i18n/en';
import { zh } from '../../i18n/zh';
import { eventually, expectLoginPage, snap, type RunningServer } from './harness';

export type Lang = 'en' | 'zh';
export const CATALOGUES = { en, zh } as const;

/** react-admin's own strings the tests click (English from ra-language-english, Chinese from src/i18n/raChinese.ts). */
export const RA = {
  en: { save: 'Save', delete: 'Delete', confirm: 'Confirm', create: 'Create', selectRow: 'Select this row', yes: 'Yes', unselect: 'Unselect' },
  zh: { save: '保存', delete: '删除', confirm: '确认', create: '新建', selectRow: '选择此行', yes: '是', unselect: '取消选择' },
} as const;

export const signIn = async (page: Page, server: RunningServer, username: string, password: string) => {
  await page.goto(`${server.url}/login`);
  await page.locator('input[name="username"]').fill(username);
  await page.locator('input[name="password"]').fill(password);
  await page.locator('button[type="submit"]').click();
};

/** The forced first-login dialog: change the password, wait for the sign-out one second later. */
export const changeForcedPassword = async (page: Page, lang: Lang, oldPassword: string, newPassword: string) => {
  const dialog = page.getByRole('dialog');
  await dialog.getByText(CATALOGUES[lang].app.changePassword.firstLogin).waitFor();
  await dialog.locator('input[name="oldPassword"]').fill(oldPassword);
  await dialog.locator('input[name="newPassword"]').fill(newPassword);
  await dialog.locator('input[name="confirmPassword"]').fill(newPassword);
  await dialog.locator('button[type="submit"]').click();
  await page.getByText(CATALOGUES[lang].app.changePassword.success).first().waitFor();
  await expectLoginPage(page);
};

/** The language is stored and applies from the next page load (docs/product-rules.md#sign-in-and-session). */
export const useLanguage = async (page: Page, server: RunningServer, lang: Lang, path = '/index/index') => {
  await page.evaluate((value) => localStorage.setItem('lang', value), lang);
  await page.goto(`${server.url}${path}`);
};

export const heading = (page: Page) => page.getByRole('heading', { level: 1 });

export const expectHeading = async (page: Page, text: string) => {
  await eventually(() => heading(page).first().textContent()).toBe(text);
};

/** The body rows of the list table. */
export const rows = (page: Page) => page.locator('table tbody tr');
export const row = (page: Page, text: string) => rows(page).filter({ hasText: text });

/** The texts of the column showing `field`, found by its header (column order and language do not matter). */
export const columnTexts = (page: Page, field: string) =>
  // page.evaluate, not a locator: an empty list renders no table, and that must read as no rows, not a wait.
  page.evaluate((name) => {
    const table = document.querySelector('table');
    if (!table) return [];
    const headers = [...table.querySelectorAll('thead th')];
    const index = headers.findIndex((th) => th.getAttribute('data-field') === name || th.querySelector(`[data-field="${name}"]`));
    if (index < 0) return [];
    return [...table.querySelectorAll('tbody tr')].map((tr) => (tr.children[index]?.textContent ?? '').trim());
  }, field);

/** Waits until the list shows exactly `expected` in the column of `field`, in that order. */
export const expectColumn = async (page: Page, field: string, expected: string[]) => {
  await eventually(() => columnTexts(page, field)).toEqual(expected);
};

export const fillFilter = async (page: Page, name: string, value: string) => {
  const input = page.locator(`form input[name="${name}"]`);
  await input.fill(value);
};

/** Selects rows by text and runs the bulk delete through its confirmation. */
export const bulkDelete = async (page: Page, lang: Lang, texts: string[]) => {
  // react-admin keeps a selection across reloads (its store): start from none
  await row(page, texts[0]).waitFor();
  for (const box of await rows(page).getByRole('checkbox').all()) if (await box.isChecked()) await box.uncheck();
  for (const text of texts) await row(page, text).getByRole('checkbox').check();
  await page.getByRole('button', { name: RA[lang].delete, exact: true }).click();
  await confirmDelete(page, lang);
};

/** The delete confirmation names the resource in the user's language (never its route), then confirm. */
const confirmDelete = async (page: Page, lang: Lang) => {
  const dialog = page.getByRole('dialog');
  await dialog.getByRole('button', { name: RA[lang].confirm }).waitFor();
  expect(await dialog.textContent()).not.toMatch(/systemSettings|\//);
  await dialog.getByRole('button', { name: RA[lang].confirm }).click();
};

/** Delete from an edit page (react-admin's delete button, pessimistic, with its confirmation). */
export const deleteFromEdit = async (page: Page, lang: Lang) => {
  await page.locator('form').getByRole('button', { name: RA[lang].delete, exact: true }).click();
  await confirmDelete(page, lang);
};

/** Export through the toolbar menu; answers the saved file's name and bytes. */
export const exportList = async (page: Page, lang: Lang, format: 'csv' | 'xlsx') => {
  const texts = CATALOGUES[lang].generic.export;
  await page.getByRole('button', { name: texts.button }).click();
  const downloading = page.waitForEvent('download');
  await page.getByRole('menuitem', { name: texts[format] }).click();
  const download = await downloading;
  const path = await download.path();
  return { filename: download.suggestedFilename(), bytes: readFileSync(path) };
};

export const parseCsv = (bytes: Buffer): string[][] => {
  const text = bytes.toString('utf8');
  expect(text.charCodeAt(0)).toBe(0xfeff); // BOM: Excel opens Chinese correctly
  return text
    .slice(1)
    .trimEnd()
    .split('\r\n')
    .map((line) => line.split(','));
};

export const parseXlsx = async (bytes: Buffer): Promise<{ sheet: string; rows: string[][] }> => {
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load(bytes as unknown as ArrayBuffer);
  const sheet = workbook.worksheets[0];
  const rows: string[][] = [];
  sheet.eachRow((excelRow) => {
    const values = excelRow.values as unknown[];
    rows.push(values.slice(1).map((value) => (value === null || value === undefined ? '' : String(value))));
  });
  return { sheet: sheet.name, rows };
};

/** A checkbox of the permission tree, by its (translated) label. */
export const treeBox = (page: Page, label: string): Locator => page.getByRole('checkbox', { name: label, exact: true });

export const checkState = async (box: Locator) => {
  const [checked, indeterminate] = await Promise.all([box.isChecked(), box.getAttribute('data-indeterminate')]);
  return indeterminate === 'true' ? 'indeterminate' : checked ? 'checked' : 'unchecked';
};

/** An option of an open autocomplete. */
export const pickOption = async (page: Page, input: Locator, typed: string, option: string) => {
  await input.click();
  await input.fill(typed);
  await page.getByRole('option', { name: option }).click();
};

/** A screenshot from the top of the page, once transitions have settled (snap waits for them). */
export const shot = async (page: Page, name: string) => {
  // sticky header and sidebar are drawn where they are: capture from the top
  await page.evaluate(() => window.scrollTo(0, 0));
  await snap(page, name);
};

/** A react-admin select (MUI): open it by its label inside `scope`, pick the option. */
export const choose = async (page: Page, scope: Locator, label: string, option: string) => {
  await scope.getByRole('combobox', { name: label }).click();
  await page.getByRole('option', { name: option, exact: true }).click();
  // the menu fades out: wait until it is gone, so an audit never reads its half-transparent options
  await page.locator('[role="listbox"]').waitFor({ state: 'detached' });
};
