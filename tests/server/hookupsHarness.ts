// The API hookup suites' helpers: a real local HTTP receiver that verifies Standard Webhooks signatures with
// the `standardwebhooks` library and can misbehave (500, never answer, answer slowly, drop the connection,
// be down), a small world (fleet with a sub-fleet, machines) and machine events fed through the gateway's
// intake (ingestBatch), as the broker would.
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage as HttpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { ingestBatch } from '../../server/gateway/ingest';
import type { Db } from '../../server/db/client';

export type ReceiverMode = 'ok' | 'error500' | 'hang' | 'slow' | 'close';

export interface Received {
  id: string;
  type: string;
  data: Record<string, any>;
  /** The raw request, for replay and tamper tests. */
  body: string;
  headers: Record<string, string>;
}

export interface Receiver {
  url: string;
  /** Verified deliveries, in arrival order (what a well-behaved receiver would process). */
  received: Received[];
  /** Requests refused because their signature did not verify. */
  refused: number;
  /** Every request that arrived, whatever the answer. */
  requests: number;
  mode: ReceiverMode;
  slowMs: number;
  secret: string;
  stop(): Promise<void>;
  start(): Promise<void>;
  close(): Promise<void>;
}

const readBody = (request: HttpRequest) =>
  new Promise<string>((resolve, reject) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    request.on('error', reject);
  });

/** A receiver on 127.0.0.1 (a fixed port once started, so it can be stopped and started again at the same URL). */
export const startReceiver = async (secret = ''): Promise<Receiver> => {
  let server: Server | null = null;
  let port = 0;
  const sockets = new Set<import('node:net').Socket>();
  const receiver: Receiver = {
    url: '',
    received: [],
    refused: 0,
    requests: 0,
    mode: 'ok',
    slowMs: 200,
    secret,
    start: async () => {
      const handle = async (request: HttpRequest, response: import('node:http').ServerResponse) => {
        receiver.requests++;
        const body = await readBody(request);
        if (receiver.mode === 'close') {
          request.socket.destroy();
          return;
        }
        if (receiver.mode === 'hang') return; // never answers: the sender's timeout ends it
        const headers = Object.fromEntries(Object.entries(request.headers).map(([key, value]) => [key, String(value)]));
        try {
          new Webhook(receiver.secret).verify(body, headers);
        } catch {
          receiver.refused++;
          response.writeHead(401).end('bad signature');
          return;
        }
        if (receiver.mode === 'error500') {
          response.writeHead(500, { 'content-type': 'text/plain' }).end('receiver broken: database unavailable');
          return;
        }
        if (receiver.mode === 'slow') await new Promise((resolve) => setTimeout(resolve, receiver.slowMs));
        const message = JSON.parse(body);
        receiver.received.push({ id: headers['webhook-id'], type: message.type, data: message.data, body, headers });
        response.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
      };
      server = createServer((request, response) => void handle(request, response));
      server.on('connection', (socket) => {
        sockets.add(socket);
        socket.on('close', () => sockets.delete(socket));
      });
      await new Promise<void>((resolve) => server!.listen(port, '127.0.0.1', resolve));
      port = (server.address() as AddressInfo).port;
      receiver.url = `http://127.0.0.1:${port}/hook`;
    },
    stop: async () => {
      const closing = server;
      server = null;
      if (!closing) return;
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => closing.close(() => resolve()));
    },
    close: () => receiver.stop(),
  };
  await receiver.start();
  return receiver;
};

let sequence = 0;

export interface MachineRef {
  id: number;
  serial: string;
  licenseAccountId: number;
}

const message = (machine: MachineRef, kind: string, body: Record<string, unknown>, at = new Date()) => ({
  identity: { rvmId: machine.id, licenseAccountId: machine.licenseAccountId, serialNumber: machine.serial },
  kind,
  payload: JSON.stringify({ v: 1, id: `h${++sequence}-${randomUUID()}`, ts: at.toISOString(), ...body }),
  receivedAt: at,
});

/** A consumer session of `machine` ending at `at` (one accepted can, or the items given). */
export const sessionMessage = (machine: MachineRef, at = new Date(), items: Array<Record<string, unknown>> = [{ seq: 1, itemType: 'can', refund: 0.1 }]) =>
  message(
    machine,
    'session',
    {
      sessionId: `S${++sequence}-${randomUUID().slice(0, 8)}`,
      startTime: new Date(at.getTime() - 60_000).toISOString(),
      endTime: at.toISOString(),
      payoutMethod: 'receipt',
      totalRefund: 0.1,
      items,
    },
    at,
  );

export const statusMessage = (machine: MachineRef, status: 'Up' | 'Down' | 'Sleep', at = new Date()) => message(machine, 'status', { status }, at);
export const binsMessage = (machine: MachineRef, bins: Array<{ binNo: number; currentHeight: number; emptied?: boolean }>, at = new Date()) =>
  message(machine, 'bins', { bins }, at);

/** Feeds messages through the gateway's intake and checks each was processed. */
export const ingest = async (db: Db, messages: Parameters<typeof ingestBatch>[1]) => {
  const outcomes = await ingestBatch(db, messages);
  for (const outcome of outcomes) if (outcome.result !== 'processed') throw new Error(`not processed: ${JSON.stringify(outcome)}`);
};
