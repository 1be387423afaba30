// Form-level validation derived from the declaration (resources/validation.ts, the same rules the
// server applies), in react-admin's error format: { field: { message: i18n key, args } }.
import { validateRecord } from '../../resources/validation';
import type { ResourceDeclaration } from '../../resources/types';

export type FormErrors = Record<string, { message: string; args?: Record<string, string | number> }>;

export const formValidator =
  (declaration: ResourceDeclaration, mode: 'create' | 'edit', fieldNames: readonly string[]) =>
  (values: Record<string, unknown>): FormErrors => {
    // Only what the form shows is validated (an edit record also carries stored, non-editable values).
    const shown = Object.fromEntries(Object.entries(values).filter(([name]) => fieldNames.includes(name)));
    if (mode === 'create') for (const name of fieldNames) if (!(name in shown)) shown[name] = undefined;
    const errors: FormErrors = {};
    for (const issue of validateRecord(declaration, shown, mode)) {
      if (!errors[issue.field]) errors[issue.field] = { message: issue.message, args: issue.values };
    }
    return errors;
  };
