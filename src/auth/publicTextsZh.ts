// The signed-out pages' Chinese texts: a chunk of its own, loaded when the page is in Chinese (src/auth/publicI18n.ts).
import { app } from '../../i18n/zh/app';
import { errors } from '../../i18n/zh/errors';
import { validation } from '../../i18n/zh/validation';
import type { PublicTexts } from './publicI18n';

export const texts: PublicTexts = { app, errors, validation };
