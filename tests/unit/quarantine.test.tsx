// @vitest-environment jsdom
// The quarantine overview (docs/product-rules.md#screen-contents, /index/quarantineOverview) against a fake server:
// the list and its filters and paging, "retry all" (success, 9500 while a retry runs, a retry already
// running), load failures, and the permission that hides list and action.
import { cleanup, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { findMenuByKey } from '../../resources/menu';
import QuarantinePage from '../../src/quarantine/QuarantinePage';
import { ApiError } from '../../src/providers/httpTypes';
import { callsTo, consoleHarness, deferred, holding, setupUser, t, type ConsoleOptions } from './consoleHarness';
import { headerTexts, isDisabled, rowTexts } from './domHelpers';

vi.setConfig({ testTimeout: 60_000 });
const WAIT = { timeout: 20_000 };
afterEach(() => cleanup());

const NODE = findMenuByKey('quarantineOverview')!;
const IDLE = { running: false, startedTime: null, finishedTime: null, resolved: 0, remaining: 0 };
const MESSAGES = [
  {
    id: 1,
    causedBy: 'HK0001',
    messageType: 'status',
    content: '{"sts":"Up"}',
    receivedTime: '2025-03-01 10:00:00',
    reason: 'outOfOrder',
    value: '2025-02-28',
    retryCount: 2,
    lastRetryTime: null,
  },
  {
    id: 2,
    causedBy: 'ghost-7',
    messageType: 'hello',
    content: '{}',
    receivedTime: '2025-03-01 11:00:00',
    reason: 'unknownMachine',
    value: null,
    retryCount: 0,
    lastRetryTime: null,
  },
];
const page = (list = MESSAGES, total = list.length, retry: object = IDLE) => ({ list, total, retry });

const renderPage = (options: ConsoleOptions = {}) => {
  const h = consoleHarness({ ...options, handlers: { 'POST /quarantine/page': page(), ...options.handlers } });
  h.renderIn(<QuarantinePage node={NODE} />, '/index/quarantineOverview');
  return h;
};
const table = () => screen.findByRole('table', { name: t('menu.quarantineOverview') }, WAIT);
const retryAll = () => screen.getByRole('button', { name: t('fleet.quarantine.retryAll') });
const pageCalls = (h: ReturnType<typeof renderPage>) => callsTo(h.calls, 'POST', '/quarantine/page');

describe('quarantine list', () => {
  it('shows each message with its cause, type, content, time, reason and value, newest page first', async () => {
    const h = renderPage();
    expect(screen.getByRole('heading', { name: t('menu.quarantineOverview') })).toBeTruthy();
    const list = await table();
    expect(headerTexts(list)).toEqual(['causedBy', 'messageType', 'content', 'receivedTime', 'reason', 'value', 'retryCount'].map((key) => t(`fleet.quarantine.${key}`)));
    expect(rowTexts(list)).toEqual([
      ['HK0001', t('fleet.messageTypes.status'), '{"sts":"Up"}', '2025-03-01 10:00:00', t('fleet.quarantineReasons.outOfOrder'), '2025-02-28', '2'],
      ['ghost-7', t('fleet.messageTypes.hello'), '{}', '2025-03-01 11:00:00', t('fleet.quarantineReasons.unknownMachine'), '', '0'],
    ]);
    expect(pageCalls(h)[0].body).toEqual({ pageNum: 1, pageSize: 20, reason: null, messageType: null, causedBy: null });
  });

  it('says so when nothing is quarantined', async () => {
    renderPage({ handlers: { 'POST /quarantine/page': page([]) } });
    expect(await screen.findByText(t('installation.quarantine.empty'), {}, WAIT)).toBeTruthy();
  });

  it('filters by reason, message type and cause (each back to page 1), and pages', async () => {
    const user = setupUser();
    const h = renderPage({ handlers: { 'POST /quarantine/page': page(MESSAGES, 45) } });
    await table();
    await user.click(screen.getByRole('button', { name: t('ra.navigation.next') }));
    await waitFor(() => expect(pageCalls(h).at(-1)?.body).toMatchObject({ pageNum: 2 }), WAIT);

    await user.click(screen.getByRole('combobox', { name: t('fleet.quarantine.reason') }));
    await user.click(await screen.findByRole('option', { name: t('fleet.quarantineReasons.unknownMachine') }, WAIT));
    await waitFor(() => expect(pageCalls(h).at(-1)?.body).toMatchObject({ pageNum: 1, reason: 'unknownMachine' }), WAIT);

    await user.click(screen.getByRole('combobox', { name: t('fleet.quarantine.messageType') }));
    await user.click(await screen.findByRole('option', { name: t('fleet.messageTypes.hello') }, WAIT));
    await waitFor(() => expect(pageCalls(h).at(-1)?.body).toMatchObject({ reason: 'unknownMachine', messageType: 'hello' }), WAIT);

    await user.type(screen.getByRole('textbox', { name: t('fleet.quarantine.causedBy') }), '  ghost-7 ');
    await user.click(screen.getByRole('button', { name: t('installation.common.filter') }));
    await waitFor(() => expect(pageCalls(h).at(-1)?.body).toMatchObject({ causedBy: 'ghost-7', messageType: 'hello' }), WAIT);

    // "all" takes a filter away again
    await user.click(screen.getByRole('combobox', { name: t('fleet.quarantine.reason') }));
    await user.click(await screen.findByRole('option', { name: t('installation.common.all') }, WAIT));
    await waitFor(() => expect(pageCalls(h).at(-1)?.body).toMatchObject({ reason: null, causedBy: 'ghost-7' }), WAIT);
  });

  it('a failed load offers a retry that loads again', async () => {
    const user = setupUser();
    let fail = true;
    const h = renderPage({
      handlers: {
        'POST /quarantine/page': () => {
          if (fail) throw new ApiError('1000', 'boom');
          return page();
        },
      },
    });
    expect(await screen.findByText(t('installation.common.loadFailed'), {}, WAIT)).toBeTruthy();
    fail = false;
    await user.click(screen.getByRole('button', { name: t('installation.common.retry') }));
    expect(rowTexts(await table())).toHaveLength(2);
    expect(pageCalls(h)).toHaveLength(2);
  });
});

describe('retry all', () => {
  it('is refused while it runs, then reports what was accepted and reloads the list', async () => {
    const user = setupUser();
    const answer = deferred<object>();
    const h = renderPage({ handlers: { 'POST /quarantine/retryAll': () => answer.promise } });
    await table();
    await user.click(retryAll());
    await waitFor(() => expect(isDisabled(retryAll())).toBe(true), WAIT);
    expect(callsTo(h.calls, 'POST', '/quarantine/retryAll')).toHaveLength(1);
    answer.resolve({ running: false, startedTime: '2025-03-01 12:00:00', finishedTime: '2025-03-01 12:00:05', resolved: 3, remaining: 1 });
    expect(await screen.findByText(t('installation.quarantine.retryDone', { resolved: 3, remaining: 1 }), {}, WAIT)).toBeTruthy();
    await waitFor(() => expect(pageCalls(h)).toHaveLength(2), WAIT);
    await waitFor(() => expect(isDisabled(retryAll())).toBe(false), WAIT);
  });

  it("a retry already running on the server (9500) is told in the catalogue's words", async () => {
    const user = setupUser();
    const h = renderPage({
      handlers: {
        'POST /quarantine/retryAll': () => {
          throw new ApiError('9500', 'busy');
        },
      },
    });
    await table();
    await user.click(retryAll());
    expect(await screen.findByText(new RegExp(t('errors.9500')), {}, WAIT)).toBeTruthy();
    expect(screen.queryByText(/Retry finished/)).toBeNull();
    await waitFor(() => expect(pageCalls(h)).toHaveLength(2), WAIT);
  });

  it('shows a running retry and the last run, and offers no second one meanwhile', async () => {
    const running = { running: true, startedTime: '2025-03-01 12:00:00', finishedTime: null, resolved: 0, remaining: 2 };
    renderPage({ handlers: { 'POST /quarantine/page': page(MESSAGES, 2, running) } });
    expect(await screen.findByText(t('installation.quarantine.running', { time: '2025-03-01 12:00:00' }), {}, WAIT)).toBeTruthy();
    expect(isDisabled(retryAll())).toBe(true);
    cleanup();

    const finished = { running: false, startedTime: '2025-03-01 12:00:00', finishedTime: '2025-03-01 12:00:05', resolved: 1, remaining: 1 };
    renderPage({ handlers: { 'POST /quarantine/page': page(MESSAGES, 2, finished) } });
    const lastRun = t('installation.quarantine.lastRun', { time: '2025-03-01 12:00:05', resolved: 1, remaining: 1 });
    expect(await screen.findByText(lastRun, {}, WAIT)).toBeTruthy();
    expect(isDisabled(retryAll())).toBe(false);
  });
});

describe('quarantine permission', () => {
  it('without home:quarantineOverview: no list, no retry, no call', async () => {
    const h = renderPage({ user: holding('search') });
    expect(await screen.findByText(t('app.noPermission.message'), {}, WAIT)).toBeTruthy();
    expect(screen.queryByRole('button', { name: t('fleet.quarantine.retryAll') })).toBeNull();
    expect(screen.queryByRole('table')).toBeNull();
    expect(pageCalls(h)).toHaveLength(0);
  });

  it('with it (no superAdmin needed): the list and retry all', async () => {
    renderPage({ user: holding('home:quarantineOverview') });
    await table();
    expect(retryAll()).toBeTruthy();
    expect(screen.queryByText(t('app.noPermission.message'))).toBeNull();
  });
});
