// The machine declaration's cross-field rules (SPEC 5: bin empty height above full height,
// almost-full not above already-full, off time after on time) evaluated on a whole record. The
// shared validateRecord only sees the fields of a request and cannot compare "HH:mm" times, so
// writes check the stored record merged with the request here, before anything changes.
import { machine } from '../../resources/machine';
import type { Issue } from '../lib/errors';

const TIME_OF_DAY = /^(\d{2}):(\d{2})$/;

const comparable = (value: unknown): number | null => {
  if (typeof value === 'number') return value;
  if (typeof value !== 'string' || value === '') return null;
  const time = TIME_OF_DAY.exec(value);
  if (time) return Number(time[1]) * 60 + Number(time[2]);
  const parsed = Date.parse(value);
  return Number.isNaN(parsed) ? null : parsed;
};

export const profileRuleIssues = (record: Record<string, unknown>): Issue[] => {
  const issues: Issue[] = [];
  for (const rule of machine.rules) {
    const a = comparable(record[rule.field]);
    const b = comparable(record[rule.other]);
    if (a === null || b === null) continue;
    const ok = rule.kind === 'notGreaterThan' ? a <= b : a > b;
    if (!ok) issues.push({ field: rule.field, message: rule.message, code: '1004' });
  }
  return issues;
};
