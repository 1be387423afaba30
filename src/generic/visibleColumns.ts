// The list's visible columns in their shown order, read from the column chooser's state (react-admin
// DataTable keeps hidden columns under `<resource>.datatable` and the order under
// `<resource>.datatable_columnRanks`), so an export writes what the user sees.
import { useResourceContext, useStore } from 'react-admin';

const NO_HIDDEN: string[] = [];

/**
 * `sources`: the DataTable's children in declaration order, `null` for a column that is no field
 * (row actions). `ranks` as react-admin stores them: `ranks[position] = child index`.
 */
export const visibleColumnsOf = (sources: readonly (string | null)[], hidden: readonly string[], ranks?: readonly number[]): string[] => {
  // the same placement as react-admin's reorderChildren
  const placed: (string | null)[] = [];
  sources.forEach((source, index) => {
    const rank = ranks ? ranks.indexOf(index) : -1;
    placed[rank === -1 ? index : rank] = source;
  });
  return placed.filter((source): source is string => typeof source === 'string' && !hidden.includes(source));
};

export const useVisibleColumns = (sources: readonly (string | null)[]): string[] => {
  const resource = useResourceContext();
  const storeKey = `${resource}.datatable`;
  const [hidden] = useStore<string[]>(storeKey, NO_HIDDEN);
  const [ranks] = useStore<number[] | undefined>(`${storeKey}_columnRanks`);
  return visibleColumnsOf(sources, hidden, ranks);
};
