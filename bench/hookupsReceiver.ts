// The receiver of bench/hookups.ts, in its own process (as a receiver would be): verifies every request with
// `standardwebhooks`, answers 200, and reports on request the message ids it got (and how often) and refusals.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';

const verifier = new Webhook(process.argv[2]);
const seen = new Map<string, number>();
let refused = 0;
const server = createServer((request, response) => {
  const chunks: Buffer[] = [];
  request.on('data', (chunk: Buffer) => chunks.push(chunk));
  request.on('end', () => {
    const headers = Object.fromEntries(Object.entries(request.headers).map(([key, value]) => [key, String(value)]));
    try {
      verifier.verify(Buffer.concat(chunks).toString('utf8'), headers);
    } catch {
      refused++;
      response.writeHead(401).end();
      return;
    }
    seen.set(headers['webhook-id'], (seen.get(headers['webhook-id']) ?? 0) + 1);
    response.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
  });
});
server.keepAliveTimeout = 30_000;
server.listen(0, '127.0.0.1', () => process.send?.({ port: (server.address() as AddressInfo).port }));
process.on('message', () => {
  const counts = [...seen.values()];
  process.send?.({ received: seen.size, twice: counts.filter((count) => count > 1).length, refused }, () => process.exit(0));
});
