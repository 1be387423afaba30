// Issue 12: no serious or critical violation (axe-core's default rules: WCAG 2.0/2.1 A and AA, and best
// practices; and the label-in-name rule) on any screen, in English and in Chinese, at 1280×800 (the narrowest window the
// console is made for) against the real server (demo fleet seeded) and the built console. The screens
// are the routes of the menu the signed-in admin sees (resources/menu.ts filtered as the sidebar does),
// so a screen added to the menu is audited without touching this file, and its layout checked too: no
// screen may make the page scroll sideways; the machine page is audited on every tab. Dialogs and pop-up
// menus are audited open. Every violation is printed (rule, impact, elements); serious and critical
// ones fail. One server and one browser; one context per language.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext } from 'playwright-core';
import englishMessages from 'ra-language-english';
import { raChinese } from '../../src/i18n/raChinese';
import {
  api,
  browserAvailable,
  eventually,
  expectReloaded,
  keepEvidence,
  launchBrowser,
  markDocument,
  newContext,
  shoot,
  SHOTS_ROOT,
  startServer,
  type RunningServer,
} from './harness';
import { CATALOGUES, changeForcedPassword, signIn, useLanguage, type Lang } from './consoleSteps';
import {
  audit,
  blocking,
  describeViolations,
  documentLang,
  machineTabRoutes,
  menuRoutes,
  navigateInApp,
  settle,
  storedUserInfo,
  summarize,
  watchRequests,
  type Violation,
  adminPastForcedChange,
} from './a11ySteps';

const ADMIN_PASSWORD = 'Access#2026';
/** With E2E_SHOTS_DIR set, screens of SHOT_ROUTES are saved in its a11y/ at 1440 and 1280 px wide, to be looked at. */
const SHOT_ROUTES = ['/index/index', '/installation/fleetManagement', '/systemSettings/user', '/systemSettings/role'];
const SHOT_WIDTHS = [1440, 1280];
const WINDOW = { width: 1280, height: 800 };
const USER_INITIAL = 'Start#2026';
const USER_PASSWORD = 'Ready#2026';
/** `<html lang>` per console language (BCP 47). */
const HTML_LANG: Record<Lang, string> = { en: 'en', zh: 'zh-CN' };
/** react-admin's own close label (the change-password dialog's close button). */
const CLOSE: Record<Lang, string> = { en: englishMessages.ra.action.close, zh: raChinese.ra.action.close };

interface Listed {
  list: Array<{ id: number }>;
}

describe.skipIf(!browserAvailable())('accessibility: axe-core and the 1280 px layout on every screen and dialog', () => {
  let server: RunningServer;
  let browser: Browser;
  let context: BrowserContext | undefined;
  let machineId: number;
  let roleId: number;
  let userId: number;

  beforeAll(async () => {
    server = await startServer();
    browser = await launchBrowser();
    const token = await adminPastForcedChange(server, ADMIN_PASSWORD);
    machineId = (await api<Listed>(server, 'POST', '/rvm/page', { token, body: { pageNum: 1, pageSize: 1 } })).list[0].id;
    // A role to edit, holding a few permissions (so its tree shows checked and half-checked boxes).
    const permissions = (await api<Listed>(server, 'POST', '/permission/page', { token, body: { pageNum: 1, pageSize: 500 } })).list.slice(0, 5).map((permission) => permission.id);
    roleId = (await api<{ id: number }>(server, 'POST', '/role', { token, body: { name: 'Auditor', description: 'Audits the console', permissions } })).id;
    // One new user per language: their first sign-in shows the forced change-password dialog.
    for (const lang of ['en', 'zh'] as const) {
      await api(server, 'POST', '/user', { token, body: { name: `a11y${lang}`, realname: `Ally ${lang}`, password: USER_INITIAL, confirmPassword: USER_INITIAL } });
    }
    // a saved filter of admin's own beside the built-in one: the saved-filters menu shows both kinds
    await api(server, 'POST', '/saved-filter', { token, body: { resource: 'user', name: 'A11y users', filter: { nameLike: 'a11y' }, visibility: 'personal' } });
    userId = (await api<Listed>(server, 'POST', '/user/page', { token, body: { pageNum: 1, pageSize: 1, nameLike: 'a11yen' } })).list[0].id;
  });

  afterEach(async ({ task }) => {
    await keepEvidence(task, [context]);
    await context?.close();
    context = undefined;
  });

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('the audit reports what it must: a nameless button, a name that does not start with the visible label, too little contrast, text outside landmarks', async () => {
    context = await newContext(browser, { viewport: WINDOW });
    const page = await context.newPage();
    await page.setContent(
      `<html lang="en"><head><title>planted</title></head><body><main><h1>Planted</h1>
        <button id="nameless"><svg width="10" height="10"></svg></button>
        <button id="mismatch" aria-label="The machine restarts and takes no containers">Restart</button>
        <p id="faint" style="color:#bbb;background:#fff">Faint text</p></main><p id="loose">Outside every landmark</p></body></html>`,
    );
    const found = await audit(page, 'planted');
    const byRule = Object.fromEntries(found.map((violation) => [violation.rule, violation]));
    expect(byRule['button-name']?.targets).toEqual(['#nameless']);
    expect(byRule['label-content-name-mismatch']?.targets).toEqual(['#mismatch']);
    expect(byRule['color-contrast']?.targets).toEqual(['#faint']);
    expect(byRule['color-contrast'].details[0]).toMatch(/contrast/);
    expect(byRule.region?.targets).toEqual(['#loose']); // a best practice, reported (moderate)
    expect(blocking(found).map((violation) => violation.rule)).toEqual(expect.arrayContaining(['button-name', 'color-contrast']));
    // the same document audited again (axe already in it) answers the same
    expect((await audit(page, 'planted')).map((violation) => violation.rule).sort()).toEqual(Object.keys(byRule).sort());
  });

  for (const lang of ['en', 'zh'] as const) {
    it(`finds no serious or critical violation and no sideways scroll on any menu screen, machine tab or dialog (${lang})`, async () => {
      const texts = CATALOGUES[lang];
      context = await newContext(browser, { viewport: WINDOW });
      const page = await context.newPage();
      watchRequests(page);
      const found: Violation[] = [];
      const places: string[] = [];
      /** Places whose page is wider than the window (a sideways scroll), with both widths. */
      const tooWide: string[] = [];
      const spent = { axe: 0, navigation: 0 };
      const check = async (place: string) => {
        await settle(page);
        const started = Date.now();
        places.push(place);
        found.push(...(await audit(page, place)));
        const { scrollWidth, clientWidth } = await page.evaluate(() => ({ scrollWidth: document.documentElement.scrollWidth, clientWidth: document.documentElement.clientWidth }));
        if (scrollWidth > clientWidth) tooWide.push(`${place}: ${scrollWidth} px in ${clientWidth}`);
        spent.axe += Date.now() - started;
      };
      const go = async (path: string) => {
        const started = Date.now();
        await navigateInApp(page, path);
        await settle(page);
        spent.navigation += Date.now() - started;
      };
      const shootAtWidths = async (route: string) => {
        for (const width of SHOT_WIDTHS) {
          await page.setViewportSize({ width, height: 900 });
          await settle(page);
          await shoot(page, `a11y/${route.replace(/^\//, '').replace(/[^A-Za-z0-9]+/g, '-')}-${lang}-${width}`);
        }
        await page.setViewportSize(WINDOW);
      };
      const dialog = page.getByRole('dialog');
      const expectClosedByEscape = async () => {
        await page.keyboard.press('Escape');
        await eventually(() => dialog.count()).toBe(0);
      };

      // Signed out: the login page, in the chosen language.
      await page.goto(`${server.url}/login`);
      await useLanguage(page, server, lang, '/login');
      await page.locator('input[name="username"]').waitFor();
      expect(await documentLang(page)).toBe(HTML_LANG[lang]);
      await check('login');

      // A first sign-in: the forced change-password dialog.
      await signIn(page, server, `a11y${lang}`, USER_INITIAL);
      await dialog.getByText(texts.app.changePassword.firstLogin).waitFor();
      await check('dialog: forced change password');
      await changeForcedPassword(page, lang, USER_INITIAL, USER_PASSWORD);

      // The admin sees every screen of the menu.
      await signIn(page, server, 'admin', ADMIN_PASSWORD);
      await page.waitForURL('**/index/index');
      expect(await documentLang(page)).toBe(HTML_LANG[lang]);
      const holder = await storedUserInfo(page);
      const routes = [...menuRoutes(holder), ...machineTabRoutes(holder, machineId)];
      expect(routes.length).toBeGreaterThan(10);
      for (const route of routes) {
        await go(route);
        await check(route);
        if (SHOTS_ROOT && (SHOT_ROUTES.includes(route) || route.endsWith('/Overview'))) await shootAtWidths(route);
      }

      // Generic forms: a create and an edit form of two resources (plain inputs, pickers, the permission tree).
      for (const path of ['/systemSettings/user/create', `/systemSettings/user/${userId}`, '/systemSettings/role/create', `/systemSettings/role/${roleId}`]) {
        await go(path);
        await page.locator('form').first().waitFor();
        await check(path);
      }

      // The header's user menu, then its two dialogs.
      await go('/index/index');
      await page.getByTestId('user-menu').click();
      await page.getByRole('menu').waitFor();
      await check('menu: user menu');
      await page.getByRole('menuitem', { name: texts.app.header.editPassword }).click();
      await dialog.locator('input[name="oldPassword"]').waitFor();
      await check('dialog: change password');
      // docs/product-rules.md#validation-rules: Escape does not close it; its close button does.
      await dialog.getByRole('button', { name: CLOSE[lang] }).click();
      await eventually(() => dialog.count()).toBe(0);
      await page.getByTestId('user-menu').click();
      await page.getByTestId('license-account').click();
      await dialog.waitFor();
      await check('dialog: switch license account');
      await expectClosedByEscape();

      // The collapsed sidebar, with an area's pop-up menu open.
      await page.getByTestId('sidebar-toggle').click();
      await page.locator('[data-testid="sidebar"][data-collapsed="true"]').waitFor();
      await page.locator('[data-menu-key="systemSettings"]').click();
      await page.getByRole('menu').waitFor();
      await check('menu: collapsed sidebar pop-up');
      await page.keyboard.press('Escape');
      await eventually(() => page.getByRole('menu').count()).toBe(0);
      await page.getByTestId('sidebar-toggle').click();
      await page.locator('[data-testid="sidebar"][data-collapsed="false"]').waitFor();

      // Fleet management: a fleet's action menu and the new-fleet dialog.
      await go('/installation/fleetManagement');
      await page.locator('[data-testid^="fleet-actions-"]').first().click();
      await page.getByRole('menu').waitFor();
      await check('menu: fleet actions');
      await page.keyboard.press('Escape');
      await eventually(() => page.getByRole('menu').count()).toBe(0);
      await page.getByTestId('fleet-create').click();
      await dialog.waitFor();
      await check('dialog: new fleet');
      await expectClosedByEscape();

      // The saved-filters menu of a list (a built-in and an own, deletable filter).
      await go('/systemSettings/user');
      await page.getByRole('button', { name: texts.generic.savedFilters.button }).click();
      await page.getByRole('menu').getByText('A11y users').waitFor();
      await check('menu: saved filters');
      await page.keyboard.press('Escape');
      await eventually(() => page.getByRole('menu').count()).toBe(0);

      // A remote-control command dialog with parameters, on a machine page.
      await go(`/installation/rvmpage/${machineId}/RemoteControl`);
      await page.getByTestId('action-setOnOffTime').click();
      await dialog.getByTestId('command-form').waitFor();
      await check('dialog: remote command (set on/off time)');
      await expectClosedByEscape();

      // The header's language switch: the reloaded page announces the other language.
      const other: Lang = lang === 'en' ? 'zh' : 'en';
      await markDocument(page);
      await page.getByTestId('language-switch').click();
      await expectReloaded(page);
      await eventually(() => documentLang(page)).toBe(HTML_LANG[other]);

      console.info(`axe-core (${lang}), every violation by place:\n${summarize(places, found)}`);
      console.info(`${places.length} places audited: axe ${(spent.axe / 1000).toFixed(0)} s, navigating and loading ${(spent.navigation / 1000).toFixed(0)} s`);
      const failing = blocking(found);
      // the count, with every violation in the message (a deep-equality diff of them would bury it)
      expect(failing.length, `serious or critical violations (${lang}):\n${describeViolations(failing)}`).toBe(0);
      expect(tooWide, `places that scroll sideways at ${WINDOW.width} px (${lang})`).toEqual([]);
    });
  }
});
