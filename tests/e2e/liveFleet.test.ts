// The live fleet end to end: the real server with its embedded MQTT gateway and a simulated fleet
// inside it (`SIMULATE`, as `npm start -- --simulate` runs it), the built console in Chromium.
// English: close a machine and see it offline on its page and the fleet list; a command to it waits and runs
// when it comes back; meanwhile another machine's restart reaches "executed successfully" without a reload.
// Chinese: a bulk "clear alarms" with its per-machine summary; a message from an unregistered machine
// is quarantined, retried from the quarantine screen once the machine exists, and leaves; an alarm
// produces a notification mail (the outbox, logged without SMTP).
import { randomUUID } from 'node:crypto';
import mqtt from 'mqtt';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { en } from '../../i18n/en';
import { zh } from '../../i18n/zh';
import { UP_TOPIC } from '../../server/gateway/protocol';
import { api, browserAvailable, eventually, FREE_PORT, launchBrowser, markDocument, newContext, snap, startServer, type RunningServer } from './harness';

const PASSWORD = 'Live#2026';
const SIMULATED = 6;

/** Waits that span machine behaviour (a restart, a reopen, the 30 s notification sweep), not just a render. */
const slowly = <T>(read: () => T | Promise<T>) => expect.poll(read, { timeout: 120_000, interval: 200 });
/**
 * A closed simulated machine comes back after this many simulated seconds (80 s here, at speed 2). What must fall inside
 * its absence: the command sent to it (two clicks on the open page), its title line's next load (every 15 s) and the
 * fleet list in a second tab, about 20 s on a quiet machine; a restart of another machine fills the rest of the wait.
 */
const REOPEN_SECONDS = 160;

interface MachineRow {
  id: number;
  termNo: string;
  serialNumber: string;
  termType: string;
  fleetId: number;
  currentSts: string;
  online: boolean;
}

describe.skipIf(!browserAvailable())('live fleet end to end', () => {
  let server: RunningServer;
  let browser: Browser;
  let token: string;
  let context: BrowserContext | undefined;
  /** Simulated machines, by id. */
  let simulated: MachineRow[] = [];

  const freshPage = async (lang: 'en' | 'zh') => {
    context = await newContext(browser, { viewport: { width: 1440, height: 900 } });
    const page = await context.newPage();
    await page.goto(`${server.url}/login`);
    await page.evaluate((value) => localStorage.setItem('lang', value), lang);
    await page.goto(`${server.url}/login`);
    await page.locator('input[name="username"]').fill('admin');
    await page.locator('input[name="password"]').fill(PASSWORD);
    await page.locator('button[type="submit"]').click();
    await page.waitForURL('**/index/index');
    return page;
  };
  const machine = (id: number) => api<MachineRow>(server, 'GET', `/rvm/${id}`, { token });
  /**
   * Opens the machine's remote control (its stream open, the document marked), sends `command` and waits until its row,
   * the newest, says "executed successfully" by itself; answers that row.
   */
  const executedLive = async (page: Page, id: number, command: 'close' | 'restart') => {
    await page.goto(`${server.url}/installation/rvmpage/${id}/RemoteControl`);
    await page.getByTestId('stream-state').and(page.locator('[data-state="open"]')).waitFor();
    await markDocument(page);
    await page.getByTestId(`action-${command}`).click();
    await page.getByTestId('command-send').click();
    const newest = page.getByTestId('command-history-table').locator('tbody tr').first();
    await newest.getByText(en.remote.commands[command]).waitFor();
    await slowly(() => newest.locator('[data-status]').getAttribute('data-status')).toBe('executedSuccessfully');
    return newest;
  };

  beforeAll(async () => {
    server = await startServer({
      MQTT_PORT: FREE_PORT,
      MQTT_HOST: '127.0.0.1',
      SIMULATE: String(SIMULATED),
      SIMULATE_SPEED: '2',
      SIMULATE_REOPEN_SECONDS: String(REOPEN_SECONDS),
    });
    browser = await launchBrowser();
    const first = await api<{ tokenInfo: { tokenValue: string } }>(server, 'POST', '/login/login', { body: { username: 'admin', password: 'Admin@123' } });
    await api(server, 'PUT', `/user/password?password=${encodeURIComponent(PASSWORD)}`, { token: first.tokenInfo.tokenValue, body: { oldPassword: 'Admin@123' } });
    token = (await api<{ tokenInfo: { tokenValue: string } }>(server, 'POST', '/login/login', { body: { username: 'admin', password: PASSWORD } })).tokenInfo.tokenValue;
    // The simulated machines: those with a gateway secret that are online.
    const page = await api<{ list: MachineRow[] }>(server, 'POST', '/rvm/page', { token, body: { pageNum: 1, pageSize: 100 } });
    const deadline = Date.now() + 120_000;
    while (simulated.length < SIMULATED) {
      if (Date.now() > deadline) throw new Error(`only ${simulated.length} of ${SIMULATED} simulated machines connected:\n${server.output().slice(-3000)}`);
      const states = await Promise.all(
        page.list.map(async (row) => ({ row, credential: await api<{ hasSecret: boolean; lastSeenTime: string | null }>(server, 'GET', `/rvm/${row.id}/credential`, { token }) })),
      );
      simulated = states.filter((state) => state.credential.hasSecret && state.credential.lastSeenTime).map((state) => state.row);
      // the polling interval of a condition (have the machines said hello yet?)
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  });

  afterEach(async () => {
    await context?.close();
    context = undefined;
  });

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('close takes a machine offline and a command waits for its return, while a restart runs live on another (en)', async () => {
    const closing = simulated[4];
    const page = await freshPage('en');

    // Close: executed, then the machine says goodbye and stays away for REOPEN_SECONDS (at speed 2).
    const newest = await executedLive(page, closing.id, 'close');
    await slowly(async () => (await machine(closing.id)).currentSts).toBe('Offline');

    // Open while it is away, on the same page: the command waits (with its expiry). Sent first, so that the
    // steps that must fall inside the machine's absence are few; the checks of its absence follow.
    await page.getByTestId('action-open').click();
    await page.getByTestId('command-send').click();
    await newest.getByText(en.remote.commands.open).waitFor();
    expect(await newest.locator('[data-status]').getAttribute('data-status')).toBe('notSent');
    await newest.getByTestId('command-waiting').waitFor();
    // The page's title line follows by itself (it loads again every 15 s), and the fleet list in another tab says so too.
    await slowly(() => page.getByTestId('machine-status').getAttribute('data-status')).toBe('Offline');
    const other = await page.context().newPage();
    await other.goto(`${server.url}/installation/fleetManagement`);
    const listRow = other.getByTestId('machine-list').locator('tr', { hasText: closing.termNo });
    await eventually(() => listRow.locator('[data-status]').first().getAttribute('data-status')).toBe('Offline');
    expect(await newest.locator('[data-status]').getAttribute('data-status')).toBe('notSent'); // still away
    await snap(other, 'live-offline-en');

    // While it is away, a restart of another machine runs live: its row comes first and moves to
    // "executed successfully" by itself, the page never reloading.
    const restartRow = await executedLive(other, simulated[0].id, 'restart');
    await expect(restartRow.getByText(en.remote.statuses.executedSuccessfully).isVisible()).resolves.toBe(true);
    expect(await other.evaluate(() => (window as unknown as { __e2eMark?: boolean }).__e2eMark)).toBe(true);
    await snap(other, 'live-restart-en');

    // The closed machine's return: up to REOPEN_SECONDS / 2 after its goodbye, plus the reconnect; the
    // waiting command runs then, and the title line shows it up again, the page never reloaded.
    await expect
      .poll(() => newest.locator('[data-status]').getAttribute('data-status'), { timeout: (REOPEN_SECONDS / 2) * 1000 + 120_000, interval: 200 })
      .toBe('executedSuccessfully');
    expect((await machine(closing.id)).online).toBe(true);
    await slowly(() => page.getByTestId('machine-status').getAttribute('data-status')).not.toBe('Offline');
    expect(await page.evaluate(() => (window as unknown as { __e2eMark?: boolean }).__e2eMark)).toBe(true);
  });

  it('bulk clear alarms with its summary, a quarantined message retried after its machine exists, an alarm mailed (zh)', async () => {
    const page = await freshPage('zh');

    // Bulk: select three simulated machines on the fleet list, send "clear alarms", watch the summary.
    await page.goto(`${server.url}/installation/fleetManagement`);
    const list = page.getByTestId('machine-list');
    for (const target of simulated.slice(1, 4)) await list.locator('tr', { hasText: target.termNo }).getByRole('checkbox').check();
    await page.getByTestId('bulk-remote-command').click();
    const dialog = page.getByRole('dialog');
    await dialog.getByRole('combobox').click();
    await page.getByRole('option', { name: zh.remote.commands.clearAlarms }).click();
    await dialog.getByTestId('command-send').click();
    const summary = dialog.getByTestId('batch-summary');
    await summary.waitFor();
    await eventually(() => summary.getByTestId('batch-total').textContent()).toContain('3');
    const executed = summary.getByTestId('batch-counts').locator('[data-status="executedSuccessfully"]');
    await slowly(() => executed.getAttribute('data-count')).toBe('3');
    await expect(executed.textContent()).resolves.toContain(zh.remote.statuses.executedSuccessfully);
    await snap(page, 'live-bulk-zh');
    await page.keyboard.press('Escape');

    // A notification rule for the alarm the unregistered machine will raise.
    const recipient = `ops-${randomUUID().slice(0, 8)}@example.com`;
    await api(server, 'POST', '/eventNotification', {
      token,
      body: { name: 'Door alarms', alarmCodes: 'am_code_PK_17', recipients: recipient, reminderHours: 0, notifyOnClear: true, enabled: true },
    });

    // An unregistered machine connects with the enrollment key; its session waits in the quarantine.
    const { enrollmentKey, machineUrl } = await api<{ enrollmentKey: string; machineUrl: string }>(server, 'POST', '/gateway/enrollment-key', { token });
    const serial = `NEW${Date.now().toString(36).toUpperCase()}`;
    let client = await mqtt.connectAsync(machineUrl, { clientId: serial, username: serial, password: enrollmentKey, reconnectPeriod: 0 });
    try {
      const send = (kind: string, body: Record<string, unknown>) =>
        client.publishAsync(UP_TOPIC(serial, kind), JSON.stringify({ v: 1, id: randomUUID(), ts: new Date().toISOString(), ...body }), { qos: 1 });
      await send('session', {
        sessionId: `S-${serial}`,
        startTime: new Date(Date.now() - 30_000).toISOString(),
        endTime: new Date().toISOString(),
        payoutMethod: 'receipt',
        totalRefund: 0.2,
        items: [{ seq: 1, itemType: 'can', refund: 0.2 }],
      });
      await page.goto(`${server.url}/index/quarantineOverview`);
      const quarantined = page.locator('table tbody tr', { hasText: serial });
      await quarantined.getByText(zh.fleet.quarantineReasons.unknownMachine).waitFor();

      // The operator registers the machine, then retries: the message is processed and leaves.
      const [fleetId] = [simulated[0].fleetId];
      const created = await api<{ id: number }>(server, 'POST', '/rvm', { token, body: { termNo: serial, serialNumber: serial, termType: 'H30', fleetId } });
      await page.getByTestId('retry-all').click();
      await eventually(() => quarantined.count()).toBe(0);
      const sessions = await api<{ list: Array<{ id: number }> }>(server, 'POST', '/rvmpage/consumerSessions', { token, body: { id: created.id, pageNum: 1, pageSize: 10 } });
      expect(sessions.list).toHaveLength(1);
      await snap(page, 'live-quarantine-zh');

      // Registered, the machine gets its own secret (the enrollment key never speaks for a machine);
      // its alarm is stored and the rule mails it (logged: no SMTP in tests).
      const { secret } = await api<{ secret: string }>(server, 'POST', `/rvm/${created.id}/credential`, { token });
      await client.endAsync(true);
      client = await mqtt.connectAsync(machineUrl, { clientId: serial, username: serial, password: secret, reconnectPeriod: 0 });
      await send('alarm', { code: 'am_code_PK_17', state: 'raised', detail: 'front door' });
      await slowly(() => server.output().includes(`"to":"${recipient}"`)).toBe(true);
      expect(server.output()).toMatch(new RegExp(`"to":"${recipient}"[^\\n]*${serial}`));
    } finally {
      await client.endAsync(true);
    }
  });
});
