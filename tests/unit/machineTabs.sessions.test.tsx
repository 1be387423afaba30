// @vitest-environment jsdom
// The machine page's ConsumerSessions tab and the consumer session details (docs/product-rules.md#entities-and-fields)
// against a fake server: the list, its filters and empty state, opening a session, the
// items with their reject reasons and pictures, and the not-found state.
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from '../../src/providers/httpTypes';
import { callsTo, currentLocation, setupUser, t } from './consoleHarness';
import { headerTexts, rowTexts } from './domHelpers';
import { pageOf, renderMachinePage } from './machineHarness';

vi.setConfig({ testTimeout: 60_000 });
const WAIT = { timeout: 20_000 };
afterEach(() => cleanup());

const SESSION = {
  id: 77,
  rvmId: 5,
  startTime: '2025-03-01 10:00:00',
  endTime: '2025-03-01 10:02:00',
  payoutMethod: 'octopus',
  totalRefund: 1.5,
  itemCount: 3,
  acceptedCount: 2,
  rejectedCount: 1,
  userId: 'U-1',
  voucherCode: 'V-HK-0001',
  voucherValidUntil: '2025-03-08 23:59:59',
  donationInstituteId: null,
};
const DETAILS = {
  session: { ...SESSION, termNo: 'HK0005', serialNumber: 'SN-0005', termType: 'S1', donationInstitute: 'Green Fund' },
  items: [
    { seq: 1, itemType: 'plasticBottle', barcode: '4891028164456', category: 'PET', refund: 1, accepted: true, rejectReason: null, picture: 'a.jpg', pictureUrl: '/files/a.jpg' },
    { seq: 2, itemType: 'can', barcode: '4890008100309', category: 'ALU', refund: 0.5, accepted: true, rejectReason: null, picture: null, pictureUrl: null },
    { seq: 3, itemType: 'glass', barcode: null, category: null, refund: 0, accepted: false, rejectReason: 1, picture: null, pictureUrl: null },
  ],
};
const lastBody = (h: ReturnType<typeof renderMachinePage>) => callsTo(h.calls, 'POST', '/rvmpage/consumerSessions').at(-1)?.body as Record<string, unknown>;

describe('ConsumerSessions tab', () => {
  it('lists the sessions with payout, refund and counts; a row opens its details', async () => {
    const user = setupUser();
    const h = renderMachinePage('/installation/rvmpage/5/ConsumerSessions', {
      handlers: { 'POST /rvmpage/consumerSessions': pageOf([SESSION]), 'GET /rvmpage/consumerSessionDetails': DETAILS },
    });
    const table = await screen.findByRole('table', { name: t('menu.ConsumerSessions') }, WAIT);
    expect(headerTexts(table)).toEqual([
      t('installation.sessions.period'),
      ...['payoutMethod', 'totalRefund', 'itemCount', 'acceptedCount', 'rejectedCount', 'userId', 'voucherCode'].map((key) => t(`fleet.consumerSession.${key}`)),
    ]);
    expect(rowTexts(table)).toEqual([
      [
        '2025-03-01 10:00:00 – 10:02:00',
        t('fleet.payoutMethods.octopus'),
        'HK$1.50',
        '3',
        '2',
        '1',
        'U-1',
        `V-HK-0001${t('fleet.consumerSession.voucherValidUntil', { date: '2025-03-08' })}`,
      ],
    ]);
    expect(lastBody(h)).toMatchObject({ id: 5, payoutMethod: null, voucherCode: null, userId: null, pageNum: 1 });

    await user.click(within(table).getByText('V-HK-0001'));
    await waitFor(() => expect(currentLocation()).toBe('/installation/rvmpage/5/ConsumerSessions/77'), WAIT);
    expect(await screen.findByRole('heading', { name: t('fleet.consumerSession.title') }, WAIT)).toBeTruthy();
  });

  it('a row opens with the keyboard too', async () => {
    const user = setupUser();
    renderMachinePage('/installation/rvmpage/5/ConsumerSessions', { handlers: { 'POST /rvmpage/consumerSessions': pageOf([SESSION]) } });
    const table = await screen.findByRole('table', { name: t('menu.ConsumerSessions') }, WAIT);
    within(table).getByText('V-HK-0001').closest('tr')!.focus();
    await user.keyboard('{Enter}');
    await waitFor(() => expect(currentLocation()).toBe('/installation/rvmpage/5/ConsumerSessions/77'), WAIT);
  });

  it('filters by payout method, voucher code and user ID; says when the period has none', async () => {
    const user = setupUser();
    const h = renderMachinePage('/installation/rvmpage/5/ConsumerSessions', { handlers: { 'POST /rvmpage/consumerSessions': pageOf([]) } });
    expect(await screen.findByText(t('installation.common.emptyRange'), {}, WAIT)).toBeTruthy();
    await user.click(screen.getByRole('combobox', { name: t('fleet.consumerSession.payoutMethod') }));
    await user.click(await screen.findByRole('option', { name: t('fleet.payoutMethods.octopus') }, WAIT));
    await waitFor(() => expect(lastBody(h)).toMatchObject({ payoutMethod: 'octopus' }), WAIT);
    await user.type(screen.getByRole('textbox', { name: t('fleet.consumerSession.voucherCode') }), ' V-HK ');
    await user.type(screen.getByRole('textbox', { name: t('fleet.consumerSession.userId') }), 'U-1');
    await user.click(screen.getByRole('button', { name: t('installation.common.filter') }));
    await waitFor(() => expect(lastBody(h)).toMatchObject({ payoutMethod: 'octopus', voucherCode: 'V-HK', userId: 'U-1', pageNum: 1 }), WAIT);
  });
});

describe('consumer session details', () => {
  it('shows the machine, period, payout, refund, user, voucher and each item with its reject reason and picture', async () => {
    const user = setupUser();
    const h = renderMachinePage('/installation/rvmpage/5/ConsumerSessions/77', {
      handlers: { 'GET /rvmpage/consumerSessionDetails': DETAILS, 'POST /rvmpage/consumerSessions': pageOf([]) },
    });
    const details = (await screen.findByRole('heading', { name: t('fleet.consumerSession.title') }, WAIT)).parentElement!;
    const fact = (label: string) => within(details).getByText(label).nextElementSibling?.textContent;
    expect(fact(t('fleet.consumerSession.termNo'))).toBe('HK0005 (SN-0005)');
    expect(fact(t('installation.sessions.period'))).toBe('2025-03-01 10:00:00 – 2025-03-01 10:02:00');
    expect(fact(t('fleet.consumerSession.payoutMethod'))).toBe(t('fleet.payoutMethods.octopus'));
    expect(fact(t('fleet.consumerSession.totalRefund'))).toBe('HK$1.50');
    expect(fact(t('fleet.consumerSession.voucherCode'))).toBe('V-HK-0001');
    expect(fact(t('fleet.consumerSession.donationInstitute'))).toBe('Green Fund');
    expect(callsTo(h.calls, 'GET', '/rvmpage/consumerSessionDetails')[0].query).toEqual({ id: '77' });

    const items = screen.getByRole('table', { name: t('fleet.consumerSession.itemCount') });
    expect(rowTexts(items)).toEqual([
      ['1', '', t('fleet.itemTypes.plasticBottle'), '4891028164456', 'PET', 'HK$1.00', t('fleet.item.accepted')],
      ['2', '–', t('fleet.itemTypes.can'), '4890008100309', 'ALU', 'HK$0.50', t('fleet.item.accepted')],
      ['3', '–', t('fleet.itemTypes.glass'), '', '', 'HK$0.00', t('fleet.rejectReasons.1')],
    ]);
    const picture = within(items).getByRole('img', { name: t('installation.sessions.pictureAlt', { seq: 1, type: t('fleet.itemTypes.plasticBottle') }) });
    expect(picture.getAttribute('src')).toBe('/files/a.jpg');

    await user.click(screen.getByRole('link', { name: t('installation.sessions.back') }));
    await waitFor(() => expect(currentLocation()).toBe('/installation/rvmpage/5/ConsumerSessions'), WAIT);
  });

  it('a session of another machine is shown under its own machine', async () => {
    renderMachinePage('/installation/rvmpage/5/ConsumerSessions/78', {
      handlers: { 'GET /rvmpage/consumerSessionDetails': { ...DETAILS, session: { ...DETAILS.session, id: 78, rvmId: 9 } }, 'GET /rvm/9': null },
    });
    await waitFor(() => expect(currentLocation()).toBe('/installation/rvmpage/9/ConsumerSessions/78'), WAIT);
  });

  it.each([
    ['unknown to the server (2003)', '/installation/rvmpage/5/ConsumerSessions/79'],
    ['not a session id', '/installation/rvmpage/5/ConsumerSessions/x1'],
  ])('a session %s: "does not exist", with the way back', async (_case, path) => {
    renderMachinePage(path, {
      handlers: {
        'GET /rvmpage/consumerSessionDetails': () => {
          throw new ApiError('2003', 'Data does not exist');
        },
      },
    });
    expect(await screen.findByText(t('installation.sessions.notFound'), {}, WAIT)).toBeTruthy();
    expect(screen.getByRole('link', { name: t('installation.sessions.back') })).toBeTruthy();
  });

  it('a session without items says so', async () => {
    renderMachinePage('/installation/rvmpage/5/ConsumerSessions/77', { handlers: { 'GET /rvmpage/consumerSessionDetails': { ...DETAILS, items: [] } } });
    expect(await screen.findByText(t('installation.sessions.noItems'), {}, WAIT)).toBeTruthy();
  });
});
