// @vitest-environment jsdom
// The search screen (/search/search) against a fake server: typing a query, the typed hits (machines
// and consumer sessions), opening one, a voucher code that opens its session straight away, and the
// empty, truncated and failed answers.
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { findMenuByKey } from '../../resources/menu';
import SearchPage from '../../src/search/SearchPage';
import { ApiError } from '../../src/providers/httpTypes';
import { callsTo, consoleHarness, currentLocation, setupUser, t } from './consoleHarness';

vi.setConfig({ testTimeout: 60_000 });
const WAIT = { timeout: 20_000 };
afterEach(() => cleanup());

const NODE = findMenuByKey('search')!;
const MACHINE_HIT = { type: 'machine', id: 5, termNo: 'HK0005', serialNumber: 'SN-0005', address: 'Pier 3', termType: 'S1', currentSts: 'Down', matched: 'termNo' };
const SESSION_HIT = {
  type: 'consumerSession',
  id: 77,
  rvmId: 5,
  termNo: 'HK0005',
  startTime: '2025-03-01 10:00:00',
  payoutMethod: 'octopus',
  totalRefund: 12.5,
  voucherCode: 'V-HK-0001',
  userId: null,
  matched: 'voucherCode',
};
/** The server's answer: the hits whose text contains the query (any case). */
const search =
  (hits: object[], truncated = false) =>
  (call: { query?: Record<string, unknown> }) => {
    const q = String(call.query?.q ?? '');
    const found = hits.filter((hit) => JSON.stringify(hit).toLowerCase().includes(q.toLowerCase()));
    return { q, hits: found, truncated };
  };

const renderSearch = (handlers: Record<string, unknown>, path = '/search/search') => {
  const h = consoleHarness({ handlers });
  h.renderIn(<SearchPage node={NODE} />, path);
  return h;
};
const box = () => screen.getByRole('textbox', { name: t('fleet.search.placeholder') });
const searches = (h: ReturnType<typeof renderSearch>) => callsTo(h.calls, 'GET', '/search');

describe('search', () => {
  it('starts with a hint and calls nothing; a blank query is not sent', async () => {
    const user = setupUser();
    const h = renderSearch({ 'GET /search': search([MACHINE_HIT]) });
    expect(screen.getByRole('heading', { name: t('menu.search') })).toBeTruthy();
    expect(screen.getByText(t('installation.search.hint'))).toBeTruthy();
    await user.type(box(), '   {Enter}');
    expect(searches(h)).toHaveLength(0);
    expect(currentLocation()).toBe('/search/search');
  });

  it('typing a query lists machines and sessions by type, with what matched, and opens a machine', async () => {
    const user = setupUser();
    const h = renderSearch({ 'GET /search': search([MACHINE_HIT, SESSION_HIT], true) });
    await user.type(box(), '  hk  ');
    await user.click(screen.getByRole('button', { name: t('installation.search.submit') }));
    await waitFor(() => expect(currentLocation()).toBe('/search/search?q=hk'), WAIT);
    expect(searches(h)[0].query).toEqual({ q: 'hk' });

    const machines = await screen.findByRole('list', { name: t('fleet.search.hitTypes.machine') }, WAIT);
    expect(screen.getByRole('heading', { name: `${t('fleet.search.hitTypes.machine')} (1)` })).toBeTruthy();
    expect(screen.getByRole('heading', { name: `${t('fleet.search.hitTypes.consumerSession')} (1)` })).toBeTruthy();
    const machine = within(machines).getByRole('link');
    expect(machine.textContent).toContain('HK0005');
    expect(machine.textContent).toContain(t('fleet.statuses.Down'));
    expect(machine.textContent).toContain(t('resources.machine.fields.termNo'));
    expect(machine.textContent).toContain('SN-0005 · S1 · Pier 3');

    const session = within(screen.getByRole('list', { name: t('fleet.search.hitTypes.consumerSession') })).getByRole('link');
    expect(session.textContent).toContain('V-HK-0001');
    expect(session.textContent).toContain(t('fleet.consumerSession.voucherCode'));
    expect(session.textContent).toContain(`HK0005 · 2025-03-01 10:00:00 · ${t('fleet.payoutMethods.octopus')} · 12.50`);
    expect(session.getAttribute('href')).toBe('/installation/rvmpage/5/ConsumerSessions/77');
    expect(screen.getByText(t('installation.search.truncated'))).toBeTruthy();

    await user.click(machine);
    await waitFor(() => expect(currentLocation()).toBe('/installation/rvmpage/5'), WAIT);
  });

  it('a voucher code that names exactly one session opens it straight away', async () => {
    const user = setupUser();
    renderSearch({ 'GET /search': search([MACHINE_HIT, SESSION_HIT]) });
    await user.type(box(), 'v-hk-0001{Enter}');
    await waitFor(() => expect(currentLocation()).toBe('/installation/rvmpage/5/ConsumerSessions/77'), WAIT);
  });

  it('coming back to a voucher search shows the list instead of jumping again', async () => {
    const h = renderSearch({ 'GET /search': search([SESSION_HIT]) }, '/search/search?q=V-HK-0001');
    expect((box() as HTMLInputElement).value).toBe('V-HK-0001');
    expect(await screen.findByRole('list', { name: t('fleet.search.hitTypes.consumerSession') }, WAIT)).toBeTruthy();
    expect(currentLocation()).toBe('/search/search?q=V-HK-0001');
    expect(searches(h)).toHaveLength(1);
  });

  it('says when nothing is found; searching the same text again asks the server again', async () => {
    const user = setupUser();
    const h = renderSearch({ 'GET /search': search([MACHINE_HIT]) });
    await user.type(box(), 'nowhere{Enter}');
    expect(await screen.findByText(t('fleet.search.noHits'), {}, WAIT)).toBeTruthy();
    expect(screen.queryByRole('list')).toBeNull();
    await user.click(screen.getByRole('button', { name: t('installation.search.submit') }));
    await waitFor(() => expect(searches(h)).toHaveLength(2), WAIT);
  });

  it('a failed search offers a retry', async () => {
    const user = setupUser();
    let fail = true;
    const h = renderSearch({
      'GET /search': (call: { query?: Record<string, unknown> }) => {
        if (fail) throw new ApiError('1000', 'boom');
        return search([MACHINE_HIT])(call);
      },
    });
    await user.type(box(), 'HK{Enter}');
    expect(await screen.findByText(t('installation.common.loadFailed'), {}, WAIT)).toBeTruthy();
    fail = false;
    await user.click(screen.getByRole('button', { name: t('installation.common.retry') }));
    expect(await screen.findByRole('list', { name: t('fleet.search.hitTypes.machine') }, WAIT)).toBeTruthy();
    expect(searches(h)).toHaveLength(2);
  });
});
