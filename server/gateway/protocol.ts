// The machine protocol's messages (docs/machine-protocol.md) as JSON schemas, one per kind, and the
// topic layout. The schemas are the contract: the gateway validates every message with them and the
// simulator's tests check what it sends against them.
import { Ajv, type ValidateFunction } from 'ajv';
import { CLEANING_OUTCOMES, ITEM_TYPES, PAYOUT_METHODS, REJECT_REASON_CODES, RVM_STATUSES, type MessageType } from '../../resources/fleetCatalogue';
import { DEPLOY_STATES, type DeployState } from '../../resources/deploymentPackage';
import { SESSION_REFUSALS } from '../../resources/consumerBan';

export const PROTOCOL_VERSION = 1;
/** A file upload's content, decoded. */
export const MAX_FILE_BYTES = 1024 * 1024;
/** The largest message a machine may send (a file message, base64, with its fields); larger ones are quarantined. */
export const MAX_MESSAGE_BYTES = Math.ceil(MAX_FILE_BYTES / 3) * 4 + 16 * 1024;
/** The embedded broker closes a connection that announces a larger MQTT packet (topic and header included). */
export const MAX_PACKET_BYTES = MAX_MESSAGE_BYTES + 1024;
/** A message's `ts` may be at most this far in the future (machine clocks drift a little). */
export const MAX_CLOCK_SKEW_MS = 10 * 60_000;
/** ...and at most this far in the past: a machine may keep what it could not send for months, never since 1970. */
export const MAX_MESSAGE_AGE_MS = 365 * 86_400_000;

export const UP_TOPIC = (serial: string, kind: string) => `rvm/${serial}/up/${kind}`;
export const DOWN_TOPIC = (serial: string) => `rvm/${serial}/down/command`;
/** Packages to download and apply (docs/deployments.md "Protocol"). */
export const DEPLOY_TOPIC = (serial: string) => `rvm/${serial}/down/deploy`;
/** The topics a machine may subscribe to: its own commands and deployments, nothing else. */
export const isDownTopicOf = (topic: string, serial: string) => topic === DOWN_TOPIC(serial) || topic === DEPLOY_TOPIC(serial);
/** What the server subscribes to (shared among instances on an external broker). */
export const UP_FILTER = 'rvm/+/up/+';
export const SHARED_UP_FILTER = `$share/rvm-console/${UP_FILTER}`;

/** `rvm/<serial>/up/<kind>` → its parts; null for any other topic. */
export const parseUpTopic = (topic: string): { serial: string; kind: string } | null => {
  const parts = topic.split('/');
  if (parts.length !== 4 || parts[0] !== 'rvm' || parts[2] !== 'up' || !parts[1] || !parts[3]) return null;
  return { serial: parts[1], kind: parts[3] };
};

const text = (maxLength: number, minLength = 0) => ({ type: 'string', minLength, maxLength }) as const;
const dateTime = { type: 'string', format: 'date-time', maxLength: 40 } as const;
const strict = (properties: Record<string, unknown>, required: string[] = []) => ({
  type: 'object',
  additionalProperties: false,
  required: ['v', 'id', 'ts', ...required],
  properties: { v: { const: PROTOCOL_VERSION }, id: text(64, 1), ts: dateTime, ...properties },
});
const machineStatus = { enum: RVM_STATUSES.filter((status) => status !== 'Offline') };
const money = { type: 'number', minimum: 0, maximum: 99_999_999 } as const;

/** Each message kind's JSON schema (published in docs/machine-protocol/schemas/ by `npm run docs:protocol`). */
export const SCHEMAS = {
  hello: strict({ softwareVersion: text(32), model: text(32) }),
  goodbye: strict({ reason: { enum: ['closed', 'shutdown', 'lost'] } }),
  heartbeat: strict({ status: machineStatus }),
  status: strict({ status: machineStatus, reason: text(200) }, ['status']),
  bins: strict(
    {
      bins: {
        type: 'array',
        minItems: 1,
        maxItems: 8,
        items: {
          type: 'object',
          additionalProperties: false,
          required: ['binNo', 'currentHeight'],
          properties: {
            binNo: { type: 'integer', minimum: 1, maximum: 8 },
            currentHeight: { type: 'integer' },
            itemCount: { type: 'integer', minimum: 0 },
            emptied: { type: 'boolean' },
          },
        },
      },
    },
    ['bins'],
  ),
  alarm: strict({ code: { type: 'string', pattern: '^am_code_PK_[0-9]{1,4}$' }, state: { enum: ['raised', 'cleared'] }, detail: text(200) }, ['code', 'state']),
  session: {
    ...strict(
      {
        sessionId: text(64, 1),
        startTime: dateTime,
        endTime: dateTime,
        payoutMethod: { enum: PAYOUT_METHODS },
        totalRefund: money,
        userId: text(32),
        voucherCode: text(32),
        // until when the voucher can be redeemed (its payout method's validity); only with a voucherCode
        voucherValidUntil: dateTime,
        cardNo: text(32),
        // a consumer the machine refused (a ban): no items, nothing paid (docs/service-personnel.md#bans)
        refusal: { enum: SESSION_REFUSALS },
        donationInstituteId: { type: 'integer', minimum: 1 },
        items: {
          type: 'array',
          minItems: 0,
          maxItems: 500,
          items: {
            type: 'object',
            additionalProperties: false,
            required: ['seq', 'itemType', 'refund'],
            properties: {
              seq: { type: 'integer', minimum: 1, maximum: 32_000 },
              itemType: { enum: ITEM_TYPES },
              barcode: { type: 'string', pattern: '^[0-9]{3,20}$' },
              category: text(48),
              refund: money,
              rejectReason: { enum: REJECT_REASON_CODES },
              picture: text(32),
            },
          },
        },
      },
      ['sessionId', 'startTime', 'endTime', 'payoutMethod', 'totalRefund', 'items'],
    ),
    // a validity belongs to a voucher
    dependencies: { voucherValidUntil: ['voucherCode'] },
    // served: at least one item; refused: none and nothing paid
    if: { required: ['refusal'] },
    // oxlint-disable-next-line unicorn/no-thenable -- JSON Schema's if/then/else keywords: a schema, never awaited
    then: { properties: { items: { maxItems: 0 }, totalRefund: { const: 0 } } },
    else: { properties: { items: { minItems: 1 } } },
  },
  service: strict(
    {
      serviceId: text(64, 1),
      technician: text(64, 1),
      startTime: dateTime,
      endTime: dateTime,
      cleaningOutcome: { enum: CLEANING_OUTCOMES },
      binsEmptied: { type: 'integer', minimum: 0, maximum: 8 },
      note: text(200),
    },
    ['serviceId', 'technician', 'startTime', 'endTime', 'cleaningOutcome', 'binsEmptied'],
  ),
  commandAck: strict({ commandId: { type: 'integer', minimum: 1 }, accepted: { type: 'boolean' }, reason: text(200) }, ['commandId', 'accepted']),
  commandResult: strict({ commandId: { type: 'integer', minimum: 1 }, success: { type: 'boolean' }, message: text(200), fileId: { type: 'integer', minimum: 1 } }, [
    'commandId',
    'success',
  ]),
  file: strict(
    {
      commandId: { type: 'integer', minimum: 1 },
      kind: { enum: ['log', 'diagnosis'] },
      name: { type: 'string', minLength: 1, maxLength: 128, pattern: '^[^/\\\\]+$' },
      // a plain media type: it becomes the download's Content-Type header
      contentType: { type: 'string', maxLength: 64, pattern: '^[A-Za-z0-9!#$&^_.+-]+/[A-Za-z0-9!#$&^_.+-]+$' },
      // base64 of at most MAX_FILE_BYTES
      data: { type: 'string', maxLength: Math.ceil(MAX_FILE_BYTES / 3) * 4, pattern: '^[A-Za-z0-9+/]*={0,2}$' },
    },
    ['kind', 'name', 'contentType', 'data'],
  ),
  deployStatus: strict({ deployId: { type: 'integer', minimum: 1 }, state: { enum: DEPLOY_STATES }, version: text(32, 1), reason: text(200) }, ['deployId', 'state']),
} as const;

export type MessageKind = keyof typeof SCHEMAS;
export const MESSAGE_KINDS = Object.keys(SCHEMAS) as MessageKind[];
export const isMessageKind = (kind: string): kind is MessageKind => Object.hasOwn(SCHEMAS, kind);
/** Keeps the catalogue's message types (quarantine filter, labels) and the protocol in step at compile time. */
export const messageTypeOf = (kind: string): MessageType => (isMessageKind(kind) ? kind : 'unknown');

interface Head {
  v: 1;
  id: string;
  ts: string;
}
type Status = 'Up' | 'Down' | 'Sleep';
export interface MessageBodies {
  hello: Head & { softwareVersion?: string; model?: string };
  goodbye: Head & { reason?: 'closed' | 'shutdown' | 'lost' };
  heartbeat: Head & { status?: Status };
  status: Head & { status: Status; reason?: string };
  bins: Head & { bins: Array<{ binNo: number; currentHeight: number; itemCount?: number; emptied?: boolean }> };
  alarm: Head & { code: string; state: 'raised' | 'cleared'; detail?: string };
  session: Head & {
    sessionId: string;
    startTime: string;
    endTime: string;
    payoutMethod: string;
    totalRefund: number;
    userId?: string;
    voucherCode?: string;
    voucherValidUntil?: string;
    cardNo?: string;
    refusal?: (typeof SESSION_REFUSALS)[number];
    donationInstituteId?: number;
    items: Array<{ seq: number; itemType: string; barcode?: string; category?: string; refund: number; rejectReason?: number; picture?: string }>;
  };
  service: Head & { serviceId: string; technician: string; startTime: string; endTime: string; cleaningOutcome: string; binsEmptied: number; note?: string };
  commandAck: Head & { commandId: number; accepted: boolean; reason?: string };
  commandResult: Head & { commandId: number; success: boolean; message?: string; fileId?: number };
  file: Head & { commandId?: number; kind: 'log' | 'diagnosis'; name: string; contentType: string; data: string };
  deployStatus: Head & { deployId: number; state: DeployState; version?: string; reason?: string };
}

const ajv = new Ajv({ allErrors: false, strict: false });
ajv.addFormat('date-time', { type: 'string', validate: (value: string) => /^\d{4}-\d{2}-\d{2}T/.test(value) && !Number.isNaN(Date.parse(value)) });
const validators = Object.fromEntries(MESSAGE_KINDS.map((kind) => [kind, ajv.compile(SCHEMAS[kind])])) as Record<MessageKind, ValidateFunction>;

/** Checks a parsed message against its kind's schema: null when valid, else a short reason value. */
export const schemaProblem = (kind: MessageKind, message: unknown): string | null => {
  const validate = validators[kind];
  if (validate(message)) return null;
  const [error] = validate.errors ?? [];
  return error ? `${error.instancePath || '/'} ${error.message ?? 'invalid'}`.slice(0, 200) : 'invalid';
};
