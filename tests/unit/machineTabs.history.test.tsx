// @vitest-environment jsdom
// The machine page's history-like tabs against a fake server: StatusHistory and OnlineOfflineHistory
// (timeline shares and periods), ServiceSessions (outcome counts and filter), EventHistory (alarm
// texts, active alarms, filters), each with its empty state, and the time range they share.
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { format } from 'date-fns';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { callsTo, setupUser, t } from './consoleHarness';
import { headerTexts, rowTexts } from './domHelpers';
import { pageOf, renderMachinePage } from './machineHarness';

vi.setConfig({ testTimeout: 60_000 });
const WAIT = { timeout: 20_000 };
afterEach(() => cleanup());

const HOUR = 3_600_000;
const shown = (time: number) => format(time, 'yyyy-MM-dd HH:mm:ss');
const NOW = Date.now();
const duration = (...parts: Array<[string, number]>) => parts.map(([unit, count]) => t(`installation.duration.${unit}`, { count })).join(' ');

const STATUS_PAGE = pageOf(
  [
    { id: 2, status: 'Down', startTime: shown(NOW - 2 * HOUR), endTime: null, durationSeconds: 3700 },
    { id: 1, status: 'Up', startTime: shown(NOW - 27 * HOUR), endTime: shown(NOW - 2 * HOUR), durationSeconds: 90_000 },
  ],
  2,
  {
    timeline: [
      { status: 'Up', startTime: shown(NOW - 27 * HOUR), endTime: shown(NOW - 2 * HOUR), seconds: 90_000 },
      { status: 'Down', startTime: shown(NOW - 2 * HOUR), endTime: shown(NOW - HOUR), seconds: 3600 },
    ],
    secondsBy: { Up: 90_000, Down: 10_000 },
  },
);

const lastBody = (h: ReturnType<typeof renderMachinePage>, path: string) => callsTo(h.calls, 'POST', path).at(-1)?.body as Record<string, unknown>;

describe('StatusHistory and OnlineOfflineHistory tabs', () => {
  it('StatusHistory: each period with its status, start, end (or ongoing) and duration; the time per status', async () => {
    const h = renderMachinePage('/installation/rvmpage/5/StatusHistory', { handlers: { 'POST /rvmpage/statusHistory': STATUS_PAGE } });
    const table = await screen.findByRole('table', { name: t('fleet.history.status') }, WAIT);
    expect(headerTexts(table)).toEqual([t('fleet.history.status'), t('fleet.history.startTime'), t('fleet.history.endTime'), t('fleet.history.duration')]);
    expect(rowTexts(table)).toEqual([
      [t('fleet.statuses.Down'), shown(NOW - 2 * HOUR), t('fleet.history.ongoing'), duration(['h', 1], ['m', 1])],
      [t('fleet.statuses.Up'), shown(NOW - 27 * HOUR), shown(NOW - 2 * HOUR), duration(['d', 1], ['h', 1])],
    ]);
    const chart = screen.getByTestId('timeline-chart');
    expect(chart.dataset.bands).toBe('2');
    expect(within(chart).getByText(`${t('fleet.statuses.Up')}: 90% (${duration(['d', 1], ['h', 1])})`)).toBeTruthy();
    expect(within(chart).getByText(`${t('fleet.statuses.Down')}: 10% (${duration(['h', 2], ['m', 46])})`)).toBeTruthy();
    const body = lastBody(h, '/rvmpage/statusHistory');
    expect(body).toMatchObject({ id: 5, pageNum: 1, pageSize: 20 });
    // the default range: the last 7 days
    expect(Date.parse(String(body.to)) - Date.parse(String(body.from))).toBe(7 * 24 * HOUR);
  });

  it('OnlineOfflineHistory: online and offline periods', async () => {
    const answer = pageOf([{ id: 1, online: false, startTime: shown(NOW - HOUR), endTime: null, durationSeconds: 59 }], 1, {
      timeline: [],
      secondsBy: { true: 0, false: 59 },
    });
    renderMachinePage('/installation/rvmpage/5/OnlineOfflineHistory', { handlers: { 'POST /rvmpage/onlineOfflineHistory': answer } });
    const table = await screen.findByRole('table', { name: t('fleet.history.online') }, WAIT);
    expect(rowTexts(table)).toEqual([[t('fleet.online.false'), shown(NOW - HOUR), t('fleet.history.ongoing'), duration(['s', 59])]]);
    expect(screen.getByText(`${t('fleet.online.false')}: 100% (${duration(['s', 59])})`)).toBeTruthy();
  });

  it('a preset or a custom range loads that period; an end before the start is refused', async () => {
    const user = setupUser();
    const h = renderMachinePage('/installation/rvmpage/5/StatusHistory', { handlers: { 'POST /rvmpage/statusHistory': STATUS_PAGE } });
    await screen.findByRole('table', { name: t('fleet.history.status') }, WAIT);
    const presets = screen.getByRole('group', { name: t('installation.range.presets') });
    expect(
      within(presets)
        .getByRole('button', { name: t('installation.range.last7') })
        .getAttribute('aria-pressed'),
    ).toBe('true');
    await user.click(within(presets).getByRole('button', { name: t('installation.range.last1') }));
    await waitFor(() => {
      const body = lastBody(h, '/rvmpage/statusHistory');
      expect(Date.parse(String(body.to)) - Date.parse(String(body.from))).toBe(24 * HOUR);
    }, WAIT);

    const calls = callsTo(h.calls, 'POST', '/rvmpage/statusHistory').length;
    const from = screen.getByTestId('range-from');
    const to = screen.getByTestId('range-to');
    fireEvent.change(from, { target: { value: '2025-03-02 10:00' } });
    fireEvent.change(to, { target: { value: '2025-03-01 10:00' } });
    await user.click(screen.getByRole('button', { name: t('installation.range.apply') }));
    expect(await screen.findByText(t('validation.endAfterStart'), {}, WAIT)).toBeTruthy();
    expect(callsTo(h.calls, 'POST', '/rvmpage/statusHistory')).toHaveLength(calls);

    fireEvent.change(to, { target: { value: '2025-03-03 10:00' } });
    await user.click(screen.getByRole('button', { name: t('installation.range.apply') }));
    await waitFor(
      () =>
        expect(lastBody(h, '/rvmpage/statusHistory')).toMatchObject({
          from: new Date(2025, 2, 2, 10, 0).toISOString(),
          to: new Date(2025, 2, 3, 10, 0).toISOString(),
          pageNum: 1,
        }),
      WAIT,
    );
    expect(screen.queryByText(t('validation.endAfterStart'))).toBeNull();
    expect(
      within(presets)
        .getByRole('button', { name: t('installation.range.last7') })
        .getAttribute('aria-pressed'),
    ).toBe('false');
  });
});

describe('ServiceSessions tab', () => {
  it('lists the visits with their cleaning outcome, counts per outcome, and filters by outcome', async () => {
    const user = setupUser();
    const visit = {
      id: 1,
      technician: 'Tam',
      startTime: '2025-03-01 09:00:00',
      endTime: '2025-03-01 09:20:00',
      durationSeconds: 1200,
      cleaningOutcome: 'aborted',
      binsEmptied: 2,
      note: 'door stuck',
    };
    const h = renderMachinePage('/installation/rvmpage/5/ServiceSessions', {
      handlers: { 'POST /rvmpage/serviceSessions': pageOf([visit], 1, { byOutcome: { completed: 3, aborted: 1 } }) },
    });
    const table = await screen.findByRole('table', { name: t('menu.ServiceSessions') }, WAIT);
    expect(rowTexts(table)).toEqual([['Tam', '2025-03-01 09:00:00', '2025-03-01 09:20:00', duration(['m', 20]), t('fleet.cleaningOutcomes.aborted'), '2', 'door stuck']]);
    for (const [outcome, count] of [
      ['completed', 3],
      ['aborted', 1],
      ['failed', 0],
    ] as const) {
      expect(screen.getByText(`${t(`fleet.cleaningOutcomes.${outcome}`)}: ${count}`)).toBeTruthy();
    }
    expect(lastBody(h, '/rvmpage/serviceSessions')).toMatchObject({ id: 5, cleaningOutcome: null });
    await user.click(screen.getByRole('combobox', { name: t('fleet.serviceSession.cleaningOutcome') }));
    await user.click(await screen.findByRole('option', { name: t('fleet.cleaningOutcomes.failed') }, WAIT));
    await waitFor(() => expect(lastBody(h, '/rvmpage/serviceSessions')).toMatchObject({ cleaningOutcome: 'failed', pageNum: 1 }), WAIT);
  });
});

describe('EventHistory tab', () => {
  it("shows each alarm in the catalogue's words, marks active ones, and filters", async () => {
    const user = setupUser();
    const events = [
      { id: 2, code: 'am_code_PK_4', category: 'bin', severity: 'warning', blocking: false, raisedTime: '2025-03-01 09:00:00', clearedTime: null, detail: 'bin 1' },
      { id: 1, code: 'am_code_PK_1', category: 'bin', severity: 'error', blocking: true, raisedTime: '2025-03-01 08:00:00', clearedTime: '2025-03-01 08:30:00', detail: null },
    ];
    const h = renderMachinePage('/installation/rvmpage/5/EventHistory', { handlers: { 'POST /rvmpage/eventHistory': pageOf(events) } });
    const table = await screen.findByRole('table', { name: t('menu.EventHistory') }, WAIT);
    expect(rowTexts(table)).toEqual([
      [
        'am_code_PK_4',
        t('fleet.alarms.am_code_PK_4'),
        t('fleet.alarmCategories.bin'),
        t('fleet.severities.warning'),
        '2025-03-01 09:00:00',
        t('installation.events.active'),
        'bin 1',
      ],
      ['am_code_PK_1', t('fleet.alarms.am_code_PK_1'), t('fleet.alarmCategories.bin'), t('fleet.severities.error'), '2025-03-01 08:00:00', '2025-03-01 08:30:00', ''],
    ]);
    expect(lastBody(h, '/rvmpage/eventHistory')).toMatchObject({ id: 5, category: null, severity: null, openOnly: null });

    await user.click(screen.getByLabelText(t('fleet.event.open'))); // a switch
    await waitFor(() => expect(lastBody(h, '/rvmpage/eventHistory')).toMatchObject({ openOnly: true }), WAIT);
    await user.click(screen.getByRole('combobox', { name: t('fleet.event.severity') }));
    await user.click(await screen.findByRole('option', { name: t('fleet.severities.error') }, WAIT));
    await waitFor(() => expect(lastBody(h, '/rvmpage/eventHistory')).toMatchObject({ openOnly: true, severity: 'error' }), WAIT);
  });
});

describe('empty periods', () => {
  it.each([
    ['StatusHistory', '/rvmpage/statusHistory', { timeline: [], secondsBy: {} }],
    ['OnlineOfflineHistory', '/rvmpage/onlineOfflineHistory', { timeline: [], secondsBy: {} }],
    ['ServiceSessions', '/rvmpage/serviceSessions', { byOutcome: {} }],
    ['EventHistory', '/rvmpage/eventHistory', {}],
  ])('%s says there is nothing in the period', async (tab, path, extra) => {
    renderMachinePage(`/installation/rvmpage/5/${tab}`, { handlers: { [`POST ${path}`]: pageOf([], 0, extra) } });
    expect(await screen.findByText(t('installation.common.emptyRange'), {}, WAIT)).toBeTruthy();
    expect(rowTexts(screen.getByRole('table'))).toEqual([]);
  });
});
