import { describe, expect, it } from 'vitest';
import { fromFirstData } from '../../src/performance/series';

const point = (start: string, items: number, errors: number) => ({ start, end: start, items, errors, mcbe: errors ? items / errors : null });

describe('the MCBE chart starts at its first data', () => {
  it('leaves out the empty periods before the first one with items or errors, and says where data starts', () => {
    const series = [point('2026-08-27', 0, 0), point('2026-09-03', 0, 0), point('2026-09-10', 0, 4), point('2026-09-17', 0, 0), point('2026-09-24', 90, 1)];
    const { points, dataFrom } = fromFirstData(series);
    expect(points.map((p) => p.start)).toEqual(['2026-09-10', '2026-09-17', '2026-09-24']);
    expect(dataFrom).toBe('2026-09-10');
  });
  it('keeps a series that has data from its first period, and one with no data at all (the chart says so)', () => {
    const full = [point('2026-11-01', 5, 0), point('2026-11-02', 0, 0)];
    expect(fromFirstData(full)).toEqual({ points: full, dataFrom: null });
    const none = [point('2026-11-01', 0, 0)];
    expect(fromFirstData(none)).toEqual({ points: none, dataFrom: null });
  });
});
