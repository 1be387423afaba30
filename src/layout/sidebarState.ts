// Sidebar state (docs/product-rules.md#screens-and-routes): opened, width and a collapse flag, persisted across reloads.
import { useCallback, useState } from 'react';

export const SIDEBAR_EXPANDED_WIDTH = 240;
export const SIDEBAR_COLLAPSED_WIDTH = 40;
/** Gap kept beside the content (content width = window − sidebar − 20 px). */
export const CONTENT_GAP = 20;
export const SIDEBAR_STORAGE_KEY = 'sidebarStatus';

export interface SidebarState {
  opened: boolean;
  width: number;
  collapse: boolean;
}

export const sidebarStateFor = (opened: boolean): SidebarState => ({
  opened,
  width: opened ? SIDEBAR_EXPANDED_WIDTH : SIDEBAR_COLLAPSED_WIDTH,
  collapse: !opened,
});

export const toggleSidebar = (state: SidebarState): SidebarState => sidebarStateFor(!state.opened);

export const contentWidth = (windowWidth: number, state: SidebarState): number => Math.max(0, windowWidth - state.width - CONTENT_GAP);

/** Reads the persisted state; anything unreadable gives the expanded default. */
export const readSidebarState = (storage: Pick<Storage, 'getItem'>): SidebarState => {
  try {
    const stored = JSON.parse(storage.getItem(SIDEBAR_STORAGE_KEY) ?? 'null') as Partial<SidebarState> | null;
    return sidebarStateFor(stored?.opened ?? true);
  } catch {
    return sidebarStateFor(true);
  }
};

export const useSidebarState = (storage: Pick<Storage, 'getItem' | 'setItem'> = window.localStorage) => {
  const [state, setState] = useState(() => readSidebarState(storage));
  const toggle = useCallback(() => {
    setState((current) => {
      const next = toggleSidebar(current);
      storage.setItem(SIDEBAR_STORAGE_KEY, JSON.stringify(next));
      return next;
    });
  }, [storage]);
  return [state, toggle] as const;
};
