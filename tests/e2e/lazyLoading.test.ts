// Issue 8, front end: the login page downloads a small light entry (≤ 150 kB of gzipped JavaScript: no
// react-admin, no screens, the texts of the page's language only), each menu area's code arrives as its own named chunk on the first
// visit, and a chunk that fails to load shows the chunk load error (docs/product-rules.md#error-catalogue) with a Reload that recovers.
// Bytes are measured as the server sends them gzipped (the build's precompressed .gz files), so they
// are deterministic for a given build.
import { get } from 'node:http';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { en } from '../../i18n/en';
import { zh } from '../../i18n/zh';
import { browserAvailable, keepEvidence, launchBrowser, newContext, shoot, startServer, type RunningServer } from './harness';
import { adminPastForcedChange } from './a11ySteps';
import { chunkNameOf } from '../../src/pages/chunkLoad';
import { UI_TIMEOUT } from './timeouts';

const ADMIN_PASSWORD = 'Lazy#2026';
// Issue 8's goals. Briefly raised to 152 and 310 kB when deployments and API hookups landed (login 150.6 kB, home
// 305.8/307.7 kB); back under them on 2026-11-27 (login 142.7 kB in English, 144.7 kB in Chinese; home 289.7/292.3 kB)
// by: the signed-out texts of the page's language only, as a chunk of their own (src/auth/publicI18n.ts); the console's
// catalogue in two parts, the shell's and the home's sections first and the screens' when a screen opens
// (src/providers/consoleI18n.ts, src/layout/ScreenTexts.tsx); the http client's date parser written out instead of
// date-fns'; the signed-out toast's snackbar loaded with the first toast. A new area's texts belong with its screens,
// not in the core sections of src/providers/messagesEn.ts.
const LOGIN_JS_BUDGET = 150_000;
const HOME_JS_BUDGET = 300_000;

/** Every script the page requested, in order (pathnames under /assets/). */
const watchScripts = (page: Page) => {
  const scripts: string[] = [];
  page.on('request', (request) => {
    const url = new URL(request.url());
    if (request.resourceType() === 'script' || url.pathname.endsWith('.js')) scripts.push(url.pathname);
  });
  return scripts;
};

/** Bytes on the wire of one file asked for with `accept-encoding: gzip` (node:http: fetch would decode it). */
const gzippedSize = (url: string) =>
  new Promise<{ status: number; encoding: string | undefined; bytes: number }>((resolve, reject) => {
    get(url, { headers: { 'accept-encoding': 'gzip' } }, (response) => {
      let bytes = 0;
      response.on('data', (chunk: Buffer) => (bytes += chunk.length));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, encoding: response.headers['content-encoding'], bytes }));
    }).on('error', reject);
  });

const gzippedBytes = async (server: RunningServer, paths: readonly string[]) => {
  let total = 0;
  for (const path of new Set(paths)) {
    const { status, encoding, bytes } = await gzippedSize(`${server.url}${path}`);
    expect([path, status, encoding]).toEqual([path, 200, 'gzip']);
    total += bytes;
  }
  return total;
};

describe.skipIf(!browserAvailable())('lazy loading by chunk', () => {
  let server: RunningServer;
  let browser: Browser;
  let context: BrowserContext | undefined;

  beforeAll(async () => {
    server = await startServer({ DEMO_FLEET: '0' });
    browser = await launchBrowser();
    await adminPastForcedChange(server, ADMIN_PASSWORD);
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

  const signIn = async (page: Page) => {
    await page.goto(`${server.url}/login`);
    await page.locator('input[name="username"]').fill('admin');
    await page.locator('input[name="password"]').fill(ADMIN_PASSWORD);
    await page.locator('button[type="submit"]').click();
    await page.waitForURL('**/index/index');
    await page.getByTestId('sidebar').waitFor();
  };

  it(`the login page loads at most ${LOGIN_JS_BUDGET / 1000} kB of gzipped JavaScript, none of the console's`, async () => {
    context = await newContext(browser);
    const page = await context.newPage();
    const scripts = watchScripts(page);
    const brotli: string[] = [];
    page.on('response', (response) => {
      if (response.url().endsWith('.js') && response.headers()['content-encoding'] === 'br') brotli.push(response.url());
    });
    await page.goto(`${server.url}/login`);
    await page.locator('input[name="username"]').waitFor();
    await page.waitForLoadState('networkidle');
    expect(scripts.length).toBeGreaterThan(0);
    // the browser gets brotli (precompressed at build time)
    expect(brotli.length).toBe(new Set(scripts).size);
    expect(scripts.filter((path) => /\/assets\/(console|area-|generic-views|home|messages-)/.test(path))).toEqual([]);
    // the signed-out texts of the page's language (English here), not the other's
    expect(scripts.filter((path) => path.includes('/assets/public-texts-')).map(chunkNameOf)).toEqual(['public-texts-en']);
    const bytes = await gzippedBytes(server, scripts);
    console.info(`login page JavaScript: ${bytes} bytes gzipped in ${new Set(scripts).size} files: ${[...new Set(scripts)].join(', ')}`);
    expect(bytes).toBeLessThanOrEqual(LOGIN_JS_BUDGET);
  });

  it("loads an area's chunk only when the area is first visited", async () => {
    context = await newContext(browser);
    const page = await context.newPage();
    const scripts = watchScripts(page);
    await signIn(page);
    // the home dashboard is shown (this server has no demo fleet: its empty state)
    await page.locator('[data-testid="machine-cards"], [data-testid="dashboard-empty"]').first().waitFor();
    const onHome = [...scripts];
    expect(onHome.some((path) => path.includes('/assets/console-'))).toBe(true);
    expect(onHome.filter((path) => path.includes('/assets/area-'))).toEqual([]);
    expect(onHome.map(chunkNameOf)).not.toContain('messages-en-screens');

    // The screen needs the screens' catalogue sections too: held back here until the screen's own chunk is
    // asked for, which happens only if the two are fetched together (not the chunk after the texts).
    const events: string[] = [];
    let searchAsked: () => void = () => undefined;
    const searchRequested = new Promise<void>((resolve) => (searchAsked = resolve));
    page.on('request', (request) => request.url().includes('/assets/area-search-') && (events.push('area-search asked'), searchAsked()));
    await page.route('**/assets/messages-en-screens-*.js', async (route) => {
      await Promise.race([searchRequested, new Promise((resolve) => setTimeout(resolve, UI_TIMEOUT))]);
      events.push('texts sent');
      await route.continue();
    });
    await page.locator('[data-menu-key="search"]').first().click();
    await page.waitForURL('**/search/search');
    await page.getByRole('heading', { level: 1, name: en.menu.search }).waitFor();
    expect(scripts.filter((path) => path.includes('/assets/area-')).map(chunkNameOf)).toEqual(['area-search']);
    expect(events).toEqual(['area-search asked', 'texts sent']);
  });

  it(`the home dashboard's cards are usable after at most ${HOME_JS_BUDGET / 1000} kB of gzipped JavaScript, in both languages`, async () => {
    context = await newContext(browser);
    await signIn(await context.newPage());
    const signedIn = await context.storageState();
    await context.close();
    for (const lang of ['en', 'zh'] as const) {
      // a cold load of the home page with a session (a new context: empty cache), in the page's language
      context = await newContext(browser, {
        storageState: {
          cookies: signedIn.cookies,
          origins: signedIn.origins.map((origin) => ({ ...origin, localStorage: [...origin.localStorage.filter((item) => item.name !== 'lang'), { name: 'lang', value: lang }] })),
        },
      });
      const page = await context.newPage();
      const requested = watchScripts(page);
      // the cards show the answer of GET /dashboard: what is requested after it (the charts) they do not need
      const beforeData = page.waitForResponse((response) => new URL(response.url()).pathname === '/test-api/dashboard').then(() => [...requested]);
      await page.goto(`${server.url}/index/index`);
      await page.locator('[data-testid="machine-cards"], [data-testid="dashboard-empty"]').first().waitFor();
      const scripts = await beforeData;
      expect(scripts.some((path) => path.includes('/assets/home-charts-'))).toBe(false);
      expect(scripts.map(chunkNameOf)).toContain(`messages-${lang}`);
      // the screens' catalogue sections come with the first screen that needs them, not with the cards
      expect(scripts.filter((path) => path.includes('-screens-'))).toEqual([]);
      const bytes = await gzippedBytes(server, scripts);
      console.info(`home (${lang}) JavaScript until the cards are usable: ${bytes} bytes gzipped in ${new Set(scripts).size} files`);
      expect(bytes).toBeLessThanOrEqual(HOME_JS_BUDGET);
      await context.close();
      context = undefined;
    }
  });

  for (const lang of ['en', 'zh'] as const) {
    it(`a chunk that fails to load shows the chunk load error with a Reload that recovers (${lang})`, async () => {
      const texts = { en, zh }[lang];
      context = await newContext(browser, { viewport: { width: 1280, height: 800 } });
      const page = await context.newPage();
      await page.goto(`${server.url}/login`);
      await page.evaluate((value) => localStorage.setItem('lang', value), lang);
      await signIn(page);
      // the search area's chunk cannot be fetched (network failure)
      await page.route('**/assets/area-search-*.js', (route) => route.abort('failed'));
      await page.locator('[data-menu-key="search"]').first().click();
      const error = page.getByTestId('chunk-load-error');
      await error.waitFor();
      await expect(error.textContent()).resolves.toContain(texts.app.chunkLoad.title);
      await expect(error.textContent()).resolves.toContain(texts.app.chunkLoad.script.replace('%{name}', 'area-search'));
      // the shell stays usable around it
      await expect(page.getByTestId('sidebar').isVisible()).resolves.toBe(true);
      for (const width of [1280, 1440]) {
        await page.setViewportSize({ width, height: 800 });
        await shoot(page, `frontend2/chunk-error-${lang}-${width}`);
      }

      // the network is back: Reload loads the screen
      await page.unroute('**/assets/area-search-*.js');
      await page.getByRole('button', { name: texts.app.chunkLoad.reload }).click();
      await page.getByRole('heading', { level: 1, name: texts.menu.search }).waitFor();
      await expect(error.count()).resolves.toBe(0);
    });
  }

  it('shows the login page in both languages (screenshots at 1280 and 1440 px)', async () => {
    context = await newContext(browser);
    const page = await context.newPage();
    for (const lang of ['en', 'zh'] as const) {
      await page.goto(`${server.url}/login`);
      await page.evaluate((value) => localStorage.setItem('lang', value), lang);
      await page.reload();
      await page.getByRole('button', { name: { en, zh }[lang].app.login.submit }).waitFor();
      for (const width of [1280, 1440]) {
        await page.setViewportSize({ width, height: 800 });
        await shoot(page, `frontend2/login-${lang}-${width}`);
      }
    }
  });
});
