// Pure translations between react-admin's data shapes and the wire contract of docs/ARCHITECTURE.md
// (paging body, filters, writable record, validation issues). No React here: unit-tested directly.
import type { FieldDeclaration, PageRequest, ResourceDeclaration } from '../../resources/types';

export const MAX_PAGE_SIZE = 500;
/** `GET <apiPath>/list` answers at most this many items. */
export const MAX_LIST_IDS = 50;

const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;
const LOCAL_DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})[ T](\d{2}):(\d{2})(?::(\d{2}))?$/;

export const isEmptyValue = (value: unknown) => value === undefined || value === null || value === '' || (Array.isArray(value) && value.length === 0);

/** A local wall-clock date or date-time (as shown and typed in the console) to an ISO instant. */
export const localToIso = (value: string, endOfDay = false): string => {
  if (DATE_ONLY.test(value)) {
    const [year, month, day] = value.split('-').map(Number);
    const date = endOfDay ? new Date(year, month - 1, day, 23, 59, 59, 999) : new Date(year, month - 1, day);
    return date.toISOString();
  }
  const match = LOCAL_DATE_TIME.exec(value);
  if (match) {
    const [, year, month, day, hour, minute, second] = match.map(Number);
    return new Date(year, month - 1, day, hour, minute, Number.isNaN(second) ? 0 : second).toISOString();
  }
  return value;
};

/**
 * Filter values as the server expects them: empty ones dropped (an empty text box means "no filter"),
 * datetime bounds widened to the local day ('until 2024-05-01' includes that whole day).
 */
export const toWireFilters = (declaration: ResourceDeclaration, filter: Record<string, unknown> = {}) => {
  const wire: Record<string, unknown> = {};
  for (const [name, raw] of Object.entries(filter)) {
    const value = typeof raw === 'string' ? raw.trim() : raw;
    if (isEmptyValue(value)) continue;
    const declared = declaration.list.filters.find((candidate) => candidate.name === name);
    const field = declared ? declaration.fields[declared.field] : undefined;
    if (declared && field?.type === 'datetime' && typeof value === 'string') {
      wire[name] = localToIso(value, declared.operator === 'lte');
    } else {
      wire[name] = value;
    }
  }
  return wire;
};

/** Sort parameters, only for fields the declaration marks sortable (others answer 1004). */
export const toWireSort = (declaration: ResourceDeclaration, sort?: { field?: string; order?: string }) => {
  if (!sort?.field || !declaration.fields[sort.field]?.sortable) return {};
  return { sort: sort.field, order: sort.order === 'DESC' ? ('DESC' as const) : ('ASC' as const) };
};

export const toPageRequest = (
  declaration: ResourceDeclaration,
  params: { pagination?: { page: number; perPage: number }; sort?: { field?: string; order?: string }; filter?: Record<string, unknown> },
): PageRequest => ({
  ...toWireFilters(declaration, params.filter),
  pageNum: Math.max(1, params.pagination?.page ?? 1),
  pageSize: Math.min(MAX_PAGE_SIZE, Math.max(1, params.pagination?.perPage ?? 20)),
  ...toWireSort(declaration, params.sort),
});

/** Numeric ids travel as numbers even though react-admin's routes hand them over as strings. */
export const toWireId = (id: unknown): unknown => (typeof id === 'string' && /^\d+$/.test(id) ? Number(id) : id);

const writableValue = (field: FieldDeclaration, value: unknown): unknown => {
  if (value === '') return null;
  if (field.type === 'datetime' && typeof value === 'string') return localToIso(value);
  if (field.type === 'number' && typeof value === 'string' && value.trim() !== '' && !Number.isNaN(Number(value))) {
    return Number(value);
  }
  return value;
};

/**
 * The record body of a create or update: only declared, writable fields the form shows for that mode
 * (readOnly and unknown fields answer 1004; a field not in the form must not overwrite stored data).
 * On create empty values are left out; on update they are sent as null, which clears the field, except a write-only
 * field's (a password), which is left out so the stored one stays.
 */
export const toWireRecord = (declaration: ResourceDeclaration, data: Record<string, unknown>, mode: 'create' | 'edit', fieldNames: readonly string[]): Record<string, unknown> => {
  const body: Record<string, unknown> = {};
  for (const name of fieldNames) {
    const field = declaration.fields[name];
    if (!field || field.readOnly || name === 'id' || !(name in data)) continue;
    const value = writableValue(field, data[name]);
    // an empty write-only field (a password left blank on edit) keeps what is stored: nothing to send
    if ((mode === 'create' || field.writeOnly) && isEmptyValue(value)) continue;
    body[name] = value === undefined ? null : value;
  }
  return body;
};

/** A `GET <apiPath>/list` item ({ id, name }) shaped as a record of the resource, enough for labels. */
export const labelRecord = (declaration: ResourceDeclaration, item: { id: unknown; name?: unknown }) => ({
  ...item,
  [declaration.nameField]: item.name,
});

export const chunk = <T>(items: readonly T[], size: number): T[][] => {
  const chunks: T[][] = [];
  for (let start = 0; start < items.length; start += size) chunks.push(items.slice(start, start + size));
  return chunks;
};

export interface WireIssue {
  field: string;
  message: string;
}

export const issuesOf = (data: unknown): WireIssue[] | null => {
  const issues = (data as { issues?: unknown } | null | undefined)?.issues;
  if (!Array.isArray(issues)) return null;
  return issues.filter((issue): issue is WireIssue => typeof issue?.field === 'string' && typeof issue?.message === 'string');
};

/** Validation issues as react-admin's submission errors: one message per field, the summary as root. */
export const issuesToFormErrors = (issues: readonly WireIssue[], summary: string) => {
  const errors: Record<string, unknown> = {};
  for (const issue of issues) if (!(issue.field in errors)) errors[issue.field] = issue.message;
  errors.root = { serverError: summary };
  return errors;
};
