// The machine page's tabs (docs/product-rules.md#menu-tree: rvmpage and its children, in menu order) and its paths. Which
// tabs a user sees is canAccess's answer on each tab's menu entry (src/permissions/canAccess.ts), by the same menu
// rules as the sidebar: `installation:rvmpage:<Tab>`, a grant of an ancestor, or a resource permission living
// under a tab (the machine declaration's `machine:*` under ProfileSetting).
import { findMenuByKey, type MenuNode } from '../../../resources/menu';
import { menuResource, MENU_ACTIONS } from '../../permissions/canAccess';
import type { AccessRequest } from '../../providers/authProvider';

const rvmPageNode = (): MenuNode => {
  const node = findMenuByKey('rvmpage');
  if (!node) throw new Error('resources/menu.ts has no rvmpage entry');
  return node;
};

/** Every tab key, in the menu's order (docs/product-rules.md#menu-tree). */
export const MACHINE_TABS: readonly string[] = rvmPageNode().children.map((child) => child.key);

/** The canAccess resources of the tabs' menu entries, in menu order (asked with MENU_ACTIONS.open). */
export const TAB_RESOURCES: readonly string[] = MACHINE_TABS.map((key) => menuResource({ key }));

/** The tabs the user may open, in menu order (empty for a signed-out or unauthorised user). */
export const permittedTabs = (canAccess: (request: AccessRequest) => boolean): string[] =>
  MACHINE_TABS.filter((key) => canAccess({ resource: menuResource({ key }), action: MENU_ACTIONS.open }));

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
