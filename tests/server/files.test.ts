// Uploaded files (docs/files.md): upload and download with the SHA-256, content checked by its bytes, size
// limits, thumbnails, another account's files out of reach, and image/file fields of a configured type
// holding the ids of the caller's account's files only.
import { createHash } from 'node:crypto';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { count, eq } from 'drizzle-orm';
import sharp from 'sharp';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { uploadedFile } from '../../server/db/schema';
import { describeOneBackend, type TestServer } from './helpers';

const ASSET = {
  name: 'asset',
  labels: { en: 'Assets', zh: '资产' },
  menuParent: 'systemSettings',
  fields: {
    title: { type: 'text', labels: { en: 'Title', zh: '标题' }, required: true },
    photo: { type: 'image', labels: { en: 'Photo', zh: '照片' } },
    manual: { type: 'file', labels: { en: 'Manual', zh: '说明书' } },
  },
  list: { columns: ['title', 'photo', 'manual'] },
  actions: ['page', 'show', 'create', 'edit', 'delete'],
};

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');
const filesDir = mkdtempSync(join(tmpdir(), 'rvm-files-test-'));
afterAll(() => rmSync(filesDir, { recursive: true, force: true }));
/** Every stored object (and any half-written part file) of every test server. */
const storedObjects = () => readdirSync(filesDir, { recursive: true, withFileTypes: true }).filter((entry) => entry.isFile()).length;

const upload = (server: TestServer, token: string, body: Buffer | Readable, query: string) =>
  server.call('POST', `/file?${query}`, { token, body, headers: { 'content-type': 'application/octet-stream' } });

describeOneBackend(
  'uploaded files',
  (server) => {
    let admin: string;
    let outsider: string;
    let png: Buffer;
    let accounts: { default: number; other: number };
    const switchTo = (account: number) => server.call('PUT', `/license-account-user-relation?id=${account}`, { token: admin });
    const fileRows = async () => Number((await server.db.select({ n: count() }).from(uploadedFile))[0].n);

    beforeAll(async () => {
      admin = await server.login();
      expect((await server.call('POST', '/resource-types', { token: admin, body: ASSET })).body.resCode).toBe('00000');
      const other = await server.call('POST', '/license-account', { token: admin, body: { licenseAccountName: 'Elsewhere' } });
      await server.createUser({ name: 'outsider', licenseAccounts: [other.body.resData.id] }, admin);
      outsider = await server.login('outsider', 'Passw0rd!');
      const relations = (await server.call('GET', '/license-account-user-relation', { token: admin })).body.resData as Array<{ id: number; licenseAccountName: string }>;
      accounts = { default: relations.find((row) => row.licenseAccountName === 'Default')!.id, other: other.body.resData.id };
      png = await sharp({ create: { width: 400, height: 300, channels: 3, background: '#c0392b' } })
        .png()
        .toBuffer();
    });

    it('uploads an image and downloads the same bytes (SHA-256, ranges), with a thumbnail and its metadata', async () => {
      const answer = await upload(server, admin, png, 'resource=asset&field=photo&name=red%20bin.png');
      expect(answer.body.resCode).toBe('00000');
      const info = answer.body.resData;
      expect(info).toEqual({
        id: expect.any(Number),
        name: 'red bin.png',
        mimeType: 'image/png',
        size: png.length,
        sha256: sha256(png),
        hasThumbnail: true,
        createdTime: expect.any(String),
      });

      const download = await server.call('GET', `/file/${info.id}`, { token: admin });
      expect(download.status).toBe(200);
      expect(download.raw.rawPayload.equals(png)).toBe(true);
      expect(sha256(download.raw.rawPayload)).toBe(info.sha256);
      expect(download.raw.headers).toMatchObject({
        'content-type': 'image/png',
        'content-length': String(png.length),
        'x-content-type-options': 'nosniff',
        etag: `"${info.sha256}"`,
      });
      expect(download.raw.headers['content-disposition']).toBe(`attachment; filename="red bin.png"; filename*=UTF-8''red%20bin.png`);

      const part = await server.call('GET', `/file/${info.id}`, { token: admin, headers: { range: 'bytes=0-7' } });
      expect([part.status, part.raw.headers['content-range']]).toEqual([206, `bytes 0-7/${png.length}`]);
      expect(part.raw.rawPayload.equals(png.subarray(0, 8))).toBe(true);
      expect((await server.call('GET', `/file/${info.id}`, { token: admin, headers: { range: `bytes=${png.length}-` } })).status).toBe(416);
      expect((await server.call('GET', `/file/${info.id}`, { token: admin, headers: { 'if-none-match': `"${info.sha256}"` } })).status).toBe(304);

      const thumbnail = await server.call('GET', `/file/${info.id}/thumbnail`, { token: admin });
      expect(thumbnail.raw.headers['content-type']).toBe('image/webp');
      expect(await sharp(thumbnail.raw.rawPayload).metadata()).toMatchObject({ format: 'webp', width: 160, height: 120 });

      const listed = await server.call('GET', `/file/info?ids=${info.id},999999`, { token: admin });
      expect(listed.body.resData).toEqual([info]);
    });

    it('takes any type in a file field: text is text/plain, with no thumbnail', async () => {
      const text = Buffer.from('Empty the bins every Monday.\n');
      const answer = await upload(server, admin, text, 'resource=asset&field=manual&name=manual.txt');
      expect(answer.body.resData).toMatchObject({ name: 'manual.txt', mimeType: 'text/plain', size: text.length, sha256: sha256(text), hasThumbnail: false });
      expect((await server.call('GET', `/file/${answer.body.resData.id}/thumbnail`, { token: admin })).body.resCode).toBe('2003');
      // the name is the uploader's, without folders
      expect((await upload(server, admin, text, `resource=asset&field=manual&name=${encodeURIComponent('../../etc/passwd')}`)).body.resData.name).toBe('passwd');
    });

    it('keeps an image sharp cannot read, without a thumbnail', async () => {
      const broken = Buffer.concat([png.subarray(0, 40), Buffer.alloc(200, 7)]);
      const answer = await upload(server, admin, broken, 'resource=asset&field=photo&name=broken.png');
      expect(answer.body.resData).toMatchObject({ mimeType: 'image/png', size: broken.length, hasThumbnail: false });
    });

    it('judges the type by the bytes: a .png holding text is refused (9601) and nothing is kept', async () => {
      const [rows, objects] = [await fileRows(), storedObjects()];
      const answer = await upload(server, admin, Buffer.from('this is not a picture'), 'resource=asset&field=photo&name=photo.png');
      expect([answer.status, answer.body.resCode]).toEqual([400, '9601']);
      expect(answer.body.resData).toEqual({ mimeType: 'text/plain', accept: ['image/png', 'image/jpeg', 'image/webp'] });
      const zh = await server.call('POST', '/file?resource=asset&field=photo&name=a.png', {
        token: admin,
        lang: 'zh',
        body: Buffer.from('%PDF-1.4 not an image'),
        headers: { 'content-type': 'image/png' },
      });
      expect([zh.body.resCode, zh.body.resMsg]).toEqual(['9601', '此处不接受这种类型的文件']);
      expect([await fileRows(), storedObjects()]).toEqual([rows, objects]);
    });

    it("refuses what is over the field's limit (9600), by its declared length or while it streams, and keeps nothing", async () => {
      const [rows, objects] = [await fileRows(), storedObjects()];
      const tooLarge = Buffer.concat([png, Buffer.alloc(5 * 1024 * 1024)]);
      const declared = await upload(server, admin, tooLarge, 'resource=asset&field=photo&name=big.png');
      expect([declared.status, declared.body.resCode, declared.body.resData]).toEqual([400, '9600', { maxBytes: 5 * 1024 * 1024 }]);
      expect(declared.raw.headers.connection).toBe('close');
      // no Content-Length: counted while streaming, refused past the limit after part of it was written
      const streamed = await upload(
        server,
        admin,
        Readable.from(
          (function* () {
            for (let sent = 0; sent < tooLarge.length; sent += 65536) yield tooLarge.subarray(sent, sent + 65536);
          })(),
        ),
        'resource=asset&field=photo&name=big.png',
      );
      expect(streamed.body.resCode).toBe('9600');
      expect([await fileRows(), storedObjects()]).toEqual([rows, objects]);
    });

    it('refuses an empty body, a field that takes no files, a resource the caller may not use', async () => {
      expect((await upload(server, admin, Buffer.alloc(0), 'resource=asset&field=manual')).body.resCode).toBe('1001');
      expect((await upload(server, admin, png, 'resource=asset&field=title')).body.resCode).toBe('1004');
      expect((await upload(server, admin, png, 'resource=nosuch&field=photo')).body.resCode).toBe('4003');
      expect((await upload(server, outsider, png, 'resource=asset&field=photo')).body.resCode).toBe('4003');
      expect((await upload(server, '', png, 'resource=asset&field=photo')).body.resCode).toBe('11011');
    });

    it("keeps a file to its license account: another account's caller gets 2003 and no metadata", async () => {
      const mine = (await upload(server, admin, png, 'resource=asset&field=photo&name=mine.png')).body.resData;
      expect((await server.call('GET', `/file/${mine.id}`, { token: outsider })).body.resCode).toBe('2003');
      expect((await server.call('GET', `/file/${mine.id}/thumbnail`, { token: outsider })).body.resCode).toBe('2003');
      expect((await server.call('GET', `/file/info?ids=${mine.id}`, { token: outsider })).body.resData).toEqual([]);
      expect((await server.call('GET', '/file/2147483647', { token: admin })).body.resCode).toBe('2003');
    });

    it("a configured type stores the id of its own account's file in an image field; an unknown or foreign id is refused", async () => {
      const photo = (await upload(server, admin, png, 'resource=asset&field=photo&name=bin.png')).body.resData;
      const created = await server.call('POST', '/custom/asset', { token: admin, body: { title: 'Bin 1', photo: photo.id } });
      expect(created.body.resCode).toBe('00000');
      expect((await server.call('GET', `/custom/asset/${created.body.resData.id}`, { token: admin })).body.resData).toMatchObject({ title: 'Bin 1', photo: photo.id });

      const unknown = await server.call('POST', '/custom/asset', { token: admin, body: { title: 'Bin 2', photo: 999999 } });
      expect([unknown.body.resCode, unknown.body.resData.issues]).toEqual(['1004', [{ field: 'photo', message: 'Please upload the file again: this one does not exist here' }]]);
      expect((await server.call('POST', '/custom/asset', { token: admin, body: { title: 'Bin 2', photo: 'bin.png' } })).body.resCode).toBe('1003');

      // a file of the other account (uploaded there), offered back in this one
      await switchTo(accounts.other);
      const foreign = (await upload(server, admin, png, 'resource=asset&field=photo&name=theirs.png')).body.resData;
      await switchTo(accounts.default);
      const refused = await server.call('PUT', '/custom/asset', { token: admin, body: { id: created.body.resData.id, photo: foreign.id } });
      expect([refused.body.resCode, refused.body.resData.issues[0].field]).toEqual(['1004', 'photo']);
      expect((await server.call('GET', `/file/${foreign.id}`, { token: admin })).body.resCode).toBe('2003');
      expect((await server.db.select().from(uploadedFile).where(eq(uploadedFile.id, foreign.id)))[0].licenseAccountId).toBe(accounts.other);
    });
  },
  { config: { filesDir } },
);
