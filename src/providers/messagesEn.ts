// The console's English messages (a chunk of their own, loaded when the language is English).
import englishMessages from 'ra-language-english';
import { en } from '../../i18n/en';
import { mergeMessages } from './consoleI18n';

export const messages = mergeMessages(en, englishMessages);
