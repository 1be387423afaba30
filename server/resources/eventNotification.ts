// Notification rules store their comma-separated lists in one spelling ("a, b": no duplicates, one
// space after each comma), so lists read alike everywhere and wrap in narrow columns.
import type { ResourceHooks, Values } from '../crud/hooks';
import { neverSent } from './reportNotification';

const LISTS = ['alarmCodes', 'recipients'] as const;

export const normalizeList = (value: string) =>
  [
    ...new Set(
      value
        .split(',')
        .map((item) => item.trim())
        .filter(Boolean),
    ),
  ].join(', ');

const normalize = (values: Values) => {
  for (const field of LISTS) if (typeof values[field] === 'string') values[field] = normalizeList(values[field]);
};

export const eventNotificationHooks: ResourceHooks = {
  beforeCreate: async (_context, _input, values) => (normalize(values), neverSent(values)),
  beforeUpdate: async (_context, _id, _input, values) => normalize(values),
};
