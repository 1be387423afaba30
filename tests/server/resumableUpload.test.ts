// Resumable uploads (tus, docs/files.md "Resumable uploads"): a package upload cut halfway by a broken
// connection goes on from the offset the server kept and ends with the same SHA-256 as the bytes sent;
// refusals as for a plain upload (too large, a type the field refuses) and another account's upload out of reach.
import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { count } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { uploadedFile } from '../../server/db/schema';
import { describeOneBackend } from './helpers';

const ASSET = {
  name: 'tusasset',
  labels: { en: 'Assets', zh: '资产' },
  menuParent: 'systemSettings',
  fields: {
    title: { type: 'text', labels: { en: 'Title', zh: '标题' }, required: true },
    photo: { type: 'image', labels: { en: 'Photo', zh: '照片' } },
  },
  list: { columns: ['title', 'photo'] },
  actions: ['page', 'show', 'create', 'edit', 'delete'],
};

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');
const base64 = (text: string) => Buffer.from(text).toString('base64');
const metadata = (fields: Record<string, string>) =>
  Object.entries(fields)
    .map(([key, value]) => `${key} ${base64(value)}`)
    .join(',');
const filesDir = mkdtempSync(join(tmpdir(), 'rvm-tus-files-'));
const uploadsDir = mkdtempSync(join(tmpdir(), 'rvm-tus-staged-'));
afterAll(() => {
  rmSync(filesDir, { recursive: true, force: true });
  rmSync(uploadsDir, { recursive: true, force: true });
});
/** Bytes staged so far for the upload `id` (the tus file store's file is named after it). */
const stagedBytes = (id: string) => {
  try {
    return statSync(join(uploadsDir, id)).size;
  } catch {
    return -1;
  }
};
const stagedFiles = () => readdirSync(uploadsDir).filter((name) => !name.endsWith('.json')).length;
const until = async (condition: () => boolean | Promise<boolean>, what: string) => {
  const deadline = Date.now() + 20_000;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setImmediate(resolve));
  }
};

describeOneBackend(
  'resumable uploads (tus)',
  (server) => {
    let admin: string;
    let outsider: string;
    const tus = (token: string, extra: Record<string, string> = {}) => ({ 'rvm-token': token, 'tus-resumable': '1.0.0', ...extra });
    const fileRows = async () => Number((await server.db.select({ n: count() }).from(uploadedFile))[0].n);
    const create = (token: string, length: number, fields: Record<string, string>) =>
      server.app.inject({ method: 'POST', url: '/test-api/file/upload', headers: tus(token, { 'upload-length': String(length), 'upload-metadata': metadata(fields) }) });
    const idOf = (location: string | undefined) => (location ?? '').split('/').pop() ?? '';
    const patch = (token: string, id: string, offset: number, bytes: Buffer) =>
      server.app.inject({
        method: 'PATCH',
        url: `/test-api/file/upload/${id}`,
        headers: tus(token, { 'upload-offset': String(offset), 'content-type': 'application/offset+octet-stream' }),
        payload: bytes,
      });
    const head = (token: string, id: string) => server.app.inject({ method: 'HEAD', url: `/test-api/file/upload/${id}`, headers: tus(token) });

    beforeAll(async () => {
      admin = await server.login();
      expect((await server.call('POST', '/resource-types', { token: admin, body: ASSET })).body.resCode).toBe('00000');
      const other = await server.call('POST', '/license-account', { token: admin, body: { licenseAccountName: 'Elsewhere' } });
      await server.createUser({ name: 'outsider', licenseAccounts: [other.body.resData.id] }, admin);
      outsider = await server.login('outsider', 'Passw0rd!');
      await server.app.listen({ port: 0, host: '127.0.0.1' });
    });

    it('resumes a package upload cut halfway by a broken connection and stores the same SHA-256', async () => {
      const bytes = randomBytes(3 * 1024 * 1024);
      const created = await create(admin, bytes.length, { resource: 'deploymentPackage', field: 'file', name: 'firmware 2.1.bin' });
      expect(created.statusCode).toBe(201);
      expect(created.headers.location).toMatch(/^\/test-api\/file\/upload\/[\w-]+$/);
      const id = idOf(created.headers.location as string);
      const rowsBefore = await fileRows();

      // The first PATCH announces every byte, sends half of them, and the connection breaks.
      const { port } = server.app.server.address() as AddressInfo;
      const half = bytes.length / 2;
      const broken = httpRequest({
        host: '127.0.0.1',
        port,
        method: 'PATCH',
        path: `/test-api/file/upload/${id}`,
        headers: { ...tus(admin, { 'upload-offset': '0', 'content-type': 'application/offset+octet-stream' }), 'content-length': String(bytes.length) },
      });
      broken.on('error', () => undefined);
      broken.write(bytes.subarray(0, half));
      await until(() => stagedBytes(id) >= half, 'the first half to be staged');
      broken.destroy();

      // The server kept what arrived; HEAD says where to go on from.
      let offset = -1;
      await until(async () => {
        const answer = await head(admin, id);
        offset = Number(answer.headers['upload-offset']);
        return answer.statusCode === 200 && offset === stagedBytes(id);
      }, 'the offset after the break');
      expect(offset).toBeGreaterThanOrEqual(half);
      expect(offset).toBeLessThan(bytes.length);
      expect(await fileRows()).toBe(rowsBefore);

      const finished = await patch(admin, id, offset, bytes.subarray(offset));
      expect(finished.statusCode).toBe(200);
      const info = finished.json().resData;
      expect(info).toMatchObject({ name: 'firmware 2.1.bin', mimeType: 'application/octet-stream', size: bytes.length, sha256: sha256(bytes) });
      expect(await fileRows()).toBe(rowsBefore + 1);
      const download = await server.call('GET', `/file/${info.id}`, { token: admin });
      expect(sha256(download.raw.rawPayload)).toBe(sha256(bytes));
      // the staged copy has served
      expect(stagedBytes(id)).toBe(-1);
      expect((await head(admin, id)).statusCode).toBe(404);
    });

    it('is described in the OpenAPI document', async () => {
      const document = (await server.app.inject({ method: 'GET', url: '/test-api/docs/json' })).json();
      expect(Object.keys(document.paths['/test-api/file/upload'])).toEqual(['post']);
      expect(Object.keys(document.paths['/test-api/file/upload/{id}']).sort()).toEqual(['delete', 'head', 'patch']);
      expect(document.paths['/test-api/file/upload'].post.description).toContain('tus 1.0');
    });

    it("refuses an upload over the field's limit before any byte (9600), a package over 50 MB included", async () => {
      const tooBig = await create(admin, 50 * 1024 * 1024 + 1, { resource: 'deploymentPackage', field: 'file', name: 'big.bin' });
      expect([tooBig.statusCode, tooBig.json().resCode, tooBig.json().resData]).toEqual([400, '9600', { maxBytes: 50 * 1024 * 1024 }]);
      const image = await create(admin, 5 * 1024 * 1024 + 1, { resource: 'tusasset', field: 'photo', name: 'big.png' });
      expect(image.json().resCode).toBe('9600');
      expect(stagedFiles()).toBe(0);
    });

    it('refuses a type the field does not take, judged from the bytes (9601), and keeps nothing', async () => {
      const rowsBefore = await fileRows();
      const text = Buffer.from('not an image at all\n'.repeat(100));
      const created = await create(admin, text.length, { resource: 'tusasset', field: 'photo', name: 'photo.png' });
      const id = idOf(created.headers.location as string);
      const refused = await patch(admin, id, 0, text);
      expect([refused.statusCode, refused.json().resCode, refused.json().resData.mimeType]).toEqual([400, '9601', 'text/plain']);
      expect(await fileRows()).toBe(rowsBefore);
      expect(stagedBytes(id)).toBe(-1);
    });

    it("keeps an upload to its account: another account's caller gets 2003 for its id; no permission or field: 4003 / 1004", async () => {
      const bytes = randomBytes(1000);
      const created = await create(admin, bytes.length, { resource: 'deploymentPackage', field: 'file', name: 'mine.bin' });
      const id = idOf(created.headers.location as string);
      const sent = await patch(admin, id, 0, bytes.subarray(0, 400));
      expect(sent.statusCode).toBe(204);

      const foreignHead = await head(outsider, id);
      expect(foreignHead.statusCode).toBe(404);
      const foreignPatch = await patch(outsider, id, 400, bytes.subarray(400));
      expect([foreignPatch.statusCode, foreignPatch.json().resCode]).toEqual([404, '2003']);
      const foreignDelete = await server.app.inject({ method: 'DELETE', url: `/test-api/file/upload/${id}`, headers: tus(outsider) });
      expect(foreignDelete.json().resCode).toBe('2003');
      expect(stagedBytes(id)).toBe(400);

      expect((await create(admin, 10, { resource: 'nothing', field: 'file' })).json().resCode).toBe('4003');
      expect((await create(admin, 10, { resource: 'tusasset', field: 'title' })).json().resCode).toBe('1004');
      // the owner finishes it
      expect((await patch(admin, id, 400, bytes.subarray(400))).json().resData.sha256).toBe(sha256(bytes));
    });
  },
  { config: { filesDir, uploadsDir } },
);
