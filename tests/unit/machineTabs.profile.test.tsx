// @vitest-environment jsdom
// The machine page's Overview and ProfileSetting tabs (with the gateway card) against a fake server:
// each shows its data and its empty states; the profile form checks the bin rules (docs/product-rules.md#validation-rules) before saving
// and is read-only without machine:edit.
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from '../../src/providers/httpTypes';
import { callsTo, holding, setupUser, t } from './consoleHarness';
import { descriptionOf, isDisabled, labelled } from './domHelpers';
import { renderMachinePage } from './machineHarness';

vi.setConfig({ testTimeout: 60_000 });
const WAIT = { timeout: 20_000 };
afterEach(() => cleanup());

const event = (id: number, code: string, clearedTime: string | null) => ({
  id,
  code,
  category: 'bin',
  severity: 'warning',
  blocking: false,
  raisedTime: '2025-03-01 09:00:00',
  clearedTime,
  detail: null,
});
const OVERVIEW = {
  machine: {
    id: 5,
    termNo: 'HK0005',
    serialNumber: 'SN-0005',
    termType: 'S1',
    sts: 'active',
    currentSts: 'Down',
    statusSince: '2025-03-01 08:00:00',
    online: true,
    fleetId: 3,
    fleetPath: [
      { id: 1, name: 'Hong Kong', level: 1 },
      { id: 3, name: 'Kowloon', level: 2 },
    ],
    localAreaId: 'OP-1',
    address: 'Pier 3',
    longitude: null,
    latitude: null,
    softwareVersion: '2.4.1',
    macAddress: null,
    simNo: null,
    installDate: null,
    activationDate: null,
    onTime: '07:00',
    offTime: '22:00',
    lastSessionTime: '2025-03-01 09:30:00',
  },
  bins: [
    { binNo: 1, itemType: 'plasticBottle', fillPercent: 85, currentHeight: 40, itemCount: 300, lastEmptiedTime: '2025-02-28 18:00:00', state: 'almostFull' },
    { binNo: 2, itemType: 'can', fillPercent: 10, currentHeight: 110, itemCount: 20, lastEmptiedTime: null, state: 'ok' },
  ],
  today: { from: '2025-03-01 00:00:00', sessions: 12, items: 140, accepted: 130, rejected: 10, refund: 14, rejectRate: 0.071 },
  openAlarms: [event(1, 'am_code_PK_4', null)],
  lastEvents: [event(1, 'am_code_PK_4', null), event(2, 'am_code_PK_1', '2025-03-01 09:10:00')],
};

describe('Overview tab', () => {
  it("shows identity, status, bins, today's figures, open alarms and last events", async () => {
    const h = renderMachinePage('/installation/rvmpage/5/Overview', { handlers: { 'GET /rvmpage/overview': OVERVIEW } });
    const identity = await screen.findByRole('heading', { name: t('fleet.overview.identity') }, WAIT);
    const card = identity.parentElement!;
    const fact = (field: string) => within(card).getByText(t(`resources.machine.fields.${field}`)).nextElementSibling?.textContent;
    expect(fact('fleetId')).toBe('Hong Kong › Kowloon');
    expect(fact('softwareVersion')).toBe('2.4.1');
    expect(within(card).getByText('07:00 – 22:00')).toBeTruthy();

    const status = screen.getByRole('heading', { name: t('fleet.overview.currentStatus') }).parentElement!;
    expect(within(status).getByText(t('fleet.statuses.Down'))).toBeTruthy();
    expect(within(status).getByText(t('fleet.online.true'))).toBeTruthy();
    const bin1 = `${t('fleet.overview.bin', { bin: 1 })} · ${t('fleet.itemTypes.plasticBottle')}`;
    const bar = within(status).getByRole('progressbar', { name: `${bin1}: ${t('fleet.overview.fillPercent')} 85%` });
    expect(bar.getAttribute('aria-valuenow')).toBe('85');
    expect(within(status).getByText(`85% · ${t('installation.overview.binStates.almostFull')}`)).toBeTruthy();
    expect(within(status).getByText(`10% · ${t('installation.overview.binStates.ok')}`)).toBeTruthy();

    const today = screen.getByRole('heading', { name: t('fleet.overview.today') }).parentElement!;
    expect(within(today).getByText('HK$14.00')).toBeTruthy();
    expect(within(today).getByText('7.1%')).toBeTruthy();
    expect(within(today).getByText('140')).toBeTruthy();

    const alarms = screen.getByRole('heading', { name: t('fleet.overview.openAlarms') }).parentElement!;
    expect(within(alarms).getAllByText(t('fleet.alarms.am_code_PK_4'))).toHaveLength(2); // open, and among the last events
    expect(within(alarms).getByText(t('fleet.alarms.am_code_PK_1'))).toBeTruthy();
    expect(within(alarms).getByText('2025-03-01 09:00:00 – 2025-03-01 09:10:00')).toBeTruthy();
    expect(callsTo(h.calls, 'GET', '/rvmpage/overview')[0].query).toMatchObject({ id: '5' });
  });

  it('a failed load offers a retry', async () => {
    const user = setupUser();
    let fail = true;
    const h = renderMachinePage('/installation/rvmpage/5/Overview', {
      handlers: {
        'GET /rvmpage/overview': () => {
          if (fail) throw new ApiError('1000', 'boom');
          return OVERVIEW;
        },
      },
    });
    expect(await screen.findByText(t('installation.common.loadFailed'), {}, WAIT)).toBeTruthy();
    fail = false;
    await user.click(screen.getByRole('button', { name: t('installation.common.retry') }));
    expect(await screen.findByRole('heading', { name: t('fleet.overview.identity') }, WAIT)).toBeTruthy();
    expect(callsTo(h.calls, 'GET', '/rvmpage/overview')).toHaveLength(2);
  });

  it('says when there are no bins, no open alarms and no events', async () => {
    renderMachinePage('/installation/rvmpage/5/Overview', { handlers: { 'GET /rvmpage/overview': { ...OVERVIEW, bins: [], openAlarms: [], lastEvents: [] } } });
    expect(await screen.findByText(t('installation.overview.noBins'), {}, WAIT)).toBeTruthy();
    expect(screen.getByText(t('installation.overview.noOpenAlarms'))).toBeTruthy();
    expect(screen.getByText(t('installation.overview.noEvents'))).toBeTruthy();
  });
});

const PROFILE = {
  id: 5,
  fleetId: 3,
  sts: 'active',
  localAreaId: 'OP-1',
  address: 'Pier 3',
  simNo: null,
  longitude: null,
  latitude: null,
  installDate: null,
  activationDate: null,
  binEmptyHeight: 120,
  binFullHeight: 30,
  binAlmostFull: 80,
  binAlreadyFull: 95,
  onTime: '07:00',
  offTime: '22:00',
  note: null,
};
const CREDENTIAL = { serialNumber: 'SN-0005', hasSecret: false, rotatedTime: null, machineUrl: 'mqtt://gateway.test:1883', online: false, lastSeenTime: null };
const profileHandlers = (extra: Record<string, unknown> = {}) => ({
  'GET /rvmpage/profile': PROFILE,
  'GET /fleet/list': [{ id: 3, name: 'Kowloon' }],
  'GET /rvm/5/credential': CREDENTIAL,
  ...extra,
});
const input = (field: string) => screen.getByLabelText(labelled(t(`resources.machine.fields.${field}`))) as HTMLInputElement;
const fill = async (user: ReturnType<typeof setupUser>, field: string, value: string) => {
  await user.clear(input(field));
  await user.paste(value); // one input event: the form re-renders once, not per key
};
/**
 * Submits with Enter in a field, as a keyboard user does. (A synthetic click on Save right after
 * typing lands while the form validates the field it just left (mode onBlur), when react-admin
 * disables the button, so the click is lost; a real click comes later.)
 */
const submitFrom = async (user: ReturnType<typeof setupUser>, field: string) => {
  await user.click(input(field));
  await user.keyboard('{Enter}');
};

describe('ProfileSetting tab', () => {
  it('shows the profile, refuses an empty height not above the full one, then saves', async () => {
    const user = setupUser();
    const h = renderMachinePage('/installation/rvmpage/5/ProfileSetting', {
      handlers: profileHandlers({ 'PUT /rvmpage/profile': (call: { body?: unknown }) => call.body }),
    });
    await waitFor(() => expect(input('binEmptyHeight').value).toBe('120'), WAIT);
    expect(input('address').value).toBe('Pier 3');
    expect(screen.getByText(t('installation.profile.binsHint'))).toBeTruthy();

    await fill(user, 'binEmptyHeight', '25');
    await submitFrom(user, 'binEmptyHeight');
    await waitFor(() => expect(descriptionOf(input('binEmptyHeight'))).toContain(t('fleet.validation.binEmptyAboveFull')), WAIT);
    expect(callsTo(h.calls, 'PUT', '/rvmpage/profile')).toHaveLength(0);

    await fill(user, 'binEmptyHeight', '200');
    await user.tab();
    await waitFor(() => expect(descriptionOf(input('binEmptyHeight'))).toContain(t('fleet.validation.binHeight', { min: 10, max: 150 })), WAIT);

    await fill(user, 'binEmptyHeight', '130');
    await fill(user, 'address', 'Pier 4');
    await submitFrom(user, 'address');
    expect(await screen.findByText(t('installation.profile.saved'), {}, WAIT)).toBeTruthy();
    expect(callsTo(h.calls, 'PUT', '/rvmpage/profile')[0].body).toMatchObject({ id: 5, binEmptyHeight: 130, binFullHeight: 30, address: 'Pier 4', simNo: null });
  });

  it('a refusal by the server is shown and nothing is marked saved', async () => {
    const user = setupUser();
    renderMachinePage('/installation/rvmpage/5/ProfileSetting', {
      handlers: profileHandlers({
        'PUT /rvmpage/profile': () => {
          throw new ApiError('1004', 'Parameter error');
        },
      }),
    });
    await waitFor(() => expect(input('address').value).toBe('Pier 3'), WAIT);
    await fill(user, 'address', 'Pier 9');
    await submitFrom(user, 'address');
    expect(await screen.findByText(t('errors.1004'), {}, WAIT)).toBeTruthy();
    expect(screen.queryByText(t('installation.profile.saved'))).toBeNull();
  });

  it('without machine:edit it is read-only: no save, no secret to rotate', async () => {
    renderMachinePage('/installation/rvmpage/5/ProfileSetting', {
      user: holding('installation:rvmpage:ProfileSetting', 'machine:page'),
      handlers: profileHandlers(),
    });
    expect(await screen.findByText(t('installation.profile.readOnly'), {}, WAIT)).toBeTruthy();
    expect(isDisabled(input('address')) || input('address').closest('fieldset')!.disabled).toBe(true);
    expect(screen.queryByRole('button', { name: t('ra.action.save') })).toBeNull();
    expect(await screen.findByRole('heading', { name: t('installation.gateway.title') }, WAIT)).toBeTruthy();
    expect(screen.queryByRole('button', { name: t('installation.gateway.create') })).toBeNull();
  });
});

describe('gateway card', () => {
  it('shows the connection and creates a secret shown once', async () => {
    const user = setupUser();
    let credential: object = CREDENTIAL;
    const h = renderMachinePage('/installation/rvmpage/5/ProfileSetting', {
      handlers: profileHandlers({
        'GET /rvm/5/credential': () => credential,
        'POST /rvm/5/credential': () => {
          credential = { ...CREDENTIAL, hasSecret: true, rotatedTime: '2025-03-01T10:00:00.000Z' };
          return { secret: 's3cr3t-value' };
        },
      }),
    });
    const card = (await screen.findByRole('heading', { name: t('installation.gateway.title') }, WAIT)).parentElement!;
    expect(within(card).getByText('SN-0005')).toBeTruthy();
    expect(within(card).getByText('mqtt://gateway.test:1883')).toBeTruthy();
    expect(within(card).getByText(t('installation.gateway.noSecret'))).toBeTruthy();
    expect(within(card).getByText(t('installation.gateway.none'))).toBeTruthy();

    await user.click(within(card).getByRole('button', { name: t('installation.gateway.create') }));
    const confirm = await screen.findByRole('dialog', { name: t('installation.gateway.create') }, WAIT);
    expect(within(confirm).getByText(t('installation.gateway.createConfirm'))).toBeTruthy();
    await user.click(within(confirm).getByRole('button', { name: t('ra.action.confirm') }));
    const shown = await screen.findByRole('dialog', { name: t('installation.gateway.secretTitle') }, WAIT);
    expect((within(shown).getByLabelText(t('installation.gateway.secret')) as HTMLInputElement).value).toBe('s3cr3t-value');
    expect(within(shown).getByText(t('installation.gateway.shownOnce'))).toBeTruthy();
    expect(callsTo(h.calls, 'POST', '/rvm/5/credential')).toHaveLength(1);
    await user.click(within(shown).getByRole('button', { name: t('installation.gateway.done') }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: t('installation.gateway.secretTitle') })).toBeNull(), WAIT);
    expect(await within(card).findByRole('button', { name: t('installation.gateway.rotate') }, WAIT)).toBeTruthy();
  });
});
