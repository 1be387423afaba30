// The fleet tree of GET /fleet/tree as the fleet management screen uses it (pure, unit-tested):
// visible rows for the keyboard-driven tree, ancestors to expand, move targets, and the machine
// list's fleet filter carried in the URL (react-admin's list reads its filter from `?filter=`).

import type { FleetNode } from '../../../resources/fleet';

export type { FleetNode };

export interface FleetRow {
  node: FleetNode;
  depth: number;
  hasChildren: boolean;
  expanded: boolean;
}

/** Rows shown for the expanded set, depth first. */
export const visibleFleetRows = (nodes: readonly FleetNode[], expanded: ReadonlySet<number>, depth = 0): FleetRow[] =>
  nodes.flatMap((node) => {
    const open = expanded.has(node.id);
    const row: FleetRow = { node, depth, hasChildren: node.children.length > 0, expanded: open };
    return open ? [row, ...visibleFleetRows(node.children, expanded, depth + 1)] : [row];
  });

export const findFleet = (nodes: readonly FleetNode[], id: number): FleetNode | undefined => {
  for (const node of nodes) {
    if (node.id === id) return node;
    const found = findFleet(node.children, id);
    if (found) return found;
  }
  return undefined;
};

/** Ids of the ancestors of `id`, root first (expanded so a selected fleet is visible). */
export const ancestorIds = (nodes: readonly FleetNode[], id: number, trail: number[] = []): number[] | null => {
  for (const node of nodes) {
    if (node.id === id) return trail;
    const found = ancestorIds(node.children, id, [...trail, node.id]);
    if (found) return found;
  }
  return null;
};

/** The node and every fleet below it. */
export const subtreeIds = (node: FleetNode): number[] => [node.id, ...node.children.flatMap(subtreeIds)];

export interface MoveTarget {
  id: number;
  name: string;
  depth: number;
}

/**
 * Where `moving` may go: any fleet outside its own subtree (a fleet cannot sit below itself, the
 * server answers validation.treeCycle), except its current parent (no move at all).
 */
export const moveTargets = (nodes: readonly FleetNode[], moving: FleetNode): MoveTarget[] => {
  const excluded = new Set(subtreeIds(moving));
  const walk = (list: readonly FleetNode[], depth: number): MoveTarget[] =>
    list.flatMap((node) => (excluded.has(node.id) ? [] : [{ id: node.id, name: node.name, depth }, ...walk(node.children, depth + 1)]));
  return walk(nodes, 0).filter((target) => target.id !== moving.parentId);
};

const readFilter = (search: string): Record<string, unknown> => {
  const raw = new URLSearchParams(search).get('filter');
  if (!raw) return {};
  try {
    const parsed: unknown = JSON.parse(raw);
    return parsed && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : {};
  } catch {
    return {};
  }
};

/** The fleet the machine list is filtered on: the single id of its `fleetId` filter, else null. */
export const selectedFleetOf = (search: string): number | null => {
  const value = readFilter(search).fleetId;
  const ids = (Array.isArray(value) ? value : [value]).map(Number).filter((id) => Number.isInteger(id) && id > 0);
  return ids.length === 1 ? ids[0] : null;
};

/**
 * The list URL's query with the fleet filter set to `fleetId` (null clears it), other filters kept
 * and the page reset to 1. The server includes sub-fleets (machine declaration, filter `fleetId`).
 */
export const searchWithFleet = (search: string, fleetId: number | null): string => {
  const params = new URLSearchParams(search);
  const filter = readFilter(search);
  if (fleetId === null) delete filter.fleetId;
  else filter.fleetId = [fleetId];
  params.set('filter', JSON.stringify(filter));
  params.set('page', '1');
  return `?${params.toString()}`;
};
