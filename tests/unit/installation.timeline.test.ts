// The StatusHistory / OnlineOfflineHistory chart computations.
import { describe, expect, it } from 'vitest';
import { formatDuration, parseShownTime, timeShares, timeTicks, toBands } from '../../src/installation/machine/timeline';

const local = (day: number, hour: number, minute = 0) => new Date(2026, 0, day, hour, minute).getTime();
const shown = (day: number, hour: number, minute = 0) => `2026-01-${String(day).padStart(2, '0')} ${String(hour).padStart(2, '0')}:${String(minute).padStart(2, '0')}:00`;
const LANES = ['Up', 'Offline', 'Down', 'Sleep'];

describe('timeline bands', () => {
  it('reads the shown local date-times and ISO strings', () => {
    expect(parseShownTime(shown(5, 8, 30))).toBe(local(5, 8, 30));
    expect(parseShownTime('2026-01-05T00:00:00.000Z')).toBe(Date.UTC(2026, 0, 5));
    expect(parseShownTime(null)).toBeNull();
    expect(parseShownTime('yesterday')).toBeNull();
  });

  it('puts each period on its value lane, oldest first', () => {
    const bands = toBands(
      [
        { status: 'Down', startTime: shown(1, 10), endTime: shown(1, 11) },
        { status: 'Up', startTime: shown(1, 8), endTime: shown(1, 10) },
        { status: 'Sleep', startTime: shown(1, 11), endTime: shown(1, 12) },
      ],
      'status',
      LANES,
    );
    expect(bands).toEqual([
      { lane: 0, value: 'Up', start: local(1, 8), end: local(1, 10) },
      { lane: 2, value: 'Down', start: local(1, 10), end: local(1, 11) },
      { lane: 3, value: 'Sleep', start: local(1, 11), end: local(1, 12) },
    ]);
  });

  it('merges touching periods of one value and keeps separated ones apart', () => {
    const bands = toBands(
      [
        { status: 'Up', startTime: shown(1, 8), endTime: shown(1, 9) },
        { status: 'Up', startTime: shown(1, 9), endTime: shown(1, 10) },
        { status: 'Down', startTime: shown(1, 10), endTime: shown(1, 11) },
        { status: 'Up', startTime: shown(1, 11), endTime: shown(1, 12) },
      ],
      'status',
      LANES,
    );
    expect(bands.map((band) => [band.value, band.start, band.end])).toEqual([
      ['Up', local(1, 8), local(1, 10)],
      ['Down', local(1, 10), local(1, 11)],
      ['Up', local(1, 11), local(1, 12)],
    ]);
  });

  it('drops values without a lane, unreadable and empty periods; booleans use their text', () => {
    expect(toBands([{ status: 'Exploded', startTime: shown(1, 8), endTime: shown(1, 9) }], 'status', LANES)).toEqual([]);
    expect(toBands([{ status: 'Up', startTime: shown(1, 9), endTime: shown(1, 9) }], 'status', LANES)).toEqual([]);
    expect(toBands([{ status: 'Up', startTime: 'x', endTime: shown(1, 9) }], 'status', LANES)).toEqual([]);
    expect(toBands([{ online: false, startTime: shown(1, 8), endTime: shown(1, 9) }], 'online', ['true', 'false'])[0]).toMatchObject({ lane: 1, value: 'false' });
  });

  it('gives each value its share of the time, in lane order', () => {
    expect(timeShares({ Up: 7200, Down: 3600, Sleep: 0 }, LANES)).toEqual([
      { value: 'Up', seconds: 7200, percent: 67 },
      { value: 'Offline', seconds: 0, percent: 0 },
      { value: 'Down', seconds: 3600, percent: 33 },
      { value: 'Sleep', seconds: 0, percent: 0 },
    ]);
    expect(timeShares(undefined, ['true', 'false']).map((share) => share.percent)).toEqual([0, 0]);
  });
});

describe('time axis ticks', () => {
  it('uses local midnights over several days', () => {
    const ticks = timeTicks(local(1, 9, 15), local(8, 9, 15), 8);
    expect(ticks[0]).toBe(local(2, 0));
    expect(ticks.at(-1)).toBe(local(8, 0));
    expect(ticks).toHaveLength(7);
  });

  it('uses whole hours within a day, at most maxTicks', () => {
    const ticks = timeTicks(local(1, 9, 15), local(2, 9, 15), 8);
    expect(ticks.length).toBeLessThanOrEqual(8);
    expect(ticks.every((tick) => new Date(tick).getMinutes() === 0 && new Date(tick).getHours() % 3 === 0)).toBe(true);
    expect(timeTicks(local(1, 10), local(1, 9))).toEqual([]);
  });
});

describe('durations', () => {
  const unit = (name: string, count: number) => `${count}${name}`;
  it('shows the two largest units', () => {
    expect(formatDuration(2 * 86_400 + 3 * 3600 + 59, unit)).toBe('2d 3h');
    expect(formatDuration(3 * 3600 + 5 * 60, unit)).toBe('3h 5m');
    expect(formatDuration(3 * 3600 + 12, unit)).toBe('3h');
    expect(formatDuration(250, unit)).toBe('4m 10s');
    expect(formatDuration(0, unit)).toBe('0s');
    expect(formatDuration(-5, unit)).toBe('0s');
  });
});
