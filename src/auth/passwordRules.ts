// Pure form rules of the login, reset-password and change-password forms (SPEC section 5).
// Answers are i18n keys (plus interpolation values) so tests need no React and no translations.
import { checkPassword } from '../../resources/validation';
import { samePasswordHash } from '../providers/crypto';

export interface FieldError {
  key: string;
  values?: Record<string, string | number>;
}
export type FormErrors<K extends string> = Partial<Record<K, FieldError>>;

export const USERNAME_MIN = 2;
export const USERNAME_MAX = 8;
export const PASSWORD_MAX = 20;

const required = (value: string): FieldError | undefined =>
  value === '' ? { key: 'validation.required' } : undefined;

/** SPEC 5 "Login": user name and password required, user name 2 to 8 characters. */
export const validateLogin = (values: { username: string; password: string }): FormErrors<'username' | 'password'> => {
  const username = values.username.trim();
  const errors: FormErrors<'username' | 'password'> = {};
  const usernameRequired = required(username);
  if (usernameRequired) errors.username = usernameRequired;
  else if (username.length < USERNAME_MIN || username.length > USERNAME_MAX) {
    errors.username = { key: 'validation.lengthBetween', values: { min: USERNAME_MIN, max: USERNAME_MAX } };
  }
  const passwordRequired = required(values.password);
  if (passwordRequired) errors.password = passwordRequired;
  return errors;
};

/** New password + confirmation (reset-password page). */
export const validateNewPassword = (values: { password: string; confirmPassword: string }): FormErrors<'password' | 'confirmPassword'> => {
  const errors: FormErrors<'password' | 'confirmPassword'> = {};
  const rule = checkPassword(values.password);
  if (rule) errors.password = { key: rule };
  const confirm = required(values.confirmPassword);
  if (confirm) errors.confirmPassword = confirm;
  else if (values.confirmPassword !== values.password) errors.confirmPassword = { key: 'validation.passwordMismatch' };
  return errors;
};

export interface ChangePasswordValues {
  oldPassword: string;
  newPassword: string;
  confirmPassword: string;
}

export const trimPasswords = (values: ChangePasswordValues): ChangePasswordValues => ({
  oldPassword: values.oldPassword.trim(),
  newPassword: values.newPassword.trim(),
  confirmPassword: values.confirmPassword.trim(),
});

/**
 * SPEC 5 "Change password dialog": inputs trimmed; old required and equal to the stored password
 * (compared after a hash; skipped when nothing is stored, the server checks it anyway); new required,
 * at most 20 characters, the password rule, different from the old one; confirmation equal to it.
 */
export const validateChangePassword = (
  raw: ChangePasswordValues,
  storedPassword: string | null,
): FormErrors<keyof ChangePasswordValues> => {
  const values = trimPasswords(raw);
  const errors: FormErrors<keyof ChangePasswordValues> = {};
  const oldRequired = required(values.oldPassword);
  if (oldRequired) errors.oldPassword = oldRequired;
  else if (storedPassword !== null && !samePasswordHash(values.oldPassword, storedPassword)) {
    errors.oldPassword = { key: 'validation.incorrectPassword' };
  }

  const newRequired = required(values.newPassword);
  if (newRequired) errors.newPassword = newRequired;
  else if (values.oldPassword !== '' && samePasswordHash(values.newPassword, values.oldPassword)) {
    errors.newPassword = { key: 'validation.samePassword' };
  } else if (values.newPassword.length > PASSWORD_MAX) {
    errors.newPassword = { key: 'validation.passwordLength' };
  } else {
    const rule = checkPassword(values.newPassword);
    if (rule) errors.newPassword = { key: rule };
  }

  const confirmRequired = required(values.confirmPassword);
  if (confirmRequired) errors.confirmPassword = confirmRequired;
  else if (values.confirmPassword !== values.newPassword) errors.confirmPassword = { key: 'validation.passwordMismatch' };
  return errors;
};

export const hasErrors = (errors: object): boolean => Object.keys(errors).length > 0;
