// One virtual machine's MQTT connection, as docs/machine-protocol.md wants it: client id and user name
// = serial number, password = its secret, QoS 1, the `{ v, id, ts }` head on every message, a
// `goodbye` with reason `lost` as last will, and the command and deploy topics subscribed before `hello`
// (so what the server delivers on `hello` cannot arrive before the subscriptions exist).
import mqtt, { type MqttClient } from 'mqtt';

export interface MachineCredentials {
  serialNumber: string;
  secret: string;
  /** e.g. mqtt://127.0.0.1:1884 */
  brokerUrl: string;
}

export interface LinkHandlers {
  /** Connected and subscribed: the machine introduces itself (hello, status, ...). */
  onReady(): void;
  /** A payload on `rvm/<serial>/down/command` (not parsed). */
  onCommand(payload: Buffer): void;
  /** A payload on `rvm/<serial>/down/deploy` (not parsed). */
  onDeploy(payload: Buffer): void;
  /** The broker refused the deploy topic (a server without deployments): commands still work. */
  onDeployRefused(error: Error): void;
  /** The connection ended; `expected` when the machine closed it itself. */
  onClosed(expected: boolean): void;
  onError(error: Error): void;
}

export interface LinkOptions {
  credentials: MachineCredentials;
  /** The machine's next message id (unique per machine, also across simulator runs). */
  nextId(): string;
  /** Waits for the fleet's publish budget; false when the message should be dropped instead. */
  gate(kind: string): Promise<boolean>;
  handlers: LinkHandlers;
  /** Real milliseconds before retrying after an unexpected loss (broker down, refused). */
  retryMs?: number;
}

export type Message = Record<string, unknown> & { v: 1; id: string; ts: string };

const MAX_RETRY_MS = 30_000;

export class MachineLink {
  private client: MqttClient | null = null;
  private ready = false;
  private retry: NodeJS.Timeout | null = null;
  private retryMs: number;
  /** Whether the machine wants to be connected (false after goodbye, drop or stop). */
  private wanted = false;
  readonly upTopic: string;
  readonly commandTopic: string;
  readonly deployTopic: string;

  constructor(private readonly options: LinkOptions) {
    const serial = options.credentials.serialNumber;
    this.upTopic = `rvm/${serial}/up/`;
    this.commandTopic = `rvm/${serial}/down/command`;
    this.deployTopic = `rvm/${serial}/down/deploy`;
    this.retryMs = options.retryMs ?? 2000;
  }

  get connected() {
    return this.ready;
  }

  /** Message head: protocol version, the machine's message id, real time. */
  private head(): Message {
    return { v: 1, id: this.options.nextId(), ts: new Date().toISOString() };
  }

  connect() {
    this.wanted = true;
    this.open();
  }

  private open() {
    if (this.client || !this.wanted) return;
    const { serialNumber, secret, brokerUrl } = this.options.credentials;
    const client = mqtt.connect(brokerUrl, {
      clientId: serialNumber,
      username: serialNumber,
      password: secret,
      protocolVersion: 4,
      clean: true,
      // Reconnection is ours: each connection needs a fresh will (a new message id).
      reconnectPeriod: 0,
      connectTimeout: 15_000,
      keepalive: 30,
      will: { topic: `${this.upTopic}goodbye`, payload: Buffer.from(JSON.stringify({ ...this.head(), reason: 'lost' })), qos: 1, retain: false },
    });
    this.client = client;
    const { handlers } = this.options;
    client.on('connect', () => {
      client
        .subscribeAsync(this.commandTopic, { qos: 1 })
        // Its own SUBACK: a refused deploy topic must not cost the machine its commands.
        .then(() => client.subscribeAsync(this.deployTopic, { qos: 1 }).catch((error: Error) => handlers.onDeployRefused(error)))
        .then(() => {
          if (this.client !== client) return;
          this.ready = true;
          this.retryMs = this.options.retryMs ?? 2000;
          handlers.onReady();
        })
        .catch((error: Error) => handlers.onError(error));
    });
    client.on('message', (topic, payload) => {
      if (topic === this.commandTopic) handlers.onCommand(payload);
      else if (topic === this.deployTopic) handlers.onDeploy(payload);
    });
    client.on('error', (error) => handlers.onError(error));
    client.on('close', () => {
      if (this.client !== client) return;
      const wasReady = this.ready;
      this.ready = false;
      this.client = null;
      client.end(true);
      if (wasReady) handlers.onClosed(!this.wanted);
      if (this.wanted) this.scheduleRetry();
    });
  }

  private scheduleRetry() {
    if (this.retry) return;
    this.retry = setTimeout(() => {
      this.retry = null;
      this.open();
    }, this.retryMs);
    this.retryMs = Math.min(MAX_RETRY_MS, this.retryMs * 2);
  }

  /** Publishes `rvm/<serial>/up/<kind>` at QoS 1; resolves with the message once the broker acknowledged it, or null. */
  async publish(kind: string, fields: Record<string, unknown> = {}): Promise<Message | null> {
    if (!this.ready) return null;
    if (!(await this.options.gate(kind))) return null;
    const client = this.client;
    // Nothing after a goodbye has begun: a heartbeat that waited for the publish budget meanwhile would reach the
    // server after the goodbye, newer than it, and show the machine online again until the offline time-out.
    if (!client || !this.ready || (!this.wanted && kind !== 'goodbye')) return null;
    const message = { ...this.head(), ...fields };
    try {
      await client.publishAsync(`${this.upTopic}${kind}`, JSON.stringify(message), { qos: 1 });
      return message;
    } catch {
      return null;
    }
  }

  /** A clean end: `goodbye` with the reason, then DISCONNECT (the broker drops the will). */
  async goodbye(reason: 'closed' | 'shutdown') {
    this.wanted = false;
    this.cancelRetry();
    const client = this.client;
    if (!client) return;
    if (this.ready) await this.publish('goodbye', { reason });
    this.ready = false;
    this.client = null;
    await client.endAsync().catch(() => undefined);
  }

  /** The connection breaks without a word (power cut, network loss): the broker publishes the will. */
  drop() {
    this.wanted = false;
    this.cancelRetry();
    const client = this.client;
    this.ready = false;
    this.client = null;
    // Forced: the socket is destroyed without DISCONNECT, so the broker treats it as lost.
    client?.end(true);
  }

  private cancelRetry() {
    if (this.retry) clearTimeout(this.retry);
    this.retry = null;
  }
}
