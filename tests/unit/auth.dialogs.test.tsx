// @vitest-environment jsdom
// The account dialogs (docs/product-rules.md#screens-and-routes): change password (messages on wrong input, forced mode that
// cannot be left, the success path ending in a logout) and switch default license account.
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ChangePasswordDialog, LOGOUT_DELAY_MS } from '../../src/auth/ChangePasswordDialog';
import { SwitchAccountDialog } from '../../src/auth/SwitchAccountDialog';
import { ApiError } from '../../src/providers/httpTypes';
import { callsTo, consoleHarness, t, type ConsoleOptions } from './consoleHarness';
import { descriptionOf, isDisabled, isInvalid, labelled } from './domHelpers';

vi.setConfig({ testTimeout: 60_000 });
const WAIT = { timeout: 20_000 };

afterEach(() => {
  vi.useRealTimers();
  cleanup();
});

const OLD = 'Old#pass1';
const NEW = 'New#pass2';

const openChangePassword = (options: ConsoleOptions & { forced?: 'firstLogin' | 'passwordExpired' } = {}) => {
  const h = consoleHarness({ password: OLD, ...options });
  const onClose = vi.fn();
  h.renderIn(<ChangePasswordDialog open forced={options.forced ?? null} onClose={onClose} />);
  const dialog = screen.getByRole('dialog', { name: t('app.changePassword.title') });
  const field = (key: 'oldPassword' | 'newPassword' | 'confirmPassword') => within(dialog).getByLabelText(labelled(t(`app.changePassword.${key}`)));
  return { h, onClose, dialog, field };
};

/** Pasting is one input event: fast, and the dialog's trimming still applies. */
const fill = async (user: ReturnType<typeof userEvent.setup>, input: HTMLElement, value: string) => {
  await user.clear(input);
  await user.click(input);
  await user.paste(value);
};

describe('change password dialog: wrong input', () => {
  it('names each empty field, sends nothing', async () => {
    const user = userEvent.setup();
    const { h, dialog, field } = openChangePassword();
    await user.click(within(dialog).getByRole('button', { name: t('app.changePassword.submit') }));
    for (const key of ['oldPassword', 'newPassword', 'confirmPassword'] as const) {
      expect(isInvalid(field(key)), key).toBe(true);
      expect(descriptionOf(field(key))).toBe(t('validation.required'));
    }
    expect(callsTo(h.calls, 'PUT', '/user/password')).toHaveLength(0);
  });

  it('refuses a wrong old password, a weak or too long new one, the old one again, and a different confirmation', async () => {
    const user = userEvent.setup();
    const { h, dialog, field } = openChangePassword();
    const submit = within(dialog).getByRole('button', { name: t('app.changePassword.submit') });
    // the hint of the rule shows before anything is wrong
    expect(descriptionOf(field('newPassword'))).toBe(t('app.passwordRule'));

    await fill(user, field('oldPassword'), 'Wrong#pass1');
    await fill(user, field('newPassword'), 'abcdefg1');
    await fill(user, field('confirmPassword'), 'abcdefg2');
    await user.click(submit);
    expect(descriptionOf(field('oldPassword'))).toBe(t('validation.incorrectPassword'));
    expect(descriptionOf(field('newPassword'))).toBe(t('validation.symbol'));
    expect(descriptionOf(field('confirmPassword'))).toBe(t('validation.passwordMismatch'));

    // messages follow the input once submitted
    await fill(user, field('oldPassword'), `  ${OLD} `); // trimmed
    await fill(user, field('newPassword'), OLD);
    expect(isInvalid(field('oldPassword'))).toBe(false);
    expect(descriptionOf(field('newPassword'))).toBe(t('validation.samePassword'));
    await fill(user, field('newPassword'), 'Abc#1234567890123456789');
    expect(descriptionOf(field('newPassword'))).toBe(t('validation.passwordLength'));
    await fill(user, field('newPassword'), '密码Abc#123');
    expect(descriptionOf(field('newPassword'))).toBe(t('validation.noChinese'));
    await fill(user, field('newPassword'), '######1');
    expect(descriptionOf(field('newPassword'))).toBe(t('validation.letter'));
    await user.click(submit);
    expect(callsTo(h.calls, 'PUT', '/user/password')).toHaveLength(0);
  });
});

describe('change password dialog: closing', () => {
  it('is left only by its buttons: not by Escape, not by a click outside', async () => {
    const user = userEvent.setup();
    const { dialog, onClose, field } = openChangePassword();
    await user.keyboard('{Escape}');
    const backdrop = document.querySelector('.MuiBackdrop-root');
    expect(backdrop).toBeTruthy();
    fireEvent.click(backdrop!);
    expect(onClose).not.toHaveBeenCalled();

    await fill(user, field('oldPassword'), 'typed');
    await user.click(within(dialog).getByRole('button', { name: t('ra.action.close') }));
    expect(onClose).toHaveBeenCalledTimes(1);
    await user.click(within(dialog).getByRole('button', { name: t('app.changePassword.cancel') }));
    expect(onClose).toHaveBeenCalledTimes(2);
    expect((field('oldPassword') as HTMLInputElement).value).toBe(''); // closing forgets the input
  });

  it.each([
    ['firstLogin', 'app.changePassword.firstLogin'],
    ['passwordExpired', 'app.changePassword.passwordExpired'],
  ] as const)('forced (%s): shows why, and offers no way out but changing it', async (forced, warning) => {
    const user = userEvent.setup();
    const { dialog, onClose } = openChangePassword({ forced });
    expect(within(dialog).getByText(t(warning))).toBeTruthy();
    expect(within(dialog).queryByRole('button', { name: t('ra.action.close') })).toBeNull();
    expect(within(dialog).queryByRole('button', { name: t('app.changePassword.cancel') })).toBeNull();
    await user.keyboard('{Escape}');
    expect(onClose).not.toHaveBeenCalled();
    expect(screen.getByRole('dialog', { name: t('app.changePassword.title') })).toBeTruthy();
  });
});

describe('change password dialog: success and failure', () => {
  it("sends the trimmed new password, confirms in the catalogue's words, then signs out after 1 s", async () => {
    const user = userEvent.setup();
    // when the change was answered and when the console reloaded, on the fake clock (which moves with real time:
    // on a busy machine the success message may take longer than the delay to show, so "not yet" is not checked by wall time)
    let answeredAt = Number.NaN;
    let reloadedAt = Number.NaN;
    const { h, dialog, field } = openChangePassword({ forced: 'firstLogin', handlers: { 'PUT /user/password': () => void (answeredAt = Date.now()) } });
    h.reload.mockImplementation(() => void (reloadedAt = Date.now()));
    expect(h.session.getForcedPasswordChange()).toBe('firstLogin');
    await fill(user, field('oldPassword'), OLD);
    await fill(user, field('newPassword'), ` ${NEW} `);
    await fill(user, field('confirmPassword'), NEW);
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'], shouldAdvanceTime: true });
    await user.click(within(dialog).getByRole('button', { name: t('app.changePassword.submit') }));

    expect(await screen.findByText(t('app.changePassword.success'), {}, WAIT)).toBeTruthy();
    const [put] = callsTo(h.calls, 'PUT', '/user/password');
    expect(put.query).toEqual({ password: NEW });
    expect(put.body).toEqual({ oldPassword: OLD });
    expect(h.session.getForcedPasswordChange()).toBeNull();
    expect(isDisabled(within(dialog).getByRole('button', { name: t('app.changePassword.submit') }))).toBe(true);
    vi.advanceTimersByTime(LOGOUT_DELAY_MS);
    await waitFor(() => expect(h.reload).toHaveBeenCalledWith('/login'), WAIT);
    expect(reloadedAt - answeredAt).toBeGreaterThanOrEqual(LOGOUT_DELAY_MS); // not before the delay
    expect(callsTo(h.calls, 'GET', '/login/logout')).toHaveLength(1);
    expect(h.session.isSignedIn()).toBe(false);
  });

  it('a refusal by the server shows its toast and leaves the dialog open to try again', async () => {
    const user = userEvent.setup();
    const { h, dialog, field } = openChangePassword({
      handlers: {
        'PUT /user/password': () => {
          throw new ApiError('1004', 'Parameter error');
        },
      },
    });
    await fill(user, field('oldPassword'), OLD);
    await fill(user, field('newPassword'), NEW);
    await fill(user, field('confirmPassword'), NEW);
    await user.click(within(dialog).getByRole('button', { name: t('app.changePassword.submit') }));
    expect(await screen.findByText(t('errors.1004'), {}, WAIT)).toBeTruthy();
    await waitFor(() => expect(isDisabled(within(dialog).getByRole('button', { name: t('app.changePassword.submit') }))).toBe(false), WAIT);
    expect(screen.queryByText(t('app.changePassword.success'))).toBeNull();
    expect(h.session.isSignedIn()).toBe(true);
    expect(h.reload).not.toHaveBeenCalled();
  });
});

const ACCOUNTS = [
  { id: 1, licenseAccountName: 'Harbour Recycling', isDefault: false },
  { id: 2, licenseAccountName: 'Kowloon Bottles', isDefault: false },
];

const openSwitch = (handlers: Record<string, unknown>) => {
  const h = consoleHarness({ accountName: 'Harbour Recycling', handlers: { 'GET /license-account-user-relation': ACCOUNTS, ...handlers } });
  const onClose = vi.fn();
  h.renderIn(<SwitchAccountDialog open onClose={onClose} />);
  const dialog = screen.getByRole('dialog', { name: t('app.switchAccount.title') });
  return { h, onClose, dialog, submit: () => within(dialog).getByRole('button', { name: t('app.switchAccount.submit') }) };
};

describe('switch default license account dialog', () => {
  it('requires a choice, saves it, stores the new name and reloads after its toast', async () => {
    const user = userEvent.setup();
    const { h, dialog, submit } = openSwitch({ 'PUT /license-account-user-relation': { id: 2, licenseAccountName: 'Kowloon Bottles' } });
    await within(dialog).findByRole('radio', { name: 'Kowloon Bottles' }, WAIT);
    await user.click(submit());
    expect(within(dialog).getByText(t('validation.selectOne'))).toBeTruthy();
    expect(callsTo(h.calls, 'PUT', '/license-account-user-relation')).toHaveLength(0);

    await user.click(within(dialog).getByRole('radio', { name: 'Kowloon Bottles' }));
    expect(within(dialog).queryByText(t('validation.selectOne'))).toBeNull();
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'], shouldAdvanceTime: true });
    await user.click(submit());
    expect(await screen.findByText(t('app.switchAccount.success'), {}, WAIT)).toBeTruthy();
    expect(callsTo(h.calls, 'PUT', '/license-account-user-relation')[0].query).toEqual({ id: '2' });
    expect(h.session.getAccountName()).toBe('Kowloon Bottles');
    vi.advanceTimersByTime(1000);
    await waitFor(() => expect(h.reload).toHaveBeenCalledTimes(1), WAIT);
  });

  it('preselects the current default; a failed save says "Failed" and keeps everything', async () => {
    const user = userEvent.setup();
    const { h, dialog, submit } = openSwitch({
      'GET /license-account-user-relation': [ACCOUNTS[0], { ...ACCOUNTS[1], isDefault: true }],
      'PUT /license-account-user-relation': () => {
        throw new ApiError('5001', 'Abnormal operation');
      },
    });
    const current = await within(dialog).findByRole('radio', { name: 'Kowloon Bottles' }, WAIT);
    expect((current as HTMLInputElement).checked).toBe(true);
    await user.click(submit());
    expect(await screen.findByText(t('app.switchAccount.failed'), {}, WAIT)).toBeTruthy();
    expect(h.session.getAccountName()).toBe('Harbour Recycling');
    expect(h.reload).not.toHaveBeenCalled();
    await waitFor(() => expect(isDisabled(submit())).toBe(false), WAIT);
  });

  it('says so when no account is linked; Cancel closes', async () => {
    const user = userEvent.setup();
    const { dialog, onClose } = openSwitch({ 'GET /license-account-user-relation': [] });
    expect(await within(dialog).findByText(t('app.switchAccount.empty'), {}, WAIT)).toBeTruthy();
    expect(within(dialog).queryByRole('radio')).toBeNull();
    await user.click(within(dialog).getByRole('button', { name: t('app.switchAccount.cancel') }));
    expect(onClose).toHaveBeenCalledTimes(1);
  });
});
