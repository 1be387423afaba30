// Form rules of docs/product-rules.md#validation-rules, checked as message keys and as the rendered English/Chinese texts.
import { describe, expect, it } from 'vitest';
import { translate } from '../../i18n';
import { checkPassword } from '../../resources/validation';
import { validateChangePassword, validateLogin, validateNewPassword, type FieldError } from '../../src/auth/passwordRules';

const text = (error: FieldError | undefined, locale: 'en' | 'zh' = 'en') => (error ? translate(locale, error.key, error.values) : undefined);

describe('password rule messages (word for word)', () => {
  it.each([
    ['', 'This field cannot be empty'],
    ['a1!', 'The length must be between 6 and 20 characters'],
    ['abcdefghij1!abcdefghij', 'The length must be between 6 and 20 characters'],
    ['abcdef!', 'At least 1 digit'],
    ['123456!', 'At least 1 letter'],
    ['abc1234', 'At least 1 symbol'],
    ['abc12!中文', 'The value cannot contain Chinese characters'],
  ])('%j -> %s', (value, message) => {
    const key = checkPassword(value);
    expect(key).not.toBeNull();
    expect(translate('en', key!)).toBe(message);
    expect(translate('zh', key!)).not.toBe(message);
  });

  it('accepts a valid password', () => {
    expect(checkPassword('Admin@123')).toBeNull();
  });
});

describe('login form', () => {
  it('requires both fields and a 2-8 character user name', () => {
    expect(text(validateLogin({ username: '', password: '' }).username)).toBe('This field cannot be empty');
    expect(text(validateLogin({ username: '', password: '' }).password)).toBe('This field cannot be empty');
    expect(text(validateLogin({ username: 'a', password: 'x' }).username)).toBe('The length must be between 2 and 8 characters');
    expect(text(validateLogin({ username: 'abcdefghi', password: 'x' }).username, 'zh')).toBe('长度必须在 2 到 8 个字符之间');
    expect(validateLogin({ username: ' admin ', password: 'x' })).toEqual({});
  });
});

describe('reset password form', () => {
  it('applies the rule and the confirmation', () => {
    expect(text(validateNewPassword({ password: 'short', confirmPassword: '' }).password)).toBe('The length must be between 6 and 20 characters');
    expect(text(validateNewPassword({ password: 'Admin@123', confirmPassword: 'Admin@124' }).confirmPassword)).toBe('The two passwords are inconsistent');
    expect(validateNewPassword({ password: 'Admin@123', confirmPassword: 'Admin@123' })).toEqual({});
  });
});

describe('change password dialog rules', () => {
  const stored = 'Admin@123';
  const valid = { oldPassword: 'Admin@123', newPassword: 'New@2024x', confirmPassword: 'New@2024x' };

  it('accepts a correct change, with inputs trimmed', () => {
    expect(validateChangePassword(valid, stored)).toEqual({});
    expect(validateChangePassword({ oldPassword: ' Admin@123 ', newPassword: ' New@2024x', confirmPassword: 'New@2024x ' }, stored)).toEqual({});
  });

  it('requires every field', () => {
    const errors = validateChangePassword({ oldPassword: '  ', newPassword: '', confirmPassword: '' }, stored);
    expect([text(errors.oldPassword), text(errors.newPassword), text(errors.confirmPassword)]).toEqual(Array(3).fill('This field cannot be empty'));
  });

  it("refuses an old password that is not the stored one: 'Incorrect password input'", () => {
    expect(text(validateChangePassword({ ...valid, oldPassword: 'Wrong@123' }, stored).oldPassword)).toBe('Incorrect password input');
    // nothing stored: the server decides
    expect(validateChangePassword({ ...valid, oldPassword: 'Wrong@123' }, null).oldPassword).toBeUndefined();
  });

  it('applies the password rule and the 20-character maximum to the new password', () => {
    expect(text(validateChangePassword({ ...valid, newPassword: 'abcdefgh', confirmPassword: 'abcdefgh' }, stored).newPassword)).toBe('At least 1 digit');
    const long = 'Abcdefghij@1234567890';
    expect(text(validateChangePassword({ ...valid, newPassword: long, confirmPassword: long }, stored).newPassword)).toBe('The length must be between 6 and 20 characters');
  });

  it("refuses a confirmation that differs: 'The two passwords are inconsistent'", () => {
    expect(text(validateChangePassword({ ...valid, confirmPassword: 'New@2024y' }, stored).confirmPassword)).toBe('The two passwords are inconsistent');
  });

  it("refuses old == new: 'The new password is the same as the old one'", () => {
    const errors = validateChangePassword({ oldPassword: stored, newPassword: stored, confirmPassword: stored }, stored);
    expect(text(errors.newPassword)).toBe('The new password is the same as the old one');
  });
});
