// A definition as stored in resource_type.definition. jsonb keeps no object key order, but the order of
// `fields` is the order of the forms and of the list's field chooser: it is stored beside them as
// `fieldOrder` and restored on read. Comparisons use a canonical form (keys sorted, fieldOrder kept).
import type { ConfiguredType } from '../../resources/configuredTypes';

type Stored = ConfiguredType & { fieldOrder?: string[] };

/** The definition without what the server answers (status, version) or a call's flags (confirmArchive). */
export const definitionOnly = (type: ConfiguredType): ConfiguredType => {
  const { status: _status, version: _version, confirmArchive: _confirm, fieldOrder: _order, ...definition } = type as Stored & { confirmArchive?: boolean };
  return definition;
};

export const toRow = (type: ConfiguredType): Stored => ({ ...definitionOnly(type), fieldOrder: Object.keys(type.fields) });

export const fromRow = (raw: unknown, name: string): ConfiguredType => {
  const stored = (typeof raw === 'string' ? JSON.parse(raw) : raw) as Stored;
  const order = stored.fieldOrder ?? Object.keys(stored.fields);
  const fields = Object.fromEntries(
    [...order.filter((field) => field in stored.fields), ...Object.keys(stored.fields).filter((field) => !order.includes(field))].map((field) => [field, stored.fields[field]]),
  );
  return { ...definitionOnly(stored), name, fields };
};

const canonical = (value: unknown): unknown => {
  if (Array.isArray(value)) return value.map(canonical);
  if (value && typeof value === 'object')
    return Object.fromEntries(
      Object.keys(value)
        .sort()
        .map((key) => [key, canonical((value as Record<string, unknown>)[key])]),
    );
  return value;
};

/** Whether two definitions say the same (field order included). */
export const sameDefinition = (a: ConfiguredType, b: ConfiguredType) => JSON.stringify(canonical(toRow(a))) === JSON.stringify(canonical(toRow(b)));
