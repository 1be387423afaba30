// @vitest-environment jsdom
// The bulk remote command of the fleet list: scope (selected rows or the list's filter), command and
// confirmation with the machine count, then the batch's live delivery summary and "Resend failed".
import { cleanup, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { ListContextProvider, type ListControllerResult } from 'ra-core';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { catalogues } from '../../i18n';
import { ApiError } from '../../src/providers/httpTypes';
import { BulkCommandDialog } from '../../src/remote/BulkCommandDialog';
import { RemoteCommandBulkButton } from '../../src/remote/RemoteCommandBulkButton';
import { commandRecord, fakeStream, harness } from './remoteHarness';

vi.setConfig({ testTimeout: 30_000 });
const WAIT = { timeout: 5000 };
const en = catalogues.en;
const zh = catalogues.zh;
let stream: ReturnType<typeof fakeStream>;

beforeEach(() => {
  stream = fakeStream();
  vi.stubGlobal('fetch', stream.fetch);
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const COUNTS = { notSent: 0, sending: 0, sent: 0, sendFailed: 0, executedSuccessfully: 0, executedFailed: 0, cancelled: 0 };
const BATCH = { id: 9, command: 'restart', params: {}, machineCount: 3, createdByName: 'Ada', createdTime: '2025-03-01 10:00:00' };

const chooseCommand = async (user: ReturnType<typeof userEvent.setup>, label: string) => {
  await user.click(screen.getByRole('combobox'));
  await user.click(await screen.findByRole('option', { name: label }));
};

describe('bulk remote command', () => {
  it('sends to every machine matching the list filter, then shows the delivery live', async () => {
    const user = userEvent.setup();
    const a = commandRecord({ id: 1, rvmId: 1, termNo: 'HK0001', batchId: 9, status: 'sending' });
    const b = commandRecord({ id: 2, rvmId: 2, termNo: 'HK0002', batchId: 9, status: 'executedFailed', statusReason: 'door open' });
    let counts = { ...COUNTS, sending: 1, executedFailed: 1 };
    const h = harness({
      handlers: {
        'POST /rvm/command/batch': {
          batchId: 9,
          total: 3,
          queued: 2,
          refused: [{ rvmId: 3, termNo: 'HK0003', code: '8000', message: 'Current RVM does not support this command' }],
        },
        'GET /rvm/command/batch/9': () => ({ batch: BATCH, counts, list: [a, b], total: 2 }),
        'POST /rvm/command/batch/9/resendFailed': { batchId: 10, total: 1, queued: 1, refused: [] },
        'GET /rvm/command/batch/10': {
          batch: { ...BATCH, id: 10, machineCount: 1 },
          counts: { ...COUNTS, notSent: 1 },
          list: [commandRecord({ rvmId: 2, termNo: 'HK0002', batchId: 10, resendOf: 2 })],
          total: 1,
        },
      },
    });
    const list = { selectedIds: [1, 2], filterValues: { termNoLike: 'HK', fleetId: [4], addressLike: '  ' }, total: 40 } as unknown as ListControllerResult;
    render(
      h.wrap(
        <ListContextProvider value={list}>
          <RemoteCommandBulkButton />
        </ListContextProvider>,
      ),
    );

    await user.click(screen.getByTestId('bulk-remote-command'));
    const dialog = await screen.findByRole('dialog');
    expect(dialog.textContent).toContain('The 2 selected RVMs');
    await user.click(within(dialog).getByLabelText('All 40 RVMs matching the current filter'));
    await chooseCommand(user, en.remote.commands.restart);
    expect(dialog.textContent).toContain('Send "Restart" to 40 RVMs?');
    await user.click(within(dialog).getByRole('button', { name: 'Send to 40 RVMs' }));

    const summary = await screen.findByTestId('batch-summary', {}, WAIT);
    // the list's own filter body (empty values dropped), not the ids
    expect(h.calls.find((call) => call.path === '/rvm/command/batch')?.body).toEqual({ command: 'restart', filter: { termNoLike: 'HK', fleetId: [4] } });
    expect(within(summary).getByTestId('batch-total').textContent).toContain('3');
    expect(within(summary).getByTestId('batch-queued').textContent).toContain('2');
    expect(within(screen.getByTestId('batch-refused-table')).getByText('HK0003')).toBeTruthy();
    expect(within(screen.getByTestId('batch-refused-table')).getByText(en.errors['8000'])).toBeTruthy();
    await waitFor(() => expect(within(summary).getByTestId('batch-counts').textContent).toContain(`${en.remote.statuses.executedFailed}: 1`), WAIT);
    expect(summary.textContent).toContain('door open');

    // live: the stream of this batch moves HK0001 on, the counts are read again
    await waitFor(() => expect(stream.connections.at(-1)?.url).toBe('/test-api/rvm/command/stream?batchId=9'), WAIT);
    counts = { ...COUNTS, executedSuccessfully: 1, executedFailed: 1 };
    stream.write('event: ready\ndata: {}\n\n');
    // the fixture's rows hold local wall-clock times (as the http client shows them); the stream sends instants
    stream.command({ ...a, status: 'executedSuccessfully', updatedTime: new Date('2025-03-01T10:00:30').toISOString() });
    const row = () =>
      within(screen.getByTestId('batch-commands'))
        .getAllByRole('row')
        .find((item) => item.textContent?.includes('HK0001'))!;
    await waitFor(() => expect(row().textContent).toContain(en.remote.statuses.executedSuccessfully), WAIT);
    await waitFor(() => expect(within(summary).getByTestId('batch-counts').textContent).toContain(`${en.remote.statuses.executedSuccessfully}: 1`), WAIT);

    await user.click(screen.getByTestId('batch-resend-failed'));
    await waitFor(() => expect(within(screen.getByTestId('batch-summary')).getByTestId('batch-counts').textContent).toContain(`${en.remote.statuses.notSent}: 1`), WAIT);
    expect(h.calls.some((call) => call.path === '/rvm/command/batch/9/resendFailed')).toBe(true);
  });

  it('sends the selected ids with validated parameters, in Chinese, and shows a refusal in the dialog', async () => {
    const user = userEvent.setup();
    let refuse = true;
    const h = harness({
      locale: 'zh',
      handlers: {
        'POST /rvm/command/batch': () => {
          if (refuse) throw new ApiError('8001', zh.errors['8001']);
          return { batchId: null, total: 2, queued: 0, refused: [] };
        },
      },
    });
    render(h.wrap(<BulkCommandDialog onClose={vi.fn()} selectedIds={[1, 2]} filter={{}} filteredTotal={12} />));
    await chooseCommand(user, zh.remote.commands.setOnOffTime);
    const dialog = screen.getByRole('dialog');
    await user.type(within(dialog).getByTestId('param-onTime'), '08:00');
    await user.type(within(dialog).getByTestId('param-offTime'), '07:30');
    await user.click(within(dialog).getByTestId('command-send'));
    expect(await within(dialog).findByText(zh.validation.endAfterStart)).toBeTruthy();
    expect(h.calls).toEqual([]);
    await user.clear(within(dialog).getByTestId('param-offTime'));
    await user.type(within(dialog).getByTestId('param-offTime'), '21:30{Enter}');
    expect((await within(dialog).findByTestId('command-error')).textContent).toBe(zh.errors['8001']);
    refuse = false;
    await user.click(within(dialog).getByTestId('command-send'));
    await screen.findByTestId('batch-summary', {}, WAIT);
    expect(h.calls[1].body).toEqual({ command: 'setOnOffTime', params: { onTime: '08:00', offTime: '21:30' }, ids: [1, 2] });
  });
});
