// Service personnel rules the declaration cannot say (docs/service-personnel.md#personnel): the password is
// stored only as the project's salted scrypt hash (server/auth/passwords.ts), on create and whenever an
// update sends one; the update time follows every edit. Personnel settings keep their update time too.
import type { PasswordHasher } from '../auth/passwords';
import type { ResourceHooks } from '../crud/hooks';

export const servicePersonnelHooks = (hasher: PasswordHasher): ResourceHooks => ({
  beforeCreate: async (_context, input, values) => {
    values.password = await hasher.hash(input.password as string);
  },
  beforeUpdate: async (_context, _id, input, values) => {
    if (typeof input.password === 'string' && input.password) values.password = await hasher.hash(input.password);
    else delete values.password;
    values.updateTime = new Date();
  },
});

export const personnelAccessLevelHooks: ResourceHooks = {
  beforeUpdate: async (_context, _id, _input, values) => {
    values.updateTime = new Date();
  },
};
