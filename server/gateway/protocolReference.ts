// The parts of docs/machine-protocol.md that the code decides: the allowed values of every enumerated
// field, the commands (server/commands/reference.ts), the limits, and each message kind's JSON schema
// as a file. `npm run docs:protocol` writes them;
// tests/unit/protocolReference.test.ts fails when the document or a schema file differs from the code,
// so the two cannot drift apart.
import { translate } from '../../i18n';
import { commandsReference } from '../commands/reference';
import { ALARMS, CLEANING_OUTCOMES, ITEM_TYPES, PAYOUT_METHODS, QUARANTINE_REASONS, REJECT_REASON_CODES, RVM_STATUSES } from '../../resources/fleetCatalogue';
import { MAX_CLOCK_SKEW_MS, MAX_FILE_BYTES, MAX_MESSAGE_AGE_MS, MAX_MESSAGE_BYTES, MAX_PACKET_BYTES, MESSAGE_KINDS, SCHEMAS } from './protocol';

export const REFERENCE_START = '<!-- protocol-reference:start (npm run docs:protocol writes this part) -->';
export const REFERENCE_END = '<!-- protocol-reference:end -->';
export const SCHEMA_FOLDER = 'docs/machine-protocol/schemas';

const table = (header: string[], rows: Array<Array<string | number>>) =>
  [`| ${header.join(' | ')} |`, `|${header.map(() => '---').join('|')}|`, ...rows.map((row) => `| ${row.join(' | ')} |`)].join('\n');

const en = (key: string) => translate('en', key);

/** The generated section of the protocol document, between its markers. */
export const referenceSection = (): string =>
  [
    REFERENCE_START,
    '### Allowed values',
    '',
    "Generated from `resources/fleetCatalogue.ts` and `server/gateway/protocol.ts`; the English labels are the console's.",
    '',
    `**\`status\`** (\`heartbeat\`, \`status\`): ${RVM_STATUSES.filter((status) => status !== 'Offline')
      .map((status) => `\`${status}\``)
      .join(', ')} (\`Offline\` is the server's to set).`,
    '',
    '**`payoutMethod`** (`session`):',
    '',
    table(
      ['value', 'meaning'],
      PAYOUT_METHODS.map((method) => [`\`${method}\``, en(`fleet.payoutMethods.${method}`)]),
    ),
    '',
    '**`itemType`** (`session` items):',
    '',
    table(
      ['value', 'meaning'],
      ITEM_TYPES.map((type) => [`\`${type}\``, en(`fleet.itemTypes.${type}`)]),
    ),
    '',
    '**`rejectReason`** (`session` items; absent for an accepted item):',
    '',
    table(
      ['code', 'meaning'],
      REJECT_REASON_CODES.map((code) => [code, en(`fleet.rejectReasons.${code}`)]),
    ),
    '',
    `**\`cleaningOutcome\`** (\`service\`): ${CLEANING_OUTCOMES.map((outcome) => `\`${outcome}\``).join(', ')}.`,
    '',
    '**`code`** (`alarm`): `am_code_PK_<n>`, one of:',
    '',
    table(
      ['code', 'category', 'severity', 'blocks the machine', 'meaning'],
      ALARMS.map((alarm) => [`\`${alarm.code}\``, alarm.category, alarm.severity, alarm.blocking ? 'yes' : 'no', en(`fleet.alarms.${alarm.code}`)]),
    ),
    '',
    `**Quarantine reasons**: ${QUARANTINE_REASONS.map((reason) => `\`${reason}\``).join(', ')}.`,
    '',
    ...commandsReference(),
    '',
    '### Limits',
    '',
    table(
      ['limit', 'value'],
      [
        ['a message (MQTT payload)', `${MAX_MESSAGE_BYTES} bytes`],
        ['an MQTT packet (embedded broker closes the connection beyond)', `${MAX_PACKET_BYTES} bytes`],
        ["a file's `data`, decoded", `${MAX_FILE_BYTES} bytes`],
        ["`ts` ahead of the server's clock", `${MAX_CLOCK_SKEW_MS / 60_000} minutes`],
        ['`ts` before the message arrived', `${MAX_MESSAGE_AGE_MS / 86_400_000} days`],
      ],
    ),
    '',
    `### JSON schemas`,
    '',
    `One file per kind in \`${SCHEMA_FOLDER}/\`: ${MESSAGE_KINDS.map((kind) => `[\`${kind}\`](machine-protocol/schemas/${kind}.json)`).join(', ')}.`,
    REFERENCE_END,
  ].join('\n');

/** Each kind's schema file: path → content. */
export const schemaFiles = (): Map<string, string> =>
  new Map(
    MESSAGE_KINDS.map((kind) => [
      `${SCHEMA_FOLDER}/${kind}.json`,
      `${JSON.stringify({ $schema: 'http://json-schema.org/draft-07/schema#', title: `rvm/<serial>/up/${kind}`, ...SCHEMAS[kind] }, null, 2)}\n`,
    ]),
  );

/** The document with its generated section replaced (or appended). */
export const withReference = (document: string): string => {
  const start = document.indexOf(REFERENCE_START);
  const end = document.indexOf(REFERENCE_END);
  if (start < 0 || end < 0) return `${document.trimEnd()}\n\n## Reference\n\n${referenceSection()}\n`;
  return document.slice(0, start) + referenceSection() + document.slice(end + REFERENCE_END.length);
};
