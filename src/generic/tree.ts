// Tree helpers for resources with a treeParent field: building the tree from flat records, the
// visible rows of a collapsible tree table, and tri-state checkbox selection.
//
// Selection semantics (role permissions): a node's box is derived from its children (all checked ->
// checked, some -> indeterminate); toggling a node toggles its whole subtree; and the stored value
// holds every checked node plus every ancestor of one (a half-checked directory is still granted,
// otherwise the menu entry leading to the granted button would be hidden).
import type { Identifier } from 'react-admin';

export interface TreeNode<T> {
  id: Identifier;
  record: T;
  depth: number;
  children: TreeNode<T>[];
}

export type CheckState = 'checked' | 'unchecked' | 'indeterminate';

const key = (id: unknown) => String(id);

/** Builds the forest; records whose parent is absent (root, or filtered out) become roots. Order is kept. */
export const buildTree = <T extends { id: Identifier }>(records: readonly T[], parentField: string): TreeNode<T>[] => {
  const nodes = new Map<string, TreeNode<T>>();
  for (const record of records) nodes.set(key(record.id), { id: record.id, record, depth: 0, children: [] });
  const roots: TreeNode<T>[] = [];
  for (const record of records) {
    const node = nodes.get(key(record.id))!;
    const parentId = (record as Record<string, unknown>)[parentField];
    const parent = parentId === null || parentId === undefined ? undefined : nodes.get(key(parentId));
    if (parent && parent !== node) parent.children.push(node);
    else roots.push(node);
  }
  const setDepth = (node: TreeNode<T>, depth: number, seen: Set<TreeNode<T>>) => {
    if (seen.has(node)) return; // a cycle in bad data must not hang the console
    seen.add(node);
    node.depth = depth;
    for (const child of node.children) setDepth(child, depth + 1, seen);
  };
  const seen = new Set<TreeNode<T>>();
  for (const root of roots) setDepth(root, 0, seen);
  return roots;
};

export const walkTree = <T>(nodes: readonly TreeNode<T>[]): TreeNode<T>[] => nodes.flatMap((node) => [node, ...walkTree(node.children)]);

/** Rows of a tree table: a node's children follow it only when it is expanded. */
export const visibleRows = <T>(nodes: readonly TreeNode<T>[], expanded: ReadonlySet<string>): TreeNode<T>[] =>
  nodes.flatMap((node) => [node, ...(expanded.has(key(node.id)) ? visibleRows(node.children, expanded) : [])]);

/** Ids of every node that has children (for "expand all"). */
export const parentIds = <T>(nodes: readonly TreeNode<T>[]): string[] =>
  walkTree(nodes)
    .filter((node) => node.children.length > 0)
    .map((node) => key(node.id));

export const checkState = <T>(node: TreeNode<T>, selected: ReadonlySet<string>): CheckState => {
  if (node.children.length === 0) return selected.has(key(node.id)) ? 'checked' : 'unchecked';
  const states = node.children.map((child) => checkState(child, selected));
  if (states.every((state) => state === 'checked')) return 'checked';
  if (states.every((state) => state === 'unchecked')) return 'unchecked';
  return 'indeterminate';
};

/** The stored selection for a tree: checked leaves plus every ancestor of a checked node. */
const normalise = <T>(roots: readonly TreeNode<T>[], selected: ReadonlySet<string>): Set<string> => {
  const result = new Set<string>();
  const visit = (node: TreeNode<T>): boolean => {
    const anyChild = node.children.map(visit).some(Boolean);
    const included = node.children.length === 0 ? selected.has(key(node.id)) : anyChild;
    if (included) result.add(key(node.id));
    return included;
  };
  roots.forEach(visit);
  return result;
};

/** Toggles `node` with its subtree; answers the new selection as ids in tree order (original id types). */
export const toggleNode = <T>(roots: readonly TreeNode<T>[], node: TreeNode<T>, selected: readonly Identifier[]): Identifier[] => {
  const next = new Set(selected.map(key));
  const subtree = walkTree([node]).map((member) => key(member.id));
  if (checkState(node, next) === 'checked') subtree.forEach((id) => next.delete(id));
  else subtree.forEach((id) => next.add(id));
  const normalised = normalise(roots, next);
  return walkTree(roots)
    .filter((member) => normalised.has(key(member.id)))
    .map((member) => member.id);
};

/** Every node of the tree selected, or none. */
export const selectAll = <T>(roots: readonly TreeNode<T>[], all: boolean): Identifier[] => (all ? walkTree(roots).map((node) => node.id) : []);
