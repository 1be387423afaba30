// @vitest-environment jsdom
// The machine page's RemoteControl tab against a fake server: actions by model, the parameter form
// (client validation in en and zh, the server's refusal in the dialog), sending, the live history.
import { cleanup, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { catalogues } from '../../i18n';
import { COMMAND_GROUPS, REMOTE_COMMANDS } from '../../resources/commands';
import { RemoteControlTab } from '../../src/installation/machine/RemoteControlTab';
import { ApiError } from '../../src/providers/httpTypes';
import { commandRecord, fakeStream, harness, REMOTE_ONLY, type HarnessOptions } from './remoteHarness';

const MACHINE = { id: 5, termNo: 'HK0005', termType: 'S1', binEmptyHeight: 120, binFullHeight: 30, binAlmostFull: 80, binAlreadyFull: 95, onTime: '07:00', offTime: '22:00' };
const WAIT = { timeout: 5000 };
let stream: ReturnType<typeof fakeStream>;
// jsdom renders of MUI are slow on a shared machine: generous limits, never fixed sleeps.
vi.setConfig({ testTimeout: 30_000 });

beforeEach(() => {
  stream = fakeStream();
  vi.stubGlobal('fetch', stream.fetch);
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const page = (list: object[]) => ({ list, total: list.length, pageNum: 1, pageSize: 10 });

const renderTab = (options: HarnessOptions & { machine?: object; history?: object[] } = {}) => {
  const h = harness({
    ...options,
    handlers: {
      'GET /rvm/5': options.machine ?? MACHINE,
      'POST /rvm/command/page': page(options.history ?? []),
      ...options.handlers,
    },
  });
  render(h.wrap(<RemoteControlTab />));
  return h;
};

const en = catalogues.en;
const disabled = (element: HTMLElement) => (element as HTMLButtonElement).disabled;
const zh = catalogues.zh;

describe('RemoteControl tab: actions by model', () => {
  it('disables what the S1 does not support, with a tooltip saying why, and offers the rest', async () => {
    const user = userEvent.setup();
    renderTab();
    await waitFor(() => expect(disabled(screen.getByTestId('action-binHeight'))).toBe(true), WAIT);
    expect(disabled(screen.getByTestId('action-restartC750'))).toBe(true);
    expect(disabled(screen.getByTestId('action-restart'))).toBe(false);
    expect(disabled(screen.getByTestId('action-setOnOffTime'))).toBe(false);
    // every command of the catalogue (the 12 remote control actions), grouped
    expect(screen.getAllByRole('group')).toHaveLength(COMMAND_GROUPS.length);
    expect(screen.getAllByRole('button', { name: /.+/ }).filter((button) => button.dataset.testid?.startsWith('action-'))).toHaveLength(REMOTE_COMMANDS.length);
    await user.hover(screen.getByTestId('unsupported-binHeight'));
    expect((await screen.findByRole('tooltip', {}, WAIT)).textContent).toContain('The model S1 does not support this command.');
  });

  it('offers the C750 restart and bin heights on an H30', async () => {
    renderTab({ machine: { ...MACHINE, termType: 'H30' } });
    await waitFor(() => expect(disabled(screen.getByTestId('action-restartC750'))).toBe(false), WAIT);
    expect(disabled(screen.getByTestId('action-binHeight'))).toBe(false);
    expect(screen.queryByTestId('unsupported-restartC750')).toBeNull();
  });

  it('reads the model from the Overview when that is all the user may call', async () => {
    const h = renderTab({
      userInfo: { superAdmin: false, permissions: [...REMOTE_ONLY.permissions, { id: 2, identifier: 'installation:rvmpage:Overview' }] },
      handlers: { 'GET /rvmpage/overview': { machine: { ...MACHINE, termType: 'S1' } } },
    });
    await waitFor(() => expect(disabled(screen.getByTestId('action-binHeight'))).toBe(true), WAIT);
    expect(h.calls.some((call) => call.path === '/rvm/5')).toBe(false);
  });
});

describe('RemoteControl tab: parameters', () => {
  it('checks on/off times on the client in English, sends nothing until they are right', async () => {
    const user = userEvent.setup();
    const h = renderTab();
    await user.click(await screen.findByTestId('action-setOnOffTime'));
    const dialog = await screen.findByRole('dialog');
    // prefilled from the machine record
    expect(within(dialog).getByTestId('param-onTime')).toHaveProperty('value', '07:00');
    expect(within(dialog).getByTestId('param-offTime')).toHaveProperty('value', '22:00');
    await user.clear(within(dialog).getByTestId('param-onTime'));
    await user.type(within(dialog).getByTestId('param-onTime'), '7pm');
    await user.click(within(dialog).getByTestId('command-send'));
    expect(await within(dialog).findByText(en.fleet.validation.timeOfDay)).toBeTruthy();
    await user.clear(within(dialog).getByTestId('param-onTime'));
    await user.type(within(dialog).getByTestId('param-onTime'), '23:00');
    expect(await within(dialog).findByText(en.validation.endAfterStart)).toBeTruthy();
    expect(h.calls.filter((call) => call.path === '/rvm/command')).toEqual([]);
    // the form is not the browser's: no native validation bubbles
    expect(within(dialog).getByTestId('command-form').hasAttribute('novalidate')).toBe(true);
  });

  it('shows the same rules in Chinese, bin heights prefilled and checked', async () => {
    const user = userEvent.setup();
    renderTab({ locale: 'zh', machine: { ...MACHINE, termType: 'H30' } });
    await waitFor(() => expect(screen.getByTestId('action-binHeight')).toBeTruthy(), WAIT);
    const action = screen.getByTestId('action-binHeight');
    expect(disabled(action)).toBe(false);
    expect(action.textContent).toContain(zh.remote.commands.binHeight);
    await user.click(action);
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByTestId('param-binEmptyHeight')).toHaveProperty('value', '120');
    await user.clear(within(dialog).getByTestId('param-binEmptyHeight'));
    await user.type(within(dialog).getByTestId('param-binEmptyHeight'), '20');
    await user.clear(within(dialog).getByTestId('param-binFullHeight'));
    await user.type(within(dialog).getByTestId('param-binFullHeight'), '200');
    await user.click(within(dialog).getByTestId('command-send'));
    expect(await within(dialog).findByText(zh.fleet.validation.binHeight.replace('%{min}', '10').replace('%{max}', '150'))).toBeTruthy();
    await user.clear(within(dialog).getByTestId('param-binFullHeight'));
    await user.type(within(dialog).getByTestId('param-binFullHeight'), '40');
    expect(await within(dialog).findByText(zh.fleet.validation.binEmptyAboveFull)).toBeTruthy();
  });

  it("shows the server's refusal in the dialog, per field when it names one", async () => {
    const user = userEvent.setup();
    let answer: ApiError = new ApiError('8001', 'Frequent send command');
    renderTab({
      handlers: {
        'POST /rvm/command': () => {
          throw answer;
        },
      },
    });
    await user.click(await screen.findByTestId('action-restart'));
    let dialog = await screen.findByRole('dialog');
    await user.click(within(dialog).getByTestId('command-send'));
    expect((await within(dialog).findByTestId('command-error')).textContent).toContain('Frequent send command');

    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull(), WAIT);
    answer = new ApiError('1004', 'Parameter error', { issues: [{ field: 'params.onTime', message: 'Not this time' }] });
    await user.click(screen.getByTestId('action-setOnOffTime'));
    dialog = await screen.findByRole('dialog');
    await user.click(within(dialog).getByTestId('command-send'));
    expect(await within(dialog).findByText('Not this time')).toBeTruthy();
    expect(within(dialog).getByTestId('command-error').textContent).toContain('Parameter error');
  });
});

describe('RemoteControl tab: sending and the live history', () => {
  it('Enter sends; the new command tops the history; a stream event moves its status in place', async () => {
    const user = userEvent.setup();
    const older = commandRecord({ command: 'open', status: 'executedSuccessfully', createdTime: '2025-02-01 09:00:00', finishedTime: '2025-02-01 09:00:05' });
    const sent = commandRecord({ command: 'maintenance', params: { enabled: true }, status: 'notSent' });
    const h = renderTab({ history: [older], handlers: { 'POST /rvm/command': sent } });
    const table = await screen.findByTestId('command-history-table');
    await within(table).findByText(en.remote.commands.open);

    await user.click(screen.getByTestId('action-maintenance'));
    const dialog = await screen.findByRole('dialog');
    expect(dialog.textContent).toContain('Send "Repair / maintenance" to RVM HK0005?');
    await user.click(within(dialog).getByRole('button', { name: en.remote.values.on }));
    await user.keyboard('{Enter}');
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull(), WAIT);
    expect(h.calls.find((call) => call.path === '/rvm/command')?.body).toEqual({ rvmId: 5, command: 'maintenance', params: { enabled: true } });

    const rows = () => within(table).getAllByRole('row').slice(1);
    await waitFor(() => expect(rows()[0].textContent).toContain(en.remote.commands.maintenance), WAIT);
    expect(rows()[0].textContent).toContain(`${en.remote.params.enabled} ${en.remote.values.on}`);
    expect(rows()[0].textContent).toContain('Waits for the RVM to come online, expires 2025-03-02 10:00:00');
    expect(within(rows()[0]).getByTestId('command-cancel')).toBeTruthy();

    // the stream was opened with the token header for this machine
    await waitFor(() => expect(stream.connections).toHaveLength(1), WAIT);
    expect(stream.connections[0].url).toBe('/test-api/rvm/command/stream?rvmId=5');
    expect(stream.connections[0].headers).toMatchObject({ 'rvm-token': 'tok', Accept: 'text/event-stream' });
    stream.write('event: ready\ndata: {}\n\n');
    // the fixture's rows hold local wall-clock times (as the http client shows them); the stream sends instants
    stream.command({
      ...sent,
      status: 'executedFailed',
      statusReason: 'door open',
      createdTime: new Date('2025-03-01T10:00:00').toISOString(),
      updatedTime: new Date('2025-03-01T10:00:09').toISOString(),
      finishedTime: new Date('2025-03-01T10:00:09').toISOString(),
    });
    await waitFor(() => expect(within(rows()[0]).getByText(en.remote.statuses.executedFailed)).toBeTruthy(), WAIT);
    expect(rows()).toHaveLength(2);
    expect(rows()[0].textContent).toContain('door open');
    expect(within(rows()[0]).queryByTestId('command-cancel')).toBeNull();
    expect(within(rows()[0]).getByTestId('command-resend')).toBeTruthy();
    // no reload of the page was needed
    expect(h.calls.filter((call) => call.path === '/rvm/command/page')).toHaveLength(1);
  });

  it('resends and cancels from the row; offers the uploaded file of a log download', async () => {
    const user = userEvent.setup();
    const failed = commandRecord({ status: 'sendFailed', statusReason: 'expired' });
    const waiting = commandRecord({ command: 'close', status: 'notSent' });
    const logs = commandRecord({ command: 'downloadLogs', status: 'executedSuccessfully', fileId: 77 });
    const resent = commandRecord({ status: 'notSent', resendOf: failed.id });
    const h = renderTab({
      history: [waiting, failed, logs],
      handlers: {
        [`POST /rvm/command/${failed.id}/resend`]: resent,
        [`POST /rvm/command/${waiting.id}/cancel`]: { ...waiting, status: 'cancelled', statusReason: 'cancelled' },
      },
    });
    const table = await screen.findByTestId('command-history-table');
    const rowOf = (text: string) =>
      within(table)
        .getAllByRole('row')
        .find((row) => row.textContent?.includes(text))!;
    await within(table).findByText(en.remote.reasons.expired);
    vi.spyOn(URL, 'createObjectURL').mockReturnValue('blob:x');
    const save = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => undefined);
    await user.click(within(rowOf(en.remote.commands.downloadLogs)).getByTestId('command-file'));
    expect(h.calls.at(-1)).toMatchObject({ method: 'GET', path: '/rvm/file/77' });
    await waitFor(() => expect(save).toHaveBeenCalledOnce(), WAIT);

    await user.click(within(rowOf(en.remote.commands.close)).getByTestId('command-cancel'));
    await waitFor(() => expect(rowOf(en.remote.commands.close).textContent).toContain(en.remote.statuses.cancelled), WAIT);
    await user.click(within(rowOf(en.remote.reasons.expired)).getByTestId('command-resend'));
    await waitFor(() => expect(within(table).getAllByRole('row')[1].textContent).toContain(`Resend of #${failed.id}`), WAIT);
  });

  it('reconnects after the stream drops, reloads what it missed, and closes the stream on unmount', async () => {
    const h = renderTab();
    await waitFor(() => expect(stream.connections).toHaveLength(1), WAIT);
    stream.write('event: ready\ndata: {}\n\n');
    stream.drop();
    await waitFor(() => expect(stream.connections).toHaveLength(2), { timeout: 8000 });
    stream.write('event: ready\ndata: {}\n\n');
    await waitFor(() => expect(h.calls.filter((call) => call.path === '/rvm/command/page')).toHaveLength(2), WAIT);
    cleanup();
    expect(stream.connections[1].aborted).toBe(true);
  });
});
