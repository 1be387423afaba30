// The time limits of reports and performance at their edges (issue 29 item 24: "a limit tested only far from its
// edge does not pin the edge"), with the expected days written out by hand rather than computed by the code under
// test. reports.test.ts refuses a 400-day range, performance.test.ts charts 41 days per week and takes its earliest
// day from earliestDayOf itself. docs/reports.md "Ranges", docs/product-rules.md (performance: three months).
import { describe, expect, it } from 'vitest';
import { REPORT_LIMITS } from '../../resources/reports';
import { DAY_MS, dayLabel } from '../../server/lib/localDays';
import { dayOfLabel, earliestDayOf, resolveRange } from '../../server/performance/range';
import { checkRange } from '../../server/reports/query';

const HOUR = 3_600_000;
const day = (label: string) => Date.parse(`${label}T00:00:00Z`) / DAY_MS;
const codeOf = (run: () => unknown) => {
  try {
    run();
  } catch (error) {
    return (error as { code?: string }).code;
  }
  return 'accepted';
};

describe('report ranges', () => {
  const from = new Date('2026-01-01T00:00:00Z');
  const range = (ms: number, utcOffsetMinutes = 0) => ({ from, to: new Date(from.getTime() + ms), utcOffsetMinutes });

  it('takes exactly 366 days, refuses the next whole hour', () => {
    expect(REPORT_LIMITS.maxRangeDays).toBe(366);
    expect(codeOf(() => checkRange(range(366 * 24 * HOUR)))).toBe('accepted');
    expect(codeOf(() => checkRange(range(366 * 24 * HOUR + HOUR)))).toBe('9300');
  });

  it('takes one hour, refuses an empty or reversed range', () => {
    expect(codeOf(() => checkRange(range(HOUR)))).toBe('accepted');
    expect(codeOf(() => checkRange(range(0)))).toBe('9300');
    expect(codeOf(() => checkRange(range(-HOUR)))).toBe('9300');
    expect(codeOf(() => checkRange({ from: new Date(Number.NaN), to: from, utcOffsetMinutes: 0 }))).toBe('9300');
  });

  it('needs whole hours and a whole-hour offset (9301)', () => {
    expect(codeOf(() => checkRange({ from: new Date(from.getTime() + 1), to: new Date(from.getTime() + 2 * HOUR), utcOffsetMinutes: 0 }))).toBe('9301');
    expect(codeOf(() => checkRange(range(HOUR + 1)))).toBe('9301');
    expect(codeOf(() => checkRange(range(HOUR, -60)))).toBe('accepted');
    expect(codeOf(() => checkRange(range(HOUR, 330)))).toBe('9301');
  });
});

describe('performance ranges', () => {
  it("goes back three calendar months, to the month's last day when it is shorter", () => {
    expect(dayLabel(earliestDayOf(day('2026-05-31')))).toBe('2026-02-28');
    expect(dayLabel(earliestDayOf(day('2024-05-31')))).toBe('2024-02-29');
    expect(dayLabel(earliestDayOf(day('2026-05-30')))).toBe('2026-02-28');
    expect(dayLabel(earliestDayOf(day('2026-05-28')))).toBe('2026-02-28');
    expect(dayLabel(earliestDayOf(day('2026-05-27')))).toBe('2026-02-27');
    expect(dayLabel(earliestDayOf(day('2026-03-15')))).toBe('2025-12-15');
    expect(dayLabel(earliestDayOf(day('2026-01-31')))).toBe('2025-10-31');
    expect(dayLabel(earliestDayOf(day('2026-12-31')))).toBe('2026-09-30');
  });

  // Sunday 2026-03-15 10:00 in Hong Kong
  const now = new Date('2026-03-15T02:00:00Z');
  const resolve = (from: string, to: string, granularity?: 'day' | 'week') => resolveRange({ from, to, ...(granularity ? { granularity } : {}) }, 480, now);

  it('takes the earliest day and today, refuses the day before and the day after (local days)', () => {
    expect(codeOf(() => resolve('2025-12-15', '2026-03-15'))).toBe('accepted');
    expect(codeOf(() => resolve('2025-12-14', '2026-03-15'))).toBe('9340');
    expect(codeOf(() => resolve('2026-03-15', '2026-03-16'))).toBe('1004');
    // from 16:00 UTC on the 15th it is the 16th in Hong Kong, not a millisecond before
    expect(codeOf(() => resolveRange({ from: '2026-03-16', to: '2026-03-16' }, 480, new Date('2026-03-15T16:00:00Z')))).toBe('accepted');
    expect(codeOf(() => resolveRange({ from: '2026-03-16', to: '2026-03-16' }, 480, new Date('2026-03-15T15:59:59.999Z')))).toBe('1004');
  });

  it('takes a one-day range, refuses an end the day before the start', () => {
    expect(codeOf(() => resolve('2026-03-10', '2026-03-10'))).toBe('accepted');
    expect(codeOf(() => resolve('2026-03-10', '2026-03-09'))).toBe('1004');
  });

  it('charts 31 days day by day and 32 per week, unless asked', () => {
    expect(resolve('2026-02-13', '2026-03-15').granularity).toBe('day');
    expect(resolve('2026-02-12', '2026-03-15').granularity).toBe('week');
    expect(resolve('2026-02-12', '2026-03-15', 'day').granularity).toBe('day');
    expect(resolve('2026-03-10', '2026-03-15', 'week').granularity).toBe('week');
  });

  it('starts and ends at local midnights', () => {
    const range = resolve('2026-03-10', '2026-03-11');
    expect([range.start.toISOString(), range.end.toISOString(), range.fromDay, range.toDay]).toEqual([
      '2026-03-09T16:00:00.000Z',
      '2026-03-11T16:00:00.000Z',
      day('2026-03-10'),
      day('2026-03-11'),
    ]);
  });

  it('reads only real calendar days', () => {
    expect(dayOfLabel('2024-02-29')).toBe(day('2024-02-29'));
    for (const label of ['2026-02-29', '2026-04-31', '2026-13-01', '2026-00-10', '2026-1-01', ' 2026-01-01', '2026-01-01x']) expect(dayOfLabel(label), label).toBeUndefined();
  });
});
