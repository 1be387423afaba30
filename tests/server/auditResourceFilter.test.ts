// System settings › Audit log's resource filter (docs/audit-log.md "Who sees what"): besides the code
// resources it takes a configured type's name (its entries are listed, as the console's filter offers
// them); a name no resource has answers 2003, a malformed one 1004 (as an unknown option did); the export takes the same filter.
import { beforeAll, expect, it } from 'vitest';
import { BARCODE } from './configuredTypesFixture';
import { describeOneBackend } from './helpers';

describeOneBackend('audit log resource filter', (server) => {
  let admin: string;
  let recordId: number;
  const page = (body: Record<string, unknown>) => server.call('POST', '/audit-entry/page', { token: admin, body: { pageNum: 1, pageSize: 100, ...body } });

  beforeAll(async () => {
    admin = await server.login();
    expect((await server.call('POST', '/resource-types', { token: admin, body: { ...BARCODE, name: 'auditFiltered' } })).body.resCode).toBe('00000');
    const made = await server.call('POST', '/custom/auditFiltered', { token: admin, body: { code: '54321', itemType: 'pet', refund: 0.25 } });
    expect(made.body.resCode).toBe('00000');
    recordId = made.body.resData.id as number;
  });

  it("lists a configured type's entries by its name, alone or beside code resources", async () => {
    const alone = (await page({ resource: ['auditFiltered'] })).body;
    expect(alone.resCode).toBe('00000');
    expect(alone.resData.list.map((row: { resource: string; recordId: number; action: string }) => [row.resource, row.recordId, row.action])).toEqual([
      ['auditFiltered', recordId, 'create'],
    ]);
    const mixed = (await page({ resource: ['resourceType', 'auditFiltered'] })).body;
    expect(mixed.resCode).toBe('00000');
    expect(new Set(mixed.resData.list.map((row: { resource: string }) => row.resource))).toEqual(new Set(['resourceType', 'auditFiltered']));
    const exported = await server.call('POST', '/audit-entry/export', { token: admin, body: { format: 'csv', resource: ['auditFiltered'], columns: ['resource', 'recordId'] } });
    expect(exported.status).toBe(200);
    // the export names the type by its label in the caller's language, as the list does
    expect(exported.raw.body).toContain(`Barcodes,${recordId}`);
    const inChinese = await server.call('POST', '/audit-entry/export', {
      token: admin,
      lang: 'zh',
      body: { format: 'csv', resource: ['auditFiltered'], columns: ['resource', 'recordId'] },
    });
    expect(inChinese.raw.body).toContain(`条码,${recordId}`);
  });

  it('refuses a name no resource has (2003) and a malformed one (1004)', async () => {
    expect((await page({ resource: ['noSuchType'] })).body.resCode).toBe('2003');
    expect((await server.call('POST', '/audit-entry/export', { token: admin, body: { format: 'csv', resource: ['noSuchType'] } })).body.resCode).toBe('2003');
    expect((await page({ resource: ['Not a name'] })).body.resCode).toBe('1004');
  });
});
