// What the template store's declarations cannot say (docs/machine-configuration.md#generate-config-file): a JSON
// content's body must parse (1004 on `body`, in the caller's language), checked against the record as it will
// be stored (an edit sending only the body of a JSON content is checked too); every edit renews `updateTime`.
import type { ResourceHooks, Values } from '../crud/hooks';
import { invalidField } from '../lib/errors';

export const parsesAsJson = (text: string): boolean => {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
};

const checkBody = (record: Values) => {
  if (record.format === 'json' && typeof record.body === 'string' && !parsesAsJson(record.body)) {
    throw invalidField('body', 'resources.configTemplateContent.validation.json');
  }
};

const touch = (values: Values) => {
  values.updateTime = new Date();
};

export const CONFIG_TEMPLATE_HOOKS: Readonly<Record<string, ResourceHooks>> = {
  configTemplate: {
    beforeUpdate: async (_context, _id, _input, values) => touch(values),
  },
  configTemplateContent: {
    beforeCreate: async (_context, input) => checkBody(input),
    beforeUpdate: async (_context, _id, input, values, existing) => {
      checkBody({ ...existing, ...input });
      touch(values);
    },
  },
};
