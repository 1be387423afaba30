// `npm run bench:frontend [-- --runs 3 --lighthouse-runs 3]` (also the last step of `npm run bench`): the
// console in a real browser (issue 8). A production build (`NODE_ENV=production vite build`) served by
// the real server (child process, PGlite, demo fleet), driven by Debian's headless Chromium:
//   - bytes per screen, cold cache: login, home (when its cards are usable, and with its charts), and the
//     first visit of each menu area with a screen (right after home, in-app navigation);
//   - LCP of login and home, cold (new browser context) and warm (same context, reload), and how many
//     requests a warm reload sends to the server at all (/assets/ is immutable: none should revalidate);
//   - Lighthouse's performance category (score, FCP, LCP, TBT, CLS) for login and home, desktop and mobile.
// Writes docs/benchmarks.md between <!-- frontend:start --> and <!-- frontend:end -->.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { chromium, type Browser, type BrowserContextOptions, type Page } from 'playwright-core';
import { freePort, pgliteStore, ROOT, startChildServer, type ChildServer } from '../tests/robust/childServer';
import { endProcessGroup } from '../tests/robust/processGroup';
import { largestContentfulPaint, lighthousePerformance, packageVersion, recordTraffic, type LighthouseFigures, type TrafficSummary } from './frontendBrowser';
import { renderFrontendSection, type AreaFigures, type LoadFigures } from './frontendReport';

const { values } = parseArgs({ options: { runs: { type: 'string', default: '3' }, 'lighthouse-runs': { type: 'string', default: '3' } } });
const RUNS = Number(values.runs);
const LIGHTHOUSE_RUNS = Number(values['lighthouse-runs']);
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const UI_TIMEOUT = 120_000;
const QUIET_MS = 750;
const PASSWORD = 'Bench#2026';
const CHROMIUM_ARGS = ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];

type StorageState = Exclude<BrowserContextOptions['storageState'], string | undefined>;
type Lang = 'en' | 'zh';

const median = (list: number[]) => [...list].sort((a, b) => a - b)[Math.floor((list.length - 1) / 2)];

const api = async <T>(server: ChildServer, method: string, path: string, body?: unknown, token?: string): Promise<T> => {
  const response = await fetch(`${server.url}/test-api${path}`, {
    method,
    headers: { 'content-type': 'application/json', ...(token ? { 'rvm-token': token } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const envelope = (await response.json()) as { resCode: string; resMsg: string; resData: T };
  if (envelope.resCode !== '00000') throw new Error(`${method} ${path}: ${envelope.resCode} ${envelope.resMsg}`);
  return envelope.resData;
};

/** The admin past the forced first change; answers a token and a machine id of the demo fleet. */
const prepareAdmin = async (server: ChildServer) => {
  type Login = { tokenInfo: { tokenValue: string } };
  const first = await api<Login>(server, 'POST', '/login/login', { username: 'admin', password: 'Admin@123' });
  await api(server, 'PUT', `/user/password?password=${encodeURIComponent(PASSWORD)}`, { oldPassword: 'Admin@123' }, first.tokenInfo.tokenValue);
  const second = await api<Login>(server, 'POST', '/login/login', { username: 'admin', password: PASSWORD });
  const machines = await api<{ list: Array<{ id: number }> }>(server, 'POST', '/rvm/page', { pageNum: 1, pageSize: 1 }, second.tokenInfo.tokenValue);
  if (!machines.list.length) throw new Error('the demo fleet has no machine');
  return { machineId: machines.list[0].id };
};

const signIn = async (page: Page, url: string) => {
  await page.goto(`${url}/login`);
  await page.locator('input[name="username"]').fill('admin');
  await page.locator('input[name="password"]').fill(PASSWORD);
  await page.locator('button[type="submit"]').click();
  await page.waitForURL('**/index/index');
};

const CARDS_USABLE = '[data-testid="machine-cards"], [data-testid="dashboard-empty"]';

/** The localStorage of `state` for `url`'s origin with the page language set. */
const withLang = (state: StorageState, url: string, lang: Lang): StorageState => {
  const origin = new URL(url).origin;
  const others = state.origins.filter((entry) => entry.origin !== origin);
  const own = state.origins.find((entry) => entry.origin === origin)?.localStorage.filter((item) => item.name !== 'lang') ?? [];
  return { cookies: state.cookies, origins: [...others, { origin, localStorage: [...own, { name: 'lang', value: lang }] }] };
};

/**
 * One page load, cold then warm (reload in the same context). `usable`: the element that shows the screen
 * can be used; `dataCall`: the call whose answer it shows (the scripts requested before that answer are
 * what it needs: what is requested afterwards, like the home's charts, is not).
 */
const measureLoad = async (browser: Browser, buildDir: string, url: string, storage: StorageState, ready: string, usable: string, dataCall?: RegExp) => {
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 }, storageState: storage });
  context.setDefaultTimeout(UI_TIMEOUT);
  try {
    const page = await context.newPage();
    const traffic = await recordTraffic(page, buildDir);
    const started = performance.now();
    await page.goto(url, { timeout: UI_TIMEOUT });
    await page.locator(usable).first().waitFor();
    const usableAt = performance.now();
    await page.locator(ready).first().waitFor();
    await traffic.quiet(QUIET_MS, UI_TIMEOUT);
    const cold = {
      usable: traffic.summary(0, dataCall ? traffic.markWhenFinished(dataCall) : undefined),
      loaded: traffic.summary(),
      lcp: await largestContentfulPaint(page),
      usableMs: usableAt - started,
    };
    const mark = traffic.mark();
    await page.reload({ timeout: UI_TIMEOUT });
    await page.locator(ready).first().waitFor();
    await traffic.quiet(QUIET_MS, UI_TIMEOUT);
    const warm = { loaded: traffic.summary(mark), lcp: await largestContentfulPaint(page) };
    await traffic.detach();
    return { cold, warm };
  } finally {
    await context.close();
  }
};

const loadFigures = async (browser: Browser, buildDir: string, url: string, storage: StorageState, ready: string, usable: string, dataCall?: RegExp): Promise<LoadFigures> => {
  const runs: Awaited<ReturnType<typeof measureLoad>>[] = [];
  for (let run = 0; run < RUNS; run++) runs.push(await measureLoad(browser, buildDir, url, storage, ready, usable, dataCall));
  const lcps = (pick: (run: (typeof runs)[number]) => number | null) => median(runs.map(pick).map((value) => value ?? Number.NaN));
  return {
    usable: runs[0].cold.usable,
    loaded: runs[0].cold.loaded,
    warm: runs[0].warm.loaded,
    coldLcp: lcps((run) => run.cold.lcp),
    warmLcp: lcps((run) => run.warm.lcp),
    usableMs: median(runs.map((run) => run.cold.usableMs)),
    runs: runs.length,
  };
};

interface Area {
  name: string;
  path: string;
  ready: string;
}

/** An area's first visit right after a cold home load: what its in-app navigation fetches. */
const measureArea = async (browser: Browser, buildDir: string, url: string, storage: StorageState, area: Area): Promise<TrafficSummary> => {
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 }, storageState: storage });
  context.setDefaultTimeout(UI_TIMEOUT);
  try {
    const page = await context.newPage();
    const traffic = await recordTraffic(page, buildDir);
    await page.goto(`${url}/index/index`, { timeout: UI_TIMEOUT });
    await page.locator(CARDS_USABLE).first().waitFor();
    await traffic.quiet(QUIET_MS, UI_TIMEOUT);
    const mark = traffic.mark();
    // in-app navigation (the router follows popstate), as a click in the menu would do
    await page.evaluate((path) => {
      window.history.pushState(null, '', path);
      window.dispatchEvent(new PopStateEvent('popstate'));
    }, area.path);
    await page.locator(area.ready).first().waitFor();
    await traffic.quiet(QUIET_MS, UI_TIMEOUT);
    const summary = traffic.summary(mark);
    await traffic.detach();
    return summary;
  } finally {
    await context.close();
  }
};

/** Waits (bounded) until Chromium answers on its DevTools port. */
const devToolsListening = async (port: number) => {
  const deadline = Date.now() + UI_TIMEOUT;
  for (;;) {
    if (
      await fetch(`http://127.0.0.1:${port}/json/version`).then(
        (response) => response.ok,
        () => false,
      )
    )
      return;
    if (Date.now() > deadline) throw new Error(`Chromium did not open DevTools port ${port}`);
    await new Promise((resolve) => setTimeout(resolve, 100)); // polling interval of the condition
  }
};

/** Lighthouse (its own Chromium with a DevTools port): login first (storage reset), then home signed in, cache cleared before each run. */
const lighthouseFigures = async (url: string) => {
  const port = await freePort();
  const profile = mkdtempSync(join(tmpdir(), 'rvm-bench-lighthouse-'));
  const chrome: ChildProcess = spawn(
    CHROMIUM,
    ['--headless=new', `--remote-debugging-port=${port}`, `--user-data-dir=${profile}`, '--window-size=1440,900', ...CHROMIUM_ARGS, 'about:blank'],
    { stdio: 'ignore', detached: true },
  );
  const results: Record<string, Record<'desktop' | 'mobile', LighthouseFigures[]>> = { login: { desktop: [], mobile: [] }, home: { desktop: [], mobile: [] } };
  try {
    await devToolsListening(port);
    for (const formFactor of ['desktop', 'mobile'] as const) {
      for (let run = 0; run < LIGHTHOUSE_RUNS; run++) results.login[formFactor].push(await lighthousePerformance(`${url}/login`, port, formFactor, false));
    }
    const browser = await chromium.connectOverCDP(`http://127.0.0.1:${port}`, { timeout: UI_TIMEOUT });
    const page = await browser.contexts()[0].newPage();
    page.setDefaultTimeout(UI_TIMEOUT);
    await signIn(page, url);
    await page.locator(CARDS_USABLE).first().waitFor();
    const cdp = await page.context().newCDPSession(page);
    await page.goto('about:blank');
    for (const formFactor of ['desktop', 'mobile'] as const) {
      for (let run = 0; run < LIGHTHOUSE_RUNS; run++) {
        // a cold load (the session in localStorage stays: disableStorageReset)
        await cdp.send('Network.clearBrowserCache');
        const figures = await lighthousePerformance(`${url}/index/index`, port, formFactor, true);
        if (new URL(figures.finalUrl).pathname !== '/index/index') throw new Error(`lighthouse home ended at ${figures.finalUrl}`);
        results.home[formFactor].push(figures);
      }
    }
    await browser.close().catch(() => undefined);
  } finally {
    // the profile is removed once Chromium and its helper processes are gone (they write to it until then)
    if (chrome.pid) await endProcessGroup(chrome.pid, UI_TIMEOUT);
    rmSync(profile, { recursive: true, force: true, maxRetries: 5 });
  }
  return results;
};

const main = async () => {
  const loadAtStart = loadavg()[0];
  const buildDir = mkdtempSync(join(tmpdir(), 'rvm-bench-console-'));
  const buildCommand = ['vite', 'build', '--logLevel', 'warn', '--outDir', buildDir, '--emptyOutDir'];
  console.info(`building the console: NODE_ENV=production npx ${buildCommand.join(' ')}`);
  const build = spawnSync('npx', buildCommand, { cwd: ROOT, stdio: 'inherit', env: { ...process.env, NODE_ENV: 'production' } });
  if (build.status !== 0) throw new Error('the console build failed');

  const store = pgliteStore();
  const server = await startChildServer(store, { STATIC_DIR: buildDir, DEMO_FLEET: '1' }, 300_000);
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
  try {
    const { machineId } = await prepareAdmin(server);
    const setup = await browser.newContext();
    setup.setDefaultTimeout(UI_TIMEOUT);
    const setupPage = await setup.newPage();
    await signIn(setupPage, server.url);
    await setupPage.locator(CARDS_USABLE).first().waitFor();
    const signedIn = await setup.storageState();
    await setup.close();
    const signedOut: StorageState = { cookies: [], origins: [] };

    const loads: Record<string, LoadFigures> = {};
    for (const lang of ['en', 'zh'] as const) {
      console.info(`login and home (${lang}), ${RUNS} runs each`);
      loads[`login-${lang}`] = await loadFigures(
        browser,
        buildDir,
        `${server.url}/login`,
        withLang(signedOut, server.url, lang),
        'button[type="submit"]',
        'input[name="password"]',
      );
      loads[`home-${lang}`] = await loadFigures(
        browser,
        buildDir,
        `${server.url}/index/index`,
        withLang(signedIn, server.url, lang),
        CARDS_USABLE,
        CARDS_USABLE,
        /\/test-api\/dashboard\b/,
      );
    }

    const areas: Area[] = [
      { name: 'search', path: '/search/search', ready: 'main h1:visible' },
      { name: 'installation › fleet management', path: '/installation/fleetManagement', ready: 'main h1:visible' },
      { name: 'installation › machine page', path: `/installation/rvmpage/${machineId}`, ready: '[data-testid="machine-page"]' },
      { name: 'home › quarantine overview', path: '/index/quarantineOverview', ready: 'main h1:visible' },
      { name: 'reports › report', path: '/reports/report', ready: 'main h1:visible' },
      { name: 'service › performance', path: '/service/performance', ready: 'main h1:visible' },
      { name: 'system settings › users', path: '/systemSettings/user', ready: 'main table tbody tr' },
    ];
    const areaFigures: AreaFigures[] = [];
    for (const area of areas) {
      console.info(`first visit: ${area.name}`);
      areaFigures.push({ name: area.name, path: area.path, traffic: await measureArea(browser, buildDir, server.url, withLang(signedIn, server.url, 'en'), area) });
    }

    console.info(`lighthouse, ${LIGHTHOUSE_RUNS} runs per page and form factor`);
    const lighthouse = await lighthouseFigures(server.url);

    const environment = `${cpus().length} × ${cpus()[0]?.model.trim()}, load average (1 min) ${loadAtStart.toFixed(1)} at the start and ${loadavg()[0].toFixed(1)} at the end (the machine is shared: Lighthouse's TBT and LCP grow with the load), Node ${process.version}, ${browser.version().startsWith('1') ? 'Chromium ' : ''}${browser.version()} (headless, /usr/bin/chromium), vite ${packageVersion(ROOT, 'vite')}, lighthouse ${packageVersion(ROOT, 'lighthouse')}, playwright-core ${packageVersion(ROOT, 'playwright-core')}`;
    const section = renderFrontendSection({ loads, areas: areaFigures, lighthouse, environment, runs: RUNS, lighthouseRuns: LIGHTHOUSE_RUNS });
    console.info(section);
    const file = join(ROOT, 'docs', 'benchmarks.md');
    const previous = existsSync(file) ? readFileSync(file, 'utf8') : '# Benchmarks\n';
    const next = previous.includes('<!-- frontend:start -->')
      ? previous.replace(/<!-- frontend:start -->[\s\S]*<!-- frontend:end -->/, () => section)
      : `${previous.trimEnd()}\n\n${section}\n`;
    writeFileSync(file, next);
    console.info(`written to ${file}`);
  } finally {
    await browser.close().catch(() => undefined);
    await server.stop();
    await store.drop();
    rmSync(buildDir, { recursive: true, force: true });
  }
};

await main();
