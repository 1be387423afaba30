// The periods of report notifications (server/reports/notificationPeriods.ts): local Monday / 1st
// midnights in a given IANA zone, whatever the process's own zone (this file runs in Hong Kong and New
// York time), across daylight-saving changes and year ends.
import { describe, expect, it } from 'vitest';
import { latestDuePeriod, localMidnight, nextDueTime, utcOffsetMinutesAt } from '../../server/reports/notificationPeriods';

const iso = (date: Date) => date.toISOString();

describe('report notification periods', () => {
  it('weekly in Hong Kong: due Monday 00:00 local, covering the previous Monday to Sunday', () => {
    // Monday 2026-11-30 00:05 in Hong Kong is Sunday 16:05 UTC
    const period = latestDuePeriod('weekly', new Date('2026-11-29T16:05:00Z'), 'Asia/Hong_Kong');
    expect([iso(period.start), iso(period.end)]).toEqual(['2026-11-22T16:00:00.000Z', '2026-11-29T16:00:00.000Z']);
    // Sunday 23:55 local: still the week before
    const before = latestDuePeriod('weekly', new Date('2026-11-29T15:55:00Z'), 'Asia/Hong_Kong');
    expect(iso(before.end)).toBe('2026-11-22T16:00:00.000Z');
    expect(iso(nextDueTime('weekly', new Date('2026-11-29T15:55:00Z'), 'Asia/Hong_Kong'))).toBe('2026-11-29T16:00:00.000Z');
    // exactly at the boundary the new period is due, and the next one is a week later
    expect(iso(latestDuePeriod('weekly', new Date('2026-11-29T16:00:00Z'), 'Asia/Hong_Kong').end)).toBe('2026-11-29T16:00:00.000Z');
    expect(iso(nextDueTime('weekly', new Date('2026-11-29T16:00:00Z'), 'Asia/Hong_Kong'))).toBe('2026-12-06T16:00:00.000Z');
  });

  it('monthly: the previous calendar month, across a year end', () => {
    const period = latestDuePeriod('monthly', new Date('2027-01-10T00:00:00Z'), 'Asia/Hong_Kong');
    expect([iso(period.start), iso(period.end)]).toEqual(['2026-11-30T16:00:00.000Z', '2026-12-31T16:00:00.000Z']);
    // 1 January 00:30 in Hong Kong is still 31 December in UTC: the local date decides
    expect(iso(latestDuePeriod('monthly', new Date('2026-12-31T16:30:00Z'), 'Asia/Hong_Kong').start)).toBe('2026-11-30T16:00:00.000Z');
    expect(iso(nextDueTime('monthly', new Date('2026-12-31T15:59:00Z'), 'Asia/Hong_Kong'))).toBe('2026-12-31T16:00:00.000Z');
  });

  it('a week across a daylight-saving change is 167 hours (New York, spring forward)', () => {
    // Monday 2026-03-09 00:00 EDT = 04:00 UTC; the Monday before was EST (05:00 UTC)
    const period = latestDuePeriod('weekly', new Date('2026-03-10T12:00:00Z'), 'America/New_York');
    expect([iso(period.start), iso(period.end)]).toEqual(['2026-03-02T05:00:00.000Z', '2026-03-09T04:00:00.000Z']);
    expect((period.end.getTime() - period.start.getTime()) / 3_600_000).toBe(167);
    expect(utcOffsetMinutesAt(period.start, 'America/New_York')).toBe(-300);
    expect(utcOffsetMinutesAt(period.end, 'America/New_York')).toBe(-240);
  });

  it('local midnight in zones west and east of UTC', () => {
    expect(iso(localMidnight({ year: 2026, month: 6, day: 1 }, 'Europe/London'))).toBe('2026-05-31T23:00:00.000Z');
    expect(iso(localMidnight({ year: 2026, month: 1, day: 1 }, 'Europe/London'))).toBe('2026-01-01T00:00:00.000Z');
    expect(iso(localMidnight({ year: 2026, month: 11, day: 2 }, 'America/Los_Angeles'))).toBe('2026-11-02T08:00:00.000Z');
    expect(iso(localMidnight({ year: 2026, month: 11, day: 1 }, 'Pacific/Auckland'))).toBe('2026-10-31T11:00:00.000Z');
  });
});
