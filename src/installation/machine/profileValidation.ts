// ProfileSetting form validation: the machine declaration's own fields and rules (resources/validation.ts
// via the generic form validator, the same the server applies, "off after on" included). Bin height
// bound messages word the bound as docs/product-rules.md#validation-rules does.
import { BIN_HEIGHT } from '../../../resources/fleetCatalogue';
import { machine, PROFILE_FIELDS } from '../../../resources/machine';
import { formValidator, type FormErrors } from '../../generic/formValidation';

const HEIGHT_FIELDS = new Set(['binEmptyHeight', 'binFullHeight']);
const HEIGHT_BOUND_MESSAGES = new Set(['validation.min', 'validation.max', 'validation.integer', 'validation.number']);

const validateDeclared = formValidator(machine, 'edit', PROFILE_FIELDS);

export const validateProfile = (values: Record<string, unknown>): FormErrors => {
  const errors = validateDeclared(values);
  for (const field of HEIGHT_FIELDS) {
    if (errors[field] && HEIGHT_BOUND_MESSAGES.has(errors[field].message)) {
      errors[field] = { message: 'fleet.validation.binHeight', args: { min: BIN_HEIGHT.min - 1, max: BIN_HEIGHT.max + 1 } };
    }
  }
  return errors;
};

/** The PUT /rvmpage/profile body: the profile fields of the form values ('' clears a field). */
export const profileBody = (id: number, values: Record<string, unknown>): Record<string, unknown> => {
  const body: Record<string, unknown> = { id };
  for (const name of PROFILE_FIELDS) {
    if (!(name in values)) continue;
    const value = values[name];
    body[name] = value === '' || value === undefined ? null : value;
  }
  return body;
};
