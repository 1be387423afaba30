// Pure form rules of the login, reset-password and change-password forms (docs/product-rules.md#validation-rules).
// Answers are i18n keys (plus interpolation values) so tests need no React and no translations.
import { checkPassword } from '../../resources/validation';
import { samePasswordHash } from '../providers/crypto';
import { required, type FormErrors } from './loginRules';

export { hasErrors, USERNAME_MAX, USERNAME_MIN, validateLogin, type FieldError, type FormErrors } from './loginRules';

export const PASSWORD_MAX = 20;

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
 * Change password dialog (docs/product-rules.md#validation-rules): inputs trimmed; old required and equal to the stored password
 * (compared after a hash; skipped when nothing is stored, the server checks it anyway); new required,
 * at most 20 characters, the password rule, different from the old one; confirmation equal to it.
 */
export const validateChangePassword = (raw: ChangePasswordValues, storedPassword: string | null): FormErrors<keyof ChangePasswordValues> => {
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
