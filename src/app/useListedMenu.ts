// The menu as the signed-in user sees it in the sidebar and the area pages: resources/menu.ts plus the
// configured resource types' entries (issue 9), each entry kept when canAccess lists it (`menu.<key>`,
// src/permissions/canAccess.ts; docs/product-rules.md#permission-model).
import { useMemo } from 'react';
import { useCanAccessResources } from 'ra-core';
import { keepPreviousData } from '@tanstack/react-query';
import { walkMenu, type MenuNode } from '../../resources/menu';
import { listedMenu, menuResource, MENU_ACTIONS } from '../permissions/canAccess';
import { useRuntimeResources } from '../resourceTypes/ConfiguredTypesProvider';

/** The listed entries as a tree (empty while the answers load). */
export const useListedMenu = (): MenuNode[] => {
  const { menu } = useRuntimeResources();
  const resources = useMemo(() => walkMenu(menu).map(menuResource), [menu]);
  // when the menu changes (a configured type comes or goes) the entries stay while the new answers load
  const { canAccess } = useCanAccessResources({ action: MENU_ACTIONS.listed, resources, placeholderData: keepPreviousData });
  return useMemo(() => listedMenu(menu, canAccess), [menu, canAccess]);
};
