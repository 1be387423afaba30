// What a write changed, as the audit log keeps it (docs/audit-log.md "Changes"): the changed fields
// only, each with its value before and after; a secret field says that it changed, never its value.

/** One changed field: its values (a created record has no before, a deleted one no after), or only that a secret changed. */
export type FieldChange = { before?: unknown; after?: unknown } | { redacted: true };
export type Changes = Record<string, FieldChange>;

/**
 * Field names treated as secret whatever the caller says: a hash or a token is no safer in a log than a
 * password (writeOnly fields are passed by the engine as `secretFields`).
 */
const SECRET_NAME = /passw|secret|token|salt|hash|credential|api_?key/i;
/** Longer texts (an image as a data URL, a long description) are cut: the log says what changed, it is no backup. */
const MAX_TEXT = 500;

const isSecret = (field: string, secretFields: readonly string[]) => secretFields.includes(field) || SECRET_NAME.test(field);

/** A value as JSON keeps it: dates as ISO text, bytes as their size, id lists in order, long texts cut. */
const normalize = (value: unknown): unknown => {
  if (value === undefined || value === null) return null;
  if (value instanceof Date) return value.toISOString();
  if (value instanceof Uint8Array) return `<${value.byteLength} bytes>`;
  if (typeof value === 'bigint') return Number(value);
  if (typeof value === 'string') return value.length > MAX_TEXT ? `${value.slice(0, MAX_TEXT)}…` : value;
  if (Array.isArray(value)) {
    const items = value.map(normalize);
    // id lists (roles, permissions, fleets): the same ids in another order are no change
    return items.every((item) => typeof item === 'number') ? [...items].sort((a, b) => a - b) : items;
  }
  if (typeof value === 'object') return JSON.parse(JSON.stringify(value)) as unknown;
  return value;
};

const isEmpty = (value: unknown) => value === null || value === '' || (Array.isArray(value) && value.length === 0);
const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/**
 * The changed fields between two states of a record (either may be absent: a create has no before, a
 * delete no after). An update compares the fields of `after` only (what the write set); a create lists
 * the fields given a value, a delete the fields that had one. `id` is the entry's record id, not a change.
 * Secret fields (`secretFields`, and names like password/token/secret/hash): `{ redacted: true }` when
 * set by a create or an update, nothing on delete.
 */
export const diffFields = (before: Record<string, unknown> | undefined, after: Record<string, unknown> | undefined, secretFields: readonly string[]): Changes => {
  const changes: Changes = {};
  const fields = after ? Object.keys(after) : Object.keys(before ?? {});
  for (const field of fields) {
    if (field === 'id') continue;
    const old = before ? normalize(before[field]) : null;
    const now = after ? normalize(after[field]) : null;
    if (isSecret(field, secretFields)) {
      if (after && !isEmpty(now)) changes[field] = { redacted: true };
      continue;
    }
    if (!before) {
      if (!isEmpty(now)) changes[field] = { after: now };
    } else if (!after) {
      if (!isEmpty(old)) changes[field] = { before: old };
    } else if (!same(old, now)) {
      changes[field] = { before: old, after: now };
    }
  }
  return changes;
};
