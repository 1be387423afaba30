// The conformance check firmware teams run against a server (`npm run machine:check`,
// docs/machine-protocol.md "Conformance check"): as a registered test machine, it sends one message of
// every kind and the usual mistakes, each on its own, waits for its PUBACK (which comes after the
// commit), and reads through the API whether the message was applied or quarantined, and why.
import { randomUUID } from 'node:crypto';
import mqtt from 'mqtt';
import type { QuarantineReason } from '../../resources/fleetCatalogue';
import { UP_TOPIC } from '../gateway/protocol';

export interface ConformanceTarget {
  /** Where the machine connects, e.g. mqtt://127.0.0.1:1883. */
  mqttUrl: string;
  serial: string;
  secret: string;
  /** The console's base URL, e.g. http://127.0.0.1:8080. */
  apiUrl: string;
  /** A session token of a user allowed to read the quarantine (home:quarantineOverview). */
  token: string;
}

type Expected = 'applied' | QuarantineReason;

export interface CaseResult {
  name: string;
  kind: string;
  expected: Expected;
  outcome: Expected;
  value: string | null;
  pass: boolean;
}

interface Case {
  name: string;
  kind: string;
  expected: Expected;
  /** The payload, given the message's id and the current time. */
  payload: (id: string, now: Date) => string;
}

const message = (id: string, now: Date, body: Record<string, unknown>) => JSON.stringify({ v: 1, id, ts: now.toISOString(), ...body });
const minutesBefore = (now: Date, minutes: number) => new Date(now.getTime() - minutes * 60_000).toISOString();

export const CASES: readonly Case[] = [
  { name: 'hello', kind: 'hello', expected: 'applied', payload: (id, now) => message(id, now, { softwareVersion: 'check-1.0' }) },
  { name: 'heartbeat', kind: 'heartbeat', expected: 'applied', payload: (id, now) => message(id, now, { status: 'Up' }) },
  { name: 'status', kind: 'status', expected: 'applied', payload: (id, now) => message(id, now, { status: 'Up', reason: 'conformance check' }) },
  { name: 'bins', kind: 'bins', expected: 'applied', payload: (id, now) => message(id, now, { bins: [{ binNo: 1, currentHeight: 0, itemCount: 0, emptied: true }] }) },
  { name: 'alarm raised', kind: 'alarm', expected: 'applied', payload: (id, now) => message(id, now, { code: 'am_code_PK_68', state: 'raised', detail: 'conformance check' }) },
  { name: 'alarm cleared', kind: 'alarm', expected: 'applied', payload: (id, now) => message(id, now, { code: 'am_code_PK_68', state: 'cleared' }) },
  {
    name: 'session',
    kind: 'session',
    expected: 'applied',
    payload: (id, now) =>
      message(id, now, {
        sessionId: `check-${id}`,
        startTime: minutesBefore(now, 1),
        endTime: now.toISOString(),
        payoutMethod: 'receipt',
        totalRefund: 0.1,
        items: [
          { seq: 1, itemType: 'can', barcode: '4891234567890', refund: 0.1 },
          { seq: 2, itemType: 'glass', refund: 0, rejectReason: 6 },
        ],
      }),
  },
  {
    name: 'service',
    kind: 'service',
    expected: 'applied',
    payload: (id, now) =>
      message(id, now, {
        serviceId: `check-${id}`,
        technician: 'check',
        startTime: minutesBefore(now, 5),
        endTime: now.toISOString(),
        cleaningOutcome: 'completed',
        binsEmptied: 1,
      }),
  },
  {
    name: 'file',
    kind: 'file',
    expected: 'applied',
    payload: (id, now) => message(id, now, { kind: 'log', name: 'check.log', contentType: 'text/plain', data: Buffer.from('conformance check\n').toString('base64') }),
  },
  { name: 'not JSON', kind: 'status', expected: 'malformedContent', payload: (id) => `{"v":1,"id":"${id}",` },
  {
    name: 'a payout method the protocol does not have',
    kind: 'session',
    expected: 'schemaViolation',
    payload: (id, now) =>
      message(id, now, {
        sessionId: `check-${id}`,
        startTime: minutesBefore(now, 1),
        endTime: now.toISOString(),
        payoutMethod: 'cash',
        totalRefund: 0,
        items: [{ seq: 1, itemType: 'can', refund: 0 }],
      }),
  },
  { name: 'a kind the protocol does not have', kind: 'selfie', expected: 'schemaViolation', payload: (id, now) => message(id, now, {}) },
  { name: 'an unknown alarm code', kind: 'alarm', expected: 'unknownAlarmCode', payload: (id, now) => message(id, now, { code: 'am_code_PK_999', state: 'raised' }) },
  { name: 'a timestamp an hour ahead', kind: 'heartbeat', expected: 'invalidTimestamp', payload: (id, now) => message(id, new Date(now.getTime() + 3_600_000), {}) },
  { name: 'a timestamp from 1970', kind: 'heartbeat', expected: 'invalidTimestamp', payload: (id) => message(id, new Date(7_000), {}) },
  {
    name: 'a session ending before it starts',
    kind: 'session',
    expected: 'valueOutOfRange',
    payload: (id, now) =>
      message(id, now, {
        sessionId: `check-${id}`,
        startTime: now.toISOString(),
        endTime: minutesBefore(now, 60),
        payoutMethod: 'receipt',
        totalRefund: 0,
        items: [{ seq: 1, itemType: 'can', refund: 0 }],
      }),
  },
];

interface QuarantineRow {
  content: string;
  reason: QuarantineReason;
  value: string | null;
}

const quarantined = async (target: ConformanceTarget): Promise<QuarantineRow[]> => {
  const response = await fetch(`${target.apiUrl}/test-api/quarantine/page`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'rvm-token': target.token },
    body: JSON.stringify({ causedBy: target.serial, pageNum: 1, pageSize: 500 }),
  });
  const envelope = (await response.json()) as { resCode: string; resMsg: string; resData?: { list: QuarantineRow[] } };
  if (envelope.resCode !== '00000') throw new Error(`reading the quarantine: ${envelope.resCode} ${envelope.resMsg}`);
  return envelope.resData!.list;
};

export const runConformance = async (target: ConformanceTarget, cases: readonly Case[] = CASES): Promise<CaseResult[]> => {
  // A connection of its own (docs/machine-protocol.md "Client id"): the machine's own may stay connected.
  const client = await mqtt.connectAsync(target.mqttUrl, {
    clientId: `${target.serial}.check`,
    username: target.serial,
    password: target.secret,
    protocolVersion: 4,
    reconnectPeriod: 0,
    connectTimeout: 10_000,
  });
  const results: CaseResult[] = [];
  try {
    for (const check of cases) {
      const id = `check-${randomUUID()}`;
      // The PUBACK comes after the message was committed, applied or quarantined.
      await client.publishAsync(UP_TOPIC(target.serial, check.kind), check.payload(id, new Date()), { qos: 1 });
      const row = (await quarantined(target)).find((entry) => entry.content.includes(id));
      const outcome: Expected = row ? row.reason : 'applied';
      results.push({ name: check.name, kind: check.kind, expected: check.expected, outcome, value: row?.value ?? null, pass: outcome === check.expected });
    }
  } finally {
    await client.endAsync();
  }
  return results;
};

export const formatResults = (results: readonly CaseResult[]): string =>
  [
    ...results.map(
      (result) =>
        `${result.pass ? 'PASS' : 'FAIL'}  ${result.name} (${result.kind}): ${result.outcome}${result.value ? ` (${result.value})` : ''}${result.pass ? '' : `, expected ${result.expected}`}`,
    ),
    `conformance: ${results.filter((result) => result.pass).length} passed, ${results.filter((result) => !result.pass).length} failed`,
  ].join('\n');
