// Service › event notifications: rule CRUD derived from resources/eventNotification.ts, with the
// Comma-separated (docs/product-rules.md#validation-rules) alarm-code and e-mail lists validated in English and Chinese.
import { beforeAll, expect, it } from 'vitest';
import { translate } from '../../i18n';
import { accountNamed } from './fleetHarness';
import { describeFleetOneBackend } from './fleetSuite';
import { buildWorld, type EventsWorld } from './eventsHarness';

describeFleetOneBackend('event notification rules', (context) => {
  const world = {} as EventsWorld;
  const call = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', path: string, body?: unknown, lang?: string, token = context.token) =>
    context.server.call(method, path, { token, body, lang });
  const valid = { name: 'Doors', alarmCodes: 'am_code_PK_17, am_code_PK_18', recipients: 'ops@example.com, lead@example.org', reminderHours: 4 };

  beforeAll(async () => {
    Object.assign(world, await buildWorld(context.server.db, context.accountId, await accountNamed(context.server, 'Rules elsewhere'), 'RU'));
  });

  it('creates, reads, updates, lists and deletes a rule; notifyOnClear and enabled default to on', async () => {
    const created = await call('POST', '/eventNotification', { ...valid, fleets: [world.fleets.north, world.fleets.south] });
    expect(created.body.resCode, JSON.stringify(created.body)).toBe('00000');
    const id = created.body.resData.id;
    expect(created.body.resData).toMatchObject({ ...valid, fleets: [world.fleets.north, world.fleets.south].sort((a, b) => a - b), notifyOnClear: true, enabled: true });
    expect(created.body.resData.createTime).toEqual(expect.any(String));

    const updated = await call('PUT', '/eventNotification', { id, fleets: [], enabled: false, reminderHours: 0 });
    expect(updated.body.resData).toMatchObject({ fleets: [], enabled: false, reminderHours: 0, alarmCodes: valid.alarmCodes });
    const list = await call('POST', '/eventNotification/page', { pageNum: 1, pageSize: 20, alarmCodesLike: 'PK_18' });
    expect(list.body.resData.list.map((row: { id: number }) => row.id)).toEqual([id]);
    expect((await call('POST', '/eventNotification', valid)).body.resCode).toBe('2002'); // same name twice
    expect((await call('DELETE', `/eventNotification?id=${id}`)).body.resCode).toBe('00000');
    expect((await call('GET', `/eventNotification/${id}`)).body.resCode).toBe('2003');
  });

  it.each([
    ['alarmCodes', 'door', 'events.validation.alarmCodeList'],
    ['alarmCodes', 'am_code_PK_17;am_code_PK_18', 'events.validation.alarmCodeList'],
    ['alarmCodes', 'am_code_PK_17, am_code_PK_999', 'events.validation.unknownAlarmCode'],
    ['alarmCodes', 'am_code_PK_0', 'events.validation.unknownAlarmCode'],
    ['recipients', 'ops@example.com, not-an-address', 'events.validation.emailList'],
    ['recipients', 'ops@example.com,,lead@example.org', 'events.validation.emailList'],
  ])('refuses %s "%s" (1004) with the message in English and Chinese', async (field, value, message) => {
    for (const lang of ['en', 'zh'] as const) {
      const answer = await call('POST', '/eventNotification', { ...valid, name: `bad ${lang} ${value}`, [field]: value }, lang);
      expect(answer.status).toBe(400);
      expect(answer.body.resCode).toBe('1004');
      expect(answer.body.resData.issues).toEqual([{ field, message: translate(lang, message) }]);
    }
    expect(translate('zh', message)).not.toBe(translate('en', message));
  });

  it('accepts a single code and a single address; stores lists as "a, b" without duplicates', async () => {
    const answer = await call('POST', '/eventNotification', { ...valid, name: 'single', alarmCodes: ' am_code_PK_70 ', recipients: 'a@b.io' });
    expect(answer.body.resData).toMatchObject({ alarmCodes: 'am_code_PK_70', recipients: 'a@b.io' });
    const id = answer.body.resData.id;
    const edited = await call('PUT', '/eventNotification', { id, alarmCodes: 'am_code_PK_1,am_code_PK_2 ,am_code_PK_1', recipients: 'a@b.io,c@d.org' });
    expect(edited.body.resData).toMatchObject({ alarmCodes: 'am_code_PK_1, am_code_PK_2', recipients: 'a@b.io, c@d.org' });
  });

  it("refuses another account's fleet, and a reminder interval out of range", async () => {
    const foreign = await call('POST', '/eventNotification', { ...valid, name: 'foreign', fleets: [world.fleets.other] });
    expect(foreign.body).toMatchObject({ resCode: '1004', resData: { issues: [{ field: 'fleets' }] } });
    expect((await call('POST', '/eventNotification', { ...valid, name: 'neg', reminderHours: -1 })).body.resCode).toBe('1004');
  });

  it('needs its permissions: a user without them gets 4003', async () => {
    await context.server.createUser({ name: 'rulenone' }, context.token);
    const token = await context.server.login('rulenone', 'Passw0rd!');
    expect((await call('POST', '/eventNotification/page', {}, undefined, token)).body.resCode).toBe('4003');
    expect((await call('POST', '/eventNotification', valid, undefined, token)).body.resCode).toBe('4003');
  });
});
