// End-to-end harness: builds the console once, starts the real server the way `npm start` does
// (its own port and data folder), and drives Debian's Chromium with playwright-core.
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer } from 'node:net';
import { chromium, type Browser, type Page } from 'playwright-core';
import { expect } from 'vitest';

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

const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });

let built = false;
/** Builds the console into dist/ once per test run (the server serves it like `npm start`). */
export const buildConsole = () => {
  if (built || process.env.E2E_SKIP_BUILD === '1') return;
  execFileSync('npx', ['vite', 'build', '--logLevel', 'warn'], { cwd: ROOT, stdio: 'inherit' });
  built = true;
};

export interface RunningServer {
  url: string;
  port: number;
  dataDir: string;
  stop: () => Promise<void>;
  output: () => string;
}

/** Starts `server/server.ts` on a free port with a fresh PGlite data folder. */
export const startServer = async (env: Record<string, string> = {}): Promise<RunningServer> => {
  const port = await freePort();
  const dataDir = mkdtempSync(join(tmpdir(), 'rvm-e2e-'));
  let output = '';
  const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', 'server/server.ts'], {
    cwd: ROOT,
    env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, DATABASE_URL: '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 180_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited early:\n${output}`);
    try {
      const response = await fetch(`${url}/test-api/docs/json`);
      if (response.ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error(`server did not start in time:\n${output}`);
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  return {
    url,
    port,
    dataDir,
    output: () => output,
    stop: async () => {
      if (child.exitCode === null) {
        const exited = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGINT');
        await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 10_000))]);
        if (child.exitCode === null) child.kill('SIGKILL');
      }
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
};

export const launchBrowser = (): Promise<Browser> =>
  chromium.launch({
    executablePath: CHROMIUM,
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });

/**
 * Waits until the console shows the login page. Logouts reload the page, possibly while another
 * navigation is under way, so this polls the address instead of waiting for a single navigation.
 */
export const expectLoginPage = async (page: Page, timeout = 15_000) => {
  await expect.poll(() => new URL(page.url()).pathname, { timeout }).toBe('/login');
  await page.locator('input[name="username"]').waitFor({ timeout });
};

/** Saves a screenshot under test-results/ (looked at by developers, not asserted). */
export const snap = async (page: Page, name: string) => {
  await page.screenshot({ path: join(ROOT, 'test-results', `${name}.png`), fullPage: true });
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

export const cleanup = (path: string) => rmSync(path, { recursive: true, force: true });
export { existsSync };
