// Resource types defined at run time (issue 9): a superAdmin defines "barcode", and the same app
// (no restart) serves its records with validation, filters, sort, export, permissions and license
// account scoping; the type changes (data-losing changes need confirmArchive), is archived when
// deleted with records, and moves to a fresh installation through export/import.
import { sql } from 'drizzle-orm';
import { beforeAll, expect, it } from 'vitest';
import { rowsOf } from '../../server/db/client';
import { sysPermission } from '../../server/db/schema';
import { BARCODE } from './configuredTypesFixture';
import { describeBackends, startTestServer } from './helpers';

describeBackends('configured resource types', (server) => {
  let admin: string;
  const create = (body: Record<string, unknown>, lang?: string) => server.call('POST', '/custom/barcode', { token: admin, body, lang });
  const page = (body: Record<string, unknown> = {}, token = admin) => server.call('POST', '/custom/barcode/page', { token, body });

  beforeAll(async () => {
    admin = await server.login();
  });

  it('creates a type: at once its routes answer, and its permission rows sit under the chosen menu entry', async () => {
    expect((await page()).body.resCode).toBe('2003');
    const created = await server.call('POST', '/resource-types', { token: admin, body: BARCODE });
    expect(created.body.resCode).toBe('00000');
    expect(created.body.resData).toMatchObject({ name: 'barcode', status: 'active', version: expect.any(Number) });
    // the fields keep the definition's order (the forms' order), though jsonb keeps no key order
    expect(Object.keys(created.body.resData.fields)).toEqual(['code', 'itemType', 'refund', 'active']);
    expect((await page()).body.resData).toMatchObject({ list: [], total: 0, pageNum: 1, pageSize: 20 });

    const rows = await server.db
      .select()
      .from(sysPermission)
      .where(sql`${sysPermission.identifier} like 'custom:barcode%'`);
    const menu = rows.find((row) => row.identifier === 'custom:barcode');
    expect(menu).toMatchObject({ type: 'menu', parentId: 21, name: 'Barcodes' });
    expect(
      rows
        .filter((row) => row.type === 'button')
        .map((row) => [row.identifier, row.parentId])
        .sort(),
    ).toEqual(BARCODE.actions.map((action) => [`custom:barcode:${action}`, menu?.id]).sort());
    expect(rows.every((row) => row.id >= 10_000_000)).toBe(true);
    // The same name twice, or a code-declared resource's name: 9400.
    expect((await server.call('POST', '/resource-types', { token: admin, body: BARCODE })).body.resCode).toBe('9400');
    expect((await server.call('POST', '/resource-types', { token: admin, body: { ...BARCODE, name: 'fleet' } })).body.resCode).toBe('9400');
  });

  it('validates records by the definition, in the request language', async () => {
    const made = await create({ code: '4006381333931', itemType: 'pet', refund: 0.25 });
    expect(made.body.resCode).toBe('00000');
    expect(made.body.resData).toMatchObject({ id: expect.any(Number), code: '4006381333931', itemType: 'pet', refund: 0.25, active: true, createdTime: expect.any(String) });

    const issue = async (body: Record<string, unknown>, lang = 'en') => {
      const answer = await create(body, lang);
      return [answer.body.resCode, answer.body.resData?.issues?.[0]?.field, answer.body.resData?.issues?.[0]?.message];
    };
    expect(await issue({ itemType: 'pet' })).toEqual(['1001', 'code', 'This field cannot be empty']);
    expect((await issue({ code: '12', itemType: 'pet' })).slice(0, 2)).toEqual(['1002', 'code']);
    expect(await issue({ code: '12a45', itemType: 'pet' })).toEqual(['1004', 'code', 'Digits only']);
    expect(await issue({ code: '12a45', itemType: 'pet' }, 'zh')).toEqual(['1004', 'code', '只能是数字']);
    expect((await issue({ code: '12345', itemType: 'paper' })).slice(0, 2)).toEqual(['1004', 'itemType']);
    expect(await issue({ code: '12345', itemType: 'pet', refund: 0.125 })).toEqual(['1004', 'refund', 'At most 2 decimal places']);
    expect((await issue({ code: '12345', itemType: 'pet', refund: '1' })).slice(0, 2)).toEqual(['1003', 'refund']);
    expect((await issue({ code: '12345', itemType: 'pet', refund: 101 })).slice(0, 2)).toEqual(['1004', 'refund']);
    expect((await issue({ code: '12345', itemType: 'pet', colour: 'red' })).slice(0, 2)).toEqual(['1004', 'colour']);
    expect((await issue({ code: '12345', itemType: 'pet', id: 5 })).slice(0, 2)).toEqual(['1004', 'id']);
    // unique within the license account, answered on the field
    const duplicate = await create({ code: '4006381333931', itemType: 'can' });
    expect([duplicate.status, duplicate.body.resCode, duplicate.body.resData.issues[0].field]).toEqual([409, '2002', 'code']);
    expect(duplicate.body.resData.issues[0].message).toBe('Barcode "4006381333931" already exists');

    // update: absent fields keep their value, the same checks apply
    const id = made.body.resData.id;
    const updated = await server.call('PUT', '/custom/barcode', { token: admin, body: { id, refund: 0.3, active: false } });
    expect(updated.body.resData).toMatchObject({ id, code: '4006381333931', refund: 0.3, active: false });
    expect((await server.call('PUT', '/custom/barcode', { token: admin, body: { id, refund: 0.333 } })).body.resCode).toBe('1004');
    expect((await server.call('GET', `/custom/barcode/${id}`, { token: admin })).body.resData.refund).toBe(0.3);
    expect((await server.call('GET', '/custom/barcode/999999', { token: admin })).body.resCode).toBe('2003');
  });

  it("filters, sorts, pages, offers options and exports with the definition's labels", async () => {
    for (const [code, itemType, refund] of [
      ['5000111', 'can', 0.1],
      ['5000222', 'can', 0.5],
      ['7000333', 'pet', 1],
    ] as const) {
      expect((await create({ code, itemType, refund })).body.resCode).toBe('00000');
    }
    const codes = async (body: Record<string, unknown>) => (await page(body)).body.resData.list.map((row: { code: string }) => row.code);
    expect(await codes({})).toEqual(['4006381333931', '5000111', '5000222', '7000333']);
    expect(await codes({ codeLike: '000' })).toEqual(['5000111', '5000222', '7000333']);
    expect(await codes({ itemType: 'can' })).toEqual(['5000111', '5000222']);
    expect(await codes({ refundRange: [0.3, 1] })).toEqual(['4006381333931', '5000222', '7000333']);
    expect(await codes({ sort: 'refund', order: 'DESC' })).toEqual(['7000333', '5000222', '4006381333931', '5000111']);
    expect((await page({ pageNum: 2, pageSize: 3 })).body.resData).toMatchObject({ total: 4, pageNum: 2, list: [{ code: '7000333' }] });
    expect((await page({ nope: 1 })).body.resCode).toBe('1004');
    const options = await server.call('GET', '/custom/barcode/list?nameLike=5000', { token: admin });
    expect(options.body.resData.map((row: { name: string }) => row.name)).toEqual(['5000111', '5000222']);

    const file = await server.call('POST', '/custom/barcode/export', { token: admin, body: { format: 'csv', itemType: 'can' } });
    expect(file.raw.headers['content-disposition']).toMatch(/barcode-.*\.csv/);
    expect(file.raw.body.replace('\uFEFF', '').split('\r\n').slice(0, 3)).toEqual(['Barcode,Item type,Refund,Active', '5000111,Can,0.1,Yes', '5000222,Can,0.5,Yes']);
    const zh = await server.call('POST', '/custom/barcode/export', { token: admin, lang: 'zh', body: { format: 'csv', codeLike: '7000' } });
    expect(zh.raw.body.replace('\uFEFF', '').split('\r\n')[0]).toBe('条码,物品类型,退款,启用');
    expect(zh.raw.body).toContain('PET瓶');
    const xlsx = await server.call('POST', '/custom/barcode/export', { token: admin, body: { format: 'xlsx' } });
    expect(xlsx.raw.headers['content-type']).toContain('spreadsheetml');
  });

  it("checks each action's permission and scopes records by license account", async () => {
    const ids = async (identifiers: string[]) =>
      (
        await server.db
          .select({ id: sysPermission.id })
          .from(sysPermission)
          .where(sql`${sysPermission.identifier} = any(${sql.param(identifiers)}::text[])`)
      ).map((row) => row.id);
    const role = await server.call('POST', '/role', { token: admin, body: { name: 'barcode-viewer', permissions: await ids(['custom:barcode:page', 'custom:barcode:show']) } });
    await server.createUser({ name: 'bviewer', roles: [role.body.resData.id] }, admin);
    const viewer = await server.login('bviewer', 'Passw0rd!');
    const login = await server.call('GET', '/login/current', { token: viewer });
    expect(login.body.resData.userInfo.permissions.map((p: { identifier: string }) => p.identifier).sort()).toEqual(['custom:barcode:page', 'custom:barcode:show']);
    expect((await page({}, viewer)).body.resData.total).toBe(4);
    const refused = await server.call('POST', '/custom/barcode', { token: viewer, body: { code: '99999', itemType: 'pet' } });
    expect([refused.status, refused.body.resCode]).toEqual([403, '4003']);
    expect((await server.call('POST', '/custom/barcode/export', { token: viewer, body: { format: 'csv' } })).body.resCode).toBe('4003');
    expect((await server.call('GET', '/resource-types/active', { token: viewer })).body.resData.map((type: { name: string }) => type.name)).toEqual(['barcode']);
    expect((await server.call('GET', '/resource-types', { token: viewer })).body.resCode).toBe('4003');
    // the permission is checked first: without it, an unknown type is a 4003 too (nothing learnt about which exist)
    expect((await server.call('POST', '/custom/nosuch/page', { token: viewer, body: {} })).body.resCode).toBe('4003');
    expect((await server.call('POST', '/custom/nosuch/page', { token: admin, body: {} })).body.resCode).toBe('2003');
    expect((await server.call('POST', '/resource-types', { token: viewer, body: { ...BARCODE, name: 'other' } })).body.resCode).toBe('4003');

    // another license account, every barcode permission: sees none of these records
    const account = await server.call('POST', '/license-account', { token: admin, body: { licenseAccountName: 'Elsewhere' } });
    await server.call('PUT', `/license-account-user-relation?id=${account.body.resData.id}`, { token: admin });
    const strong = await server.call('POST', '/role', {
      token: admin,
      body: { name: 'barcode-all', permissions: await ids(BARCODE.actions.map((action) => `custom:barcode:${action}`)) },
    });
    await server.createUser({ name: 'bother', roles: [strong.body.resData.id], licenseAccounts: [account.body.resData.id] }, admin);
    const defaultAccount = (await server.call('GET', '/license-account-user-relation', { token: admin })).body.resData.find(
      (row: { licenseAccountName: string }) => row.licenseAccountName === 'Default',
    );
    await server.call('PUT', `/license-account-user-relation?id=${defaultAccount.id}`, { token: admin });
    const other = await server.login('bother', 'Passw0rd!');
    expect((await page({}, other)).body.resData.total).toBe(0);
    const first = (await page()).body.resData.list[0];
    expect((await server.call('GET', `/custom/barcode/${first.id}`, { token: other })).body.resCode).toBe('2003');
    expect((await server.call('DELETE', `/custom/barcode?id=${first.id}`, { token: other })).body.resCode).toBe('2003');
    // the same code is free in another account
    expect((await server.call('POST', '/custom/barcode', { token: other, body: { code: first.code, itemType: 'pet' } })).body.resCode).toBe('00000');
  });

  it("references other resources within the caller's scope, deletes in batches, keeps saved filters and documents its routes", async () => {
    const shelf = {
      ...BARCODE,
      name: 'shelf',
      fields: {
        title: { type: 'text', labels: { en: 'Title', zh: '标题' }, required: true },
        fleet: { type: 'reference', reference: 'fleet', labels: { en: 'Fleet', zh: '机群' } },
        checked: { type: 'datetime', labels: { en: 'Checked', zh: '检查时间' } },
      },
      list: { columns: ['title', 'fleet', 'checked'], filters: [{ field: 'checked', operator: 'range' as const }] },
    };
    expect((await server.call('POST', '/resource-types', { token: admin, body: shelf })).body.resCode).toBe('00000');
    const fleet = await server.call('POST', '/fleet', { token: admin, body: { name: 'Shelf fleet' } });
    const fleetId = fleet.body.resData.id;
    const made = await server.call('POST', '/custom/shelf', { token: admin, body: { title: 'A', fleet: fleetId, checked: '2026-03-01T10:00:00+08:00' } });
    expect(made.body.resData).toMatchObject({ fleet: fleetId, checked: '2026-03-01T02:00:00.000Z' });
    expect((await server.call('POST', '/custom/shelf', { token: admin, body: { title: 'B', fleet: 99999 } })).body.resData.issues[0].field).toBe('fleet');
    const b = await server.call('POST', '/custom/shelf', { token: admin, body: { title: 'B', checked: '2026-05-01T00:00:00Z' } });
    const titles = async (body: Record<string, unknown>) =>
      (await server.call('POST', '/custom/shelf/page', { token: admin, body })).body.resData.list.map((row: { title: string }) => row.title);
    expect(await titles({ checkedRange: ['2026-04-01T00:00:00Z', null] })).toEqual(['B']);
    expect(await titles({ checkedRange: [null, '2026-03-01T03:00:00+01:00'] })).toEqual(['A']);
    const csv = await server.call('POST', '/custom/shelf/export', { token: admin, body: { format: 'csv', utcOffsetMinutes: 0, sort: 'title' } });
    expect(csv.raw.body.split('\r\n')[1]).toBe('A,Shelf fleet,2026-03-01 02:00:00');

    const saved = await server.call('POST', '/saved-filter', {
      token: admin,
      body: { resource: 'shelf', name: 'Recent', filter: { checkedRange: ['2026-04-01', null] }, visibility: 'personal' },
    });
    expect(saved.body.resCode).toBe('00000');
    expect((await server.call('POST', '/saved-filter', { token: admin, body: { resource: 'nosuchtype', name: 'x', filter: {}, visibility: 'personal' } })).body.resCode).toBe(
      '1004',
    );

    expect((await server.call('POST', '/custom/shelf/batchDelete', { token: admin, body: { ids: [made.body.resData.id, b.body.resData.id] } })).body.resData).toEqual({
      deleted: 2,
    });
    const docs = await server.app.inject({ method: 'GET', url: '/test-api/docs/json' });
    const paths = Object.keys(docs.json().paths);
    expect(paths).toEqual(expect.arrayContaining(['/test-api/custom/{type}/page', '/test-api/custom/{type}/{id}', '/test-api/resource-types', '/test-api/resource-types/import']));
    expect((await server.call('DELETE', '/resource-types?name=shelf', { token: admin })).body.resCode).toBe('00000');
  });

  it('refuses risky regular expressions and definitions that do not hold together', async () => {
    const withPattern = (regex: string) => ({
      ...BARCODE,
      name: 'risky',
      fields: { code: { ...BARCODE.fields.code, patterns: [{ regex, messages: { en: 'x', zh: 'x' } }] } },
      list: { columns: ['code'] },
    });
    const refusal = async (body: unknown) => {
      const answer = await server.call('POST', '/resource-types', { token: admin, body });
      return [answer.body.resCode, answer.body.resData?.issues?.[0]?.field, answer.body.resData?.issues?.[0]?.message];
    };
    // What RE2 cannot run (resources/pattern.ts): look-around, back-references, huge repetition counts.
    expect(await refusal(withPattern('^(?=a)a+$'))).toEqual(['1004', 'fields.code.patterns.0.regex', expect.stringMatching(/linear-time engine cannot run/)]);
    expect(await refusal(withPattern('^(a)\\1$'))).toEqual(['1004', 'fields.code.patterns.0.regex', expect.stringMatching(/linear-time engine cannot run/)]);
    expect(await refusal(withPattern('^(a{1,100}){1,100}$'))).toEqual(['1004', 'fields.code.patterns.0.regex', expect.stringMatching(/linear-time engine cannot run/)]);
    expect(await refusal(withPattern(`^${'[0-9]'.repeat(50)}$`))).toEqual(['1004', 'fields.code.patterns.0.regex', 'The regular expression is too long (at most 200 characters)']);
    expect(await refusal(withPattern('(['))).toEqual(['1004', 'fields.code.patterns.0.regex', 'This is not a valid regular expression']);
    expect(await refusal({ ...BARCODE, name: 'badcols', list: { columns: ['code', 'nothing'] } })).toEqual(['1004', 'list.columns.1', 'Unknown field "nothing"']);
    expect(
      (await refusal({ ...BARCODE, name: 'badref', fields: { ...BARCODE.fields, fleetOf: { type: 'reference', reference: 'nowhere', labels: { en: 'F', zh: 'F' } } } }))[0],
    ).toBe('1004');
    expect((await refusal({ ...BARCODE, name: 'Bad-Name' }))[0]).toBe('1004');
    expect((await refusal({ ...BARCODE, name: 'reserved', fields: { ...BARCODE.fields, id: { type: 'text', labels: { en: 'i', zh: 'i' } } } }))[2]).toBe(
      '"id" is reserved: choose another field name',
    );
  });

  it("changes a type: new fields work on existing data; losing a field's data needs confirmArchive; unique on duplicates is refused", async () => {
    const withNote = {
      ...BARCODE,
      fields: { ...BARCODE.fields, note: { type: 'text', labels: { en: 'Note', zh: '备注' } }, batch: { type: 'text', labels: { en: 'Batch', zh: '批次' } } },
    };
    const changed = await server.call('PUT', '/resource-types', { token: admin, body: withNote });
    expect(changed.body.resCode).toBe('00000');
    const made = await create({ code: '8000001', itemType: 'pet', note: 'first', batch: 'B1' });
    expect(made.body.resData).toMatchObject({ note: 'first', batch: 'B1' });
    expect((await create({ code: '8000002', itemType: 'pet', batch: 'B1' })).body.resCode).toBe('00000');

    const uniqueBatch = { ...withNote, fields: { ...withNote.fields, batch: { ...withNote.fields.batch, unique: true } } };
    const refusedUnique = await server.call('PUT', '/resource-types', { token: admin, body: uniqueBatch });
    expect(refusedUnique.body.resCode).toBe('9403');
    expect(refusedUnique.body.resMsg).toContain('batch');
    expect((await create({ code: '8000003', itemType: 'pet', batch: 'B1' })).body.resCode).toBe('00000');

    const { refund: _refund, ...fieldsWithoutRefund } = withNote.fields;
    const withoutRefund = {
      ...withNote,
      fields: fieldsWithoutRefund,
      list: { ...withNote.list, columns: ['code', 'itemType', 'active'], filters: withNote.list.filters.filter((filter) => filter.field !== 'refund') },
    };
    const refused = await server.call('PUT', '/resource-types', { token: admin, body: withoutRefund });
    expect([refused.body.resCode, refused.body.resData]).toEqual(['9401', { fields: ['refund'] }]);
    expect(refused.body.resMsg).toContain('refund');
    const confirmed = await server.call('PUT', '/resource-types', { token: admin, body: { ...withoutRefund, confirmArchive: true } });
    expect(confirmed.body.resCode).toBe('00000');
    expect(confirmed.body.resData.version).toBeGreaterThan(changed.body.resData.version);
    const record = (await server.call('GET', `/custom/barcode/${made.body.resData.id}`, { token: admin })).body.resData;
    expect(record).not.toHaveProperty('refund');
    const archived = rowsOf<{ n: number }>(await server.db.execute(sql`select count(*)::int as n from configured_record where type_name = 'barcode' and archived is not null`));
    expect(archived[0].n).toBeGreaterThan(0);
    expect((await create({ code: '8000004', itemType: 'pet', refund: 1 })).body.resCode).toBe('1004');
  });

  it('exports types and imports them into a fresh installation', async () => {
    const file = await server.call('GET', '/resource-types/export?names=barcode', { token: admin });
    expect(file.raw.headers['content-disposition']).toMatch(/attachment; filename="resource-types-.*\.json"/);
    const exported = JSON.parse(file.raw.body);
    expect(exported).toMatchObject({ format: 'rvm-resource-types', version: 1, types: [{ name: 'barcode' }] });
    expect(exported.types[0]).not.toHaveProperty('status');

    const fresh = await startTestServer(server.backend);
    try {
      const token = await fresh.login();
      const imported = await fresh.call('POST', '/resource-types/import', { token, body: exported });
      expect(imported.body.resData).toEqual({ created: ['barcode'], updated: [] });
      expect((await fresh.call('POST', '/custom/barcode', { token, body: { code: '123456', itemType: 'can', note: 'imported' } })).body.resData).toMatchObject({
        code: '123456',
        active: true,
      });
      // the same file again changes nothing
      expect((await fresh.call('POST', '/resource-types/import', { token, body: exported })).body.resData).toEqual({ created: [], updated: [] });
    } finally {
      await fresh.close();
    }
  });

  it('deletes a type without records, archives one with records', async () => {
    const empty = {
      ...BARCODE,
      name: 'donation',
      fields: { title: { type: 'text', labels: { en: 'Title', zh: '标题' }, required: true } },
      list: { columns: ['title'] },
      actions: ['page'],
    };
    expect((await server.call('POST', '/resource-types', { token: admin, body: empty })).body.resCode).toBe('00000');
    // an action the type does not offer has no route (as for a code resource)
    const absent = await server.call('POST', '/custom/donation', { token: admin, body: { title: 'x' } });
    expect([absent.status, absent.body.resCode]).toEqual([404, '4004']);
    expect((await server.call('DELETE', '/resource-types?name=donation', { token: admin })).body.resCode).toBe('00000');
    const names = async () =>
      (await server.call('GET', '/resource-types', { token: admin })).body.resData.map((type: { name: string; status: string }) => `${type.name}:${type.status}`);
    expect(await names()).toEqual(['barcode:active']);
    const rows = await server.db
      .select()
      .from(sysPermission)
      .where(sql`${sysPermission.identifier} like 'custom:donation%'`);
    expect(rows).toEqual([]);

    expect((await server.call('DELETE', '/resource-types?name=barcode', { token: admin })).body.resCode).toBe('00000');
    expect(await names()).toEqual(['barcode:archived']);
    const gone = await page();
    expect([gone.status, gone.body.resCode]).toEqual([404, '2003']);
    expect((await server.call('GET', '/resource-types/active', { token: admin })).body.resData).toEqual([]);
    expect((await server.call('DELETE', '/resource-types?name=barcode', { token: admin })).body.resCode).toBe('00000');
    expect((await server.call('DELETE', '/resource-types?name=nothing', { token: admin })).body.resCode).toBe('9402');
  });
});
