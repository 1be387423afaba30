// A small package download server written from docs/deployments.md ("Download"), for testing the
// simulator's machine side on its own: HTTP Basic authentication with a machine's serial number and
// secret, one delivery per machine, Range requests (206, Content-Range, Accept-Ranges, ETag = SHA-256,
// If-Range), and a record of every request so tests can see a resume.
import { createHash, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface TestPackage {
  bytes: Buffer;
  sha256: string;
}

export interface ServedDelivery {
  deployId: number;
  serialNumber: string;
  secret: string;
  pkg: TestPackage;
}

export interface PackageRequest {
  deployId: number;
  user: string | null;
  range: string | null;
  ifRange: string | null;
  status: number;
  /** Bytes handed to the socket (the kernel may buffer some a client never reads). */
  sent: number;
  completed: boolean;
}

export interface PackageServer {
  url(deployId: number): string;
  serve(delivery: ServedDelivery): void;
  requests: PackageRequest[];
  close(): Promise<void>;
}

export const testPackage = (size: number): TestPackage => {
  const bytes = randomBytes(size);
  return { bytes, sha256: createHash('sha256').update(bytes).digest('hex') };
};

const CHUNK = 64 * 1024;

const credentials = (request: IncomingMessage) => {
  const match = /^Basic ([A-Za-z0-9+/=]+)$/.exec(request.headers.authorization ?? '');
  if (!match) return null;
  const text = Buffer.from(match[1], 'base64').toString();
  const colon = text.indexOf(':');
  return colon < 0 ? null : { user: text.slice(0, colon), password: text.slice(colon + 1) };
};

/** Writes in chunks, waiting for the socket to drain, so a client can break the connection mid-way. */
const stream = async (response: ServerResponse, bytes: Buffer, record: PackageRequest) => {
  for (let offset = 0; offset < bytes.length; offset += CHUNK) {
    if (response.destroyed) return;
    const chunk = bytes.subarray(offset, offset + CHUNK);
    if (!response.write(chunk)) {
      await new Promise<void>((resolve) => {
        const done = () => {
          response.off('drain', done).off('close', done);
          resolve();
        };
        response.on('drain', done).on('close', done);
      });
    }
    record.sent += chunk.length;
  }
  response.end();
  record.completed = true;
};

export const startPackageServer = async (): Promise<PackageServer> => {
  const deliveries = new Map<number, ServedDelivery>();
  const requests: PackageRequest[] = [];
  const server = createServer((request, response) => {
    const deployId = Number(/^\/package\/(\d+)$/.exec(request.url ?? '')?.[1]);
    const login = credentials(request);
    const record: PackageRequest = {
      deployId,
      user: login?.user ?? null,
      range: request.headers.range ?? null,
      ifRange: (request.headers['if-range'] as string | undefined) ?? null,
      status: 0,
      sent: 0,
      completed: false,
    };
    requests.push(record);
    const answer = (status: number, resCode: string, resMsg: string) => {
      record.status = status;
      response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify({ resCode, resMsg, resData: null }));
    };
    const delivery = deliveries.get(deployId);
    if (!delivery) return answer(404, '8100', 'Can not find the software package');
    if (!login || login.user !== delivery.serialNumber || login.password !== delivery.secret) return answer(401, '401', 'Wrong credentials');
    const { bytes, sha256 } = delivery.pkg;
    // a resume with If-Range gets the rest only while the bytes are the ones it started with
    const range = record.ifRange && record.ifRange !== `"${sha256}"` ? null : /^bytes=(\d+)-$/.exec(record.range ?? '');
    const start = range ? Number(range[1]) : 0;
    if (start >= bytes.length && bytes.length > 0) return answer(416, '416', 'Range not satisfiable');
    record.status = range ? 206 : 200;
    response.writeHead(record.status, {
      'content-type': 'application/octet-stream',
      'content-length': String(bytes.length - start),
      'accept-ranges': 'bytes',
      etag: `"${sha256}"`,
      ...(range ? { 'content-range': `bytes ${start}-${bytes.length - 1}/${bytes.length}` } : {}),
    });
    void stream(response, bytes.subarray(start), record);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url: (deployId) => `${base}/package/${deployId}`,
    serve: (delivery) => deliveries.set(delivery.deployId, delivery),
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
};
