import type { Catalogue } from '../types';
import type { generic as en } from '../en/generic';

export const generic: Catalogue<typeof en> = {
  placeholder: '',
};
