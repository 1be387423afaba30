// A plain MQTT broker (aedes, no access rules) on a free port with a recording subscriber, and a
// checker of machine messages written from docs/machine-protocol.md (independent of the simulator's
// code, so a simulator that drifts from the protocol fails here).
import { createServer, type AddressInfo } from 'node:net';
import { Aedes } from 'aedes';
import mqtt from 'mqtt';

export interface Recorded {
  serial: string;
  kind: string;
  payload: Record<string, any>;
  /** Position in arrival order. */
  seq: number;
}

export interface TestBroker {
  url: string;
  messages: Recorded[];
  /** What machines presented when they connected. */
  logins: Array<{ clientId: string; username: string | undefined; password: string | undefined; at: number }>;
  connectedIds(): Set<string>;
  of(serial: string, kind?: string): Recorded[];
  command(serial: string, command: Record<string, unknown>): Promise<void>;
  /** Breaks a machine's connection from the broker's side (no DISCONNECT: its will is published). */
  kick(serial: string): void;
  close(): Promise<void>;
}

export const startTestBroker = async (): Promise<TestBroker> => {
  const logins: TestBroker['logins'] = [];
  const connected = new Set<string>();
  const broker = await Aedes.createBroker({
    authenticate: (client, username, password, done) => {
      logins.push({ clientId: client.id, username, password: password?.toString(), at: Date.now() });
      done(null, true);
    },
  });
  broker.on('clientReady', (client) => connected.add(client.id));
  broker.on('clientDisconnect', (client) => connected.delete(client.id));
  const server = createServer(broker.handle);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `mqtt://127.0.0.1:${(server.address() as AddressInfo).port}`;

  const messages: Recorded[] = [];
  const recorder = await mqtt.connectAsync(url, { clientId: 'test-recorder', reconnectPeriod: 0 });
  recorder.on('message', (topic, payload) => {
    const [, serial, direction, kind] = topic.split('/');
    if (direction !== 'up') return;
    messages.push({ serial, kind, payload: JSON.parse(payload.toString()), seq: messages.length });
  });
  await recorder.subscribeAsync('rvm/+/up/+', { qos: 1 });

  return {
    url,
    messages,
    logins,
    connectedIds: () => new Set([...connected].filter((id) => id !== 'test-recorder')),
    of: (serial, kind) => messages.filter((m) => m.serial === serial && (kind === undefined || m.kind === kind)),
    command: async (serial, command) => {
      await recorder.publishAsync(`rvm/${serial}/down/command`, JSON.stringify(command), { qos: 1 });
    },
    kick: (serial) => {
      const clients = (broker as unknown as { clients: Record<string, { conn: { destroy(): void } }> }).clients;
      clients[serial]?.conn.destroy();
    },
    close: async () => {
      await recorder.endAsync();
      await new Promise<void>((resolve) => broker.close(() => resolve()));
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
};

const STATUSES = ['Up', 'Down', 'Sleep'];
const isIso = (value: unknown) => typeof value === 'string' && /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/.test(value) && !Number.isNaN(Date.parse(value));
const isText = (value: unknown, max = Infinity) => typeof value === 'string' && value.length >= 1 && value.length <= max;
const isNumber = (value: unknown) => typeof value === 'number' && Number.isFinite(value);
const optional = (value: unknown, check: (v: unknown) => boolean) => value === undefined || check(value);

/** What is wrong with a machine message of this kind (empty: it follows the protocol). */
export const protocolProblems = (kind: string, m: Record<string, any>): string[] => {
  const problems: string[] = [];
  const need = (ok: boolean, what: string) => {
    if (!ok) problems.push(`${kind}: ${what} (${JSON.stringify(m).slice(0, 300)})`);
  };
  need(m.v === 1, 'v must be 1');
  need(isText(m.id, 64), 'id must be a string of 1..64');
  need(isIso(m.ts) && Date.parse(m.ts) <= Date.now() + 60_000, 'ts must be an ISO date-time, not in the future');
  switch (kind) {
    case 'hello':
      need(optional(m.softwareVersion, (v) => isText(v)) && optional(m.model, (v) => isText(v)), 'softwareVersion/model strings');
      break;
    case 'goodbye':
      need(
        optional(m.reason, (v) => ['closed', 'shutdown', 'lost'].includes(v as string)),
        'reason closed|shutdown|lost',
      );
      break;
    case 'heartbeat':
      need(
        optional(m.status, (v) => STATUSES.includes(v as string)),
        'status Up|Down|Sleep',
      );
      break;
    case 'status':
      need(STATUSES.includes(m.status), 'status Up|Down|Sleep');
      need(
        optional(m.reason, (v) => typeof v === 'string'),
        'reason string',
      );
      break;
    case 'bins':
      need(Array.isArray(m.bins) && m.bins.length > 0, 'bins array');
      for (const bin of m.bins ?? []) {
        need(Number.isInteger(bin.binNo) && bin.binNo >= 1 && isNumber(bin.currentHeight), 'bin binNo and currentHeight');
        need(optional(bin.itemCount, (v) => Number.isInteger(v)) && optional(bin.emptied, (v) => typeof v === 'boolean'), 'bin itemCount/emptied');
      }
      break;
    case 'alarm':
      need(/^am_code_PK_\d+$/.test(m.code) && ['raised', 'cleared'].includes(m.state), 'code am_code_PK_<n> and state raised|cleared');
      break;
    case 'session':
      need(isText(m.sessionId, 64) && isIso(m.startTime) && isIso(m.endTime) && m.startTime <= m.endTime, 'sessionId, startTime <= endTime');
      need(isText(m.payoutMethod) && isNumber(m.totalRefund), 'payoutMethod and totalRefund');
      need(Array.isArray(m.items) && m.items.length > 0, 'items');
      for (const item of m.items ?? []) {
        need(Number.isInteger(item.seq) && isText(item.itemType) && isNumber(item.refund), 'item seq, itemType, refund');
        need(optional(item.rejectReason, (v) => Number.isInteger(v)) && optional(item.barcode, (v) => isText(v, 20)), 'item rejectReason/barcode');
      }
      // what was paid: the items' sum, nothing when the user cancelled the payment
      const paid = m.payoutMethod === 'userCancelledPayment' ? 0 : m.items.reduce((sum: number, item: any) => sum + item.refund, 0);
      need(Math.abs(paid - m.totalRefund) < 0.001, "totalRefund is what was paid (the items' sum; 0 when cancelled)");
      break;
    case 'service':
      need(isText(m.serviceId, 64) && isText(m.technician) && isIso(m.startTime) && isIso(m.endTime), 'serviceId, technician, times');
      need(['completed', 'aborted', 'failed'].includes(m.cleaningOutcome) && Number.isInteger(m.binsEmptied), 'cleaningOutcome and binsEmptied');
      break;
    case 'commandAck':
      need(Number.isInteger(m.commandId) && typeof m.accepted === 'boolean', 'commandId and accepted');
      need(m.accepted || isText(m.reason), 'a refusal says why');
      break;
    case 'commandResult':
      need(Number.isInteger(m.commandId) && typeof m.success === 'boolean', 'commandId and success');
      break;
    case 'deployStatus': // docs/deployments.md, "Protocol"
      need(Number.isInteger(m.deployId) && ['received', 'downloadFailed', 'checksumFailed', 'applying', 'applied', 'failed'].includes(m.state), 'deployId and state');
      need(m.state !== 'applied' || isText(m.version, 32), 'applied says its version');
      need(!['downloadFailed', 'checksumFailed', 'failed'].includes(m.state) || isText(m.reason), 'a failure says why');
      break;
    case 'file':
      need(['log', 'diagnosis'].includes(m.kind) && isText(m.name) && isText(m.contentType) && typeof m.data === 'string', 'kind, name, contentType, data');
      need(Buffer.from(m.data ?? '', 'base64').length <= 1024 * 1024, 'data at most 1 MiB');
      break;
    default:
      problems.push(`unknown kind ${kind}`);
  }
  return problems;
};
