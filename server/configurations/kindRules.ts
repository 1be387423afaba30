// Rules of single configuration kinds that their declarations cannot say (docs/machine-configuration.md):
// hooks run before the shared versioning ones (./versions.ts). Keyed by declaration name like every
// resource's hooks (server/resources/index.ts); the shared mechanism never looks at these names.
import { h30ValueIssue } from '../../resources/configurationTexts';
import { hasAtMostDecimals } from '../../resources/validation';
import type { ResourceHooks, Values } from '../crud/hooks';
import type { Caller } from '../auth/principal';
import { invalidField } from '../lib/errors';
import { checkRefundGroup, GROUP_RULES } from './groupRules';

/** A refund value has no more decimals than its `decimals` say (0.125 with 2 decimals is refused, never rounded). */
const checkDecimals = (record: Values) => {
  const { value, decimals } = record;
  if (typeof value === 'number' && typeof decimals === 'number' && !hasAtMostDecimals(value, decimals)) {
    throw invalidField('value', 'validation.scale', '1004', { scale: decimals });
  }
};

/** An H30 setting's value fits its key: a whole number in the key's range, or on / off (1004 naming the range). */
const checkH30Value = (record: Values) => {
  const issue = typeof record.setting === 'string' && typeof record.value === 'string' ? h30ValueIssue(record.setting, record.value) : null;
  if (issue) throw invalidField('value', issue.message, '1004', issue.values);
};

/** No currency given: the license account's (the currency its refund values are shown in). */
const currencyOf = (caller: Caller) => caller.principal.licenseAccountCurrency ?? 'HKD';

export const KIND_RULES: Readonly<Record<string, ResourceHooks>> = {
  h30config: {
    beforeCreate: async (_context, input) => checkH30Value(input),
    // the record as it will be stored: a new setting checks the stored value, a new value the stored setting
    beforeUpdate: async (_context, _id, input, _values, existing) => checkH30Value({ ...existing, ...input }),
  },
  refund: {
    beforeCreate: async ({ tx, caller }, input, values) => {
      checkDecimals(input);
      await checkRefundGroup(tx, caller.principal.licenseAccountId ?? -1, input);
      if (!input.currency) input.currency = values.currency = currencyOf(caller);
    },
    beforeUpdate: async ({ tx, caller }, _id, input, values, existing) => {
      checkDecimals({ ...existing, ...input });
      await checkRefundGroup(tx, caller.principal.licenseAccountId ?? -1, { ...existing, ...input });
      if ('currency' in input && !input.currency) input.currency = values.currency = currencyOf(caller);
    },
  },
  ...GROUP_RULES,
};
