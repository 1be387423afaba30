// The console's Chinese messages (a chunk of its own, loaded when the language is Chinese): the shell's
// and the home dashboard's sections now, the whole catalogue when a screen needs it (./consoleI18n.ts).
import { app } from '../../i18n/zh/app';
import { dashboard } from '../../i18n/zh/dashboard';
import { errors } from '../../i18n/zh/errors';
import { generic } from '../../i18n/zh/generic';
import { menu } from '../../i18n/zh/menu';
import { validation } from '../../i18n/zh/validation';
import { raChinese } from '../i18n/raChinese';
import { mergeMessages, type ConsoleMessages } from './consoleI18n';

// `resources` (labels of every declaration) comes with the screens that show them.
const core = { app, menu, generic, validation, errors, dashboard, resources: {} };

export const messages: ConsoleMessages = {
  core: mergeMessages(core, raChinese),
  loadAll: () => import('../../i18n/zh').then(({ zh }) => mergeMessages(zh, raChinese)),
};
