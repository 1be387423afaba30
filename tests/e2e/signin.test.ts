// Issue 2's user path, as a new user would try it: the real server (as `npm start` runs it) and the
// real console in Chromium, signing in through the login page.
// Each test has its own browser context; the one that walks admin's first sign-in is the only one
// touching admin's password, the others use users arranged through the API.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { en } from '../../i18n/en';
import { zh } from '../../i18n/zh';
import {
  api,
  arrangeAsSeededAdmin,
  browserAvailable,
  eventually,
  expectLoginPage,
  expectReloaded,
  keepEvidence,
  launchBrowser,
  markDocument,
  newContext,
  readStored,
  snap,
  startServer,
  type RunningServer,
} from './harness';

const NEW_PASSWORD = 'Fleet#2026';
/** A user of the revoked-token test, arranged through the API so it does not depend on the first-sign-in walk. */
const TESS = { username: 'tess', password: 'Tess#2026' };

const signIn = async (page: Page, server: RunningServer, username: string, password: string) => {
  await page.goto(`${server.url}/login`);
  await page.locator('input[name="username"]').fill(username);
  await page.locator('input[name="password"]').fill(password);
  await page.locator('button[type="submit"]').click();
};

describe.skipIf(!browserAvailable())('sign-in end to end', () => {
  let server: RunningServer;
  let browser: Browser;
  let context: BrowserContext;
  const freshPage = async () => {
    context = await newContext(browser);
    return context.newPage();
  };

  beforeAll(async () => {
    // No demo fleet: nothing here looks at machines, and the server starts faster on a busy machine.
    server = await startServer({ DEMO_FLEET: '0' });
    browser = await launchBrowser();
    // The server refuses every call before the forced first change (4007), so tess is arranged with
    // admin's password changed for a moment and set back to the initial one (forced again) afterwards.
    await arrangeAsSeededAdmin(server, async (token) => {
      const initial = 'Tess#2025';
      await api(server, 'POST', '/user', { token, body: { name: TESS.username, realname: 'Tess Token', password: initial, confirmPassword: initial } });
      const tess = await api<{ tokenInfo: { tokenValue: string } }>(server, 'POST', '/login/login', { body: { username: TESS.username, password: initial } });
      await api(server, 'PUT', `/user/password?password=${encodeURIComponent(TESS.password)}`, { token: tess.tokenInfo.tokenValue, body: { oldPassword: initial } });
    });
  });

  afterEach(async ({ task }) => {
    await keepEvidence(task, [context]);
    await context?.close();
  });

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('sends a signed-out visitor of a deep link to /login', async () => {
    const page = await freshPage();
    await page.goto(`${server.url}/systemSettings/user`);
    await expectLoginPage(page);
    await page.goto(`${server.url}/`);
    await expectLoginPage(page);
  });

  it('walks the first sign-in: forced password change, logout, new password, shell, language, license account, logout', async () => {
    const page = await freshPage();

    // Wrong password first: code 6 with attempts left.
    await signIn(page, server, 'admin', 'Wrong#123');
    await page.getByText(en.errors.loginFailed).first().waitFor();
    await page
      .getByText(/you can also log in 4 times/)
      .first()
      .waitFor();

    await signIn(page, server, 'admin', 'Admin@123');
    const dialog = page.getByRole('dialog');
    await dialog.getByText(en.app.changePassword.firstLogin).waitFor();
    await snap(page, 'signin-forced-password');
    // Forced: Escape does not close it and it has no close button (a closing dialog would be gone
    // once its exit transition ended: snap waits for transitions).
    await page.keyboard.press('Escape');
    await snap(page, 'signin-forced-password-escape');
    await expect(dialog.isVisible()).resolves.toBe(true);
    await expect(dialog.getByRole('button', { name: /close/i }).count()).resolves.toBe(0);

    // Validation messages of docs/product-rules.md#validation-rules.
    await dialog.locator('input[name="oldPassword"]').fill('Admin@123');
    await dialog.locator('input[name="newPassword"]').fill('Admin@123');
    await dialog.locator('input[name="confirmPassword"]').fill('Admin@123');
    await dialog.locator('button[type="submit"]').click();
    await dialog.getByText(en.validation.samePassword).waitFor();
    await dialog.locator('input[name="newPassword"]').fill('abcdefg');
    await dialog.locator('input[name="confirmPassword"]').fill('abcdefg');
    await dialog.locator('button[type="submit"]').click();
    await dialog.getByText(en.validation.digit).waitFor();

    await dialog.locator('input[name="newPassword"]').fill(NEW_PASSWORD);
    await dialog.locator('input[name="confirmPassword"]').fill(NEW_PASSWORD);
    await dialog.locator('button[type="submit"]').click();
    await page.getByText(en.app.changePassword.success).first().waitFor();
    // Logged out one second later: back on the login page.
    await expectLoginPage(page);

    // The old password no longer works; the new one does.
    await signIn(page, server, 'admin', 'Admin@123');
    await page.getByText(en.errors.loginFailed).first().waitFor();
    await signIn(page, server, 'admin', NEW_PASSWORD);
    await page.waitForURL('**/index/index');
    await page.getByTestId('sidebar').waitFor();
    await page.getByText('Hello, Administrator').first().waitFor();
    await expect(page.title()).resolves.toBe(en.app.title);
    await expect(page.getByRole('dialog').count()).resolves.toBe(0);
    await snap(page, 'signin-shell-en');

    // Sidebar toggles between 240 and 40 px; content width = window - sidebar - 20.
    const sidebarWidth = () => page.getByTestId('sidebar').evaluate((element) => Math.round(element.getBoundingClientRect().width));
    const contentWidth = () => page.getByTestId('content').evaluate((element) => Math.round(element.getBoundingClientRect().width));
    expect(await sidebarWidth()).toBe(240);
    expect(await contentWidth()).toBe(1280 - 240 - 20);
    await page.getByTestId('sidebar-toggle').click();
    await eventually(sidebarWidth).toBe(40);
    await eventually(contentWidth).toBe(1280 - 40 - 20);
    await page.getByTestId('sidebar-toggle').click();
    await eventually(sidebarWidth).toBe(240);

    // Chinese and back: each switch reloads the page, so wait for the new document before the next click.
    await markDocument(page);
    await page.getByTestId('language-switch').click();
    await expectReloaded(page);
    await page.getByText(zh.menu.systemSettings).first().waitFor();
    await snap(page, 'signin-shell-zh');
    await markDocument(page);
    await page.getByTestId('language-switch').click();
    await expectReloaded(page);
    await page.getByText(en.menu.systemSettings).first().waitFor();

    // A second license account for admin, then switch to it through the dialog.
    const token = await readStored(page, 'tokenValue');
    expect(token).toBeTruthy();
    const created = await api<{ id: number }>(server, 'POST', '/license-account', {
      token: token!,
      body: { licenseAccountName: 'North Depot', businessUnit: 'Retail', contact: 'Lee' },
    });
    const me = await api<{ licenseAccounts: number[] }>(server, 'GET', '/user/1', { token: token! });
    await api(server, 'PUT', '/user', { token: token!, body: { id: 1, licenseAccounts: [...me.licenseAccounts, created.id] } });

    await page.getByTestId('user-menu').click();
    await page.getByTestId('license-account').click();
    const switchDialog = page.getByRole('dialog');
    await switchDialog.getByText('North Depot').click();
    // The switch reloads the page a second after its toast: the user menu is used after that reload.
    await markDocument(page);
    await switchDialog.locator('button[type="submit"]').click();
    await page.getByText(en.app.switchAccount.success).first().waitFor();
    await expectReloaded(page);
    await page.getByTestId('account-name').getByText('North Depot').waitFor();
    const accounts = await api<Array<{ licenseAccountName: string; isDefault: boolean }>>(server, 'GET', '/license-account-user-relation', { token: token! });
    expect(accounts.find((account) => account.isDefault)?.licenseAccountName).toBe('North Depot');

    // Exit: the server token dies, the console is back on the login page.
    await page.getByTestId('user-menu').click();
    await page.getByRole('menuitem', { name: en.app.header.logout }).click();
    await expectLoginPage(page);
    await expect(readStored(page, 'tokenValue')).resolves.toBeNull();
    await expect(api(server, 'GET', '/license-account-user-relation', { token: token! })).rejects.toMatchObject({ code: '11015' });
  });

  it('sends the console back to the login screen when its token is revoked on the server', async () => {
    const page = await freshPage();
    await signIn(page, server, TESS.username, TESS.password);
    await page.waitForURL('**/index/index');
    const token = await readStored(page, 'tokenValue');
    expect(token).toBeTruthy();
    await api(server, 'GET', '/login/logout', { token: token! });
    // Any call the console makes now answers 11015: it clears the session and reloads to /login.
    // A call of the open page may meet 11015 first and reload it, aborting this navigation: either
    // way the console must end on the login page, which is what is asserted next.
    await page.goto(`${server.url}/systemSettings/user`).catch((error: Error) => {
      if (!/ERR_ABORTED|interrupted by another navigation/.test(error.message)) throw error;
    });
    await expectLoginPage(page);
    await eventually(() => readStored(page, 'tokenValue')).toBeNull();
  });
});
