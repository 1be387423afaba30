// @vitest-environment jsdom
// The machine page shell (/installation/rvmpage/<id>/<Tab>, docs/product-rules.md#menu-tree) against a fake
// server: the header naming the machine, the tabs the user may open (installation:rvmpage:<Tab>),
// moving between them, and the not-found state. Each tab's content: machineTabs.*.test.tsx.
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { MACHINE_TABS } from '../../src/installation/machine/tabs';
import { ApiError } from '../../src/providers/httpTypes';
import type { UserInfo } from '../../src/providers/session';
import { ADMIN, callsTo, currentLocation, holding, setupUser, t } from './consoleHarness';
import { pageOf, renderMachinePage as mount } from './machineHarness';

vi.setConfig({ testTimeout: 60_000 });
const WAIT = { timeout: 20_000 };
afterEach(() => cleanup());

const EMPTY_PAGE = pageOf([]);
const renderMachinePage = (path: string, user: UserInfo = ADMIN, handlers: Record<string, unknown> = {}) =>
  mount(path, { user, handlers: { 'POST /rvmpage/eventHistory': EMPTY_PAGE, 'POST /rvmpage/consumerSessions': EMPTY_PAGE, ...handlers } });
const tabList = () => screen.findByRole('tablist', { name: t('installation.machinePage.tabs') }, WAIT);
const tabNames = async () =>
  within(await tabList())
    .getAllByRole('tab')
    .map((tab) => tab.textContent);

describe('machine page', () => {
  it('names the machine, offers every tab in menu order, and opens the requested one', async () => {
    const h = renderMachinePage('/installation/rvmpage/5/EventHistory');
    expect(await tabNames()).toEqual(MACHINE_TABS.map((key) => t(`menu.${key}`)));
    const title = await screen.findByRole('heading', { name: 'HK0005' }, WAIT);
    const header = title.parentElement!;
    expect(within(header).getByText(t('fleet.statuses.Up'))).toBeTruthy();
    expect(within(header).getByText('SN-0005 · S1 · Pier 3')).toBeTruthy();
    expect(
      within(header)
        .getByRole('link', { name: t('installation.machinePage.editRecord') })
        .getAttribute('href'),
    ).toBe('/installation/rvm/5');
    expect(
      within(header)
        .getByRole('link', { name: t('installation.machinePage.back') })
        .getAttribute('href'),
    ).toBe('/installation/fleetManagement');
    const selected = within(await tabList()).getByRole('tab', { selected: true });
    expect(selected.textContent).toBe(t('menu.EventHistory'));
    expect(screen.getByRole('tabpanel', { name: t('menu.EventHistory') })).toBeTruthy();
    expect(callsTo(h.calls, 'POST', '/rvmpage/eventHistory')[0].body).toMatchObject({ id: 5, pageNum: 1 });
  });

  it('a tab opens its own path and content', async () => {
    const user = setupUser();
    const h = renderMachinePage('/installation/rvmpage/5/EventHistory');
    await user.click(within(await tabList()).getByRole('tab', { name: t('menu.ConsumerSessions') }));
    await waitFor(() => expect(currentLocation()).toBe('/installation/rvmpage/5/ConsumerSessions'), WAIT);
    expect(await screen.findByRole('tabpanel', { name: t('menu.ConsumerSessions') }, WAIT)).toBeTruthy();
    await waitFor(() => expect(callsTo(h.calls, 'POST', '/rvmpage/consumerSessions')).toHaveLength(1), WAIT);
  });

  it('without a tab (or with an unknown one) the first permitted tab opens', async () => {
    renderMachinePage('/installation/rvmpage/5', holding('installation:rvmpage:EventHistory', 'installation:rvmpage:ConsumerSessions'));
    await waitFor(() => expect(currentLocation()).toBe('/installation/rvmpage/5/EventHistory'), WAIT);
    cleanup();
    renderMachinePage('/installation/rvmpage/5/NoSuchTab', holding('installation:rvmpage:ConsumerSessions'));
    await waitFor(() => expect(currentLocation()).toBe('/installation/rvmpage/5/ConsumerSessions'), WAIT);
  });

  it('shows only the tabs the user may open; without machine:page the page names the machine by id', async () => {
    const h = renderMachinePage('/installation/rvmpage/5/Overview', holding('installation:rvmpage:EventHistory', 'installation:rvmpage:ConsumerSessions'));
    await waitFor(() => expect(currentLocation()).toBe('/installation/rvmpage/5/EventHistory'), WAIT);
    expect(await tabNames()).toEqual([t('menu.EventHistory'), t('menu.ConsumerSessions')]);
    expect(screen.getByRole('heading', { name: t('installation.machinePage.title', { termNo: '#5' }) })).toBeTruthy();
    expect(screen.queryByRole('link', { name: t('installation.machinePage.editRecord') })).toBeNull();
    expect(callsTo(h.calls, 'GET', '/rvm/5')).toHaveLength(0);
  });

  it('a user without any tab is sent to /401', async () => {
    renderMachinePage('/installation/rvmpage/5/Overview', holding('search'));
    await waitFor(() => expect(currentLocation()).toBe('/401'), WAIT);
  });

  it('a machine the server does not know (6001), or a malformed id, shows the not-found state', async () => {
    renderMachinePage('/installation/rvmpage/5/EventHistory', ADMIN, {
      'GET /rvm/5': () => {
        throw new ApiError('6001', 'The RVM does not exist');
      },
    });
    expect(await screen.findByText(t('errors.6001'), {}, WAIT)).toBeTruthy();
    expect(screen.getByText(t('installation.machinePage.notFoundDetail'))).toBeTruthy();
    expect(screen.queryByRole('tablist')).toBeNull();
    expect(screen.getByRole('link', { name: t('installation.machinePage.back') }).getAttribute('href')).toBe('/installation/fleetManagement');
    cleanup();

    renderMachinePage('/installation/rvmpage/abc/Overview');
    expect(await screen.findByText(t('errors.6001'), {}, WAIT)).toBeTruthy();
  });

  it('the bare machine page route leads to fleet management', async () => {
    renderMachinePage('/installation/rvmpage');
    await waitFor(() => expect(currentLocation()).toBe('/installation/fleetManagement'), WAIT);
  });
});
