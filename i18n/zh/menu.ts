import type { Catalogue } from '../types';
import type { menu as en } from '../en/menu';

export const menu: Catalogue<typeof en> = {
  placeholder: '',
};
