// @vitest-environment jsdom
// The pages a signed-out user sees (docs/product-rules.md#screens-and-routes: login, forgot and reset password), the route guard, and
// the status pages (404, 401) with their way home, in the console as src/App.tsx wires it.
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { ApiError } from '../../src/providers/httpTypes';
import type { LoginAnswer } from '../../src/providers/session';
import { ADMIN, callsTo, consoleHarness, currentLocation, holding, homeReached, t } from './consoleHarness';
import { descriptionOf, isInvalid, labelled } from './domHelpers';

vi.setConfig({ testTimeout: 60_000 });
const WAIT = { timeout: 20_000 };

afterEach(() => {
  cleanup();
  window.localStorage.clear();
});

const LOGIN_ANSWER: LoginAnswer = {
  accountName: 'Harbour Recycling',
  userId: 7,
  realName: 'Ada Admin',
  tokenInfo: { tokenName: 'rvm-token', tokenValue: 'fresh-token' },
  userInfo: ADMIN,
};

const loginForm = async () => {
  const submit = await screen.findByRole('button', { name: t('app.login.submit') }, WAIT);
  return {
    submit,
    username: screen.getByLabelText(labelled(t('app.login.username'))) as HTMLInputElement,
    password: screen.getByLabelText(labelled(t('app.login.password'))) as HTMLInputElement,
    remember: screen.getByRole('checkbox', { name: t('app.login.rememberPassword') }) as HTMLInputElement,
  };
};

describe('login page', () => {
  it('requires both fields and a user name of 2 to 8 characters, before calling the server', async () => {
    const user = userEvent.setup();
    const h = consoleHarness({ user: null });
    h.renderApp('/login');
    const form = await loginForm();
    await user.click(form.submit);
    expect(descriptionOf(form.username)).toBe(t('validation.required'));
    expect(descriptionOf(form.password)).toBe(t('validation.required'));

    const tooLong = t('validation.lengthBetween', { min: 2, max: 8 });
    await user.type(form.username, 'a');
    expect(descriptionOf(form.username)).toBe(tooLong);
    await user.type(form.username, 'bcdefghi'); // 9 characters
    expect(descriptionOf(form.username)).toBe(tooLong);
    await user.type(form.password, 'secret');
    expect(isInvalid(form.password)).toBe(false);
    await user.click(form.submit);
    expect(callsTo(h.calls, 'POST', '/login/login')).toHaveLength(0);
  });

  it("a wrong user name or password shows the login tip and the server's count of attempts left", async () => {
    const user = userEvent.setup();
    const h = consoleHarness({
      user: null,
      handlers: {
        'POST /login/login': () => {
          throw new ApiError('6', 'Incorrect username or password, 4 attempts left');
        },
      },
    });
    h.renderApp('/login');
    const form = await loginForm();
    await user.type(form.username, 'ada');
    await user.type(form.password, 'wrong');
    await user.click(form.submit);
    // the toast (docs/product-rules.md#error-catalogue: attempts left from the server message) and the inline tip, both alerts
    const toast = await screen.findByText(new RegExp(t('errors.attemptsLeft', { count: 4 })), {}, WAIT);
    expect(toast.textContent).toContain(t('errors.6'));
    const tip = screen.getAllByRole('alert').find((alert) => alert.textContent === t('errors.loginFailed'));
    expect(tip).toBeTruthy();
    expect(h.session.isSignedIn()).toBe(false);
    expect(currentLocation()).toBe('/login');
  });

  it('signs in (home page next), remembers the user when asked, and prefills the form on the next visit', async () => {
    const user = userEvent.setup();
    const h = consoleHarness({ user: null, handlers: { 'POST /login/login': LOGIN_ANSWER } });
    h.renderApp('/login');
    const form = await loginForm();
    expect(form.remember.checked).toBe(false);
    await user.type(form.username, ' ada ');
    await user.type(form.password, 'Old#pass1');
    await user.click(form.remember);
    await user.click(form.submit);

    await homeReached();
    expect(callsTo(h.calls, 'POST', '/login/login')[0].body).toEqual({
      username: 'ada',
      password: 'Old#pass1',
      rememberPassword: true,
      utcOffsetMinutes: -new Date().getTimezoneOffset(),
    });
    expect(h.session.getToken()?.value).toBe('fresh-token');

    // signed out again (the session ends, the remembered user stays): the next visit is prefilled
    h.session.clear();
    cleanup();
    h.renderApp('/login');
    const again = await loginForm();
    expect(again.username.value).toBe('ada');
    expect(again.password.value).toBe('Old#pass1');
    expect(again.remember.checked).toBe(true);
  });

  it('without "remember password" the user name is not kept', async () => {
    const user = userEvent.setup();
    const h = consoleHarness({ user: null, handlers: { 'POST /login/login': LOGIN_ANSWER } });
    h.renderApp('/login');
    const form = await loginForm();
    await user.type(form.username, 'ada');
    await user.type(form.password, 'Old#pass1');
    await user.click(form.submit);
    await waitFor(() => expect(currentLocation()).toBe('/index/index'), WAIT);
    expect(h.session.getRememberedUsername()).toBe('');
    h.session.clear();
    cleanup();
    h.renderApp('/login');
    const again = await loginForm();
    expect(again.username.value).toBe('');
    expect(again.password.value).toBe('');
  });

  it('a deep link opened signed out opens after sign-in; a foreign `next` leads home', async () => {
    const user = userEvent.setup();
    const h = consoleHarness({ user: null, handlers: { 'POST /login/login': LOGIN_ANSWER, 'POST /role/page': { list: [], total: 0, pageNum: 1, pageSize: 20 } } });
    h.renderApp('/systemSettings/role?page=1');
    const form = await loginForm();
    expect(currentLocation()).toBe('/login?next=%2FsystemSettings%2Frole%3Fpage%3D1');
    await user.type(form.username, 'ada');
    await user.type(form.password, 'Old#pass1');
    await user.click(form.submit);
    await waitFor(() => expect(currentLocation()).toBe('/systemSettings/role?page=1'), WAIT);
    h.session.clear();
    cleanup();

    h.renderApp('/login?next=https%3A%2F%2Fevil.example%2F');
    const again = await loginForm();
    await user.type(again.username, 'ada');
    await user.type(again.password, 'Old#pass1');
    await user.click(again.submit);
    await homeReached();
  });
});

describe('forgot and reset password', () => {
  it('forgot password: requires an account, sends it, answers the same neutral text', async () => {
    const user = userEvent.setup();
    const h = consoleHarness({ user: null });
    h.renderApp('/login');
    await user.click(await screen.findByRole('link', { name: t('app.login.forgotPassword') }, WAIT));
    const submit = await screen.findByRole('button', { name: t('app.forgotPassword.submit') }, WAIT);
    await user.click(submit);
    const account = screen.getByLabelText(labelled(t('app.forgotPassword.account')));
    expect(descriptionOf(account)).toBe(t('validation.required'));
    await user.type(account, ' ada@example.com ');
    await user.click(submit);
    expect(await screen.findByText(t('app.forgotPassword.sent'), {}, WAIT)).toBeTruthy();
    expect(callsTo(h.calls, 'POST', '/login/forgotPassword')[0].body).toEqual({ account: 'ada@example.com' });
    await user.click(screen.getByRole('link', { name: t('app.forgotPassword.backToLogin') }));
    await waitFor(() => expect(currentLocation()).toBe('/login'), WAIT);
  });

  it('reset password: a link without token is refused; the new password follows the rule; success leads to sign in', async () => {
    const user = userEvent.setup();
    const h = consoleHarness({ user: null });
    h.renderApp('/resetPassword');
    expect(await screen.findByText(t('app.resetPassword.invalidLink'), {}, WAIT)).toBeTruthy();
    cleanup();

    h.renderApp('/resetPassword?token=abc');
    const submit = await screen.findByRole('button', { name: t('app.resetPassword.submit') }, WAIT);
    const password = screen.getByLabelText(labelled(t('app.resetPassword.newPassword')));
    const confirm = screen.getByLabelText(labelled(t('app.resetPassword.confirmPassword')));
    await user.type(password, 'abcdefg');
    await user.type(confirm, 'abcdefh');
    await user.click(submit);
    expect(descriptionOf(password)).toBe(t('validation.digit'));
    expect(descriptionOf(confirm)).toBe(t('validation.passwordMismatch'));
    expect(callsTo(h.calls, 'POST', '/login/resetPassword')).toHaveLength(0);

    await user.clear(password);
    await user.type(password, 'New#pass2');
    await user.clear(confirm);
    await user.type(confirm, 'New#pass2');
    await user.click(submit);
    expect(await screen.findByText(t('app.resetPassword.success'), {}, WAIT)).toBeTruthy();
    expect(callsTo(h.calls, 'POST', '/login/resetPassword')[0].body).toEqual({ token: 'abc', password: 'New#pass2', confirmPassword: 'New#pass2' });
    await waitFor(() => expect(currentLocation()).toBe('/login'), WAIT);
  });

  it('reset password: a used or unknown link says so, offers a new one, and shows no form', async () => {
    const user = userEvent.setup();
    const h = consoleHarness({
      user: null,
      handlers: { 'GET /login/resetPassword/check': ({ query }: { query?: Record<string, unknown> }) => ({ valid: query?.token === 'live' }) },
    });
    h.renderApp('/resetPassword?token=used');
    expect(await screen.findByText(t('app.resetPassword.invalidLink'), {}, WAIT)).toBeTruthy();
    expect(screen.queryByRole('button', { name: t('app.resetPassword.submit') })).toBeNull();
    expect(screen.queryByLabelText(labelled(t('app.resetPassword.newPassword')))).toBeNull();
    expect(callsTo(h.calls, 'GET', '/login/resetPassword/check')[0].query).toEqual({ token: 'used' });
    await user.click(screen.getByRole('link', { name: t('app.resetPassword.requestNew') }));
    await waitFor(() => expect(currentLocation()).toBe('/forgotPassword'), WAIT);
    expect(await screen.findByRole('button', { name: t('app.forgotPassword.submit') }, WAIT)).toBeTruthy();
    cleanup();

    h.renderApp('/resetPassword?token=live');
    expect(await screen.findByRole('button', { name: t('app.resetPassword.submit') }, WAIT)).toBeTruthy();
    expect(screen.queryByText(t('app.resetPassword.invalidLink'))).toBeNull();
  });
});

describe('route guard and status pages', () => {
  it('a signed-out user is sent to the login page; a signed-in one away from it', async () => {
    consoleHarness({ user: null }).renderApp('/systemSettings/user');
    expect(await screen.findByRole('button', { name: t('app.login.submit') }, WAIT)).toBeTruthy();
    expect(currentLocation()).toBe('/login?next=%2FsystemSettings%2Fuser'); // the deep link is kept
    cleanup();
    consoleHarness().renderApp('/login');
    await homeReached();
  });

  it('an unknown path shows 404 with a way back to the homepage', async () => {
    const user = userEvent.setup();
    consoleHarness().renderApp('/no/such/page');
    expect(await screen.findByRole('heading', { name: t('app.notFound.title') }, WAIT)).toBeTruthy();
    expect(screen.getByText(t('app.notFound.message'))).toBeTruthy();
    expect(currentLocation()).toBe('/404');
    await user.click(screen.getByRole('link', { name: t('app.notFound.backHome') }));
    await homeReached();
  });

  it('401 says the user may not open the page, with a way back to the homepage', async () => {
    const user = userEvent.setup();
    consoleHarness({ user: holding('search') }).renderApp('/401');
    expect(await screen.findByRole('heading', { name: t('app.noPermission.title') }, WAIT)).toBeTruthy();
    expect(screen.getByText(t('app.noPermission.message'))).toBeTruthy();
    await user.click(screen.getByRole('link', { name: t('app.noPermission.backHome') }));
    await waitFor(() => expect(currentLocation()).toBe('/index/index'), WAIT);
  });
});

describe('menu screens', () => {
  // The lazily loaded screens these tests open, transformed and loaded before any timed wait: the first import of the
  // machine page took over 20 s of a test's wait under coverage on a busy machine (2026-11-24, load 7).
  beforeAll(() => Promise.all([import('../../src/installation/machine/MachinePageScreen'), import('../../src/search/SearchPage')]), 120_000);

  it("an area's own page lists the screens of the area the user may open", async () => {
    const user = userEvent.setup();
    // every menu screen is built now (the last was imageClassify): the link opens the screen, not "not available yet"
    consoleHarness({ user: holding('service:performance', 'service:imageClassify'), handlers: { 'GET /ai/classify/models': [] } }).renderApp('/service/serviceManager');
    expect(await screen.findByRole('heading', { name: t('menu.service') }, WAIT)).toBeTruthy();
    expect(screen.getByText(t('app.area.intro'))).toBeTruthy();
    const main = screen.getByRole('main');
    const links = within(main)
      .getAllByRole('link')
      .map((link) => link.textContent);
    expect(links).toEqual([t('menu.performance'), t('menu.imageClassify')]);
    await user.click(within(main).getByRole('link', { name: t('menu.imageClassify') }));
    expect(await screen.findByText(t('aiTraining.classify.noModel'), {}, WAIT)).toBeTruthy();
    expect(screen.getByRole('heading', { name: t('menu.imageClassify') })).toBeTruthy();
    expect(screen.queryByText(t('app.notAvailable.message'))).toBeNull();
  });

  it('a screen that crashes shows the error page inside the shell; leaving it recovers', async () => {
    const user = userEvent.setup();
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    // an answer the Overview tab cannot read
    consoleHarness({ handlers: { 'GET /rvmpage/overview': {}, 'GET /rvm/5': null } }).renderApp('/installation/rvmpage/5/Overview');
    expect(await screen.findByText(t('ra.page.error'), {}, WAIT)).toBeTruthy();
    const menu = screen.getByRole('navigation', { name: t('app.header.mainMenu') });
    await user.click(within(menu).getByRole('link', { name: t('menu.search') }));
    expect(await screen.findByRole('heading', { name: t('menu.search') }, WAIT)).toBeTruthy();
    expect(screen.queryByText(t('ra.page.error'))).toBeNull();
    vi.mocked(console.error).mockRestore();
  });
});
