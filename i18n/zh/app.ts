import type { Catalogue } from '../types';
import type { app as en } from '../en/app';

export const app: Catalogue<typeof en> = {
  placeholder: '',
};
