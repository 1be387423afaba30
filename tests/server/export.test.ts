// POST <apiPath>/export: CSV with BOM and XLSX, translated headers and values, all filtered rows.
import ExcelJS from 'exceljs';
import { beforeAll, expect, it } from 'vitest';
import { csvCell, localDateTime } from '../../server/crud/export';
import { describeBackends } from './helpers';

const parseCsv = (text: string) =>
  text
    .replace(/^\uFEFF/, '')
    .trimEnd()
    .split('\r\n')
    .map((line) => line.split(','));

describeBackends(
  'export',
  (server) => {
    let admin: string;
    beforeAll(async () => {
      admin = await server.login();
      const role = await server.call('POST', '/role', { token: admin, body: { name: 'Operators' } });
      for (let index = 0; index < 25; index++) {
        await server.createUser({ name: `exp${index}`, realname: `Exporter ${index}`, roles: index === 0 ? [role.body.resData.id] : [] }, admin);
      }
      await server.createUser({ name: 'formula', realname: '=HYPERLINK("x")' }, admin);
    });

    it('exports every filtered row as CSV (UTF-8 BOM, translated headers, labels for references)', async () => {
      const { raw } = await server.call('POST', '/user/export', { token: admin, body: { format: 'csv', nameLike: 'exp', sort: 'name', order: 'ASC' } });
      expect(raw.statusCode).toBe(200);
      expect(raw.headers['content-type']).toBe('text/csv; charset=utf-8');
      expect(raw.headers['content-disposition']).toMatch(/^attachment; filename="user-\d{8}-\d{6}\.csv"/);
      expect(raw.rawPayload.subarray(0, 3)).toEqual(Buffer.from([0xef, 0xbb, 0xbf]));
      const rows = parseCsv(raw.payload);
      expect(rows[0]).toEqual(['Real name', 'User name', 'Operator', 'Phone', 'E-mail', 'Roles', 'Enabled', 'Creator', 'Create time']);
      // 20 rows (the cap of this file) read in batches of 7.
      expect(rows).toHaveLength(21);
      expect(new Set(rows.map((row) => row[1])).size).toBe(21);
      expect(rows[1]).toEqual(expect.arrayContaining(['Exporter 0', 'exp0', 'Operators', 'Yes', 'admin']));
      expect(rows[1][8]).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);
    });

    it('writes local times by the offset sent, else by the one the client signed in with', async () => {
      const signedIn = await server.call('POST', '/login/login', { body: { username: 'admin', password: 'Admin@123', utcOffsetMinutes: 480 } });
      const token = signedIn.body.resData.tokenInfo.tokenValue as string;
      const stored = await server.call('POST', '/user/page', { token, body: { nameLike: 'exp1', pageSize: 1, sort: 'name', order: 'ASC' } });
      const iso = stored.body.resData.list[0].createTime as string;
      const exported = async (body: Record<string, unknown>) =>
        parseCsv((await server.call('POST', '/user/export', { token, body: { format: 'csv', nameLike: 'exp1', sort: 'name', order: 'ASC', ...body } })).raw.payload)[1][8];
      expect(await exported({})).toBe(localDateTime(iso, 480));
      expect(await exported({ utcOffsetMinutes: -300 })).toBe(localDateTime(iso, -300));
    });

    it('writes headers in Chinese with lang: zh and neutralises formulas', async () => {
      const { raw } = await server.call('POST', '/user/export', { token: admin, lang: 'zh', body: { format: 'csv', nameLike: 'formula' } });
      const [headers, row] = parseCsv(raw.payload);
      expect(headers.slice(0, 2)).toEqual(['真实姓名', '用户名']);
      expect(row[headers.indexOf('启用')]).toBe('是'); // booleans in the caller's language, not 'true'
      expect(raw.payload).toContain(`"'=HYPERLINK(""x"")"`);
      expect(row[1]).toBe('formula');
    });

    it('exports all rows below the cap', async () => {
      const { raw } = await server.call('POST', '/user/export', { token: admin, body: { format: 'csv', nameLike: 'exp2' } });
      expect(
        parseCsv(raw.payload)
          .slice(1)
          .map((row) => row[1])
          .sort(),
      ).toEqual(['exp2', 'exp20', 'exp21', 'exp22', 'exp23', 'exp24']);
    });

    it('exports XLSX with the same content', async () => {
      const { raw } = await server.call('POST', '/user/export', { token: admin, body: { format: 'xlsx', nameLike: 'exp1', sort: 'name', order: 'ASC' } });
      expect(raw.statusCode).toBe(200);
      expect(raw.headers['content-type']).toBe('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
      const workbook = new ExcelJS.Workbook();
      await workbook.xlsx.load(raw.rawPayload as unknown as ArrayBuffer);
      const sheet = workbook.worksheets[0];
      expect(sheet.name).toBe('User');
      expect(sheet.getRow(1).values).toEqual([undefined, 'Real name', 'User name', 'Operator', 'Phone', 'E-mail', 'Roles', 'Enabled', 'Creator', 'Create time']);
      const names = [];
      for (let row = 2; row <= sheet.rowCount; row++) names.push(sheet.getRow(row).getCell(2).value);
      expect(names).toEqual(['exp1', 'exp10', 'exp11', 'exp12', 'exp13', 'exp14', 'exp15', 'exp16', 'exp17', 'exp18', 'exp19']);
    });

    it('role headers in Chinese; no export route where the declaration has no export action', async () => {
      const { raw } = await server.call('POST', '/role/export', { token: admin, lang: 'zh', body: { format: 'csv' } });
      expect(parseCsv(raw.payload)[0]).toEqual(['名称', '描述', '创建时间']);
      const answer = await server.call('POST', '/permission/export', { token: admin, body: { format: 'csv' } });
      expect(answer.status).toBe(404); // permission declares no export action: no route
    });

    it('writes the columns sent, in their order (the console sends its visible ones), and refuses unreadable ones', async () => {
      const body = { format: 'csv', nameLike: 'exp1', sort: 'name', order: 'ASC', columns: ['name', 'realname', 'roles'] };
      const rows = parseCsv((await server.call('POST', '/user/export', { token: admin, body })).raw.payload);
      expect(rows[0]).toEqual(['User name', 'Real name', 'Roles']);
      expect(rows[1]).toEqual(['exp1', 'Exporter 1', '']);
      const zh = parseCsv((await server.call('POST', '/user/export', { token: admin, lang: 'zh', body: { ...body, columns: ['email', 'name'] } })).raw.payload);
      expect(zh[0]).toEqual(['电子邮箱', '用户名']);
      for (const columns of [['password'], ['nope'], [], ['name', 'name']]) {
        const refused = await server.call('POST', '/user/export', { token: admin, body: { ...body, columns } });
        expect(refused.body.resCode, JSON.stringify(columns)).toBe(columns.length === 0 ? '1001' : '1004');
      }
    });

    it('refuses an unknown format', async () => {
      expect((await server.call('POST', '/user/export', { token: admin, body: { format: 'pdf' } })).body.resCode).toBe('1004');
    });

    it('formats cells', () => {
      expect(csvCell('a,b')).toBe('"a,b"');
      expect(csvCell('-1+2')).toBe("'-1+2");
      expect(localDateTime('2024-01-31T23:30:00.000Z', 480)).toBe('2024-02-01 07:30:00');
    });
  },
  { config: { exportMaxRows: 20, exportBatchRows: 7 } },
);
