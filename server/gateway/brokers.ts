// The two ways machines reach the server (docs/machine-protocol.md): an embedded aedes broker that
// authenticates machines and enforces the topic ACL itself, or an external (clustered) broker the
// server joins as a client with a shared subscription, so each message reaches one instance.
// Either way a message is acknowledged to the broker only after `process` committed it.
import { createServer, type Server } from 'node:net';
import { randomUUID } from 'node:crypto';
import type { Aedes, AuthenticateError, Client } from 'aedes';
import type { MqttClient } from 'mqtt';
import type { FastifyBaseLogger } from 'fastify';
import { isClientIdOf, type MachineIdentity } from './credentials';
import { DEPLOY_TOPIC, DOWN_TOPIC, isDownTopicOf, MAX_PACKET_BYTES, parseUpTopic, SHARED_UP_FILTER } from './protocol';

export interface BrokerHooks {
  authenticate(serial: string, password: string): Promise<MachineIdentity | null>;
  /** The machine of a serial number when the broker itself authenticated it (external broker). */
  identify(serial: string): Promise<MachineIdentity | null>;
  process(identity: MachineIdentity, kind: string, payload: string): Promise<void>;
}

export interface BrokerLink {
  /** Where machines connect, e.g. mqtt://127.0.0.1:1884; null when nothing listens. */
  machineUrl: string | null;
  readonly connected: boolean;
  /** Whether a machine is connected through this link (unknown on an external broker: true). */
  isReachable(serial: string): boolean;
  publishCommand(serial: string, payload: string): Promise<void>;
  /** A `deploy` message (docs/deployments.md "Protocol"). */
  publishDeploy(serial: string, payload: string): Promise<void>;
  close(): Promise<void>;
}

const refuse = (code: 4 | 5): AuthenticateError => Object.assign(new Error(code === 4 ? 'bad user name or password' : 'not authorized'), { returnCode: code }) as AuthenticateError;

const identityOf = (client: Client | null): MachineIdentity | undefined =>
  // oxlint-disable-next-line typescript/no-unnecessary-type-assertion -- tsc needs it (aedes' Client has no `machine`); tsgolint misjudges it
  (client as (Client & { machine?: MachineIdentity }) | null)?.machine;

interface GuardedParser {
  _parseLength?: () => boolean;
  packet: { length: number };
}

/**
 * aedes (1.x) has no packet size limit: it buffers a packet whole before looking at it, so one 100 MB
 * heartbeat took 700 MB of memory and seconds of everyone's time. The packet's length is in its fixed
 * header: it is checked as soon as the parser has read it, and a connection announcing a packet over
 * `maxBytes` is closed before the body arrives. A parser this cannot guard (an aedes that changed
 * inside) refuses every connection rather than run unguarded.
 */
const limitPacketSize = (client: Client, maxBytes: number, log: FastifyBaseLogger) => {
  const parser = (client as unknown as { _parser?: GuardedParser })._parser;
  const parseLength = parser?._parseLength?.bind(parser);
  if (!parser || !parseLength) {
    log.error('the MQTT packet parser cannot be guarded (aedes changed?): connection refused');
    client.conn.destroy();
    return;
  }
  parser._parseLength = () => {
    const parsed = parseLength();
    if (!parsed || parser.packet.length <= maxBytes) return parsed;
    log.warn({ clientId: client.id, bytes: parser.packet.length, maxBytes }, 'MQTT packet over the size limit: connection closed');
    client.conn.destroy();
    return false;
  };
};

const publishEmbedded = (broker: Aedes, topic: string, payload: string) =>
  new Promise<void>((resolve, reject) =>
    broker.publish({ cmd: 'publish', topic, payload: Buffer.from(payload), qos: 1, retain: false, dup: false }, (error) => (error ? reject(error) : resolve())),
  );

const publishExternal = (client: MqttClient, topic: string, payload: string) =>
  new Promise<void>((resolve, reject) => client.publish(topic, payload, { qos: 1 }, (error) => (error ? reject(error) : resolve())));

/** The embedded broker on `port` (0 = any free port). A taken port answers null after one clear log line. */
export const startEmbeddedBroker = async (hooks: BrokerHooks, { host, port, log }: { host: string; port: number; log: FastifyBaseLogger }): Promise<BrokerLink | null> => {
  // aedes and mqtt load with the broker the server uses, not with every start (docs/test-quality.md "Lighter server start")
  const { Aedes } = await import('aedes');
  const broker = await Aedes.createBroker({
    authenticate: (client, username, password, done) => {
      if (!username || !password || !isClientIdOf(client.id, username)) return done(refuse(username && !isClientIdOf(client.id, username) ? 5 : 4), false);
      hooks
        .authenticate(username, password.toString())
        .then((identity) => {
          if (!identity) return done(refuse(4), false);
          (client as Client & { machine?: MachineIdentity }).machine = identity;
          done(null, true);
        })
        .catch(() => done(Object.assign(new Error('server unavailable'), { returnCode: 3 }), false));
    },
    // ACL: a machine publishes only below rvm/<its serial>/up/ and reads only its own commands and deployments. The
    // message is processed here, before aedes writes the PUBACK (it acknowledges QoS 1 before its
    // `published` hook runs): the machine learns of the delivery only once the message is committed.
    authorizePublish: (client, packet, done) => {
      if (!client) return done(null);
      const machine = identityOf(client);
      const topic = parseUpTopic(packet.topic);
      // Retained messages would only fill the broker's memory. A kind the protocol does not have is
      // quarantined (type `unknown`), so a firmware developer sees what went wrong.
      if (!machine || !topic || topic.serial !== machine.serialNumber || packet.retain) return done(new Error('not allowed'));
      hooks.process(machine, topic.kind, packet.payload.toString()).then(() => done(null), done);
    },
    authorizeSubscribe: (client, subscription, done) => {
      const machine = identityOf(client);
      // (null, null): a refused subscription (SUBACK 0x80), the connection stays.
      if (!machine || /[+#]/.test(subscription.topic) || !isDownTopicOf(subscription.topic, machine.serialNumber)) return done(null, null);
      done(null, subscription);
    },
    // A last will is published by the broker itself, without authorizePublish: it is processed here
    // (a goodbye the machine already sent has the same message id, so it is not applied twice).
    published: (packet, client, done) => {
      const machine = identityOf(client);
      const topic = parseUpTopic(packet.topic);
      if (!machine || topic?.kind !== 'goodbye' || topic.serial !== machine.serialNumber) return done();
      hooks.process(machine, topic.kind, packet.payload.toString()).then(
        () => done(),
        () => done(),
      );
    },
  });
  const server: Server = createServer((socket) => limitPacketSize(broker.handle(socket), MAX_PACKET_BYTES, log));
  const listening = await new Promise<boolean>((resolve) => {
    server.once('error', (error: NodeJS.ErrnoException) => {
      log.error(
        `MQTT port ${port} is taken (${error.code}; another broker such as Mosquitto?): machines cannot connect to the embedded broker. ` +
          `Start with MQTT_PORT=<a free port> to run the embedded broker there, or MQTT_URL=mqtt://<host>:${port} to use that broker instead.`,
      );
      resolve(false);
    });
    server.listen(port, host, () => resolve(true));
  });
  if (!listening) {
    await new Promise<void>((resolve) => broker.close(() => resolve()));
    return null;
  }
  const address = server.address();
  const actualPort = typeof address === 'object' && address ? address.port : port;
  const shownHost = host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host;
  return {
    machineUrl: `mqtt://${shownHost}:${actualPort}`,
    connected: true,
    isReachable: (serial) => Boolean((broker as unknown as { clients: Record<string, Client> }).clients[serial]),
    publishCommand: (serial, payload) => publishEmbedded(broker, DOWN_TOPIC(serial), payload),
    publishDeploy: (serial, payload) => publishEmbedded(broker, DEPLOY_TOPIC(serial), payload),
    close: async () => {
      await new Promise<void>((resolve) => broker.close(() => resolve()));
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
};

/** Joins an external broker at `url` (credentials in the URL) with a shared subscription. */
export const connectExternalBroker = async (hooks: BrokerHooks, { url, log }: { url: string; log: FastifyBaseLogger }): Promise<BrokerLink> => {
  const { default: mqtt } = await import('mqtt');
  const client: MqttClient = mqtt.connect(url, {
    clientId: `rvm-console-${randomUUID()}`,
    protocolVersion: 5,
    // The broker drops (does not forward) larger messages to this client; ingest refuses any that come.
    properties: { maximumPacketSize: MAX_PACKET_BYTES },
    clean: true,
    reconnectPeriod: 2000,
    connectTimeout: 10_000,
  });
  // The PUBACK goes back only when the callback runs, after the message was committed.
  client.handleMessage = (packet, done) => {
    const topic = parseUpTopic(packet.topic);
    if (!topic) return done();
    const payload = packet.payload.toString();
    hooks
      .identify(topic.serial)
      .then((identity) => {
        if (!identity) {
          log.warn({ serial: topic.serial, kind: topic.kind }, 'message from a serial number without a gateway credential: dropped');
          return;
        }
        return hooks.process(identity, topic.kind, payload);
      })
      .then(
        () => done(),
        (error: Error) => done(error),
      );
  };
  client.on('connect', () => {
    client.subscribe(SHARED_UP_FILTER, { qos: 1 }, (error) => {
      if (error) log.error({ err: error }, 'subscribing to machine messages failed');
    });
    log.info(`machine gateway joined the MQTT broker at ${new URL(url).host}`);
  });
  client.on('error', (error) => log.warn({ err: error.message }, 'MQTT broker connection problem'));
  return {
    machineUrl: url.replace(/\/\/[^@/]*@/, '//'),
    get connected() {
      return client.connected;
    },
    isReachable: () => true,
    publishCommand: (serial, payload) => publishExternal(client, DOWN_TOPIC(serial), payload),
    publishDeploy: (serial, payload) => publishExternal(client, DEPLOY_TOPIC(serial), payload),
    close: () => new Promise<void>((resolve) => client.end(false, {}, () => resolve())),
  };
};
