// A session's period in one list column: the end's date only when it differs from the start's.
import { describe, expect, it } from 'vitest';
import { formatPeriod } from '../../src/kit/format';

describe('formatPeriod', () => {
  it('drops the end date on the start day', () => {
    expect(formatPeriod('2026-11-24 22:29:15', '2026-11-24 22:29:38')).toBe('2026-11-24 22:29:15 – 22:29:38');
  });

  it('keeps the end date across midnight (and across a month)', () => {
    expect(formatPeriod('2026-11-30 23:59:50', '2026-12-01 00:00:20')).toBe('2026-11-30 23:59:50 – 2026-12-01 00:00:20');
    expect(formatPeriod('2026-11-24 23:59:50', '2026-11-25 00:00:20')).toBe('2026-11-24 23:59:50 – 2026-11-25 00:00:20');
  });

  it('shows the start alone while a session has no end', () => {
    expect(formatPeriod('2026-11-24 22:29:15', null)).toBe('2026-11-24 22:29:15');
    expect(formatPeriod('2026-11-24 22:29:15', undefined)).toBe('2026-11-24 22:29:15');
    expect(formatPeriod(null, '2026-11-24 22:29:15')).toBe('2026-11-24 22:29:15');
    expect(formatPeriod(null, null)).toBe('');
  });
});
