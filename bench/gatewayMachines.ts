// The virtual machines of bench/gateway.ts, in a child process of their own (10,000 MQTT connections
// need 10,000 sockets on each side: one process would exceed its file limit). Driven over IPC.
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import mqtt, { type MqttClient } from 'mqtt';
import { DOWN_TOPIC, UP_TOPIC } from '../server/gateway/protocol';

export interface MachineCredential {
  serial: string;
  secret: string;
}
export type ParentMessage =
  { type: 'connect' } | { type: 'hello' } | { type: 'run'; seconds: number } | { type: 'steady' } | { type: 'status'; index: number; status: string } | { type: 'stop' };
export type ChildMessage =
  | { type: 'connected'; count: number }
  | { type: 'helloDone' }
  | { type: 'ran'; acked: number; sessions: number; seconds: number; cpuSeconds: number }
  | { type: 'statusSent'; index: number };

const [file, url] = process.argv.slice(2);
const credentials = JSON.parse(readFileSync(file, 'utf8')) as MachineCredential[];
const clients: MqttClient[] = [];
let steady = false;

const send = (message: ChildMessage) => process.send?.(message);
const message = (body: Record<string, unknown>) => JSON.stringify({ v: 1, id: randomUUID(), ts: new Date().toISOString(), ...body });
const session = () => {
  const end = new Date();
  const items = Array.from({ length: 5 }, (_, index) => ({ seq: index + 1, itemType: 'plasticBottle', barcode: '4891234567890', refund: 0.1 }));
  return { sessionId: randomUUID(), startTime: new Date(end.getTime() - 40_000).toISOString(), endTime: end.toISOString(), payoutMethod: 'octopus', totalRefund: 0.5, items };
};
/** The throughput mix: heartbeat 80 %, consumer session with 5 items 15 %, bin levels 5 %. */
const pick = (): [string, Record<string, unknown>] => {
  const dice = Math.random();
  return dice < 0.8 ? ['heartbeat', {}] : dice < 0.95 ? ['session', session()] : ['bins', { bins: [{ binNo: 1, currentHeight: 60 }] }];
};

const handle = async (command: ParentMessage) => {
  if (command.type === 'connect') {
    for (let start = 0; start < credentials.length; start += 200) {
      const chunk = credentials.slice(start, start + 200);
      clients.push(
        ...(await Promise.all(
          chunk.map(async ({ serial, secret }) => {
            const client = await mqtt.connectAsync(url, { clientId: serial, username: serial, password: secret, reconnectPeriod: 0, keepalive: 600 });
            await client.subscribeAsync(DOWN_TOPIC(serial), { qos: 1 });
            return client;
          }),
        )),
      );
    }
    send({ type: 'connected', count: clients.length });
  } else if (command.type === 'hello') {
    await Promise.all(clients.map((client, index) => client.publishAsync(UP_TOPIC(credentials[index].serial, 'hello'), message({}), { qos: 1 })));
    send({ type: 'helloDone' });
  } else if (command.type === 'run') {
    let acked = 0;
    let sessions = 0;
    const deadline = Date.now() + command.seconds * 1000;
    const started = performance.now();
    const cpu = process.cpuUsage();
    await Promise.all(
      clients.map(async (client, index) => {
        while (Date.now() < deadline) {
          const [kind, body] = pick();
          await client.publishAsync(UP_TOPIC(credentials[index].serial, kind), message(body), { qos: 1 });
          acked++;
          if (kind === 'session') sessions++;
        }
      }),
    );
    const used = process.cpuUsage(cpu);
    send({ type: 'ran', acked, sessions, seconds: (performance.now() - started) / 1000, cpuSeconds: (used.user + used.system) / 1e6 });
  } else if (command.type === 'steady') {
    // Realistic load: a heartbeat every 30 s per machine, spread evenly over the 30 s.
    steady = true;
    clients.forEach((client, index) => {
      const beat = () => {
        if (!steady) return;
        void client.publishAsync(UP_TOPIC(credentials[index].serial, 'heartbeat'), message({}), { qos: 1 }).catch(() => undefined);
        setTimeout(beat, 30_000).unref();
      };
      setTimeout(beat, (index / clients.length) * 30_000).unref();
    });
  } else if (command.type === 'status') {
    await clients[command.index].publishAsync(UP_TOPIC(credentials[command.index].serial, 'status'), message({ status: command.status }), { qos: 1 });
    send({ type: 'statusSent', index: command.index });
  } else if (command.type === 'stop') {
    steady = false;
    await Promise.all(clients.map((client) => client.endAsync(true)));
    process.exit(0);
  }
};
// A failed command ends the child, as an unhandled rejection would, but says why first.
process.on('message', (command: ParentMessage) => {
  handle(command).catch((error: unknown) => {
    console.error(error);
    process.exit(1);
  });
});
