// A configured type's multiReference field (docs/ARCHITECTURE.md "One engine"): stored as a JSON array of ids in
// the record's document, each id checked to exist in the caller's license account, filtered by containment,
// exported as labels, and following `onDelete` when a referenced record is deleted (restrict, setNull drops the
// id from the list, cascade deletes the holder), to a code-declared resource (fleet) and to a configured one.
import { beforeAll, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { configuredRecord } from '../../server/db/schema';
import { describeBackends } from './helpers';

const text = (en: string, zh: string) => ({ en, zh });
const many = (reference: string, onDelete?: string, required = false) => ({
  type: 'multiReference',
  reference,
  labels: text(`${reference} list`, `${reference} 列表`),
  ...(onDelete ? { onDelete } : {}),
  ...(required ? { required } : {}),
});
const type = (name: string, labels: { en: string; zh: string }, fields: Record<string, unknown>, filters: unknown[] = []) => ({
  name,
  labels,
  menuParent: 'service',
  fields: { title: { type: 'text', labels: text('Title', '标题'), required: true }, ...fields },
  list: { columns: ['title', ...Object.keys(fields)], filters },
  actions: ['page', 'show', 'create', 'edit', 'delete', 'export'],
});

describeBackends('configured multiReference fields', (server) => {
  let admin: string;
  const call = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, body?: Record<string, unknown>, lang?: string) => server.call(method, url, { token: admin, body, lang });
  const make = async (url: string, body: Record<string, unknown>) => {
    const answer = await call('POST', url, body);
    expect(answer.body.resCode, JSON.stringify(answer.body)).toBe('00000');
    return answer.body.resData.id as number;
  };
  const documentOf = async (typeName: string, id: number) =>
    (
      await server.db
        .select({ data: configuredRecord.data })
        .from(configuredRecord)
        .where(and(eq(configuredRecord.typeName, typeName), eq(configuredRecord.id, id)))
    )[0]?.data as Record<string, unknown> | undefined;

  beforeAll(async () => {
    admin = await server.login();
    for (const definition of [
      type('route', text('Routes', '路线'), { fleets: many('fleet') }, [{ field: 'fleets', operator: 'eq' }]),
      type('stop', text('Stops', '站点'), { title2: { type: 'text', labels: text('Code', '代码') } }),
      type('tour', text('Tours', '巡回'), { stops: many('stop', 'setNull') }, [{ field: 'stops', operator: 'in' }]),
      type('plan', text('Plans', '计划'), { stops: many('stop', 'cascade') }),
    ]) {
      const saved = await call('POST', '/resource-types', definition);
      expect(saved.body.resCode, JSON.stringify(saved.body)).toBe('00000');
    }
  });

  it('stores the ids as a JSON array (each once, in order), answers [] when empty, and filters by containment', async () => {
    const north = await make('/fleet', { name: 'North' });
    const south = await make('/fleet', { name: 'South' });
    const both = await make('/custom/route', { title: 'Both', fleets: [south, north, south] });
    const one = await make('/custom/route', { title: 'One', fleets: [north] });
    const none = await make('/custom/route', { title: 'None' });
    expect((await documentOf('route', both))?.fleets).toEqual([north, south].sort((a, b) => a - b));
    expect((await call('GET', `/custom/route/${both}`)).body.resData.fleets).toEqual([north, south].sort((a, b) => a - b));
    expect((await call('GET', `/custom/route/${none}`)).body.resData.fleets).toEqual([]);
    // emptied by an update: the key leaves the document
    await call('PUT', '/custom/route', { id: one, fleets: [] });
    expect((await documentOf('route', one))?.fleets).toBeUndefined();

    const page = await call('POST', '/custom/route/page', { pageNum: 1, pageSize: 20, fleets: south });
    expect(page.body.resData.list.map((row: { title: string }) => row.title)).toEqual(['Both']);

    const csv = await server.call('POST', '/custom/route/export', { token: admin, body: { format: 'csv', fleets: south } });
    expect(csv.raw.payload).toContain('"North, South"');
  });

  it('refuses ids that do not exist or belong to another license account (1004), in both languages, and a value that is no list (1003)', async () => {
    const unknown = await call('POST', '/custom/route', { title: 'Ghost', fleets: [2147483000] });
    expect([unknown.body.resCode, unknown.body.resData.issues[0].field]).toEqual(['1004', 'fleets']);
    const zh = await call('POST', '/custom/route', { title: 'Ghost', fleets: [2147483000] }, 'zh');
    expect(zh.body.resCode).toBe('1004');
    expect(zh.body.resData.issues[0].message).not.toBe(unknown.body.resData.issues[0].message);

    const other = (await call('POST', '/license-account', { licenseAccountName: 'Routes elsewhere' })).body.resData.id as number;
    await call('PUT', `/license-account-user-relation?id=${other}`);
    const theirs = await make('/fleet', { name: 'Theirs' });
    const relations = (await call('GET', '/license-account-user-relation')).body.resData as Array<{ id: number; licenseAccountName: string }>;
    await call('PUT', `/license-account-user-relation?id=${relations.find((row) => row.licenseAccountName === 'Default')!.id}`);
    const foreign = await call('POST', '/custom/route', { title: 'Foreign', fleets: [theirs] });
    expect([foreign.body.resCode, foreign.body.resData.issues[0].field]).toEqual(['1004', 'fleets']);
    expect((await call('POST', '/custom/route', { title: 'Text', fleets: 'North' })).body.resCode).toBe('1003');
  });

  it('restrict: a fleet a route lists is not deleted (5002 naming the type, in the request language)', async () => {
    const fleet = await make('/fleet', { name: 'Held' });
    const route = await make('/custom/route', { title: 'Holds it', fleets: [fleet] });
    const refused = await call('DELETE', `/fleet?id=${fleet}`, undefined, 'zh');
    expect(refused.body.resCode).toBe('5002');
    expect(refused.body.resData.issues[0]).toEqual({ field: 'route', message: '仍被 1 个路线使用' });
    await call('PUT', '/custom/route', { id: route, fleets: [] });
    expect((await call('DELETE', `/fleet?id=${fleet}`)).body.resCode).toBe('00000');
  });

  it('setNull drops the deleted id from the list (the last one empties it); cascade deletes the holders', async () => {
    const [a, b] = [await make('/custom/stop', { title: 'A' }), await make('/custom/stop', { title: 'B' })];
    const tour = await make('/custom/tour', { title: 'Loop', stops: [a, b] });
    const plan = await make('/custom/plan', { title: 'Plan', stops: [b] });
    const other = await make('/custom/plan', { title: 'Other plan', stops: [a] });
    expect((await call('DELETE', `/custom/stop?id=${b}`)).body.resCode).toBe('00000');
    expect((await call('GET', `/custom/tour/${tour}`)).body.resData.stops).toEqual([a]);
    expect((await call('GET', `/custom/plan/${plan}`)).body.resCode).toBe('2003');
    expect((await call('GET', `/custom/plan/${other}`)).body.resData.stops).toEqual([a]);
    const page = await call('POST', '/custom/tour/page', { pageNum: 1, pageSize: 20, stopsIn: [a] });
    expect(page.body.resData.total).toBe(1);

    expect((await call('POST', '/custom/stop/batchDelete', { ids: [a] })).body.resCode).toBe('00000');
    expect((await documentOf('tour', tour))?.stops).toBeUndefined();
    expect((await call('GET', `/custom/tour/${tour}`)).body.resData.stops).toEqual([]);
  });

  it('refuses definitions a multiReference cannot have: unknown target, setNull when required, a default, sorting or a contains filter', async () => {
    const bad = type('badList', text('Bad lists', '错误列表'), { items: { ...many('nosuch'), default: 1 }, kept: many('fleet', 'setNull', true) }, [
      { field: 'kept', operator: 'like' },
    ]);
    const answer = await call('POST', '/resource-types', { ...bad, list: { ...bad.list, defaultSort: { field: 'kept', order: 'ASC' } } }, 'zh');
    expect(answer.body.resCode).toBe('1004');
    const issues = answer.body.resData.issues as Array<{ field: string; message: string }>;
    expect(issues.map((issue) => issue.field).sort()).toEqual(
      ['fields.items.default', 'fields.items.reference', 'fields.kept.onDelete', 'list.defaultSort.field', 'list.filters.0.operator'].sort(),
    );
    expect(issues.find((issue) => issue.field === 'fields.items.reference')?.message).toBe('未知资源“nosuch”');
  });
});
