// The report screen's range (src/reports/reportRange.ts): local days become [first midnight, the
// midnight after the last) with the browser's offset, in Hong Kong and in New York (DST included).
import { describe, expect, it } from 'vitest';
import { includedDays, lastDays, rangeBody } from '../../src/reports/reportRange';
import { convertDateTimes } from '../../src/providers/http';

describe('report range', () => {
  it('sends the local midnights around the chosen days, and the offset at the first', () => {
    const body = rangeBody({ first: '2026-03-01', last: '2026-03-31' })!;
    const from = new Date(2026, 2, 1);
    expect(body.from).toBe(from.toISOString());
    expect(body.to).toBe(new Date(2026, 3, 1).toISOString());
    expect(body.utcOffsetMinutes).toBe(-from.getTimezoneOffset());
    expect(Math.abs(body.utcOffsetMinutes % 60)).toBe(0);
    // 31 local days: 744 hours, or 743 across New York's spring change.
    const hours = (Date.parse(body.to) - Date.parse(body.from)) / 3_600_000;
    expect([743, 744]).toContain(hours);
  });

  it('refuses a missing day or a last day before the first', () => {
    expect(rangeBody({ first: '', last: '2026-03-31' })).toBeNull();
    expect(rangeBody({ first: '2026-03-02', last: '2026-03-01' })).toBeNull();
    expect(rangeBody({ first: '2026-03-01', last: '2026-03-01' })).not.toBeNull();
  });

  it('the last N days are the complete days before today', () => {
    expect(lastDays(30, new Date(2026, 10, 23, 15, 0))).toEqual({ first: '2026-10-24', last: '2026-11-22' });
  });

  it('shows a stored range as the days the form chose, the last one included', () => {
    const body = rangeBody({ first: '2026-10-28', last: '2026-11-26' })!;
    // as the generated reports list receives it: instants converted to local date-time texts
    const { from, to } = convertDateTimes({ from: body.from, to: body.to }) as { from: string; to: string };
    expect(to.slice(0, 10)).toBe('2026-11-27');
    expect(includedDays(from, to)).toBe('2026-10-28 – 2026-11-26');
    expect(includedDays(undefined, 'soon')).toBe(' – soon');
  });
});
