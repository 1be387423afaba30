// Pure rules of the login form (docs/product-rules.md#validation-rules, sign-in), apart from the password rules
// (./passwordRules.ts) so the login page does not load the record validation. Answers are i18n keys
// (plus interpolation values) so tests need no React and no translations.

export interface FieldError {
  key: string;
  values?: Record<string, string | number>;
}
export type FormErrors<K extends string> = Partial<Record<K, FieldError>>;

export const USERNAME_MIN = 2;
export const USERNAME_MAX = 8;

export const required = (value: string): FieldError | undefined => (value === '' ? { key: 'validation.required' } : undefined);

/** Sign-in (docs/product-rules.md#validation-rules): user name and password required, user name 2 to 8 characters. */
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

export const hasErrors = (errors: object): boolean => Object.keys(errors).length > 0;
