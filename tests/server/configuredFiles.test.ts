// Configured image/file fields with their own `maxBytes` and `accept` (checked in the definition, enforced by the
// upload route as for code-declared fields), and files that go with their records (docs/files.md "Files and their
// records"): removed after a delete or a replaced value when no other record holds them, and unsaved uploads older
// than a day swept by the `fileSweep` job, one instance at a time.
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eq } from 'drizzle-orm';
import pg from 'pg';
import sharp from 'sharp';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { uploadedFile } from '../../server/db/schema';
import { FILE_SWEEP_JOB } from '../../server/files/cleanup';
import { describeBackends, type TestServer } from './helpers';

const text = (en: string, zh: string) => ({ en, zh });
const GALLERY = {
  name: 'gallery',
  labels: text('Galleries', '图库'),
  menuParent: 'service',
  fields: {
    title: { type: 'text', labels: text('Title', '标题'), required: true },
    cover: { type: 'image', labels: text('Cover', '封面'), maxBytes: 2048, accept: ['image/png'] },
    sheet: { type: 'file', labels: text('Sheet', '表格'), accept: ['application/pdf'] },
    note: { type: 'file', labels: text('Note', '备注') },
  },
  list: { columns: ['title', 'cover'] },
  actions: ['page', 'show', 'create', 'edit', 'delete'],
};
const PDF = Buffer.from('%PDF-1.4\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n');

const filesDir = mkdtempSync(join(tmpdir(), 'rvm-configured-files-'));
afterAll(() => rmSync(filesDir, { recursive: true, force: true }));
const storedObjects = () => readdirSync(filesDir, { recursive: true, withFileTypes: true }).filter((entry) => entry.isFile()).length;
const DAY = 24 * 60 * 60_000;

describeBackends(
  'configured file fields and their files',
  (server: TestServer, backend) => {
    let admin: string;
    let png: Buffer;
    const call = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, body?: Record<string, unknown>, lang?: string) => server.call(method, url, { token: admin, body, lang });
    const upload = (field: string, bytes: Buffer, lang?: string) =>
      server.call('POST', `/file?resource=gallery&field=${field}&name=${field}.bin`, { token: admin, body: bytes, lang, headers: { 'content-type': 'application/octet-stream' } });
    const uploaded = async (field: string, bytes: Buffer) => {
      const answer = await upload(field, bytes);
      expect(answer.body.resCode, JSON.stringify(answer.body)).toBe('00000');
      return answer.body.resData.id as number;
    };
    const exists = async (id: number) => (await server.db.select({ id: uploadedFile.id }).from(uploadedFile).where(eq(uploadedFile.id, id))).length === 1;
    const make = async (body: Record<string, unknown>) => {
      const answer = await call('POST', '/custom/gallery', body);
      expect(answer.body.resCode, JSON.stringify(answer.body)).toBe('00000');
      return answer.body.resData.id as number;
    };

    beforeAll(async () => {
      admin = await server.login();
      png = await sharp({ create: { width: 8, height: 8, channels: 3, background: '#2980b9' } })
        .png()
        .toBuffer();
      const saved = await call('POST', '/resource-types', GALLERY);
      expect(saved.body.resCode, JSON.stringify(saved.body)).toBe('00000');
      expect(saved.body.resData.fields.cover).toMatchObject({ maxBytes: 2048, accept: ['image/png'] });
    });

    it("enforces the field's own size and types on upload (9600 with its limit, 9601 with its types), in both languages", async () => {
      const jpeg = await sharp({ create: { width: 8, height: 8, channels: 3, background: '#000' } })
        .jpeg()
        .toBuffer();
      expect((await upload('cover', png)).body.resCode).toBe('00000');
      const big = Buffer.concat([png, Buffer.alloc(4096)]);
      const tooLarge = await upload('cover', big, 'zh');
      expect([tooLarge.body.resCode, tooLarge.body.resMsg, tooLarge.body.resData]).toEqual(['9600', '文件太大', { maxBytes: 2048 }]);
      const wrong = await upload('cover', jpeg);
      expect([wrong.body.resCode, wrong.body.resMsg, wrong.body.resData]).toEqual([
        '9601',
        'This type of file is not accepted here',
        { mimeType: 'image/jpeg', accept: ['image/png'] },
      ]);
      expect((await upload('sheet', PDF)).body.resCode).toBe('00000');
      expect((await upload('sheet', Buffer.from('plain words'))).body.resData).toEqual({ mimeType: 'text/plain', accept: ['application/pdf'] });
      // no limits of its own: the kind's defaults (any type)
      expect((await upload('note', Buffer.from('plain words'))).body.resCode).toBe('00000');
    });

    it("refuses limits a definition cannot have: over the kind's maximum (9419), on a field without files (9418), a non-image type on an image field (9420), no MIME type", async () => {
      const bad = {
        ...GALLERY,
        name: 'badGallery',
        fields: {
          title: { type: 'text', labels: text('Title', '标题'), maxBytes: 10 },
          cover: { type: 'image', labels: text('Cover', '封面'), maxBytes: 6 * 1024 * 1024, accept: ['application/pdf'] },
          sheet: { type: 'file', labels: text('Sheet', '表格'), maxBytes: 50 * 1024 * 1024 },
        },
        list: { columns: ['title'] },
      };
      const en = await call('POST', '/resource-types', bad);
      expect(en.body.resCode).toBe('1004');
      expect(en.body.resData.issues).toEqual(
        expect.arrayContaining([
          { field: 'fields.title.maxBytes', message: 'Only image and file fields take a size limit or accepted types' },
          { field: 'fields.cover.maxBytes', message: "The size limit is above this kind's maximum of 5242880 bytes" },
          { field: 'fields.cover.accept.0', message: 'An image field accepts image types only, not application/pdf' },
        ]),
      );
      expect(en.body.resData.issues).toHaveLength(3);
      const zh = await call('POST', '/resource-types', bad, 'zh');
      expect(zh.body.resData.issues).toContainEqual({ field: 'fields.cover.maxBytes', message: '大小上限超过了此类字段的最大值 5242880 字节' });
      const notMime = await call('POST', '/resource-types', {
        ...GALLERY,
        name: 'mimeGallery',
        fields: { ...GALLERY.fields, sheet: { type: 'file', labels: text('Sheet', '表格'), accept: ['PDF files'] } },
      });
      expect([notMime.body.resCode, notMime.body.resData.issues[0].field]).toEqual(['1004', 'fields.sheet.accept.0']);
    });

    it('removes the file of a deleted record and a replaced value, bytes and thumbnail included, but not one another record holds', async () => {
      const before = storedObjects();
      const cover = await uploaded('cover', png);
      const sheet = await uploaded('sheet', PDF);
      // an image's thumbnail is stored beside it
      expect(storedObjects()).toBe(before + 3);
      const first = await make({ title: 'First', cover, sheet });
      const second = await make({ title: 'Second', cover });

      expect((await call('DELETE', `/custom/gallery?id=${first}`)).body.resCode).toBe('00000');
      // the sheet was the first record's only; the cover is still the second's
      expect([await exists(sheet), await exists(cover)]).toEqual([false, true]);
      expect(storedObjects()).toBe(before + 2);
      expect((await call('GET', `/file/${cover}`)).status).toBe(200);

      const next = await uploaded('cover', png);
      expect((await call('PUT', '/custom/gallery', { id: second, cover: next })).body.resCode).toBe('00000');
      expect([await exists(cover), await exists(next)]).toEqual([false, true]);
      expect(storedObjects()).toBe(before + 2);

      expect((await call('POST', '/custom/gallery/batchDelete', { ids: [second] })).body.resCode).toBe('00000');
      expect(await exists(next)).toBe(false);
      expect(storedObjects()).toBe(before);
    });

    it('a refused write lets go of nothing: the file stays with its record', async () => {
      const cover = await uploaded('cover', png);
      const id = await make({ title: 'Kept', cover });
      const refused = await call('PUT', '/custom/gallery', { id, cover: 2147483000 });
      expect(refused.body.resCode).toBe('1004');
      expect(await exists(cover)).toBe(true);
      expect((await call('GET', `/custom/gallery/${id}`)).body.resData.cover).toBe(cover);
    });

    it('sweeps uploads never saved into a record once older than a day; saved ones stay', async () => {
      // the earlier tests' unsaved uploads first
      await server.app.services.jobs.runNow(FILE_SWEEP_JOB, new Date(Date.now() + 2 * DAY));
      const unsaved = await uploaded('note', Buffer.from('never saved'));
      const saved = await uploaded('note', Buffer.from('saved'));
      await make({ title: 'Holds a note', note: saved });
      const objects = storedObjects();
      await server.app.services.jobs.runNow(FILE_SWEEP_JOB, new Date());
      expect([await exists(unsaved), await exists(saved)]).toEqual([true, true]);
      await server.app.services.jobs.runNow(FILE_SWEEP_JOB, new Date(Date.now() + 2 * DAY));
      expect([await exists(unsaved), await exists(saved)]).toEqual([false, true]);
      expect(storedObjects()).toBe(objects - 1);
    });

    if (backend === 'postgres') {
      it('never removes a file a record is being saved with meanwhile: the removal waits for that write and then sees it', async () => {
        const note = await uploaded('note', Buffer.from('shared'));
        const first = await make({ title: 'First holder', note });
        const [file] = await server.db.select({ account: uploadedFile.licenseAccountId }).from(uploadedFile).where(eq(uploadedFile.id, note));
        // another writer saving the same file into a second record, as the engine does (the row locked, then the record written), not yet committed
        const other = new pg.Client({ connectionString: server.databaseUrl });
        await other.connect();
        try {
          await other.query('begin');
          await other.query('update uploaded_file set saved = true where id = $1', [note]);
          await other.query("insert into configured_record (type_name, license_account_id, data) values ('gallery', $1, $2)", [
            file.account,
            JSON.stringify({ title: 'Second holder', note }),
          ]);
          const deleted = call('DELETE', `/custom/gallery?id=${first}`);
          // the delete (marking the file let go of) waits for the writer's lock; once it commits, the file has a holder
          const waiting = async () =>
            Number((await other.query("select count(*) as n from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'")).rows[0].n);
          for (let tries = 0; tries < 500 && (await waiting()) === 0; tries++) await new Promise((resolve) => setImmediate(resolve));
          expect(await waiting()).toBeGreaterThan(0);
          await other.query('commit');
          expect((await deleted).body.resCode).toBe('00000');
        } finally {
          await other.end();
        }
        expect(await exists(note)).toBe(true);
        expect((await call('GET', `/file/${note}`)).status).toBe(200);
      });

      it('runs the sweep on one instance at a time: while another holds its lock, a run removes nothing', async () => {
        const unsaved = await uploaded('note', Buffer.from('waiting'));
        const other = new pg.Client({ connectionString: server.databaseUrl });
        await other.connect();
        try {
          await other.query('select pg_advisory_lock($1)', [0x46535750]);
          await server.app.services.jobs.runNow(FILE_SWEEP_JOB, new Date(Date.now() + 2 * DAY));
          expect(await exists(unsaved)).toBe(true);
          await other.query('select pg_advisory_unlock($1)', [0x46535750]);
        } finally {
          await other.end();
        }
        await server.app.services.jobs.runNow(FILE_SWEEP_JOB, new Date(Date.now() + 2 * DAY));
        expect(await exists(unsaved)).toBe(false);
      });
    }
  },
  { config: { filesDir } },
);
