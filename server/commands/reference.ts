// The command table of docs/machine-protocol.md ("Reference › Commands"), written from the command
// catalogue (resources/commands.ts) and the English descriptions, so the document lists exactly the
// commands the server sends and the parameter rules it checks. Part of `npm run docs:protocol`
// (server/gateway/protocolReference.ts); tests/unit/protocolReference.test.ts fails when it differs.
import { translate } from '../../i18n';
import { COMMAND_PARAMS, COMMANDS, type CommandDefinition } from '../../resources/commands';
import type { CrossFieldRule, FieldDeclaration } from '../../resources/types';

/** A markdown table cell may hold no bare `|`. */
const cell = (text: string) => text.replaceAll('|', '\\|');

/** A parameter as the table says it: name (`?` when optional), kind, range or patterns. */
export const fieldText = (name: string, field: FieldDeclaration): string => {
  const kind: string[] = [];
  if (field.type === 'number') {
    kind.push(field.integer ? 'whole number' : 'number');
    if (field.min !== undefined || field.max !== undefined) kind.push(`${field.min ?? '…'}..${field.max ?? '…'}`);
  } else if (field.type === 'datetime') kind.push('ISO 8601 date-time');
  else if (field.type === 'text' && field.patterns?.length) kind.push(...field.patterns.map((pattern) => `matching \`${pattern.regex}\``));
  else kind.push(field.type);
  return `\`${name}${field.required ? '' : '?'}\` (${kind.join(', ')})`;
};

const RULE_WORDS: Readonly<Record<CrossFieldRule['kind'], string>> = { after: 'after', greaterThan: '>', notGreaterThan: '≤', equals: '=' };
const ruleText = (rule: CrossFieldRule) => `\`${rule.field}\` ${RULE_WORDS[rule.kind]} \`${rule.other}\``;

export const modelsText = (entry: Pick<CommandDefinition, 'onlyModels' | 'exceptModels'>) => {
  if (entry.onlyModels) return entry.onlyModels.join(', ');
  return entry.exceptModels?.length ? `all but ${entry.exceptModels.join(', ')}` : 'all';
};

export const successText = (entry: Pick<CommandDefinition, 'uploadsFile' | 'storesParams'>) =>
  [entry.uploadsFile ? 'uploads a file (`file`) before its result' : '', entry.storesParams ? "the server writes the params to the machine's fields of the same names" : '']
    .filter(Boolean)
    .join('; ') || '–';

/** The generated "Commands" part of the reference (markdown lines). */
export const commandsReference = (): string[] => [
  '### Commands',
  '',
  "Generated from `resources/commands.ts`; the descriptions are the console's. `name?`: optional. A model the catalogue does not name takes every command without a model list.",
  '',
  '| command | what it does | params | models (`rvm.termType`) | on success |',
  '|---|---|---|---|---|',
  ...COMMANDS.map((entry) => {
    const { fields, rules = [] } = COMMAND_PARAMS[entry.name];
    const params = [...Object.entries(fields).map(([name, field]) => fieldText(name, field)), ...rules.map(ruleText)].join('; ') || '–';
    return `| \`${entry.name}\` | ${translate('en', `remote.descriptions.${entry.name}`)} | ${cell(params)} | ${modelsText(entry)} | ${successText(entry)} |`;
  }),
];
