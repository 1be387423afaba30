// The issue "Resource declarations drive the generic views and the CRUD API; system settings built on
// them", as a new user would prove it: the real server (as `npm start` runs it), the real console in
// Chromium (Hong Kong time, so exported date-times must follow the browser, not UTC), signing in
// through the login page. Only the seeded admin's first password change, each test's own starting
// records and checks of what the server stored go through the API. Every test signs in on a fresh
// browser context and arranges what it needs, so a failing test leaves nothing to the next one.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { en } from '../../i18n/en';
import { role as roleDeclaration } from '../../resources/role';
import { user as userDeclaration } from '../../resources/user';
import { api, browserAvailable, eventually, keepEvidence, launchBrowser, newContext, readStored, startServer, type RunningServer } from './harness';
import {
  CATALOGUES,
  RA,
  bulkDelete,
  changeForcedPassword,
  checkState,
  columnTexts,
  deleteFromEdit,
  expectColumn,
  expectHeading,
  exportList,
  fillFilter,
  parseCsv,
  parseXlsx,
  pickOption,
  shot,
  row,
  signIn,
  treeBox,
  useLanguage,
  type Lang,
} from './consoleSteps';

const ADMIN_PASSWORD = 'Fleet#2026';
const TIMEZONE = 'Asia/Hong_Kong';

type Resource = 'account' | 'user' | 'role' | 'permission';
/** A resource's translated name: 'User' / 'Users', '用户'. */
const nameOf = (lang: Lang, resource: Resource, count = 2) => {
  const [one, many] = CATALOGUES[lang].resources[resource].name.split('||||').map((part) => part.trim());
  return count === 1 ? one : (many ?? one);
};
const createTitle = (lang: Lang, resource: Resource) => (lang === 'en' ? `Create ${nameOf(lang, resource, 1)}` : `新建${nameOf(lang, resource, 1)}`);
const editTitle = (lang: Lang, resource: Resource, label: string) => `${nameOf(lang, resource, 1)} ${label}`;
/** The permission tree's label of a resource button, e.g. 'User: Export'. */
const buttonLabel = (lang: Lang, resource: Resource, action: keyof typeof en.generic.permissionActions) =>
  CATALOGUES[lang].generic.permissionActions.label.replace('%{resource}', nameOf(lang, resource, 1)).replace('%{action}', CATALOGUES[lang].generic.permissionActions[action]);
const headersOf = (lang: Lang, resource: 'user' | 'role', columns: readonly string[]) =>
  columns.map((column) => (CATALOGUES[lang].resources[resource].fields as Record<string, string>)[column]);

interface LoginAnswer {
  tokenInfo: { tokenValue: string };
}
interface Page_<T> {
  list: T[];
  total: number;
}

describe.skipIf(!browserAvailable())('system settings end to end', () => {
  let server: RunningServer;
  let browser: Browser;
  let context: BrowserContext;
  let admin: Page;
  let token: string;

  const find = async (resource: 'user' | 'role', nameLike: string) =>
    (await api<Page_<{ id: number; name: string }>>(server, 'POST', `/${resource}/page`, { token, body: { pageNum: 1, pageSize: 50, nameLike } })).list;
  const go = (path: string) => admin.goto(`${server.url}${path}`);

  /** A role through the API, with the permissions of these identifiers. */
  const arrangeRole = async (name: string, identifiers: string[] = []) => {
    const tree = await api<Page_<{ id: number; identifier: string }>>(server, 'POST', '/permission/page', { token, body: { pageNum: 1, pageSize: 500 } });
    const permissions = tree.list.filter((permission) => identifiers.includes(permission.identifier)).map((permission) => permission.id);
    expect(permissions).toHaveLength(identifiers.length);
    return (await api<{ id: number }>(server, 'POST', '/role', { token, body: { name, description: `${name} role`, permissions } })).id;
  };
  const arrangeUser = (name: string, realname: string, roles: number[] = []) =>
    api(server, 'POST', '/user', { token, body: { name, realname, roles, password: 'Quinn#2026', confirmPassword: 'Quinn#2026' } });

  beforeAll(async () => {
    // No demo fleet: these screens do not show machines, and the server starts faster on a busy machine.
    server = await startServer({ DEMO_FLEET: '0' });
    browser = await launchBrowser();
    // the seeded admin must change the initial password first (done through the API here)
    const first = await api<LoginAnswer>(server, 'POST', '/login/login', { body: { username: 'admin', password: 'Admin@123' } });
    await api(server, 'PUT', `/user/password?password=${encodeURIComponent(ADMIN_PASSWORD)}`, {
      token: first.tokenInfo.tokenValue,
      body: { oldPassword: 'Admin@123' },
    });
    token = (await api<LoginAnswer>(server, 'POST', '/login/login', { body: { username: 'admin', password: ADMIN_PASSWORD } })).tokenInfo.tokenValue;
  });

  /** Each test: admin signed in on a fresh context (Hong Kong time, so exports must use the browser's zone). */
  const contexts: BrowserContext[] = [];
  const signedInAdmin = async () => {
    context = await newContext(browser, { timezoneId: TIMEZONE });
    contexts.push(context);
    admin = await context.newPage();
    await signIn(admin, server, 'admin', ADMIN_PASSWORD);
    await admin.waitForURL('**/index/index');
  };

  afterEach(async ({ task }) => {
    await keepEvidence(task, contexts);
    for (const open of contexts.splice(0)) await open.close();
  });

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('done means: a role with only Reports and one button, a user with it, who sees Home and Reports only and is refused the rest', async () => {
    await signedInAdmin();
    await useLanguage(admin, server, 'en');
    await admin.locator('[data-menu-key="systemSettings"]').click();
    await admin.locator('[data-menu-key="systemSettings"][aria-expanded="true"]').waitFor();
    await admin.locator('[data-menu-key="role"]').click();
    await admin.waitForURL('**/systemSettings/role');
    await expectHeading(admin, nameOf('en', 'role'));
    await admin.getByRole('link', { name: RA.en.create }).click();
    await expectHeading(admin, createTitle('en', 'role'));

    await admin.locator('input[name="name"]').fill('Report viewer');
    await admin.locator('textarea[name="description"]').fill('Reports, and exporting users');
    // Tri-state tree: a directory checks its subtree; one button half-checks its ancestors.
    await treeBox(admin, en.menu.reports).check();
    await admin.getByRole('button', { name: en.generic.tree.expandAll }).click();
    await treeBox(admin, buttonLabel('en', 'user', 'export')).check();
    await eventually(() => checkState(treeBox(admin, en.menu.reports))).toBe('checked');
    await eventually(() => checkState(treeBox(admin, en.menu.notifications))).toBe('checked');
    await eventually(() => checkState(treeBox(admin, en.menu.systemSettings))).toBe('indeterminate');
    await eventually(() => checkState(treeBox(admin, en.menu.user))).toBe('indeterminate');
    expect(await checkState(treeBox(admin, buttonLabel('en', 'user', 'page')))).toBe('unchecked');
    expect(await checkState(treeBox(admin, en.menu.service))).toBe('unchecked');
    await shot(admin, 'settings-role-create-en');
    await admin.getByRole('button', { name: RA.en.save }).click();
    await admin.waitForURL(/\/systemSettings\/role(\?.*)?$/);
    await row(admin, 'Report viewer').waitFor();

    // What the server stored: the Reports subtree (with the report-notification list's buttons under
    // its menu entry), the button, and the button's half-checked ancestors.
    const [stored] = await find('role', 'Report viewer');
    const { permissions } = await api<{ permissions: number[] }>(server, 'GET', `/role/${stored.id}`, { token });
    const tree = await api<Page_<{ id: number; identifier: string }>>(server, 'POST', '/permission/page', { token, body: { pageNum: 1, pageSize: 500 } });
    const identifiers = tree.list.filter((permission) => permissions.includes(permission.id)).map((permission) => permission.identifier);
    const subscriptionButtons = ['page', 'add', 'edit', 'delete'].map((action) => `reportNotification:${action}`);
    expect(identifiers.sort()).toEqual(
      ['reports', 'reports:showreport', 'reports:report', 'reports:notifications', ...subscriptionButtons, 'systemSettings', 'systemSettings:user', 'user:export'].sort(),
    );

    // A user with that role; the password follows the rule of docs/product-rules.md#validation-rules and must be confirmed.
    await admin.locator('[data-menu-key="user"]').click();
    await expectHeading(admin, nameOf('en', 'user'));
    await admin.getByRole('link', { name: RA.en.create }).click();
    await expectHeading(admin, createTitle('en', 'user'));
    await admin.locator('input[name="realname"]').fill('Rita Report');
    await admin.locator('input[name="name"]').fill('rita');
    await admin.locator('input[name="email"]').fill('rita@example.com');
    await pickOption(admin, admin.locator('input[name="roles"]'), 'Report', 'Report viewer');
    await admin.locator('input[name="password"]').fill('abcdefg');
    await admin.locator('input[name="confirmPassword"]').fill('abcdefg');
    await admin.getByRole('button', { name: RA.en.save }).click();
    await admin.getByText(en.validation.digit).first().waitFor();
    await admin.locator('input[name="password"]').fill('Rita#2026');
    await admin.locator('input[name="confirmPassword"]').fill('Rita#2025');
    await admin.getByRole('button', { name: RA.en.save }).click();
    await admin.getByText(en.validation.passwordMismatch).first().waitFor();
    await shot(admin, 'settings-user-create-en');
    await admin.locator('input[name="confirmPassword"]').fill('Rita#2026');
    await admin.getByRole('button', { name: RA.en.save }).click();
    await admin.waitForURL(/\/systemSettings\/user(\?.*)?$/);
    await row(admin, 'rita').getByText('Report viewer').waitFor();

    // Rita signs in: forced first-login change, then the console with her permissions only.
    const ritaContext = await newContext(browser, { timezoneId: TIMEZONE });
    contexts.push(ritaContext);
    const rita = await ritaContext.newPage();
    await signIn(rita, server, 'rita', 'Rita#2026');
    await changeForcedPassword(rita, 'en', 'Rita#2026', 'Rita#2027');
    await signIn(rita, server, 'rita', 'Rita#2027');
    await rita.waitForURL('**/index/index');
    const topLevel = () => rita.locator('[data-testid="sidebar"] > ul > li > [data-menu-key]').evaluateAll((items) => items.map((item) => item.getAttribute('data-menu-key')));
    await eventually(topLevel).toEqual(['home', 'reports']);
    await rita.locator('[data-menu-key="reports"]').click();
    await rita.locator('[data-menu-key="notifications"]').waitFor();
    await shot(rita, 'settings-reporter-menu-en');
    await expect(rita.locator('[data-menu-key="systemSettings"], [data-menu-key="user"]').count()).resolves.toBe(0);

    await rita.goto(`${server.url}/systemSettings/user`);
    await rita.waitForURL('**/401');
    await rita.getByText(en.app.noPermission.message).waitFor();
    await shot(rita, 'settings-reporter-401-en');
    const ritaToken = await readStored(rita, 'tokenValue');
    expect(ritaToken).toBeTruthy();
    await expect(api(server, 'POST', '/user/page', { token: ritaToken!, body: { pageNum: 1, pageSize: 10 } })).rejects.toMatchObject({ code: '4003' });
    await expect(api(server, 'POST', '/role/page', { token: ritaToken!, body: { pageNum: 1, pageSize: 10 } })).rejects.toMatchObject({ code: '4003' });
  });

  it('users in Chinese: create, edit, filter, sort, export CSV and XLSX, delete one and several', async () => {
    const zh = CATALOGUES.zh;
    for (const [name, realname] of [
      ['qa1', 'Quinn Alpha'],
      ['qa2', 'Quinn Beta'],
      ['qa3', 'Quinn Gamma'],
    ])
      await arrangeUser(name, realname);
    await signedInAdmin();
    await useLanguage(admin, server, 'zh', '/systemSettings/user');
    await expectHeading(admin, nameOf('zh', 'user'));
    for (const column of userDeclaration.list.columns)
      await admin
        .locator('thead')
        .getByText(headersOf('zh', 'user', [column])[0], { exact: true })
        .waitFor();

    // create, with the password rule's message in Chinese first
    await admin.getByRole('link', { name: RA.zh.create }).click();
    await expectHeading(admin, createTitle('zh', 'user'));
    await admin.locator('input[name="realname"]').fill('张伟');
    await admin.locator('input[name="name"]').fill('zhangw');
    await admin.locator('input[name="password"]').fill('abc');
    await admin.locator('input[name="confirmPassword"]').fill('abc');
    await admin.getByRole('button', { name: RA.zh.save }).click();
    await admin.getByText(zh.validation.passwordLength).first().waitFor();
    await shot(admin, 'settings-user-create-zh');
    await admin.locator('input[name="password"]').fill('Zhang#2026');
    await admin.locator('input[name="confirmPassword"]').fill('Zhang#2026');
    await admin.getByRole('button', { name: RA.zh.save }).click();
    await admin.waitForURL(/\/systemSettings\/user(\?.*)?$/);

    // edit (a row click opens the record)
    await row(admin, 'zhangw').getByText('zhangw').click();
    await expectHeading(admin, editTitle('zh', 'user', 'zhangw'));
    await admin.locator('input[name="realname"]').fill('张伟伟');
    await admin.locator('input[name="email"]').fill('zhang@example.com');
    await shot(admin, 'settings-user-edit-zh');
    await admin.getByRole('button', { name: RA.zh.save }).click();
    await admin.waitForURL(/\/systemSettings\/user(\?.*)?$/);
    await row(admin, 'zhangw').getByText('zhang@example.com').waitFor();
    await row(admin, 'zhangw').getByText('张伟伟').waitFor();

    // filter (server side), then sort by the user name column both ways
    await fillFilter(admin, 'realnameLike', 'Quinn');
    await eventually(async () => (await columnTexts(admin, 'name')).sort()).toEqual(['qa1', 'qa2', 'qa3']);
    await admin.locator('thead [data-field="name"]').click();
    await expectColumn(admin, 'name', ['qa1', 'qa2', 'qa3']);
    await admin.locator('thead [data-field="name"]').click();
    await expectColumn(admin, 'name', ['qa3', 'qa2', 'qa1']);
    await shot(admin, 'settings-user-list-zh');
    const shownTimes = await columnTexts(admin, 'createTime');

    // export: Chinese headers, the filtered rows in the list's order, Yes/No and local times as shown
    const headers = headersOf('zh', 'user', userDeclaration.list.columns);
    const csv = await exportList(admin, 'zh', 'csv');
    expect(csv.filename).toMatch(/^user-\d{8}-\d{6}\.csv$/);
    const csvRows = parseCsv(csv.bytes);
    expect(csvRows[0]).toEqual(headers);
    expect(csvRows.slice(1).map((cells) => cells[1])).toEqual(['qa3', 'qa2', 'qa1']);
    expect(csvRows.slice(1).map((cells) => cells[headers.indexOf(zh.resources.user.fields.enabled)])).toEqual([RA.zh.yes, RA.zh.yes, RA.zh.yes]);
    expect(csvRows.slice(1).map((cells) => cells[8])).toEqual(shownTimes);
    const xlsx = await exportList(admin, 'zh', 'xlsx');
    expect(xlsx.filename).toMatch(/^user-\d{8}-\d{6}\.xlsx$/);
    const workbook = await parseXlsx(xlsx.bytes);
    expect(workbook.sheet).toBe(nameOf('zh', 'user', 1));
    expect(workbook.rows[0]).toEqual(headers);
    expect(workbook.rows.slice(1).map((cells) => cells[1])).toEqual(['qa3', 'qa2', 'qa1']);

    // delete one from its page, then two at once from the list
    await row(admin, 'qa3').getByText('qa3').click();
    await expectHeading(admin, editTitle('zh', 'user', 'qa3'));
    await deleteFromEdit(admin, 'zh');
    await admin.waitForURL(/\/systemSettings\/user(\?.*)?$/);
    await expectColumn(admin, 'name', ['qa2', 'qa1']);
    await bulkDelete(admin, 'zh', ['qa1', 'qa2']);
    await eventually(async () => (await find('user', 'qa')).length).toBe(0);
    await eventually(() => columnTexts(admin, 'name')).toEqual([]);
    await fillFilter(admin, 'realnameLike', '');
    await eventually(() => columnTexts(admin, 'name')).toContain('zhangw');
  });

  it('roles in English: create, edit, filter, sort, export, delete; a role still given to a user is refused and nothing is deleted', async () => {
    for (const name of ['Temp A', 'Temp B', 'Temp C']) await arrangeRole(name);
    // a role given to a user (docs/product-rules.md#validation-rules: cannot be deleted)
    await arrangeUser('linkd', 'Linda Linked', [await arrangeRole('Linked role')]);
    await signedInAdmin();
    await useLanguage(admin, server, 'en', '/systemSettings/role');
    await expectHeading(admin, nameOf('en', 'role'));

    await admin.getByRole('link', { name: RA.en.create }).click();
    await admin.locator('input[name="name"]').fill('Operators');
    await treeBox(admin, en.menu.service).check();
    await admin.getByRole('button', { name: RA.en.save }).click();
    await admin.waitForURL(/\/systemSettings\/role(\?.*)?$/);
    await row(admin, 'Operators').getByText('Operators').click();
    await expectHeading(admin, editTitle('en', 'role', 'Operators'));
    await eventually(() => checkState(treeBox(admin, en.menu.service))).toBe('checked');
    await admin.locator('textarea[name="description"]').fill('Runs the machines');
    await shot(admin, 'settings-role-edit-operators-en');
    await admin.getByRole('button', { name: RA.en.save }).click();
    await admin.waitForURL(/\/systemSettings\/role(\?.*)?$/);
    await row(admin, 'Operators').getByText('Runs the machines').waitFor();

    await fillFilter(admin, 'nameLike', 'Temp');
    await eventually(async () => (await columnTexts(admin, 'name')).sort()).toEqual(['Temp A', 'Temp B', 'Temp C']);
    await admin.locator('thead [data-field="name"]').click();
    await expectColumn(admin, 'name', ['Temp A', 'Temp B', 'Temp C']);
    await admin.locator('thead [data-field="name"]').click();
    await expectColumn(admin, 'name', ['Temp C', 'Temp B', 'Temp A']);
    await shot(admin, 'settings-role-list-en');

    const headers = headersOf('en', 'role', roleDeclaration.list.columns);
    const csvRows = parseCsv((await exportList(admin, 'en', 'csv')).bytes);
    expect(csvRows[0]).toEqual(headers);
    expect(csvRows.slice(1).map((cells) => cells.slice(0, 2))).toEqual([
      ['Temp C', 'Temp C role'],
      ['Temp B', 'Temp B role'],
      ['Temp A', 'Temp A role'],
    ]);
    const workbook = await parseXlsx((await exportList(admin, 'en', 'xlsx')).bytes);
    expect(workbook.sheet).toBe(nameOf('en', 'role', 1));
    expect(workbook.rows).toEqual(csvRows);

    // docs/product-rules.md#validation-rules: a role still linked to a user cannot be deleted; a batch with it deletes nothing.
    await fillFilter(admin, 'nameLike', '');
    await row(admin, 'Linked role').waitFor();
    await bulkDelete(admin, 'en', ['Linked role', 'Temp A']);
    await admin.getByText(en.errors['5002']).first().waitFor();
    await shot(admin, 'settings-role-refused-en');
    expect((await find('role', 'Linked role')).length).toBe(1);
    expect((await find('role', 'Temp A')).length).toBe(1);
    await admin.reload();
    await eventually(() => columnTexts(admin, 'name')).toContain('Temp A'); // nothing left the list either
    await admin.getByRole('button', { name: RA.en.unselect }).click();
    await row(admin, 'Linked role').getByText('Linked role', { exact: true }).click();
    await expectHeading(admin, editTitle('en', 'role', 'Linked role'));
    await deleteFromEdit(admin, 'en');
    await admin.getByText(en.errors['5002']).first().waitFor();
    expect((await find('role', 'Linked role')).length).toBe(1);

    // deletable ones: one from its page, two from the list
    await go('/systemSettings/role');
    await row(admin, 'Operators').getByText('Operators').click();
    await deleteFromEdit(admin, 'en');
    await admin.waitForURL(/\/systemSettings\/role(\?.*)?$/);
    await bulkDelete(admin, 'en', ['Temp A', 'Temp B']);
    await eventually(async () => (await find('role', 'Temp')).map((role) => role.name)).toEqual(['Temp C']);
    expect(await find('role', 'Operators')).toEqual([]);
    // other tests' roles may be listed too: only this test's ones are asserted
    await eventually(async () => (await columnTexts(admin, 'name')).filter((name) => /^(Temp|Operators|Linked)/.test(name)).sort()).toEqual(['Linked role', 'Temp C']);
  });

  it('saved filters: save the current one as personal, apply it, delete it; the built-in one is marked and cannot be deleted', async () => {
    const texts = en.generic.savedFilters;
    await arrangeUser('sfuser', 'Saved Filter');
    await signedInAdmin();
    await useLanguage(admin, server, 'en', '/systemSettings/user');
    await expectHeading(admin, nameOf('en', 'user'));
    const open = () => admin.getByRole('button', { name: texts.button }).click();
    const item = (name: string) => admin.getByRole('menuitem').filter({ hasText: name });
    // the pointer's bin icon (hidden from assistive technology: the keyboard deletes with the Delete key)
    const bin = (name: string) => item(name).locator(`button[title="${texts.deleteTitle}"]`);

    await open();
    await item('Enabled users').getByText(texts.builtIn).waitFor();
    await expect(bin('Enabled users').count()).resolves.toBe(0);
    await shot(admin, 'settings-saved-filters-en');
    await admin.keyboard.press('Escape');

    await fillFilter(admin, 'nameLike', 'sfuser');
    await expectColumn(admin, 'name', ['sfuser']);
    await open();
    await admin.getByRole('menuitem', { name: texts.saveCurrent }).click();
    const dialog = admin.getByRole('dialog');
    await dialog.getByLabel(texts.name).fill('Sfuser only');
    expect(await dialog.getByRole('radio', { name: texts.personal }).isChecked()).toBe(true);
    await dialog.getByRole('button', { name: RA.en.save }).click();
    await admin.getByText(texts.saved).first().waitFor();
    const saved = await api<Array<{ name: string; visibility: string; mine: boolean; builtIn: boolean }>>(server, 'GET', '/saved-filter?resource=user', { token });
    expect(saved.find((filter) => filter.name === 'Sfuser only')).toMatchObject({ visibility: 'personal', mine: true, builtIn: false });

    await fillFilter(admin, 'nameLike', '');
    await eventually(async () => (await columnTexts(admin, 'name')).length).toBeGreaterThan(1);
    await open();
    await item('Sfuser only').click();
    await expectColumn(admin, 'name', ['sfuser']);
    await eventually(() => admin.locator('form input[name="nameLike"]').inputValue()).toBe('sfuser');

    await open();
    await bin('Sfuser only').click();
    await admin.getByRole('dialog').getByText(texts.deleteConfirm.replace('%{name}', 'Sfuser only')).waitFor();
    await admin.getByRole('dialog').getByRole('button', { name: RA.en.confirm }).click();
    await admin.getByText(texts.deleted).first().waitFor();
    await open();
    await item('Enabled users').waitFor();
    await expect(item('Sfuser only').count()).resolves.toBe(0);
    await admin.keyboard.press('Escape');
    const left = await api<Array<{ name: string }>>(server, 'GET', '/saved-filter?resource=user', { token });
    expect(left.map((filter) => filter.name)).toEqual(['Enabled users']);
    await fillFilter(admin, 'nameLike', '');
    await eventually(async () => (await columnTexts(admin, 'name')).length).toBeGreaterThan(1);
  });

  it('every system settings screen has its translated title and labels, in English and in Chinese', async () => {
    const TOUR_ROLE = 'Tour viewer';
    const viewer = {
      id: await arrangeRole(TOUR_ROLE, ['reports', 'reports:showreport', 'reports:report', 'reports:notifications', 'systemSettings', 'systemSettings:user', 'user:export']),
    };
    await signedInAdmin();
    for (const lang of ['en', 'zh'] as const) {
      const texts = CATALOGUES[lang];
      for (const resource of ['account', 'user', 'role', 'permission'] as const) {
        await useLanguage(admin, server, lang, `/systemSettings/${resource}`);
        await expectHeading(admin, nameOf(lang, resource));
        await admin.locator('table tbody tr').first().waitFor();
        await shot(admin, `settings-tour-${resource}-list-${lang}`);
        if (resource === 'user') {
          // the built-in saved filter's name is seed data too: shown in the user's language
          await admin.getByRole('button', { name: texts.generic.savedFilters.button }).click();
          const builtIn = admin.getByRole('menuitem').filter({ hasText: texts.generic.savedFilters.builtInNames['Enabled users'] });
          await builtIn.getByText(texts.generic.savedFilters.builtIn, { exact: true }).waitFor();
          await shot(admin, `settings-tour-saved-filters-${lang}`);
          await admin.keyboard.press('Escape');
        }
        await admin.getByRole('link', { name: RA[lang].create }).click();
        await expectHeading(admin, createTitle(lang, resource));
        await shot(admin, `settings-tour-${resource}-create-${lang}`);
      }
      // permission names follow the language (menu titles and resource buttons), not the English seed
      await go('/systemSettings/permission');
      await admin.locator('tbody').getByText(texts.menu.reports, { exact: true }).waitFor();
      await go(`/systemSettings/role/${viewer.id}`);
      await expectHeading(admin, editTitle(lang, 'role', TOUR_ROLE));
      await admin.getByRole('button', { name: texts.generic.tree.expandAll }).click();
      await eventually(() => checkState(treeBox(admin, buttonLabel(lang, 'user', 'export')))).toBe('checked');
      await eventually(() => checkState(treeBox(admin, texts.menu.systemSettings))).toBe('indeterminate');
      await shot(admin, `settings-tour-role-edit-${lang}`);
      await go(`/systemSettings/role/${viewer.id}/show`);
      await expectHeading(admin, editTitle(lang, 'role', TOUR_ROLE));
      const content = admin.getByTestId('content');
      await content.getByText(buttonLabel(lang, 'user', 'export'), { exact: true }).waitFor();
      await content.getByText(texts.menu.reports, { exact: true }).waitFor();
      await content.getByText(texts.menu.report, { exact: true }).waitFor(); // distinct from its directory in both languages
      await shot(admin, `settings-tour-role-show-${lang}`);
    }
  });
});
