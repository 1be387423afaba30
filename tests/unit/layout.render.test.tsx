// @vitest-environment jsdom
// The shell (layout, header, left menu: docs/product-rules.md#screens-and-routes; menu permissions:
// docs/product-rules.md#permission-model) rendered as src/App.tsx wires
// it, against a fake server: what a signed-in user sees and can do in the header and the sidebar.
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { catalogues } from '../../i18n';
import { ConsoleLayout } from '../../src/app/ConsoleLayout';
import { ADMIN, callsTo, consoleHarness, currentLocation, holding, homeReached, t, translatorFor } from './consoleHarness';

// Rendering react-admin and MUI in jsdom is slow on a busy machine: generous limits, never sleeps.
vi.setConfig({ testTimeout: 60_000 });
const WAIT = { timeout: 20_000 };

afterEach(() => {
  cleanup();
  window.localStorage.clear(); // the sidebar state persists there
});

const sidebar = () => screen.getByRole('navigation', { name: t('app.header.mainMenu') });
/** Menu keys of the entries the sidebar shows, in order. */
const menuKeys = () => [...sidebar().querySelectorAll<HTMLElement>('[data-menu-key]')].map((entry) => entry.dataset.menuKey);

describe('header', () => {
  it('shows the product name, the greeting and, on the home route only, the license account', async () => {
    const user = userEvent.setup();
    const h = consoleHarness({ realName: 'Ada Admin', accountName: 'Harbour Recycling' });
    h.renderApp('/index/index');
    await homeReached();
    const banner = screen.getByRole('banner');
    expect(within(banner).getByText(t('app.title'))).toBeTruthy();
    expect(within(banner).getByText(t('app.header.greeting', { name: 'Ada Admin' }))).toBeTruthy();
    expect(within(banner).getByText(t('app.header.accountName', { name: 'Harbour Recycling' }))).toBeTruthy();

    // the sidebar's entries come with canAccess's answers (a query), a moment after the shell
    await user.click(await within(sidebar()).findByRole('link', { name: t('menu.search') }, WAIT));
    await waitFor(() => expect(currentLocation()).toBe('/search/search'), WAIT);
    expect(await screen.findByRole('heading', { name: t('menu.search') }, WAIT)).toBeTruthy();
    expect(within(banner).queryByText(t('app.header.accountName', { name: 'Harbour Recycling' }))).toBeNull();
  });

  it('the language switch stores the other language and reloads; the reloaded console speaks it', async () => {
    const user = userEvent.setup();
    const h = consoleHarness();
    h.renderApp('/search/search');
    const banner = await screen.findByRole('banner', {}, WAIT);
    await user.click(within(banner).getByText(catalogues.en.app.language.zh));
    expect(h.session.getLang()).toBe('zh');
    expect(h.reload).toHaveBeenCalledTimes(1);

    // the reload: the page starts again and reads the stored language
    cleanup();
    h.renderApp('/search/search');
    const zh = translatorFor('zh');
    const reloaded = await screen.findByRole('banner', {}, WAIT);
    expect(within(reloaded).getByText(zh('app.title'))).toBeTruthy();
    expect(within(reloaded).getByText(zh('app.header.greeting', { name: 'Ada Admin' }))).toBeTruthy();
    expect(within(reloaded).getByText(catalogues.zh.app.language.en)).toBeTruthy(); // offers English now
    expect(await within(screen.getByRole('navigation', { name: zh('app.header.mainMenu') })).findByRole('link', { name: zh('menu.search') }, WAIT)).toBeTruthy();
    expect(screen.queryByText(t('app.header.greeting', { name: 'Ada Admin' }))).toBeNull();
  });

  it('the user menu offers Edit Password, the license account and Exit; Exit signs out and reloads on the login page', async () => {
    const user = userEvent.setup();
    const h = consoleHarness({ accountName: 'Harbour Recycling' });
    h.renderApp('/search/search');
    await user.click(await screen.findByRole('button', { name: t('app.header.userMenu') }, WAIT));
    const menu = await screen.findByRole('menu', {}, WAIT);
    expect(within(menu).getByRole('menuitem', { name: t('app.header.editPassword') })).toBeTruthy();
    expect(within(menu).getByRole('menuitem', { name: t('app.header.licenseAccount', { name: 'Harbour Recycling' }) })).toBeTruthy();

    await user.click(within(menu).getByRole('menuitem', { name: t('app.header.logout') }));
    await waitFor(() => expect(h.reload).toHaveBeenCalledWith('/login'), WAIT);
    expect(callsTo(h.calls, 'GET', '/login/logout')).toHaveLength(1);
    expect(h.session.isSignedIn()).toBe(false);
  });

  it('Edit Password opens the change-password dialog, license account the switch dialog', async () => {
    const user = userEvent.setup();
    const h = consoleHarness({ handlers: { 'GET /license-account-user-relation': [{ id: 1, licenseAccountName: 'Harbour Recycling', isDefault: true }] } });
    h.renderApp('/search/search');
    await user.click(await screen.findByRole('button', { name: t('app.header.userMenu') }, WAIT));
    await user.click(await screen.findByRole('menuitem', { name: t('app.header.editPassword') }, WAIT));
    const dialog = await screen.findByRole('dialog', { name: t('app.changePassword.title') }, WAIT);
    await user.click(within(dialog).getByRole('button', { name: t('app.changePassword.cancel') }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: t('app.changePassword.title') })).toBeNull(), WAIT);

    await user.click(screen.getByRole('button', { name: t('app.header.userMenu') }));
    await user.click(await screen.findByRole('menuitem', { name: /Harbour Recycling/ }, WAIT));
    const switchDialog = await screen.findByRole('dialog', { name: t('app.switchAccount.title') }, WAIT);
    expect(await within(switchDialog).findByRole('radio', { name: 'Harbour Recycling' }, WAIT)).toBeTruthy();
  });
});

describe('left menu', () => {
  it('a superAdmin sees every area; Home is open on the home route', async () => {
    consoleHarness({ user: ADMIN }).renderApp('/index/index');
    await screen.findByRole('navigation', { name: t('app.header.mainMenu') }, WAIT);
    await waitFor(
      () => expect(menuKeys()).toEqual(['home', 'index', 'quarantineOverview', 'search', 'installation', 'reports', 'service', 'promotion', 'apis', 'systemSettings']),
      WAIT,
    );
    expect(within(sidebar()).getByRole('link', { name: t('menu.index') }).className).toContain('Mui-selected');
  });

  it('shows only permitted entries (Home always), a parent with only its permitted children', async () => {
    const user = userEvent.setup();
    consoleHarness({ user: holding('search', 'reports:report') }).renderApp('/index/index');
    await screen.findByRole('navigation', { name: t('app.header.mainMenu') }, WAIT);
    await waitFor(() => expect(menuKeys()).toEqual(['home', 'index', 'search', 'reports']), WAIT); // no home:quarantineOverview
    const reports = within(sidebar()).getByRole('button', { name: t('menu.reports') });
    expect(reports.getAttribute('aria-expanded')).toBe('false');
    await user.click(reports);
    expect(reports.getAttribute('aria-expanded')).toBe('true');
    expect(menuKeys()).toEqual(['home', 'index', 'search', 'reports', 'report']);
    await user.click(within(sidebar()).getByRole('button', { name: t('menu.home') }));
    await waitFor(() => expect(menuKeys()).toEqual(['home', 'search', 'reports', 'report']), WAIT);
  });

  it('a screen outside the permitted menu sends the user to /401', async () => {
    consoleHarness({ user: holding('search') }).renderApp('/service/performance');
    expect(await screen.findByText(t('app.noPermission.message'), {}, WAIT)).toBeTruthy();
    expect(currentLocation()).toBe('/401');
  });

  it('collapses to icons with names and pop-up children, and remembers it', async () => {
    const user = userEvent.setup();
    // the promotion list it opens asks for its rows and saved filters (an unanswered call would hand the list null)
    consoleHarness({ handlers: { 'GET /saved-filter': [], 'POST /promotion/resource/page': { list: [], total: 0, pageNum: 1, pageSize: 20 } } }).renderApp('/search/search');
    await user.click(await screen.findByRole('button', { name: t('app.header.collapseSidebar') }, WAIT));
    expect(sidebar().dataset.collapsed).toBe('true');
    expect(screen.getByRole('button', { name: t('app.header.expandSidebar') })).toBeTruthy();
    // icons only: the titles are the entries' names, not visible text
    const search = await within(sidebar()).findByRole('link', { name: t('menu.search') }, WAIT);
    expect(search.textContent).toBe('');
    await user.click(within(sidebar()).getByRole('button', { name: t('menu.promotion') }));
    const popup = await screen.findByRole('menu', {}, WAIT);
    expect(
      within(popup)
        .getAllByRole('menuitem')
        .map((item) => item.textContent),
    ).toEqual(['promotionResource', 'promotionDeployment', 'createPromotionOption', 'defaultPromotion'].map((key) => t(`menu.${key}`)));
    await user.click(within(popup).getByRole('menuitem', { name: t('menu.promotionResource') }));
    await waitFor(() => expect(currentLocation()).toBe('/promotion/promotionResource'), WAIT);
    // a built screen now (docs/promotions.md): its list opens under the area's title
    expect(await screen.findByRole('heading', { name: t('menu.promotionResource') }, WAIT)).toBeTruthy();
    expect(screen.queryByText(t('app.notAvailable.message'))).toBeNull();
    expect(JSON.parse(window.localStorage.getItem('sidebarStatus') ?? '{}')).toMatchObject({ opened: false, width: 40 });
  });
});

describe('session refresh on page load', () => {
  it('changed permissions from GET /login/current reach the menu', async () => {
    const h = consoleHarness({
      user: ADMIN,
      handlers: { 'GET /login/current': { accountName: 'Harbour Recycling', userId: 7, realName: 'Ada Admin', userInfo: holding('search') } },
    });
    h.renderApp('/search/search');
    await screen.findByRole('navigation', { name: t('app.header.mainMenu') }, WAIT);
    await waitFor(() => expect(menuKeys()).toEqual(['home', 'search']), WAIT);
    expect(h.session.getUserInfo()?.superAdmin).toBe(false);
  });

  it('a pending forced password change opens the dialog it cannot leave', async () => {
    const h = consoleHarness({
      handlers: { 'GET /login/current': { accountName: 'Harbour Recycling', userId: 7, realName: 'Ada Admin', userInfo: ADMIN, passwordExpired: true } },
    });
    h.renderApp('/search/search');
    const dialog = await screen.findByRole('dialog', { name: t('app.changePassword.title') }, WAIT);
    expect(within(dialog).getByText(t('app.changePassword.passwordExpired'))).toBeTruthy();
    expect(within(dialog).queryByRole('button', { name: t('app.changePassword.cancel') })).toBeNull();
    // no screen behind it: its calls would be refused (4007) and show their errors under the dialog
    expect(screen.getByTestId('content').textContent).toBe('');
  });

  it('a forced change stored at sign-in: the layout shows the dialog and not the screen (whose calls would all be refused)', async () => {
    const forced = consoleHarness({ forced: 'firstLogin' });
    forced.renderIn(
      <ConsoleLayout>
        <p>the screen</p>
      </ConsoleLayout>,
    );
    const dialog = await screen.findByRole('dialog', { name: t('app.changePassword.title') }, WAIT);
    expect(within(dialog).getByText(t('app.changePassword.firstLogin'))).toBeTruthy();
    expect(screen.getByTestId('content').textContent).toBe('');
    cleanup();
    consoleHarness().renderIn(
      <ConsoleLayout>
        <p>the screen</p>
      </ConsoleLayout>,
    );
    expect(await screen.findByText('the screen', undefined, WAIT)).toBeTruthy();
  });
});
