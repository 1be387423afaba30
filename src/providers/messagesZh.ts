// The console's Chinese messages (a chunk of their own, loaded when the language is Chinese).
import { zh } from '../../i18n/zh';
import { raChinese } from '../i18n/raChinese';
import { mergeMessages } from './consoleI18n';

export const messages = mergeMessages(zh, raChinese);
