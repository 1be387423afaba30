// End-to-end harness: starts the real server the way `npm start` does (its own port and data folder,
// serving the console globalSetup.ts built once) and drives Debian's Chromium with playwright-core.
// Every wait is on a condition bounded by the constants of ./timeouts.ts, never a fixed sleep; every
// test gets a fresh browser context (empty localStorage, so no react-admin store, no session).
import { spawn, type ChildProcess } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { createServer } from 'node:net';
import { chromium, type Browser, type BrowserContext, type BrowserContextOptions, type Page } from 'playwright-core';
import { expect, inject } from 'vitest';
import { LOCK_FILE } from '../../server/dataFolderLock';
import { SERVER_START_TIMEOUT, UI_TIMEOUT } from './timeouts';

export { SERVER_START_TIMEOUT, UI_TIMEOUT };

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export const ROOT = join(import.meta.dirname, '..', '..');

/** Whether the browser suite can run here; in CI a missing browser is a failure, not a skip. */
export const browserAvailable = (): boolean => {
  if (existsSync(CHROMIUM)) return true;
  const message = `Chromium not found at ${CHROMIUM}: the end-to-end suite is SKIPPED (install Debian's chromium package).`;
  if (process.env.CI === 'true') throw new Error(message.replace('is SKIPPED', 'cannot run in CI'));
  console.warn(`\n\u26a0  ${message}\n`);
  return false;
};

export const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });

export interface RunningServer {
  url: string;
  port: number;
  dataDir: string;
  stop: () => Promise<void>;
  output: () => string;
}

/**
 * Starts `server/server.ts` on a free port, serving the console built by globalSetup.ts, with a data folder of
 * its own: a copy of the folder globalSetup.ts started once (with or without the demo fleet, as DEMO_FLEET says).
 */
export const startServer = async (env: Record<string, string> = {}): Promise<RunningServer> => {
  // A port found free is free again until the server binds it, and a suite running beside may take it meanwhile:
  // the server then exits on EADDRINUSE, and starts again on other ports.
  for (let attempt = 1; ; attempt++) {
    const ports = { PORT: String(await freePort()), ...(env.MQTT_PORT === FREE_PORT ? { MQTT_PORT: String(await freePort()) } : {}) };
    try {
      return await startServerOnce({ ...env, ...ports });
    } catch (error) {
      if (!(error instanceof PortTaken) || attempt === 3) throw error;
      console.info(`e2e server: ${error.message}; starting again on other ports`);
    }
  }
};

/** As MQTT_PORT: the embedded broker listens on a port found free at each start. */
export const FREE_PORT = 'free';

class PortTaken extends Error {}

const startServerOnce = async (env: Record<string, string>): Promise<RunningServer> => {
  const port = Number(env.PORT);
  const dataDir = mkdtempSync(join(tmpdir(), 'rvm-e2e-'));
  const templates = inject('dataTemplates');
  const template = { ...process.env, ...env }.DEMO_FLEET === '0' ? templates.empty : templates.demo;
  // without the template's lock file: its server has ended, and this one takes the copy's
  cpSync(template, dataDir, { recursive: true, filter: (source) => basename(source) !== LOCK_FILE });
  let output = '';
  const started = Date.now();
  // --report-on-signal: a server that does not come up is asked (SIGUSR2) where it is stuck
  const reportArgs = ['--report-on-signal', '--report-signal=SIGUSR2', `--report-directory=${dataDir}-report`, '--report-compact'];
  const child: ChildProcess = spawn(process.execPath, [...reportArgs, '--import', 'tsx', 'server/server.ts'], {
    cwd: ROOT,
    env: { ...process.env, HOST: '127.0.0.1', DATA_DIR: dataDir, DATABASE_URL: '', STATIC_DIR: inject('consoleDir'), ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + SERVER_START_TIMEOUT;
  const giveUp = async (message: string) => {
    if (child.exitCode === null) child.kill('SIGKILL');
    rmSync(dataDir, { recursive: true, force: true });
    rmSync(`${dataDir}-report`, { recursive: true, force: true });
    return new Error(message);
  };
  for (;;) {
    if (child.exitCode !== null) {
      const error = await giveUp(`server exited early:\n${output}`);
      throw /EADDRINUSE/.test(output) ? new PortTaken(`a port of ${JSON.stringify(env.MQTT_PORT ? [port, Number(env.MQTT_PORT)] : [port])} was taken`) : error;
    }
    try {
      const response = await fetch(`${url}/test-api/docs/json`, { signal: AbortSignal.timeout(UI_TIMEOUT) });
      // Unread, the answer (the whole API description) kept its connection busy to the end of the file, and the
      // server's shutdown waited on it until stop() killed it (30 s later, in most e2e files).
      await response.body?.cancel();
      // the answer may come from another server that took the port: this one says when it listens on it
      if (response.ok && output.includes(`RVM Console on ${url}/`)) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      const stack = await stuckAt(child, `${dataDir}-report`);
      throw await giveUp(`server did not start within ${SERVER_START_TIMEOUT} ms:\n${output}\n--- where it was:\n${stack}`);
    }
    // the polling interval of a condition (is it listening yet?), not a sleep standing in for one
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  console.info(`e2e server on ${url} started in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  return {
    url,
    port,
    dataDir,
    output: () => output,
    stop: async () => {
      if (child.exitCode === null) {
        const exited = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGINT');
        // a clean shutdown closes PGlite; after UI_TIMEOUT it is killed (its data folder is thrown away anyway)
        await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, UI_TIMEOUT))]);
        if (child.exitCode === null) child.kill('SIGKILL');
      }
      rmSync(dataDir, { recursive: true, force: true });
      rmSync(`${dataDir}-report`, { recursive: true, force: true });
    },
  };
};

/** The JavaScript stack and pending handles of a stuck server, from a Node diagnostic report. */
const stuckAt = async (child: ChildProcess, reportDir: string): Promise<string> => {
  child.kill('SIGUSR2');
  const deadline = Date.now() + UI_TIMEOUT;
  while (Date.now() < deadline) {
    const file = existsSync(reportDir) ? readdirSync(reportDir).find((name) => name.endsWith('.json')) : undefined;
    if (file) {
      try {
        const report = JSON.parse(readFileSync(join(reportDir, file), 'utf8')) as { javascriptStack?: { stack?: string[] }; libuv?: Array<{ type: string; is_active: boolean }> };
        const handles = (report.libuv ?? []).filter((handle) => handle.is_active).map((handle) => handle.type);
        return [...(report.javascriptStack?.stack ?? []), `active handles: ${handles.join(', ')}`].join('\n');
      } catch {
        // still being written
      }
    }
    await new Promise((resolve) => setTimeout(resolve, 250)); // polling for the report file
  }
  return '(no diagnostic report)';
};

export const launchBrowser = (): Promise<Browser> =>
  chromium.launch({
    executablePath: CHROMIUM,
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });

/**
 * A fresh browser context (no cookies, empty localStorage: no session and no react-admin store), its
 * actions and navigations bounded by UI_TIMEOUT. One per test, so one failure cannot leave state
 * (a half-open dialog, a selection, a language) to the next test.
 */
export const newContext = async (browser: Browser, options: BrowserContextOptions = {}): Promise<BrowserContext> => {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, acceptDownloads: true, ...options });
  context.setDefaultTimeout(UI_TIMEOUT);
  context.setDefaultNavigationTimeout(UI_TIMEOUT);
  return context;
};

/**
 * After a failed test (call from afterEach, before closing its contexts): a screenshot of every page
 * it left open, and where each page was, so a failure on a busy CI machine can be understood.
 */
export const keepEvidence = async (task: { name: string; result?: { errors?: unknown[] } }, contexts: Array<BrowserContext | undefined>) => {
  if (!task.result?.errors?.length) return;
  const slug = task.name.replace(/[^A-Za-z0-9]+/g, '-').slice(0, 60);
  const pages = contexts.flatMap((context) => context?.pages() ?? []);
  for (const [index, page] of pages.entries()) {
    console.error(`failed: "${task.name}", page ${index} was at ${page.url()}`);
    await page.screenshot({ path: join(ROOT, 'test-results', `FAILED-${slug}-${index}.png`), fullPage: true, timeout: UI_TIMEOUT }).catch(() => undefined);
  }
};

/** Polls `read` until it matches, for UI_TIMEOUT (the e2e project's expect.poll default, said once more here). */
export const eventually = <T>(read: () => T | Promise<T>) => expect.poll(read, { timeout: UI_TIMEOUT, interval: 100 });

/**
 * Reads localStorage, also while the page is between two documents (logout and forced logout reload
 * it; an evaluate during that answers "execution context destroyed"): such a read is retried.
 */
export const readStored = async (page: Page, key: string): Promise<string | null> => {
  let read: { value: string | null } | undefined;
  await eventually(async () => {
    read = await page
      .evaluate((name) => localStorage.getItem(name), key)
      .then(
        (value) => ({ value }),
        () => undefined,
      );
    return read !== undefined;
  }).toBe(true);
  return read!.value;
};

/**
 * Marks the current document, so a later `expectReloaded` can tell the page really was reloaded
 * (account switch and language switch reload after a delay: acting before that races the reload).
 */
export const markDocument = (page: Page) => page.evaluate(() => Object.assign(window, { __e2eMark: true }));
export const expectReloaded = async (page: Page) => {
  await eventually(() => page.evaluate(() => (window as { __e2eMark?: boolean }).__e2eMark ?? false).catch(() => true)).toBe(false);
  await page.waitForLoadState('load');
};

/**
 * Waits until the console shows the login page. Logouts reload the page, possibly while another
 * navigation is under way, so this polls the address instead of waiting for a single navigation.
 */
export const expectLoginPage = async (page: Page) => {
  await eventually(() => new URL(page.url()).pathname).toBe('/login');
  await page.locator('input[name="username"]').waitFor();
  await page.waitForLoadState('load');
};

/**
 * Where the e2e files save the screens they check, to be looked at (`E2E_SHOTS_DIR=/tmp/shots npm run test:e2e`):
 * unset, as in CI, none is saved (a full-page shot at two widths cost seconds per file; nobody looks at them there).
 */
export const SHOTS_ROOT = process.env.E2E_SHOTS_DIR?.trim() || undefined;

/** With E2E_SHOTS_DIR set, a full-page screenshot as <E2E_SHOTS_DIR>/<name>.png (`name` may name a folder: "ai/labeling-en"). */
export const shoot = async (page: Page, name: string) => {
  if (!SHOTS_ROOT) return;
  const path = join(SHOTS_ROOT, `${name}.png`);
  mkdirSync(dirname(path), { recursive: true });
  await page.screenshot({ path, fullPage: true, animations: 'disabled' });
};

/**
 * Waits until the page is still (fonts loaded, no finite animation or transition running: floating labels, dialogs and
 * menus fade and slide; endless ones such as a spinner are not waited for), then `shoot`s it.
 */
export const snap = async (page: Page, name: string) => {
  await page.evaluate(() => document.fonts.ready.then(() => undefined));
  const running = () =>
    page.evaluate(() => document.getAnimations().filter((animation) => animation.playState === 'running' && animation.effect?.getComputedTiming().endTime !== Infinity).length);
  await eventually(running).toBe(0);
  await shoot(page, name);
};

/** Calls the API directly (for arranging state), returning the envelope's payload or throwing its code. */
export const api = async <T = unknown>(
  server: RunningServer,
  method: string,
  path: string,
  { token, body, lang }: { token?: string; body?: unknown; lang?: string } = {},
): Promise<T> => {
  const response = await fetch(`${server.url}/test-api${path}`, {
    method,
    headers: {
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      ...(token ? { 'rvm-token': token } : {}),
      ...(lang ? { lang } : {}),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const envelope = (await response.json()) as { resCode: string; resMsg: string; resData: T };
  if (envelope.resCode !== '00000') throw Object.assign(new Error(`${envelope.resCode} ${envelope.resMsg}`), { code: envelope.resCode });
  return envelope.resData;
};

/** The seeded administrator (server/seed/seed.ts) and the password they must change at the first sign-in. */
export const SEEDED_ADMIN = { username: 'admin', password: 'Admin@123' } as const;

/**
 * Arranges state through the API as the seeded admin while leaving admin's forced first sign-in for
 * the test to walk. The server refuses every call of a user who must change their password (4007)
 * but the change itself, so admin changes the initial password to a temporary one, `arrange` runs with
 * a token of that, and an administrator reset puts the initial password back, to be changed at the
 * next sign-in again (the reset revokes every admin token, the one handed to `arrange` included).
 */
export const arrangeAsSeededAdmin = async <T>(server: RunningServer, arrange: (token: string) => Promise<T>): Promise<T> => {
  type Answer = { userId: number; tokenInfo: { tokenValue: string } };
  const temporary = 'Arrange#2026';
  const first = await api<Answer>(server, 'POST', '/login/login', { body: SEEDED_ADMIN });
  await api(server, 'PUT', `/user/password?password=${encodeURIComponent(temporary)}`, { token: first.tokenInfo.tokenValue, body: { oldPassword: SEEDED_ADMIN.password } });
  const { tokenValue } = (await api<Answer>(server, 'POST', '/login/login', { body: { username: SEEDED_ADMIN.username, password: temporary } })).tokenInfo;
  try {
    return await arrange(tokenValue);
  } finally {
    await api(server, 'PUT', '/user/resetPassword', { token: tokenValue, body: { id: first.userId, password: SEEDED_ADMIN.password } });
  }
};

export const cleanup = (path: string) => rmSync(path, { recursive: true, force: true });
export { existsSync };
