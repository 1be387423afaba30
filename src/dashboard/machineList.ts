// The machine list (fleet management screen) as the dashboard opens it: its URL with a filter in
// react-admin's `?filter=` parameter, and a chip per filter that URL applies (what the list shows).
import type { FilterDeclaration } from '../../resources/types';
import type { MachineFilter } from '../../resources/dashboard';

export const MACHINE_LIST_ROUTE = '/installation/fleetManagement';

/** The list URL showing exactly the machines of `filter`, from the first page. */
export const machineListUrl = (filter: MachineFilter): string =>
  `${MACHINE_LIST_ROUTE}?${new URLSearchParams({ filter: JSON.stringify(filter), page: '1', displayedFilters: '{}' }).toString()}`;

const readObject = (search: string, name: string): Record<string, unknown> => {
  const raw = new URLSearchParams(search).get(name);
  if (!raw) return {};
  try {
    const parsed: unknown = JSON.parse(raw);
    return parsed && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : {};
  } catch {
    return {};
  }
};

export interface FilterChip {
  name: string;
  value: unknown;
  filter: FilterDeclaration;
}

const isBlank = (value: unknown) => value === undefined || value === null || value === '' || (Array.isArray(value) && value.length === 0);

/** Every filter the URL applies, in declaration order (the list applies each, shown as an input or not). */
export const appliedFilterChips = (search: string, filters: readonly FilterDeclaration[]): FilterChip[] => {
  const values = readObject(search, 'filter');
  return filters.filter((filter) => !isBlank(values[filter.name])).map((filter) => ({ name: filter.name, value: values[filter.name], filter }));
};

/** The URL's query without filter `name` (back to the first page). */
export const searchWithout = (search: string, name: string): string => {
  const params = new URLSearchParams(search);
  const filter = readObject(search, 'filter');
  delete filter[name];
  params.set('filter', JSON.stringify(filter));
  params.set('page', '1');
  return `?${params.toString()}`;
};
