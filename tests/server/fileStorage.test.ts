// The file storage contract (server/files/storage.ts), run against both implementations: a folder, and
// S3-compatible object storage served by fauxqs (an S3 API over HTTP that checks like AWS: part
// sizes, ETags, aborts; started on a free port here).
import { createHash } from 'node:crypto';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { text } from 'node:stream/consumers';
import type { AddressInfo } from 'node:net';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { CreateBucketCommand, ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import { buildApp as buildFauxqs } from 'fauxqs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFileStorage, type FileStorage } from '../../server/files/storage';
import { parseS3Url } from '../../server/files/s3Storage';

const bytesOf = async (stream: Readable | null) => {
  if (!stream) return null;
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.from(chunk as Buffer));
  return Buffer.concat(chunks);
};

/** `size` bytes in 64 KB chunks, failing after `failAfter` bytes when given. */
const generated = (size: number, failAfter?: number) =>
  Readable.from(
    (async function* () {
      for (let sent = 0; sent < size; sent += 65536) {
        if (failAfter !== undefined && sent >= failAfter) throw new Error('the client went away');
        yield Buffer.alloc(Math.min(65536, size - sent), sent % 251);
      }
    })(),
  );

const sha = (buffer: Buffer) => createHash('sha256').update(buffer).digest('hex');

interface Backend {
  name: string;
  open(): Promise<{ storage: FileStorage; leftovers(): Promise<string[]>; close(): Promise<void> }>;
}

const folderBackend: Backend = {
  name: 'folder',
  async open() {
    const folder = mkdtempSync(join(tmpdir(), 'rvm-storage-test-'));
    const storage = await createFileStorage({ folder });
    return {
      storage,
      leftovers: async () =>
        readdirSync(folder, { recursive: true, withFileTypes: true })
          .filter((entry) => entry.isFile())
          .map((entry) => join(entry.parentPath, entry.name)),
      close: async () => {
        await storage.close();
        rmSync(folder, { recursive: true, force: true });
      },
    };
  },
};

const s3Backend: Backend = {
  name: 's3 (fauxqs)',
  async open() {
    const server = buildFauxqs({ logger: false });
    // multipart uploads begun and not yet completed or aborted, read off the wire
    const openUploads = new Set<string>();
    server.addHook('onSend', async (request: FastifyRequest, _reply: FastifyReply, payload: unknown) => {
      const query = request.query as Record<string, string | undefined>;
      if (request.method === 'POST' && 'uploads' in query && typeof payload === 'string') openUploads.add(/<UploadId>([^<]+)</.exec(payload)?.[1] ?? '');
      if ((request.method === 'DELETE' || request.method === 'POST') && query.uploadId) openUploads.delete(query.uploadId);
      return payload;
    });
    await server.listen({ port: 0, host: '127.0.0.1' });
    const endpoint = `http://127.0.0.1:${(server.server.address() as AddressInfo).port}`;
    const client = new S3Client({ endpoint, region: 'eu-west-1', forcePathStyle: true, credentials: { accessKeyId: 'test', secretAccessKey: 'test' } });
    await client.send(new CreateBucketCommand({ Bucket: 'files' }));
    const storage = await createFileStorage({ s3Url: `http://test:test@127.0.0.1:${new URL(endpoint).port}/files/uploads?region=eu-west-1` });
    return {
      storage,
      leftovers: async () => {
        const objects = await client.send(new ListObjectsV2Command({ Bucket: 'files' }));
        return [...(objects.Contents ?? []).map((object) => object.Key ?? ''), ...[...openUploads].map((id) => `open multipart upload ${id}`)];
      },
      close: async () => {
        await storage.close();
        client.destroy();
        await server.close();
      },
    };
  },
};

describe.each([folderBackend, s3Backend])('file storage contract: $name', (backend) => {
  let opened: Awaited<ReturnType<Backend['open']>>;
  beforeAll(async () => {
    opened = await backend.open();
  });
  afterAll(async () => {
    await opened?.close();
  });

  it('puts a stream and gets it back whole or by range, with its size', async () => {
    const { storage } = opened;
    await storage.put('1/small', Readable.from([Buffer.from('hello, '), Buffer.from('files')]), 'text/plain');
    expect(await storage.stat('1/small')).toEqual({ size: 12 });
    expect(await text((await storage.get('1/small'))!)).toBe('hello, files');
    expect(await text((await storage.get('1/small', { start: 7, end: 11 }))!)).toBe('files');
    expect(await text((await storage.get('1/small', { start: 0, end: 0 }))!)).toBe('h');
  });

  it('streams a file larger than one multipart part (12 MB) unchanged', async () => {
    const { storage } = opened;
    const size = 12 * 1024 * 1024 + 5;
    const expected = await bytesOf(generated(size));
    await storage.put('1/large', generated(size));
    expect(await storage.stat('1/large')).toEqual({ size });
    expect(sha((await bytesOf(await storage.get('1/large')))!)).toBe(sha(expected!));
    const middle = await bytesOf(await storage.get('1/large', { start: 6 * 1024 * 1024, end: 6 * 1024 * 1024 + 99 }));
    expect(middle).toEqual(expected!.subarray(6 * 1024 * 1024, 6 * 1024 * 1024 + 100));
  });

  it('answers null for what does not exist, and deleting it is no error', async () => {
    const { storage } = opened;
    expect(await storage.stat('1/none')).toBeNull();
    expect(await storage.get('1/none')).toBeNull();
    await expect(storage.delete('1/none')).resolves.toBeUndefined();
  });

  it('deletes, and replaces an object put again under the same key', async () => {
    const { storage } = opened;
    await storage.put('2/twice', Readable.from([Buffer.from('first')]));
    await storage.put('2/twice', Readable.from([Buffer.from('second')]));
    expect(await text((await storage.get('2/twice'))!)).toBe('second');
    await storage.delete('2/twice');
    expect(await storage.stat('2/twice')).toBeNull();
  });

  it('leaves nothing behind when the stream fails half-way (small, and after several multipart parts)', async () => {
    const { storage, leftovers } = opened;
    const before = await leftovers();
    await expect(storage.put('3/broken-small', generated(200_000, 100_000))).rejects.toThrow('the client went away');
    await expect(storage.put('3/broken-large', generated(20 * 1024 * 1024, 11 * 1024 * 1024))).rejects.toThrow('the client went away');
    expect(await storage.stat('3/broken-small')).toBeNull();
    expect(await storage.stat('3/broken-large')).toBeNull();
    expect((await leftovers()).sort()).toEqual(before.sort());
  });
});

describe('FILES_S3_URL', () => {
  it('names the endpoint, credentials, bucket, key prefix and region', () => {
    expect(parseS3Url('https://AKIA%2F1:se%2Bcret@s3.example.com/bucket/a/b?region=eu-central-1')).toEqual({
      endpoint: 'https://s3.example.com',
      region: 'eu-central-1',
      bucket: 'bucket',
      prefix: 'a/b/',
      credentials: { accessKeyId: 'AKIA/1', secretAccessKey: 'se+cret' },
    });
    expect(parseS3Url('http://minio:9000/files')).toEqual({ endpoint: 'http://minio:9000', region: 'us-east-1', bucket: 'files', prefix: '', credentials: undefined });
    expect(() => parseS3Url('http://minio:9000/')).toThrow(/bucket/);
    expect(() => parseS3Url('ftp://x/y')).toThrow(/http/);
  });
});
