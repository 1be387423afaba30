// The console's English messages (a chunk of its own, loaded when the language is English): the shell's
// and the home dashboard's sections now, the whole catalogue when a screen needs it (./consoleI18n.ts).
import englishMessages from 'ra-language-english';
import { app } from '../../i18n/en/app';
import { dashboard } from '../../i18n/en/dashboard';
import { errors } from '../../i18n/en/errors';
import { generic } from '../../i18n/en/generic';
import { menu } from '../../i18n/en/menu';
import { validation } from '../../i18n/en/validation';
import { mergeMessages, type ConsoleMessages } from './consoleI18n';

// `resources` (labels of every declaration) comes with the screens that show them.
const core = { app, menu, generic, validation, errors, dashboard, resources: {} };

export const messages: ConsoleMessages = {
  core: mergeMessages(core, englishMessages),
  loadAll: () => import('../../i18n/en').then(({ en }) => mergeMessages(en, englishMessages)),
};
