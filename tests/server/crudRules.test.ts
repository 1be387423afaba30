// The generic CRUD engine (server/crud) through the fixture trio of crudFixture.ts (crates in depots with
// labels). Also: exportListing called directly (display rules, texts, batches,
// a failure while streaming), the routes' OpenAPI document (crudRules.routes.json) and buildModel's refusals,
// built inside their tests so that Stryker counts that start-up code as run by them (stryker.config.mjs FOLDER_PARTS).
import { eq, sql } from 'drizzle-orm';
import { boolean, integer, pgTable, timestamp, uniqueIndex, varchar } from 'drizzle-orm/pg-core';
import ExcelJS from 'exceljs';
import type { FastifyReply } from 'fastify';
import { beforeAll, describe, expect, it } from 'vitest';
import { translate } from '../../i18n';
import { RESOURCES } from '../../resources';
import { defineResource } from '../../resources/types';
import type { Caller } from '../../server/auth/principal';
import type { ServerConfig } from '../../server/config';
import { licenseAccountUserRelation, sysUser } from '../../server/db/schema';
import { exportListing, type ExportBody } from '../../server/crud/export';
import { uniqueViolation, withDefaults } from '../../server/crud/integrity';
import { buildModel, type ResourceModel } from '../../server/crud/model';
import { expressionOf, likePattern } from '../../server/crud/query';
import { countingDb, crate, createFixtureTables, depot, hooks, label, TABLES } from './crudFixture';
import { describeBackends, documentedPaths, startTestServer, type DocumentedOperation } from './helpers';

/**
 * The crate as an export sees it with display rules and texts of its own (as a configured type has them): an enum
 * shown as value and label, seconds as a duration, a boolean with its own labels, a name longer than a sheet's.
 */
const exportCrate = (kindDisplay?: 'valueLabel') =>
  defineResource({
    ...crate,
    fields: {
      ...crate.fields,
      kind: { ...crate.fields.kind, ...(kindDisplay ? { display: kindDisplay } : {}) },
      capacity: { ...crate.fields.capacity, display: 'duration' },
      fragile: { type: 'boolean' },
    },
  });
const EXPORT_TEXTS: Record<string, string> = {
  'resources.crate.enums.kind.b': 'Bee',
  'resources.crate.enums.fragile.true': 'Handle with care',
  'resources.crate.name': 'Crates kept in the depot for a long time |||| Crates',
  ...Object.fromEntries(['code', 'size', 'kind', 'capacity', 'fragile'].map((field) => [`resources.crate.fields.${field}`, field.toUpperCase()])),
};
const exportModel = (kindDisplay?: 'valueLabel'): ResourceModel => ({ ...buildModel(exportCrate(kindDisplay), TABLES), texts: (_locale, key) => EXPORT_TEXTS[key] });

describeBackends(
  'the generic CRUD engine',
  (server) => {
    let admin: string;
    let adminId: number;
    const code = (answer: { body: { resCode: string } }) => answer.body.resCode;
    const codes = async (body: Record<string, unknown>) => {
      const answer = await server.call('POST', '/crate/page', { token: admin, body: { codeIn: ['c1', 'c2', 'c3', 'c4', 'c5'], ...body } });
      expect(code(answer)).toBe('00000');
      return answer.body.resData.list.map((row: { code: string }) => row.code) as string[];
    };
    const create = async (path: string, body: Record<string, unknown>) => {
      const answer = await server.call('POST', path, { token: admin, body });
      expect([path, code(answer)]).toEqual([path, '00000']);
      return answer.body.resData.id as number;
    };
    const labelsOfCrate = async (id: number) => (await server.call('GET', `/crate/${id}`, { token: admin })).body.resData.labels as number[];

    beforeAll(async () => {
      await createFixtureTables(server.db);
      admin = await server.login();
      adminId = (await server.call('GET', '/login/current', { token: admin })).body.resData.userId;
      const sizes = [3, 1, 3, 2, 5];
      const packed = ['2024-01-01T00:00:00Z', '2024-02-01T00:00:00Z', '2024-03-01T00:00:00Z', null, '2024-04-01T00:00:00Z'];
      for (let index = 0; index < 5; index++) {
        await create('/crate', { code: `c${index + 1}`, size: sizes[index], kind: index % 2 ? 'b' : 'a', packedAt: packed[index] });
      }
    });

    it('sorts either way with the id breaking ties, by the declared default sort, and pages by offset', async () => {
      expect(await codes({ sort: 'size', order: 'ASC' })).toEqual(['c2', 'c4', 'c1', 'c3', 'c5']);
      expect(await codes({ sort: 'size', order: 'DESC' })).toEqual(['c5', 'c3', 'c1', 'c4', 'c2']);
      expect(await codes({})).toEqual(['c5', 'c4', 'c3', 'c2', 'c1']);
      // a sort without an order is ascending (the default sort's order belongs to the default field)
      expect(await codes({ sort: 'code' })).toEqual(['c1', 'c2', 'c3', 'c4', 'c5']);
      expect(await codes({ sort: 'id', order: 'DESC' })).toEqual(['c5', 'c4', 'c3', 'c2', 'c1']);
      const page = await server.call('POST', '/crate/page', { token: admin, body: { codeIn: ['c1', 'c2', 'c3', 'c4', 'c5'], sort: 'code', pageNum: 2, pageSize: 2 } });
      expect(page.body.resData).toMatchObject({ total: 5, pageNum: 2, pageSize: 2 });
      expect(page.body.resData.list.map((row: { code: string }) => row.code)).toEqual(['c3', 'c4']);
    });

    it('filters: in ignores blank values, gte and lte include the bound, range takes either bound, a bad date answers 1003', async () => {
      expect(await codes({ codeIn: ['c3', '', 'c1'], sort: 'code' })).toEqual(['c1', 'c3']);
      // nothing but blanks is no filter (not "none of them")
      expect(await codes({ codeIn: [''], sort: 'code', pageSize: 100 })).toEqual(expect.arrayContaining(['c1', 'c2', 'c3', 'c4', 'c5']));
      expect(await codes({ kind: 'b', sort: 'code' })).toEqual(['c2', 'c4']);
      expect(await codes({ sizeAtLeast: 3, sort: 'code' })).toEqual(['c1', 'c3', 'c5']);
      expect(await codes({ sizeAtMost: 2, sort: 'code' })).toEqual(['c2', 'c4']);
      expect(await codes({ packed: ['2024-02-01T00:00:00Z', null], sort: 'code' })).toEqual(['c2', 'c3', 'c5']);
      expect(await codes({ packed: [null, '2024-02-01T00:00:00Z'], sort: 'code' })).toEqual(['c1', 'c2']);
      expect(await codes({ packed: ['2024-02-01T00:00:00Z', '2024-03-01T00:00:00Z'], sort: 'code' })).toEqual(['c2', 'c3']);
      const bad = await server.call('POST', '/crate/page', { token: admin, body: { packed: ['soon', null] } });
      expect([code(bad), bad.body.resData.issues]).toEqual(['1003', [{ field: 'packed', message: translate('en', 'validation.date') }]]);
      // a date field's filter value is read as a date too
      const badDay = await server.call('POST', '/crate/page', { token: admin, body: { sealedFrom: 'soon' } });
      expect([code(badDay), badDay.body.resData.issues]).toEqual(['1003', [{ field: 'sealedFrom', message: translate('en', 'validation.date') }]]);
      expect(await codes({ sealedFrom: '2000-01-01', sort: 'code' })).toEqual(['c1', 'c2', 'c3', 'c4', 'c5']);
      // "contains", case-insensitive, from one character on
      expect(await codes({ codeLike: 'C3', sort: 'code' })).toEqual(['c3']);
      expect(await codes({ codeLike: 'c', sort: 'code' })).toEqual(['c1', 'c2', 'c3', 'c4', 'c5']);
      // the hook's own filter replaces the declared one
      expect(await codes({ codeIn: ['*'], sort: 'code', pageSize: 500 })).toEqual(expect.arrayContaining(['c1', 'c2', 'c3', 'c4', 'c5']));
    });

    it('offers options by ids and name part together, in name order with the id breaking ties, at most 50', async () => {
      const first = await create('/label', { title: 'Twin' });
      const second = await create('/label', { title: 'Twin' });
      const alpha = await create('/label', { title: 'Alpha' });
      await server.db.execute(sql`insert into label (license_account_id, title)
        select license_account_id, 'Bulk ' || lpad(g::text, 2, '0') from label, generate_series(1, 50) g where id = ${alpha}`);
      const options = async (query: string) => (await server.call('GET', `/label/list?${query}`, { token: admin })).body.resData as Array<{ id: number; name: string }>;
      expect(await options('nameLike=tWIN')).toEqual([
        { id: first, name: 'Twin' },
        { id: second, name: 'Twin' },
      ]);
      expect(await options(`nameLike=twin&ids=${second},${alpha}`)).toEqual([{ id: second, name: 'Twin' }]);
      expect(await options(`ids=${alpha}, ${first}`)).toEqual([
        { id: alpha, name: 'Alpha' },
        { id: first, name: 'Twin' },
      ]);
      const all = await options('');
      expect(all).toHaveLength(50);
      expect(all.slice(0, 2).map((option) => option.name)).toEqual(['Alpha', 'Bulk 01']);
    });

    it('sets the creator, the time and the account; stores join ids once each, in order; edits them exactly', async () => {
      const [l1, l2, l3] = [await create('/label', { title: 'L1' }), await create('/label', { title: 'L2' }), await create('/label', { title: 'L3' })];
      const created = await server.call('POST', '/crate', { token: admin, body: { code: 'j1', labels: [l2, l1, l2] } });
      expect(created.body.resData).toMatchObject({ code: 'j1', labels: [l1, l2], creator: adminId, sealedBy: null, size: null, packedAt: null });
      expect(Date.now() - Date.parse(created.body.resData.sealedAt)).toBeLessThan(60_000);
      expect(Date.now() - Date.parse(created.body.resData.sealedOn)).toBeLessThan(2 * 86_400_000);
      // a single reference is checked like a list of them
      const noDepot = await server.call('POST', '/crate', { token: admin, body: { code: 'j3', depotId: 999999 } });
      expect([code(noDepot), noDepot.body.resData.issues]).toEqual(['1004', [{ field: 'depotId', message: translate('en', 'validation.reference') }]]);
      // a reference to a resource the server does not have is stored as sent
      expect((await server.call('POST', '/crate', { token: admin, body: { code: 'j2', outsideId: 424242 } })).body.resData).toMatchObject({ outsideId: 424242 });
      const id = created.body.resData.id as number;
      // a datetime set and emptied again is stored empty (not 1970)
      expect((await server.call('PUT', '/crate', { token: admin, body: { id, packedAt: '2024-05-01T00:00:00Z' } })).body.resData.packedAt).toBe('2024-05-01T00:00:00.000Z');
      expect((await server.call('PUT', '/crate', { token: admin, body: { id, packedAt: null } })).body.resData.packedAt).toBeNull();
      await server.db.execute(sql`update crate_label set pinned = true where crate_id = ${id} and label_id = ${l1}`);
      expect((await server.call('PUT', '/crate', { token: admin, body: { id, labels: [l3, l1] } })).body.resData.labels).toEqual([l1, l3]);
      // the link kept is the same row (its own column survives), not deleted and inserted again
      const pinned = await server.db.execute(sql`select label_id from crate_label where crate_id = ${id} and pinned`);
      expect((pinned as { rows: Array<{ label_id: number }> }).rows).toEqual([{ label_id: l1 }]);
      expect((await server.call('PUT', '/crate', { token: admin, body: { id, size: 4 } })).body.resData).toMatchObject({ size: 4, labels: [l1, l3] });
      expect((await server.call('PUT', '/crate', { token: admin, body: { id, labels: [] } })).body.resData.labels).toEqual([]);
      // an unknown label is refused on the field and nothing is written
      const unknown = await server.call('PUT', '/crate', { token: admin, body: { id, size: 6, labels: [l1, 999999] } });
      expect([code(unknown), unknown.body.resData.issues]).toEqual(['1004', [{ field: 'labels', message: translate('en', 'validation.reference') }]]);
      // a field required on create is required with a value (null is no password)
      const nullPassword = await server.call('POST', '/user', { token: admin, body: { name: 'nullpass', realname: 'Null', password: null, confirmPassword: null } });
      expect([code(nullPassword), nullPassword.body.resData.issues.map((issue: { field: string }) => issue.field)]).toEqual(['1001', ['password', 'confirmPassword']]);
      expect((await server.call('GET', `/crate/${id}`, { token: admin })).body.resData).toMatchObject({ size: 4, labels: [] });
    });

    it('checks cross-field rules on the record as it will be stored, not only on the fields sent', async () => {
      const id = await create('/crate', { code: 'ruled', size: 3, capacity: 5 });
      const over = await server.call('PUT', '/crate', { token: admin, body: { id, size: 6 } });
      expect([code(over), over.body.resData.issues.map((issue: { field: string }) => issue.field)]).toEqual(['1004', ['size']]);
      expect((await server.call('PUT', '/crate', { token: admin, body: { id, size: 5 } })).body.resData).toMatchObject({ size: 5, capacity: 5 });
    });

    it('rolls the whole write back when a hook refuses after the insert', async () => {
      const l1 = await create('/label', { title: 'Rollback' });
      const before = await server.db.execute(sql`select count(*)::int as n from crate_label`);
      const refused = await server.call('POST', '/crate', { token: admin, body: { code: 'refused', labels: [l1] } });
      expect(code(refused)).toBe('5002');
      expect(await codes({ codeIn: ['refused'] })).toEqual([]);
      expect(await server.db.execute(sql`select count(*)::int as n from crate_label`)).toMatchObject({ rows: (before as { rows: unknown[] }).rows });
      const id = await create('/crate', { code: 'kept', size: 1 });
      expect(code(await server.call('PUT', '/crate', { token: admin, body: { id, size: 13, labels: [l1] } }))).toBe('5002');
      expect((await server.call('GET', `/crate/${id}`, { token: admin })).body.resData).toMatchObject({ size: 1, labels: [] });
    });

    it('refuses a tree parent that is the record itself or below it (1004 treeCycle)', async () => {
      const top = await create('/depot', { name: 'Top' });
      const middle = await create('/depot', { name: 'Middle', parentId: top });
      const bottom = await create('/depot', { name: 'Bottom', parentId: middle });
      for (const parentId of [top, bottom, middle]) {
        const cycle = await server.call('PUT', '/depot', { token: admin, body: { id: top, parentId } });
        expect([parentId, code(cycle), cycle.body.resData.issues]).toEqual([parentId, '1004', [{ field: 'parentId', message: translate('en', 'validation.treeCycle') }]]);
      }
      expect((await server.call('PUT', '/depot', { token: admin, body: { id: bottom, parentId: top } })).body.resData.parentId).toBe(top);
      expect((await server.call('PUT', '/depot', { token: admin, body: { id: bottom, parentId: null } })).body.resData.parentId).toBeNull();
      // an edit without the parent leaves it alone
      expect((await server.call('PUT', '/depot', { token: admin, body: { id: middle, name: 'Middle 2' } })).body.resData).toMatchObject({ name: 'Middle 2', parentId: top });
      // the walk up stops after 101 levels: a parent with 100 above it is taken, one with 101 is refused
      const chain = async (length: number) => {
        const made = await server.db.execute(sql`insert into depot (name) select 'level ' || g from generate_series(1, ${length}) g returning id`);
        const ids = (made as { rows: Array<{ id: number }> }).rows.map((row) => row.id).sort((a, b) => a - b);
        for (let index = 1; index < ids.length; index++) await server.db.execute(sql`update depot set parent_id = ${ids[index - 1]} where id = ${ids[index]}`);
        return ids[ids.length - 1];
      };
      const leaf = await create('/depot', { name: 'Leaf' });
      expect(code(await server.call('PUT', '/depot', { token: admin, body: { id: leaf, parentId: await chain(101) } }))).toBe('00000');
      expect(code(await server.call('PUT', '/depot', { token: admin, body: { id: leaf, parentId: await chain(102) } }))).toBe('1004');
      // a cycle already stored (written around the API) ends the walk up instead of looping for ever
      await server.db.execute(sql`update depot set parent_id = ${middle} where id = ${top}`);
      const outside = await create('/depot', { name: 'Outside' });
      const looped = await server.call('PUT', '/depot', { token: admin, body: { id: outside, parentId: top } });
      expect([code(looped), looped.body.resData.issues[0].field]).toEqual(['1004', 'parentId']);
      await server.db.execute(sql`update depot set parent_id = null where id = ${top}`);
    });

    it('deletes referencing records (cascade), empties join rows (setNull), lets a self-referencing batch go', async () => {
      const doomed = await create('/depot', { name: 'Doomed' });
      const spared = await create('/depot', { name: 'Spared' });
      const inside = await create('/crate', { code: 'inside', depotId: doomed });
      const outside = await create('/crate', { code: 'outside', depotId: spared });
      expect(code(await server.call('DELETE', `/depot?id=${doomed}`, { token: admin }))).toBe('00000');
      expect(code(await server.call('GET', `/crate/${inside}`, { token: admin }))).toBe('2003');
      expect((await server.call('GET', `/crate/${outside}`, { token: admin })).body.resData.depotId).toBe(spared);

      const [gone, stays] = [await create('/label', { title: 'Gone' }), await create('/label', { title: 'Stays' })];
      const labelled = await create('/crate', { code: 'labelled', labels: [gone, stays] });
      expect(code(await server.call('DELETE', `/label?id=${gone}`, { token: admin }))).toBe('00000');
      expect(await labelsOfCrate(labelled)).toEqual([stays]);

      const original = await create('/depot', { name: 'Original' });
      const twin = await create('/depot', { name: 'Twin', twinId: original });
      const refused = await server.call('DELETE', `/depot?id=${original}`, { token: admin });
      expect(refused.body).toMatchObject({ resCode: '5002', resData: { issues: [{ field: 'depot', message: 'Still used by 1 depot' }] } });
      const both = await server.call('POST', '/depot/batchDelete', { token: admin, body: { ids: [twin, original, twin] } });
      expect(both.body.resData).toEqual({ deleted: 2 });
    });

    it('exports references and join ids as their labels, empty cells for null, in the columns asked for', async () => {
      const depotId = await create('/depot', { name: 'Export depot' });
      const [red, blue] = [await create('/label', { title: 'Red' }), await create('/label', { title: 'Blue' })];
      await create('/crate', { code: 'x1', kind: 'b', depotId, labels: [blue, red] });
      const { raw } = await server.call('POST', '/crate/export', {
        token: admin,
        body: { format: 'csv', codeIn: ['x1'], columns: ['code', 'size', 'kind', 'depotId', 'labels'] },
      });
      expect(raw.payload.split('\r\n')[1]).toBe('x1,,b,Export depot,"Red, Blue"');
    });

    describe('exports through exportListing itself (display rules, texts, batches, a failure while streaming)', () => {
      const exportCodes = ['e1', 'e2', 'e3', 'e4', 'e5'];
      let caller: Caller;
      beforeAll(async () => {
        const current = (await server.call('GET', '/login/current', { token: admin })).body.resData;
        caller = { principal: { licenseAccountId: current.licenseAccountId, utcOffsetMinutes: 0 }, locale: 'en', userId: current.userId } as unknown as Caller;
        for (const [index, code] of exportCodes.entries()) await create('/crate', { code, kind: index % 2 ? 'b' : 'a', size: index + 1, capacity: 3725 });
        await server.db.execute(sql`update crate set fragile = (code = 'e1') where code in ('e1', 'e2')`);
      });
      const exported = async (model: ResourceModel, body: Partial<ExportBody>, { cap = 100, batch = 100, db = server.db } = {}) => {
        const logged: unknown[][] = [];
        let sent: AsyncIterable<unknown> | undefined;
        const reply = {
          header: () => reply,
          type: () => reply,
          send: (payload: AsyncIterable<unknown>) => {
            sent = payload;
            return reply;
          },
          log: { error: (...args: unknown[]) => logged.push(args) },
        };
        const models = new Map([
          ['crate', model],
          ['depot', buildModel(depot, TABLES, hooks.depot)],
          ['label', buildModel(label, TABLES)],
        ]);
        const config = { exportMaxRows: cap, exportBatchRows: batch } as ServerConfig;
        await exportListing({ db, models, config }, caller, model, { format: 'csv', codeIn: exportCodes, sort: 'code', order: 'ASC', ...body }, reply as unknown as FastifyReply);
        const chunks: Buffer[] = [];
        const read = (async () => {
          for await (const chunk of sent as AsyncIterable<string | Buffer>) chunks.push(Buffer.from(chunk));
          return 'ended';
        })().catch((error: Error) => `failed: ${error.message}`);
        // a stream that never ends (a failure midway must end it) answers 'hung'; 30 s: an xlsx of several batches on a busy machine
        let guard: NodeJS.Timeout | undefined;
        const outcome = await Promise.race([read, new Promise((resolve) => (guard = setTimeout(() => resolve('hung'), 30_000)))]);
        clearTimeout(guard);
        return { outcome, file: Buffer.concat(chunks), logged };
      };
      const csvRows = (file: Buffer) =>
        file
          .toString('utf8')
          .replace(/^\uFEFF/, '')
          .split('\r\n');

      it("writes enum labels (value and label when so declared), durations, a boolean's own labels", async () => {
        const columns = ['code', 'kind', 'capacity', 'fragile'];
        expect(csvRows((await exported(exportModel('valueLabel'), { columns, codeIn: ['e1', 'e2'] })).file)).toEqual([
          'CODE,KIND,CAPACITY,FRAGILE',
          'e1,a,1:02:05,Handle with care',
          'e2,b – Bee,1:02:05,No',
          '',
        ]);
        expect(csvRows((await exported(exportModel(), { columns, codeIn: ['e2', 'e3'] })).file).slice(1)).toEqual(['e2,Bee,1:02:05,No', 'e3,a,1:02:05,', '']);
        // without columns sent: the declared list columns that are read (a virtual one is not)
        const declared = defineResource({
          ...exportCrate(),
          fields: { ...exportCrate().fields, note: { type: 'text', virtual: true } },
          list: { ...crate.list, columns: ['code', 'note', 'size'] },
        });
        const listed: ResourceModel = { ...buildModel(declared, TABLES), texts: (_locale, key) => EXPORT_TEXTS[key] };
        expect(csvRows((await exported(listed, { codeIn: ['e1'] })).file)).toEqual(['CODE,SIZE', 'e1,1', '']);
      });

      it('writes an XLSX without shared strings: numbers as numbers, the sheet named in at most 31 characters', async () => {
        const { outcome, file } = await exported(exportModel(), { format: 'xlsx', columns: ['code', 'size', 'kind'] });
        expect(outcome).toBe('ended');
        expect(file.includes('xl/sharedStrings.xml')).toBe(false);
        const workbook = new ExcelJS.Workbook();
        await workbook.xlsx.load(file as unknown as ArrayBuffer);
        const sheet = workbook.worksheets[0];
        expect(sheet.name).toBe('Crates kept in the depot for a ');
        expect([1, 2, 3].map((row) => sheet.getRow(row).values)).toEqual([
          [undefined, 'CODE', 'SIZE', 'KIND'],
          [undefined, 'e1', 1, 'a'],
          [undefined, 'e2', 2, 'Bee'],
        ]);
        expect(sheet.rowCount).toBe(6);
      });

      it('reads batch by batch up to the cap, and no batch after a short one or the cap', async () => {
        const rowsOf = async (cap: number, batch: number) => {
          const counting = countingDb(server.db);
          const { file } = await exported(exportModel(), { columns: ['code'] }, { cap, batch, db: counting.db });
          // each batch with rows: its rows, then their join ids (labels)
          return [csvRows(file).slice(1, -1).join(' '), counting.selects()];
        };
        expect(await rowsOf(100, 2)).toEqual(['e1 e2 e3 e4 e5', 6]);
        expect(await rowsOf(4, 2)).toEqual(['e1 e2 e3 e4', 4]);
        expect(await rowsOf(3, 2)).toEqual(['e1 e2 e3', 4]);
        expect(await rowsOf(3, 5)).toEqual(['e1 e2 e3', 2]);
        // nothing found: the header line alone
        expect((await exported(exportModel(), { columns: ['code'], codeIn: ['none'] })).file.toString('utf8')).toBe('\uFEFFCODE\r\n');
      });

      it('ends an XLSX whose later batch fails with an error, and logs it', async () => {
        const { outcome, logged } = await exported(exportModel(), { format: 'xlsx', columns: ['code'] }, { batch: 2, db: countingDb(server.db, 3).db });
        expect(outcome).toBe('failed: database gone');
        expect(logged).toEqual([[{ err: new Error('database gone') }, 'export failed while streaming']]);
      });
    });

    it('keeps other accounts out: 2003 on read, edit and delete, a batch with a foreign id deletes nothing; no account: 5001', async () => {
      const own = await create('/crate', { code: 'own' });
      const home = (await server.call('GET', '/login/current', { token: admin })).body.resData.licenseAccountId as number;
      const away = await create('/license-account', { licenseAccountName: 'Crates elsewhere' });
      await server.call('PUT', `/license-account-user-relation?id=${away}`, { token: admin });
      const foreign = await create('/crate', { code: 'foreign' });
      await server.call('PUT', `/license-account-user-relation?id=${home}`, { token: admin });
      expect(code(await server.call('GET', `/crate/${foreign}`, { token: admin }))).toBe('2003');
      expect(code(await server.call('PUT', '/crate', { token: admin, body: { id: foreign, size: 1 } }))).toBe('2003');
      expect(code(await server.call('DELETE', `/crate?id=${foreign}`, { token: admin }))).toBe('2003');
      expect(code(await server.call('POST', '/crate/batchDelete', { token: admin, body: { ids: [own, foreign] } }))).toBe('2003');
      expect((await server.call('GET', `/crate/${own}`, { token: admin })).body.resData.code).toBe('own');
      expect(await codes({ codeIn: ['own', 'foreign'] })).toEqual(['own']);
      // a reference to another account's label is no reference
      const foreignLabel = await server.db.execute(sql`insert into label (license_account_id, title) values (${away}, 'Far') returning id`);
      const farId = (foreignLabel as { rows: Array<{ id: number }> }).rows[0].id;
      expect(code(await server.call('POST', '/crate', { token: admin, body: { code: 'far', labels: [farId] } }))).toBe('1004');

      // a superAdmin outside every account sees no account-scoped row and cannot create one
      const drifterId = await server.createUser({ name: 'drifter' }, admin);
      await server.db.update(sysUser).set({ superAdmin: true }).where(eq(sysUser.id, drifterId));
      await server.db.delete(licenseAccountUserRelation).where(eq(licenseAccountUserRelation.userId, drifterId));
      const drifter = await server.login('drifter', 'Passw0rd!');
      expect((await server.call('POST', '/crate/page', { token: drifter, body: {} })).body.resData.total).toBe(0);
      expect(code(await server.call('POST', '/crate', { token: drifter, body: { code: 'nowhere' } }))).toBe('5001');
      // a global resource needs no account
      expect(code(await server.call('POST', '/depot', { token: drifter, body: { name: 'Anywhere' } }))).toBe('00000');
    });

    it('reads computed fields (a page chosen on the plain columns first) and a kept total, past the last page too', async () => {
      const root = await create('/depot', { name: 'Computed root' });
      for (const name of ['Computed a', 'Computed b', 'Computed c']) await create('/depot', { name, parentId: root });
      const page = await server.call('POST', '/depot/page', { token: admin, body: { sort: 'children', order: 'DESC', pageSize: 2 } });
      expect(page.body.resData.list).toHaveLength(2);
      expect(page.body.resData.list[0]).toEqual({ id: root, name: 'Computed root', parentId: null, twinId: null, children: 3, marked: 'Computed root *' });
      expect((await server.call('GET', `/depot/${root}`, { token: admin })).body.resData).toMatchObject({ children: 3, marked: 'Computed root *' });
      const second = await server.call('POST', '/depot/page', { token: admin, body: { sort: 'children', order: 'DESC', pageSize: 2, pageNum: 2 } });
      expect(second.body.resData.list).toHaveLength(2);
      expect(second.body.resData.list.map((row: { id: number }) => row.id)).not.toContain(root);

      const home = (await server.call('GET', '/login/current', { token: admin })).body.resData.licenseAccountId as number;
      const counted = await server.db.execute(sql`select count(*)::int as n, min(title) as first from label where license_account_id = ${home}`);
      const { n, first } = (counted as { rows: Array<{ n: number; first: string }> }).rows[0];
      for (const body of [{ pageSize: 20 }, { pageSize: 1 }]) {
        const labels = await server.call('POST', '/label/page', { token: admin, body });
        expect([labels.body.resData.total, labels.body.resData.list[0].title]).toEqual([n, first]);
      }
      const past = await server.call('POST', '/label/page', { token: admin, body: { pageSize: 10, pageNum: 100_000 } });
      expect(past.body.resData).toEqual({ list: [], total: n, pageNum: 100_000, pageSize: 10 });
    });
  },
  {
    resources: [...RESOURCES, depot, label, crate],
    tables: TABLES,
    hooks,
  },
);

// Built inside the test, so the code that turns declarations into routes and schemas counts as run by it.
for (const backend of ['pglite', 'postgres'] as const) {
  describe.skipIf(backend === 'postgres' && !process.env.DATABASE_URL)(`the generic routes as declared [${backend}]`, () => {
    it("documents every generic route of the fixture and of two product resources (the machine's writes): paths, permissions, request and answer schemas", async () => {
      // stamp declares a page and nothing else: no other route
      const server = await startTestServer(backend, { resources: [...RESOURCES, depot, label, crate, stamp], tables: { ...TABLES, stamp: stampTable }, hooks });
      try {
        const paths = await documentedPaths(server.app);
        // each operation as declared: its words and rules, the request's schema, the answers' codes and the data's schema
        const shape = ({ requestBody, responses, ...rest }: DocumentedOperation) => ({
          ...rest,
          ...(requestBody ? { body: requestBody.content['application/json'].schema } : {}),
          answers: Object.keys(responses),
          data: responses['200'].content?.['application/json']?.schema.properties?.resData ?? responses['200'],
        });
        const generic = Object.entries(paths)
          // every route of the fixture; the product's machine (create, edit, delete: numbers with bounds, dates, lengths) and alarm rules
          .filter(([path]) => /^\/test-api\/((crate|depot|label|stamp|eventNotification)(\/page|\/list|\/\{id\}|\/batchDelete|\/export)?|rvm)$/.test(path))
          .map(([path, operations]) => [path, Object.fromEntries(Object.entries(operations).map(([method, operation]) => [method, shape(operation)]))]);
        // reviewed when written (tests/server/crudRules.routes.json): a change there is a change of the API
        await expect(`${JSON.stringify(Object.fromEntries(generic), null, 1)}\n`).toMatchFileSnapshot('crudRules.routes.json');
      } finally {
        await server.close();
      }
    });
  });
}

it('refuses to build a model that does not fit its tables, naming what is missing', () => {
  const built = (
    declaration: Parameters<typeof buildModel>[0],
    tables: Parameters<typeof buildModel>[1] = TABLES,
    modelHooks = declaration.name === 'depot' ? hooks.depot : {},
  ) => {
    try {
      const model = buildModel(declaration, tables, modelHooks);
      return {
        readable: model.readable,
        creatable: model.creatable,
        editable: model.editable,
        columns: Object.keys(model.columns),
        joins: Object.keys(model.joins),
        computed: Object.keys(model.computed),
      };
    } catch (error) {
      return (error as Error).message;
    }
  };
  const labels = crate.fields.labels;
  const noId = pgTable('no_id', { name: varchar('name') });
  expect(built(crate)).toEqual({
    readable: ['id', 'code', 'size', 'capacity', 'kind', 'packedAt', 'depotId', 'labels', 'creator', 'sealedBy', 'sealedAt', 'sealedOn', 'outsideId', 'createTime'],
    creatable: ['code', 'size', 'capacity', 'kind', 'packedAt', 'depotId', 'labels', 'outsideId'],
    editable: ['code', 'size', 'capacity', 'kind', 'packedAt', 'depotId', 'labels', 'outsideId'],
    columns: ['id', 'code', 'size', 'capacity', 'kind', 'packedAt', 'depotId', 'creator', 'sealedBy', 'sealedAt', 'sealedOn', 'outsideId', 'createTime'],
    joins: ['labels'],
    computed: [],
  });
  const where = (table: string) => `Resource "crate" (table "${table}"): `;
  expect([
    built({ ...crate, table: 'nowhere' }),
    built({ ...crate, fields: { ...crate.fields, labels: { ...labels, through: undefined } } }),
    built(crate, { ...TABLES, crate_label: undefined as never }),
    built({ ...crate, fields: { ...crate.fields, labels: { ...labels, through: { ...labels.through, from: 'box_id' } } } }),
    built({ ...crate, fields: { ...crate.fields, labels: { ...labels, through: { ...labels.through, to: 'tag_id' } } } }),
    built({ ...crate, fields: { ...crate.fields, weight: { type: 'number' } } }),
    built({ ...depot, table: 'no_id', fields: { name: depot.fields.name } }, { no_id: noId }),
    built({ ...depot, scope: 'licenseAccount' }),
    built({ ...crate, scope: 'custom' }),
    built({ ...crate, nameField: 'weight' }),
    built({ ...crate, list: { ...crate.list, defaultSort: { field: 'weight', order: 'ASC' } } }),
    built({ ...crate, list: { ...crate.list, filters: [{ name: 'heavy', field: 'weight', operator: 'gte' }] } }),
  ]).toEqual([
    `${where('nowhere')}no such table in server/db/schema`,
    `${where('crate')}multiReference "labels" needs \`through\``,
    `${where('crate')}join table "crate_label" of "labels" is not in server/db/schema`,
    `${where('crate')}join table "crate_label" has no column "box_id"`,
    `${where('crate')}join table "crate_label" has no column "tag_id"`,
    `${where('crate')}field "weight" has no column (property "weight") and is not computed by a hook`,
    'Resource "depot" (table "no_id"): the table needs an "id" column',
    'Resource "depot" (table "depot"): scope "licenseAccount" needs a licenseAccountId column',
    `${where('crate')}scope "custom" needs a scope hook in server/resources/`,
    `${where('crate')}nameField "weight" is not a column`,
    `${where('crate')}default sort "weight" is not a column`,
    `${where('crate')}filter "heavy" is on "weight", which is not a column`,
  ]);
  // a field a hook computes needs no column; virtual and writeOnly fields are neither read nor stored
  const computedWeight = { computed: () => ({ weight: sql<number>`1` }) };
  expect(built({ ...crate, fields: { ...crate.fields, weight: { type: 'number', readOnly: true } } }, TABLES, computedWeight)).toMatchObject({
    computed: ['weight'],
    readable: expect.arrayContaining(['weight']),
  });
  const hidden = built({ ...crate, fields: { ...crate.fields, note: { type: 'text', virtual: true }, code: { ...crate.fields.code, writeOnly: true } } });
  expect(hidden).toMatchObject({
    readable: ['id', 'size', 'capacity', 'kind', 'packedAt', 'depotId', 'labels', 'creator', 'sealedBy', 'sealedAt', 'sealedOn', 'outsideId', 'createTime'],
  });
  expect(hidden).toMatchObject({ creatable: expect.arrayContaining(['code', 'note']) });
  // the id is never written, even when its declaration forgets readOnly
  expect(built({ ...depot, fields: { ...depot.fields, id: { type: 'number' } } })).toMatchObject({
    creatable: ['name', 'parentId', 'twinId'],
    editable: ['name', 'parentId', 'twinId'],
    computed: ['children', 'marked'],
  });
});

// Without a server: the rules that need no database.
const stamp = defineResource({
  name: 'stamp',
  apiPath: '/stamp',
  route: '/service/stamp',
  menuId: 609,
  table: 'stamp',
  nameField: 'code',
  scope: 'global',
  fields: {
    id: { type: 'number', readOnly: true },
    code: { type: 'text', unique: true, defaultValue: 'NEW' },
    serial: { type: 'text', unique: true },
    inked: { type: 'boolean', defaultValue: true },
    stampedAt: { type: 'datetime', readOnly: true, defaultValue: '2024-01-01T00:00:00Z' },
  },
  list: { columns: ['code'], defaultSort: { field: 'code', order: 'ASC' }, filters: [] },
  permissions: { page: 'stamp:page' },
  permissionIds: { 'stamp:page': 6099901 },
});
const stampTable = pgTable(
  'stamp',
  { id: integer('id').primaryKey(), code: varchar('code'), serial: varchar('serial'), inked: boolean('inked'), stampedAt: timestamp('stamped_at') },
  (t) => [uniqueIndex('stamp_code_serial_uq').on(t.code, t.serial)],
);
const stampModel = buildModel(stamp, { stamp: stampTable });

it('names the unique field of a violation: the one sent, from the index found up to 3 causes deep; otherwise no 2002', () => {
  const issuesOf = (error: unknown, input: Record<string, unknown>) => uniqueViolation(stampModel, error, input, 'en')?.issues;
  const violation = { code: '23505', constraint: 'stamp_code_serial_uq' };
  expect(issuesOf(violation, { serial: 'S-1' })).toEqual([{ field: 'serial', message: 'validation.unique', values: { label: 'serial', value: 'S-1' } }]);
  expect(issuesOf(violation, { code: null })).toEqual([{ field: 'code', message: 'validation.unique', values: { label: 'code', value: '' } }]);
  expect(issuesOf(violation, {})?.[0].field).toBe('code');
  expect(uniqueViolation(stampModel, violation, { code: 'C' }, 'en')?.code).toBe('2002');
  expect(issuesOf({ code: '23505', cause: { cause: { cause: { constraint: 'stamp_code_serial_uq' } } } }, { serial: 'S' })?.[0].field).toBe('serial');
  // deeper, or an index nobody declared, with two unique fields to choose from: not guessed
  expect(issuesOf({ code: '23505', cause: { cause: { cause: { cause: { constraint: 'stamp_code_serial_uq' } } } } }, { serial: 'S' })).toBeUndefined();
  expect(issuesOf({ code: '23505', constraint: 'made_at_run_time_uq' }, { serial: 'S' })).toBeUndefined();
  expect(uniqueViolation(stampModel, { code: '23503', constraint: 'stamp_code_serial_uq' }, { serial: 'S' }, 'en')).toBeNull();
});

it('fills declared defaults of absent writable fields only', () => {
  expect(withDefaults(stampModel, { inked: false })).toEqual({ inked: false, code: 'NEW' });
  expect(withDefaults(stampModel, { code: null })).toEqual({ code: null, inked: true });
});

it('escapes the LIKE wildcards and the escape character; refuses an expression for a field that has none', () => {
  expect(likePattern('a\\b%c_d')).toBe('%a\\\\b\\%c\\_d%');
  expect(() => expressionOf(stampModel, 'nowhere')).toThrow('stamp.nowhere is neither a column nor computed');
});
