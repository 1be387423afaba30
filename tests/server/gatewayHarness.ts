// The gateway suites' helpers: an app with the machine gateway on the embedded broker (a free port)
// or on the external broker at MQTT_TEST_URL (Mosquitto on these machines), a small fleet, and
// virtual machines that are plain MQTT clients sending protocol messages by hand.
import { randomUUID } from 'node:crypto';
import { createConnection } from 'node:net';
import { and, eq } from 'drizzle-orm';
import mqtt, { type MqttClient } from 'mqtt';
import type { GatewayOptions } from '../../server/gateway';
import { issueCredential } from '../../server/gateway/credentials';
import { DOWN_TOPIC, UP_TOPIC } from '../../server/gateway/protocol';
import { rvm } from '../../server/db/schema/fleet';
import type { Db } from '../../server/db/client';

export const EXTERNAL_BROKER_URL = process.env.MQTT_TEST_URL?.trim() || 'mqtt://127.0.0.1:1883';
/** Generous: CI's machine may be busy. */
export const WAIT = { timeout: 30_000, interval: 100 } as const;

export const embeddedGateway = (): GatewayOptions => ({ host: '127.0.0.1', port: 0, offlineAfterSeconds: 90, messageIdDays: 7 });
export const externalGateway = (): GatewayOptions => ({ ...embeddedGateway(), mqttUrl: EXTERNAL_BROKER_URL });

/** Whether something accepts connections at the external broker's address. */
export const externalBrokerAvailable = (): Promise<boolean> =>
  new Promise((resolve) => {
    const url = new URL(EXTERNAL_BROKER_URL);
    const socket = createConnection({ host: url.hostname, port: Number(url.port || 1883) });
    socket.setTimeout(2000);
    socket.once('connect', () => (socket.destroy(), resolve(true)));
    socket.once('error', () => resolve(false));
    socket.once('timeout', () => (socket.destroy(), resolve(false)));
  });

export interface TestMachine {
  id: number;
  serial: string;
  client: MqttClient;
  /** Commands received on the machine's command topic, in order. */
  commands: Array<Record<string, any>>;
  send(kind: string, body: Record<string, unknown>, options?: { id?: string; ts?: string }): Promise<string>;
  sendRaw(kind: string, payload: string): Promise<void>;
  close(): Promise<void>;
}

let sequence = 0;

/** Gives machine `id` a fresh, unique serial number (so runs sharing an external broker never collide) and a secret. */
export const provisionMachine = async (db: Db, id: number) => {
  const serial = `T${randomUUID().replace(/-/g, '').slice(0, 14)}`;
  const [row] = await db.update(rvm).set({ serialNumber: serial }).where(eq(rvm.id, id)).returning();
  const secret = await issueCredential(db, row, null);
  return { serial, secret, licenseAccountId: row.licenseAccountId };
};

export const connectMachine = async (url: string, serial: string, password: string, id = 0): Promise<TestMachine> => {
  const client = await mqtt.connectAsync(url, {
    clientId: serial,
    username: serial,
    password,
    reconnectPeriod: 0,
    connectTimeout: 10_000,
    will: {
      topic: UP_TOPIC(serial, 'goodbye'),
      payload: Buffer.from(JSON.stringify({ v: 1, id: `will-${randomUUID()}`, ts: new Date().toISOString(), reason: 'lost' })),
      qos: 1,
      retain: false,
    },
  });
  const commands: Array<Record<string, any>> = [];
  client.on('message', (_topic, payload) => commands.push(JSON.parse(payload.toString())));
  await client.subscribeAsync(DOWN_TOPIC(serial), { qos: 1 });
  return {
    id,
    serial,
    client,
    commands,
    send: async (kind, body, options = {}) => {
      const id = options.id ?? `m${++sequence}-${randomUUID()}`;
      await client.publishAsync(UP_TOPIC(serial, kind), JSON.stringify({ v: 1, id, ts: options.ts ?? new Date().toISOString(), ...body }), { qos: 1 });
      return id;
    },
    sendRaw: async (kind, payload) => {
      await client.publishAsync(UP_TOPIC(serial, kind), payload, { qos: 1 });
    },
    // forced: a connection the broker dropped has QoS 1 messages that would never be acknowledged
    close: () => client.endAsync(true),
  };
};

export const machineRow = async (db: Db, id: number) =>
  (
    await db
      .select()
      .from(rvm)
      .where(and(eq(rvm.id, id)))
      .limit(1)
  )[0];

/** Polls `probe` until `check` holds (usable in hooks too, unlike expect.poll); fails with `what` after WAIT.timeout. */
export const waitFor = async <T>(probe: () => Promise<T>, check: (value: T) => boolean, what: string): Promise<T> => {
  const deadline = Date.now() + WAIT.timeout;
  for (;;) {
    const value = await probe();
    if (check(value)) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for: ${what} (last value: ${JSON.stringify(value)?.slice(0, 300)})`);
    await new Promise((resolve) => setTimeout(resolve, WAIT.interval));
  }
};
