// Issue 12: Lighthouse's accessibility category scores 100 on the login page and on the home
// dashboard (desktop, the real server and the built console). Lighthouse drives its own Chromium
// over the DevTools protocol: this suite starts Debian's Chromium with a debugging port, signs in
// through a Playwright page connected to that same browser (the session lives in its localStorage,
// which Lighthouse is told to keep), then audits. Failing audits are printed with their elements.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import lighthouse from 'lighthouse';
import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signIn } from './consoleSteps';
import { api, browserAvailable, CHROMIUM, cleanup, freePort, startServer, UI_TIMEOUT, type RunningServer } from './harness';
import { settle } from './a11ySteps';
import { endProcessGroup } from '../robust/processGroup';

const ADMIN_PASSWORD = 'Light#2026';

interface LoginAnswer {
  tokenInfo: { tokenValue: string };
}

type Audited = NonNullable<Awaited<ReturnType<typeof lighthouse>>>['lhr'];

/** The accessibility audits that did not pass, with up to five elements each. */
const failures = (lhr: Audited): string[] =>
  Object.values(lhr.audits)
    .filter((audit) => audit.score !== null && audit.score < 1 && audit.scoreDisplayMode !== 'informative' && audit.scoreDisplayMode !== 'manual')
    .map((audit) => {
      const items = ((audit.details as { items?: Array<{ node?: { selector?: string; snippet?: string; explanation?: string } }> } | undefined)?.items ?? [])
        .slice(0, 5)
        .map((item) => `      ${item.node?.selector ?? ''} ${item.node?.snippet ?? ''}\n        ${(item.node?.explanation ?? '').replace(/\n/g, ' ')}`);
      return [`  ${audit.id} (score ${audit.score}): ${audit.title}`, ...items].join('\n');
    });

/** Waits (bounded by UI_TIMEOUT) until Chromium answers on its DevTools port. */
const devToolsListening = async (port: number) => {
  const deadline = Date.now() + UI_TIMEOUT;
  for (;;) {
    const answered = await fetch(`http://127.0.0.1:${port}/json/version`).then(
      (response) => response.ok,
      () => false,
    );
    if (answered) return;
    if (Date.now() > deadline) throw new Error(`Chromium did not open its DevTools port ${port} within ${UI_TIMEOUT} ms`);
    // the polling interval of a condition (is it listening yet?), not a sleep standing in for one
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
};

describe.skipIf(!browserAvailable())('lighthouse accessibility', () => {
  let server: RunningServer;
  let chrome: ChildProcess;
  let profile: string;
  let port: number;
  let browser: Browser;

  const audit = async (path: string) => {
    const result = await lighthouse(`${server.url}${path}`, {
      port,
      onlyCategories: ['accessibility'],
      formFactor: 'desktop',
      screenEmulation: { disabled: true },
      // keep the signed-in session (localStorage) of the browser's profile
      disableStorageReset: true,
      logLevel: 'error',
    });
    if (!result) throw new Error(`lighthouse gave no result for ${path}`);
    const { lhr } = result;
    const score = lhr.categories.accessibility.score;
    const failed = failures(lhr);
    console.info(`lighthouse accessibility ${path}: ${Math.round((score ?? 0) * 100)} (final URL ${lhr.finalDisplayedUrl})${failed.length ? `\n${failed.join('\n')}` : ''}`);
    return { score, failed, finalUrl: lhr.finalDisplayedUrl };
  };

  beforeAll(async () => {
    server = await startServer();
    const first = await api<LoginAnswer>(server, 'POST', '/login/login', { body: { username: 'admin', password: 'Admin@123' } });
    await api(server, 'PUT', `/user/password?password=${encodeURIComponent(ADMIN_PASSWORD)}`, { token: first.tokenInfo.tokenValue, body: { oldPassword: 'Admin@123' } });
    // Chromium with a DevTools port, for Lighthouse and Playwright alike (one profile, one session)
    port = await freePort();
    profile = mkdtempSync(join(tmpdir(), 'rvm-lighthouse-'));
    chrome = spawn(
      CHROMIUM,
      [
        '--headless=new',
        '--no-sandbox',
        `--remote-debugging-port=${port}`,
        `--user-data-dir=${profile}`,
        '--window-size=1440,900',
        '--no-first-run',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        'about:blank',
      ],
      // its own process group, so that every process it starts can be ended together
      { stdio: 'ignore', detached: true },
    );
    await devToolsListening(port);
    browser = await chromium.connectOverCDP(`http://127.0.0.1:${port}`, { timeout: UI_TIMEOUT });
  });

  afterAll(async () => {
    await browser?.close().catch(() => undefined);
    // Chromium's helper processes (zygotes, renderers, network and storage services) outlive its main one and keep writing into the profile:
    // the folder is removed only once the whole process group has ended.
    if (chrome?.pid) await endProcessGroup(chrome.pid, UI_TIMEOUT);
    if (profile) cleanup(profile);
    await server?.stop();
  });

  it('scores 100 on the login page and on the home dashboard', async () => {
    const login = await audit('/login');
    expect(new URL(login.finalUrl).pathname).toBe('/login');
    expect(login.score, `failing audits on /login:\n${login.failed.join('\n')}`).toBe(1);

    // Signed in through a page of the same browser: Lighthouse's tab finds the session in localStorage.
    const page = await browser.contexts()[0].newPage();
    page.setDefaultTimeout(UI_TIMEOUT);
    await signIn(page, server, 'admin', ADMIN_PASSWORD);
    await page.waitForURL('**/index/index');
    await settle(page);
    await page.close();

    const home = await audit('/index/index');
    expect(new URL(home.finalUrl).pathname).toBe('/index/index');
    expect(home.score, `failing audits on /index/index:\n${home.failed.join('\n')}`).toBe(1);
  });
});
