// The Reports screen's calls (docs/reports.md) on a small fleet of known sessions written through the
// gateway (so the roll-ups are the ones the gateway keeps): exact figures of the four reports at
// UTC+8 with a range that mixes whole UTC days and hours, fleet (with sub-fleets) and machine filters,
// range errors, CSV/XLSX files read back, generated reports, permission 4003 and other-account
// scoping. PGlite and PostgreSQL.
import ExcelJS from 'exceljs';
import { expect, it } from 'vitest';
import { zh } from '../../i18n/zh';
import { fleet, rvm } from '../../server/db/schema/fleet';
import { generatedReport } from '../../server/db/schema/reports';
import { ingestBatch, type IncomingMessage } from '../../server/gateway/ingest';
import { generateReport } from '../../server/reports/generate';
import { accountNamed } from './fleetHarness';
import { describeFleet, type FleetContext } from './fleetSuite';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const OFFSET = 480;
/** A UTC midnight ten days ago: D0. */
const D0 = Math.floor(Date.now() / DAY) * DAY - 10 * DAY;
/** Local days D0..D0+2 at UTC+8: [D0 − 8 h, D0 + 64 h). */
const RANGE = { from: new Date(D0 - 8 * HOUR).toISOString(), to: new Date(D0 + 64 * HOUR).toISOString(), utcOffsetMinutes: OFFSET };

type Item = { itemType: string; rejectReason?: number; barcode?: string };
const ok = (itemType: string, n = 1): Item[] => Array.from({ length: n }, () => ({ itemType }));
const no = (itemType: string, rejectReason: number, barcode?: string): Item => ({ itemType, rejectReason, ...(barcode ? { barcode } : {}) });

/** machine, start (ms), items. RA, RB, RC, RD: RD has no session. */
const SESSIONS: Array<[string, number, Item[]]> = [
  ['RA', D0 - 9 * HOUR, ok('can', 5)], // local D0−1 23:00: before the range
  ['RA', D0 + 2 * HOUR, [...ok('plasticBottle', 3), ...ok('can'), no('plasticBottle', 2, '4891234567890')]],
  ['RA', D0 + 17 * HOUR, [...ok('can', 2), no('glass', 6)]], // local D1 01:00
  ['RB', D0 + 30 * HOUR, [...ok('glass', 4), no('can', 18, '901'), no('can', 18, '902')]],
  ['RC', D0 + 50 * HOUR, [...ok('plasticCup'), no('plasticBottle', 103, '903')]], // an edge hour (after the whole UTC days)
  ['RC', D0 + 63 * HOUR, ok('flat')], // local D2 23:00: the last hour of the range
  ['RC', D0 + 64 * HOUR, ok('can', 7)], // local D3 00:00: after the range
];

const state = { ids: new Map<string, number>(), north: 0, northSub: 0, south: 0, otherFleet: 0, otherMachine: 0, seq: 0 };

const sessionMessage = (context: FleetContext, termNo: string, start: number, items: Item[], account = context.accountId): IncomingMessage => {
  const id = `rep-${++state.seq}`;
  return {
    identity: { rvmId: state.ids.get(termNo)!, licenseAccountId: account, serialNumber: `SN-${termNo}` },
    kind: 'session',
    receivedAt: new Date(),
    payload: JSON.stringify({
      v: 1,
      id,
      ts: new Date(start + 60_000).toISOString(),
      sessionId: id,
      startTime: new Date(start).toISOString(),
      endTime: new Date(start + 30_000).toISOString(),
      payoutMethod: 'octopus',
      totalRefund: 0,
      items: items.map((item, index) => ({ seq: index + 1, refund: 0, ...item })),
    }),
  };
};

const setup = async (context: FleetContext) => {
  const { server, accountId } = context;
  const addFleet = async (name: string, parentId: number | null = null, account = accountId) =>
    (
      await server.db
        .insert(fleet)
        .values({ licenseAccountId: account, name, parentId, level: parentId ? 2 : 1 })
        .returning({ id: fleet.id })
    )[0].id;
  state.north = await addFleet('North');
  state.northSub = await addFleet('North-Sub', state.north);
  state.south = await addFleet('South');
  const addMachine = async (termNo: string, fleetId: number, account = accountId, serial = termNo) =>
    (
      await server.db
        .insert(rvm)
        .values({ licenseAccountId: account, fleetId, termNo, serialNumber: `SN-${serial}`, termType: 'H30' })
        .returning({ id: rvm.id })
    )[0].id;
  for (const [termNo, fleetId] of [
    ['RA', state.north],
    ['RB', state.northSub],
    ['RC', state.south],
    ['RD', state.south],
  ] as const) {
    state.ids.set(termNo, await addMachine(termNo, fleetId));
  }
  const outcomes = await ingestBatch(
    server.db,
    SESSIONS.map(([termNo, start, items]) => sessionMessage(context, termNo, start, items)),
  );
  for (const outcome of outcomes) expect(outcome).toMatchObject({ result: 'processed' });
  // Another account: same names, sessions in the range; none of it may show.
  const other = await accountNamed(server, 'Reports neighbour');
  state.otherFleet = await addFleet('North', null, other);
  state.otherMachine = await addMachine('RA', state.otherFleet, other, 'OTHER');
  state.ids.set('OTHER', state.otherMachine);
  const foreign = await ingestBatch(server.db, [sessionMessage(context, 'OTHER', D0 + 3 * HOUR, [...ok('can', 9), no('can', 18, '904')], other)]);
  expect(foreign[0]).toMatchObject({ result: 'processed' });
};

const MATERIAL_ZERO = { 'material:plasticBottle': 0, 'material:can': 0, 'material:glass': 0, 'material:plasticCup': 0, 'material:flat': 0, 'material:others': 0 };

describeFleet(
  'reports',
  (context) => {
    const data = async (body: Record<string, unknown>, token = context.token) => {
      const answer = await context.server.call('POST', '/report/data', { token, body: { ...RANGE, pageNum: 1, pageSize: 50, ...body } });
      return answer;
    };
    const figures = async (body: Record<string, unknown>) => {
      const answer = await data(body);
      expect(answer.body.resCode, answer.body.resMsg).toBe('00000');
      return answer.body.resData;
    };
    const download = async (path: string, body: Record<string, unknown>, lang = 'en') => {
      const answer = await context.server.call('POST', path, { token: context.token, lang, body: { ...RANGE, ...body } });
      expect(answer.status, answer.raw.body.slice(0, 200)).toBe(200);
      return answer.raw;
    };
    const sheetRows = async (content: Buffer) => {
      const workbook = new ExcelJS.Workbook();
      await workbook.xlsx.load(content as unknown as ArrayBuffer);
      const rows: unknown[][] = [];
      workbook.worksheets[0].eachRow((row) => rows.push((row.values as unknown[]).slice(1)));
      return rows;
    };

    it('Volumes: accepted per machine and material over [from, to), most first, every machine of the scope', async () => {
      const answer = await figures({ report: 'volumes' });
      expect(answer.total).toBe(4);
      expect(answer.rows.map((row: any) => [row.termNo, row.fleetName, row.accepted])).toEqual([
        ['RA', 'North', 6],
        ['RB', 'North-Sub', 4],
        ['RC', 'South', 2],
        ['RD', 'South', 0],
      ]);
      expect(answer.rows[0]).toMatchObject({ 'material:plasticBottle': 3, 'material:can': 3, 'material:glass': 0 });
      expect(answer.totals).toEqual({
        ...MATERIAL_ZERO,
        accepted: 12,
        'material:plasticBottle': 3,
        'material:can': 3,
        'material:glass': 4,
        'material:plasticCup': 1,
        'material:flat': 1,
      });
      expect(answer.chart.find((entry: any) => entry.key === 'glass').accepted).toBe(4);
      // Paging and the other sort.
      const second = await figures({ report: 'volumes', pageNum: 2, pageSize: 3, sort: 'termNo' });
      expect(second.rows.map((row: any) => row.termNo)).toEqual(['RD']);
    });

    it('Volumes_Daily: every local day of the range at the offset, zeros included', async () => {
      const answer = await figures({ report: 'volumesDaily' });
      const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);
      expect(answer.rows.map((row: any) => [row.day, row.accepted])).toEqual([
        [day(D0), 4],
        [day(D0 + DAY), 6],
        [day(D0 + 2 * DAY), 2],
      ]);
      expect(answer.rows[1]).toMatchObject({ 'material:can': 2, 'material:glass': 4 });
      expect(answer.totals.accepted).toBe(12);
      // At UTC the same instants fall on other days: D0 − 1 (16:00–24:00, nothing), D0 (4 + 2), D0 + 1 (4), D0 + 2 (1 + 1).
      const utc = await figures({ report: 'volumesDaily', utcOffsetMinutes: 0 });
      expect(utc.rows.map((row: any) => [row.day, row.accepted])).toEqual([
        [day(D0 - DAY), 0],
        [day(D0), 6],
        [day(D0 + DAY), 4],
        [day(D0 + 2 * DAY), 2],
      ]);
    });

    it('Accepted_Rejects_Counts: items, accepted, rejected and rate per machine, rejects per reason', async () => {
      const answer = await figures({ report: 'acceptedRejects' });
      expect(answer.rows.map((row: any) => [row.termNo, row.items, row.accepted, row.rejected, row.rejectRate])).toEqual([
        ['RA', 8, 6, 2, 0.25],
        ['RB', 6, 4, 2, 2 / 6],
        ['RC', 3, 2, 1, 1 / 3],
        ['RD', 0, 0, 0, null],
      ]);
      expect(answer.totals).toEqual({ items: 17, accepted: 12, rejected: 5, rejectRate: 5 / 17 });
      expect(answer.chart).toEqual([
        { key: '2', rejected: 1 },
        { key: '6', rejected: 1 },
        { key: '18', rejected: 2 },
        { key: '103', rejected: 1 },
      ]);
    });

    it('Barcode_Rejects_Records: each rejected item, newest first, paged, with the total', async () => {
      const answer = await figures({ report: 'barcodeRejects', pageSize: 3 });
      expect(answer.total).toBe(5);
      expect(answer.rows.map((row: any) => [row.termNo, row.barcode, row.reason, row.itemType])).toEqual([
        ['RC', '903', 103, 'plasticBottle'],
        ['RB', '901', 18, 'can'],
        ['RB', '902', 18, 'can'],
      ]);
      expect(answer.rows[0].time).toBe(new Date(D0 + 50 * HOUR).toISOString());
      const rest = await figures({ report: 'barcodeRejects', pageSize: 3, pageNum: 2 });
      expect(rest.rows.map((row: any) => [row.termNo, row.barcode, row.reason])).toEqual([
        ['RA', null, 6],
        ['RA', '4891234567890', 2],
      ]);
    });

    it('a range of whole weeks, days and hours (UTC, 14 days) sums every session in it', async () => {
      // [D0 − 7 d, D0 + 7 d) holds a whole Monday-to-Monday week, whole days around it and, with a 1-hour start, hours.
      for (const start of [D0 - 7 * DAY, D0 - 7 * DAY + HOUR]) {
        const answer = await figures({ report: 'volumes', from: new Date(start).toISOString(), to: new Date(D0 + 7 * DAY).toISOString(), utcOffsetMinutes: 0 });
        expect(answer.rows.map((row: any) => [row.termNo, row.accepted])).toEqual([
          ['RA', 11],
          ['RC', 9],
          ['RB', 4],
          ['RD', 0],
        ]);
        expect(answer.totals['material:can']).toBe(3 + 5 + 7);
      }
    });

    it('fleet filter includes sub-fleets; machine filter; both narrow every report', async () => {
      const north = await figures({ report: 'volumes', fleetIds: [state.north] });
      expect(north.rows.map((row: any) => [row.termNo, row.accepted])).toEqual([
        ['RA', 6],
        ['RB', 4],
      ]);
      expect(north.totals.accepted).toBe(10);
      const daily = await figures({ report: 'volumesDaily', fleetIds: [state.north] });
      expect(daily.rows.map((row: any) => row.accepted)).toEqual([4, 6, 0]);
      const reasons = await figures({ report: 'acceptedRejects', machineIds: [state.ids.get('RC')!] });
      expect(reasons.rows.map((row: any) => row.termNo)).toEqual(['RC']);
      expect(reasons.chart).toEqual([{ key: '103', rejected: 1 }]);
      const records = await figures({ report: 'barcodeRejects', fleetIds: [state.south] });
      expect([records.total, records.rows.map((row: any) => row.barcode)]).toEqual([1, ['903']]);
    });

    it("another account's fleet (2003) or machine (6001) is refused; bad ranges answer 9300, 9301 or 1004", async () => {
      expect((await data({ report: 'volumes', fleetIds: [state.otherFleet] })).body.resCode).toBe('2003');
      expect((await data({ report: 'volumes', machineIds: [state.otherMachine] })).body.resCode).toBe('6001');
      expect((await data({ report: 'volumes', to: RANGE.from })).body.resCode).toBe('9300');
      expect((await data({ report: 'volumes', from: new Date(D0 - 400 * DAY).toISOString() })).body.resCode).toBe('9300');
      const halfHour = await data({ report: 'volumes', from: new Date(D0 + HOUR / 2).toISOString() });
      expect([halfHour.status, halfHour.body.resCode]).toEqual([400, '9301']);
      expect((await data({ report: 'volumes', utcOffsetMinutes: 330 })).body.resCode).toBe('1004');
      expect((await data({ report: 'sales' })).body.resCode).toBe('1004');
      // Not an instant: refused by the schema (1003 on the field), never read as an Invalid Date.
      for (const from of ['yesterday', '2026-11-01', '2026-11-01T10:00', '2026-13-01T00:00:00Z']) {
        const refused = (await data({ report: 'volumes', from })).body;
        expect(refused.resCode).toBe('1003');
        expect(refused.resData.issues.map((issue: { field: string }) => issue.field)).toEqual(['from']);
      }
      const zh = await context.server.call('POST', '/report/data', {
        token: context.token,
        lang: 'zh',
        body: { ...RANGE, report: 'volumes', to: RANGE.from, pageNum: 1, pageSize: 5 },
      });
      expect(zh.body.resMsg).toContain('366');
    });

    it('documents the calls in OpenAPI (tag reports, token, body schema)', async () => {
      const document = (await context.server.app.inject({ method: 'GET', url: '/test-api/docs/json' })).json();
      for (const path of [
        '/test-api/report/data',
        '/test-api/report/export',
        '/test-api/report/generate',
        '/test-api/report/generated/page',
        '/test-api/report/generated/{id}/file',
      ]) {
        expect(Object.keys(document.paths)).toContain(path);
      }
      const data = document.paths['/test-api/report/data'].post;
      expect(data.tags).toEqual(['reports']);
      expect(data.security).toEqual([{ rvmToken: [] }]);
      const body = data.requestBody.content['application/json'].schema;
      expect(body.required).toEqual(['report', 'from', 'to']);
      expect(body.properties.report.enum).toEqual(['volumes', 'volumesDaily', 'acceptedRejects', 'barcodeRejects']);
    });

    it('needs the reports › report permission (4003)', async () => {
      await context.server.createUser({ name: 'noreport' }, context.token);
      const token = await context.server.login('noreport', 'Passw0rd!');
      for (const [method, path, body] of [
        ['POST', '/report/data', { ...RANGE, report: 'volumes', pageNum: 1, pageSize: 5 }],
        ['POST', '/report/export', { ...RANGE, report: 'volumes', format: 'csv' }],
        ['POST', '/report/generate', { ...RANGE, report: 'volumes', format: 'csv' }],
        ['POST', '/report/generated/page', { pageNum: 1, pageSize: 5 }],
        ['GET', '/report/generated/1/file', undefined],
      ] as const) {
        const refused = await context.server.call(method, path, { token, body });
        expect([path, refused.status, refused.body.resCode]).toEqual([path, 403, '4003']);
      }
    });

    it('XLSX (English) and CSV (Chinese, UTF-8 with BOM) files hold the table, labelled in the language', async () => {
      const xlsx = await download('/report/export', { report: 'volumes', format: 'xlsx' });
      expect(xlsx.headers['content-type']).toContain('spreadsheetml');
      expect(String(xlsx.headers['content-disposition'])).toContain(`Volumes_${new Date(D0).toISOString().slice(0, 10)}_${new Date(D0 + 2 * DAY).toISOString().slice(0, 10)}.xlsx`);
      const rows = await sheetRows(xlsx.rawPayload);
      expect(rows[0]).toEqual(['RVM number', 'Fleet', 'Accepted', 'Plastic bottle', 'Can', 'Glass', 'Plastic cup', 'Flat', 'Others']);
      expect(rows.slice(1)).toEqual([
        ['RA', 'North', 6, 3, 3, 0, 0, 0, 0],
        ['RB', 'North-Sub', 4, 0, 0, 4, 0, 0, 0],
        ['RC', 'South', 2, 0, 0, 0, 1, 1, 0],
        ['RD', 'South', 0, 0, 0, 0, 0, 0, 0],
        ['Total', '', 12, 3, 3, 4, 1, 1, 0],
      ]);
      const csv = await download('/report/export', { report: 'barcodeRejects', format: 'csv' }, 'zh');
      const text = csv.rawPayload.toString('utf8');
      expect(text.charCodeAt(0)).toBe(0xfeff);
      const lines = text.slice(1).trim().split('\r\n');
      expect(lines[0]).toBe('时间,回收机编号,车队,条码,材质,拒收原因');
      expect(lines).toHaveLength(6);
      // 24-hour local time at UTC+8, the reason's code and Chinese text.
      const local = new Date(D0 + 50 * HOUR + OFFSET * 60_000).toISOString().slice(0, 19).replace('T', ' ');
      expect(lines[1]).toBe(`${local},RC,South,903,${zh.fleet.itemTypes.plasticBottle},103 ${zh.fleet.rejectReasons['103']}`);
      expect(lines[4]).toContain('（无）');
    });

    it('generates and keeps files: listed newest first with their producer, downloadable, only in their account', async () => {
      const made = await context.server.call('POST', '/report/generate', { token: context.token, body: { ...RANGE, report: 'acceptedRejects', format: 'xlsx' } });
      expect(made.body.resCode, made.body.resMsg).toBe('00000');
      const bySubscription = await generateReport(context.server, {
        accountId: context.accountId,
        report: 'volumesDaily',
        from: new Date(RANGE.from),
        to: new Date(RANGE.to),
        format: 'csv',
        language: 'zh',
        producedBy: { kind: 'subscription', subscriptionId: 77 },
        utcOffsetMinutes: OFFSET,
      });
      expect(bySubscription.content.toString('utf8')).toContain('日期,接收');
      const list = await context.server.call('POST', '/report/generated/page', { token: context.token, body: { pageNum: 1, pageSize: 10 } });
      expect(list.body.resData.total).toBe(2);
      expect(list.body.resData.list.map((row: any) => [row.id, row.report, row.format, row.producedBy.kind])).toEqual([
        [bySubscription.id, 'volumesDaily', 'csv', 'subscription'],
        [made.body.resData.id, 'acceptedRejects', 'xlsx', 'user'],
      ]);
      expect(list.body.resData.list[0].producedBy.subscriptionId).toBe(77);
      expect(list.body.resData.list[1].producedBy.userName).toBeTruthy();
      const file = await context.server.call('GET', `/report/generated/${made.body.resData.id}/file`, { token: context.token });
      expect(file.status).toBe(200);
      const rows = await sheetRows(file.raw.rawPayload);
      expect(rows[1]).toEqual(['RA', 'North', 8, 6, 2, 25]);
      // A file of another account is not found.
      const other = await accountNamed(context.server, 'Reports neighbour');
      const [foreign] = await context.server.db
        .insert(generatedReport)
        .values({
          licenseAccountId: other,
          report: 'volumes',
          params: {},
          format: 'csv',
          fileName: 'x.csv',
          contentType: 'text/csv',
          content: Buffer.from('x'),
          size: 1,
        })
        .returning({ id: generatedReport.id });
      const refused = await context.server.call('GET', `/report/generated/${foreign.id}/file`, { token: context.token });
      expect([refused.status, refused.body.resCode]).toEqual([404, '2003']);
    });

    it('a new consumer session is in the reports at once (roll-ups written with the session)', async () => {
      const before = await figures({ report: 'volumes', machineIds: [state.ids.get('RD')!] });
      expect(before.totals.accepted).toBe(0);
      const outcomes = await ingestBatch(context.server.db, [sessionMessage(context, 'RD', D0 + 40 * HOUR, [...ok('others', 2), no('can', 19)])]);
      expect(outcomes[0].result).toBe('processed');
      const after = await figures({ report: 'volumes', machineIds: [state.ids.get('RD')!] });
      expect(after.totals).toMatchObject({ accepted: 2, 'material:others': 2 });
      const whole = await figures({ report: 'acceptedRejects' });
      expect(whole.totals).toMatchObject({ items: 20, rejected: 6 });
    });
  },
  setup,
);
