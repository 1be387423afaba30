// The machine page's tabs (docs/product-rules.md#menu-tree: rvmpage and its children, in menu order) and its paths. Which
// tabs a user sees follows the same menu rules as the sidebar (src/permissions/menuVisibility.ts):
// `installation:rvmpage:<Tab>`, a grant of an ancestor, or a resource permission living under a tab
// (the machine declaration's `machine:*` under ProfileSetting).
import { findMenuByKey, type MenuNode } from '../../../resources/menu';
import type { PermissionHolder } from '../../../resources/permissions';
import { visibleMenu } from '../../permissions/menuVisibility';

const rvmPageNode = (): MenuNode => {
  const node = findMenuByKey('rvmpage');
  if (!node) throw new Error('resources/menu.ts has no rvmpage entry');
  return node;
};

/** Every tab key, in the menu's order (docs/product-rules.md#menu-tree). */
export const MACHINE_TABS: readonly string[] = rvmPageNode().children.map((child) => child.key);

const findByIdentifier = (nodes: MenuNode[], identifier: string): MenuNode | undefined => {
  for (const node of nodes) {
    if (node.identifier === identifier) return node;
    const found = findByIdentifier(node.children, identifier);
    if (found) return found;
  }
  return undefined;
};

/** The tabs the holder may open, in menu order (empty for a signed-out or unauthorised user). */
export const permittedTabs = (holder: PermissionHolder | null | undefined): string[] => {
  const visible = findByIdentifier(visibleMenu(holder, { includeHidden: true }), rvmPageNode().identifier);
  const keys = new Set((visible?.children ?? []).map((child) => child.key));
  return MACHINE_TABS.filter((key) => keys.has(key));
};

/** The tab to show for a requested one: itself when permitted, else the first permitted tab (null: none). */
export const resolveTab = (requested: string | undefined, permitted: readonly string[]): string | null => {
  if (requested && permitted.includes(requested)) return requested;
  return permitted[0] ?? null;
};

/** A machine id from a route segment: a positive whole number, else null (shown as not found). */
export const parseMachineId = (segment: string | undefined): number | null => {
  if (!segment || !/^\d{1,9}$/.test(segment)) return null;
  const id = Number(segment);
  return id >= 1 ? id : null;
};
