// What every menu screen receives (the registry of screens is src/app/screens.ts): its menu node.
import type { ComponentType } from 'react';
import type { MenuNode } from '../../resources/menu';

export interface ScreenProps {
  node: MenuNode;
}
export type Screen = ComponentType<ScreenProps>;
