// The signed-out pages' English texts: a chunk of its own, loaded when the page is in English (src/auth/publicI18n.ts).
import { app } from '../../i18n/en/app';
import { errors } from '../../i18n/en/errors';
import { validation } from '../../i18n/en/validation';
import type { PublicTexts } from './publicI18n';

export const texts: PublicTexts = { app, errors, validation };
