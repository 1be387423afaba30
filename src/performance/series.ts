// What the MCBE chart plots: the answer's periods from the first one with any data. Machines added (or a
// database started) within the range have nothing before; empty periods there read as "no errors and no
// items", which is not what happened, so they are left out and the chart says where its data starts.
import type { McbeAnswer } from '../../resources/performance';

type Point = McbeAnswer['series'][number];

export const fromFirstData = (series: readonly Point[]): { points: Point[]; dataFrom: string | null } => {
  const first = series.findIndex((point) => point.items > 0 || point.errors > 0);
  if (first <= 0) return { points: [...series], dataFrom: null };
  return { points: series.slice(first), dataFrom: series[first].start };
};
