// Reports › notifications: subscription CRUD derived from resources/reportNotification.ts, recipients
// checked one by one (the message names the wrong address, in English and Chinese), permissions,
// license-account scoping and the computed "next due" column (Monday / 1st at 00:00 local).
import { beforeAll, expect, it } from 'vitest';
import { translate } from '../../i18n';
import { reportNotification } from '../../server/db/schema/reportNotifications';
import { localParts, REPORT_TIME_ZONE } from '../../server/reports/notificationPeriods';
import { accountNamed } from './fleetHarness';
import { describeFleet } from './fleetSuite';
import { buildWorld, type EventsWorld } from './eventsHarness';

describeFleet('report notification subscriptions', (context) => {
  const world = {} as EventsWorld;
  let other = 0;
  const call = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', path: string, body?: unknown, lang?: string, token = context.token) =>
    context.server.call(method, path, { token, body, lang });
  const valid = { name: 'Weekly volumes', report: 'volumes', period: 'weekly', recipients: 'ops@example.com, lead@example.org', format: 'xlsx', language: 'en' };

  beforeAll(async () => {
    other = await accountNamed(context.server, 'Subscriptions elsewhere');
    Object.assign(world, await buildWorld(context.server.db, context.accountId, other, 'RN'));
  });

  it('creates, reads, updates, lists and deletes a subscription; enabled defaults to on, nothing ran yet', async () => {
    const created = await call('POST', '/reportNotification', { ...valid, fleets: [world.fleets.south, world.fleets.north] });
    expect(created.body.resCode, JSON.stringify(created.body)).toBe('00000');
    const id = created.body.resData.id;
    expect(created.body.resData).toMatchObject({
      ...valid,
      fleets: [world.fleets.north, world.fleets.south].sort((a, b) => a - b),
      enabled: true,
      lastStatus: null,
      lastProduced: null,
    });
    const updated = await call('PUT', '/reportNotification', { id, period: 'monthly', format: 'csv', language: 'zh', fleets: [] });
    expect(updated.body.resData).toMatchObject({ period: 'monthly', format: 'csv', language: 'zh', fleets: [], recipients: valid.recipients });
    const list = await call('POST', '/reportNotification/page', { pageNum: 1, pageSize: 20, period: 'monthly', recipientsLike: 'lead@' });
    expect(list.body.resData.list.map((row: { id: number }) => row.id)).toEqual([id]);
    expect((await call('POST', '/reportNotification', valid)).body.resCode).toBe('2002'); // same name twice
    expect((await call('DELETE', `/reportNotification?id=${id}`)).body.resCode).toBe('00000');
    expect((await call('GET', `/reportNotification/${id}`)).body.resCode).toBe('2003');
  });

  it('says when it is next due: the coming Monday 00:00 (weekly) or 1st 00:00 (monthly) in the account time zone; nothing when disabled', async () => {
    const weekly = (await call('POST', '/reportNotification', { ...valid, name: 'due weekly' })).body.resData;
    const monthly = (await call('POST', '/reportNotification', { ...valid, name: 'due monthly', period: 'monthly' })).body.resData;
    const off = (await call('POST', '/reportNotification', { ...valid, name: 'due off', enabled: false })).body.resData;
    const now = Date.now();
    for (const [record, check] of [
      [
        weekly,
        (parts: ReturnType<typeof localParts>, date: Date) =>
          new Date(Date.UTC(parts.year, parts.month - 1, parts.day)).getUTCDay() === 1 && date.getTime() - now <= 7 * 86_400_000,
      ],
      [monthly, (parts: ReturnType<typeof localParts>, date: Date) => parts.day === 1 && date.getTime() - now <= 31 * 86_400_000],
    ] as const) {
      const due = new Date(record.nextDue);
      expect(due.getTime()).toBeGreaterThan(now);
      const parts = localParts(due, REPORT_TIME_ZONE);
      expect([parts.hour, parts.minute, parts.second]).toEqual([0, 0, 0]);
      expect(check(parts, due)).toBe(true);
    }
    expect(off.nextDue).toBeNull();
  });

  it.each([
    ['a word among addresses', 'ops@example.com, not-an-address', 'badRecipient', { address: 'not-an-address' }],
    ['a semicolon list', 'ops@example.com;lead@example.org', 'badRecipient', { address: 'ops@example.com;lead@example.org' }],
    ['no top-level domain', 'ops@example', 'badRecipient', { address: 'ops@example' }],
    ['a space in the domain', 'ops@exa mple.com', 'badRecipient', { address: 'ops@exa mple.com' }],
    ['an empty entry', 'ops@example.com,,lead@example.org', 'emptyRecipient', {}],
    ['21 addresses', Array.from({ length: 21 }, (_, index) => `r${index}@example.com`).join(','), 'tooManyRecipients', { max: 20 }],
  ])('refuses recipients with %s (1004), naming the problem in English and Chinese', async (_case, recipients, key, values) => {
    const message = `notifications.validation.${key}`;
    for (const lang of ['en', 'zh'] as const) {
      const answer = await call('POST', '/reportNotification', { ...valid, name: `bad ${lang} ${key} ${recipients.length}`, recipients }, lang);
      expect(answer.status).toBe(400);
      expect(answer.body.resCode).toBe('1004');
      expect(answer.body.resData.issues).toEqual([{ field: 'recipients', message: translate(lang, message, values) }]);
    }
    expect(translate('zh', message, values)).not.toBe(translate('en', message, values));
    // an edit is checked the same way
    const id = (await call('POST', '/reportNotification', { ...valid, name: `edit ${key} ${recipients.length}` })).body.resData.id;
    expect((await call('PUT', '/reportNotification', { id, recipients }, 'zh')).body.resData.issues).toEqual([{ field: 'recipients', message: translate('zh', message, values) }]);
  });

  it('stores recipients as "a, b" without duplicates; refuses unknown reports, periods, formats and languages', async () => {
    const answer = await call('POST', '/reportNotification', { ...valid, name: 'tidy', recipients: ' a@b.io,c@d.org , a@b.io ' });
    expect(answer.body.resData.recipients).toBe('a@b.io, c@d.org');
    for (const [field, value] of [
      ['report', 'sales'],
      ['period', 'daily'],
      ['format', 'pdf'],
      ['language', 'fr'],
    ] as const) {
      const refused = await call('POST', '/reportNotification', { ...valid, name: `bad ${field}`, [field]: value });
      expect(refused.body).toMatchObject({ resCode: '1004', resData: { issues: [{ field }] } });
    }
    for (const field of ['lastStatus', 'lastProduced', 'nextDue']) {
      expect((await call('POST', '/reportNotification', { ...valid, name: `ro ${field}`, [field]: null })).body.resCode).toBe('1004');
    }
  });

  it("keeps to the caller's license account: another account's subscriptions and fleets stay out of reach", async () => {
    const [foreign] = await context.server.db
      .insert(reportNotification)
      .values({ licenseAccountId: other, name: 'Foreign weekly', report: 'volumes', period: 'weekly', recipients: 'x@example.com' })
      .returning({ id: reportNotification.id });
    const list = await call('POST', '/reportNotification/page', { pageNum: 1, pageSize: 500 });
    expect(list.body.resData.list.map((row: { id: number }) => row.id)).not.toContain(foreign.id);
    expect(list.body.resData.list.every((row: { name: string }) => row.name !== 'Foreign weekly')).toBe(true);
    expect((await call('GET', `/reportNotification/${foreign.id}`)).body.resCode).toBe('2003');
    expect((await call('PUT', '/reportNotification', { id: foreign.id, enabled: false })).body.resCode).toBe('2003');
    expect((await call('DELETE', `/reportNotification?id=${foreign.id}`)).body.resCode).toBe('2003');
    const withForeignFleet = await call('POST', '/reportNotification', { ...valid, name: 'foreign fleet', fleets: [world.fleets.other] });
    expect(withForeignFleet.body).toMatchObject({ resCode: '1004', resData: { issues: [{ field: 'fleets' }] } });
  });

  it('needs its permissions: a user without them gets 4003, one with the list right may not create', async () => {
    await context.server.createUser({ name: 'rnnone' }, context.token);
    const token = await context.server.login('rnnone', 'Passw0rd!');
    expect((await call('POST', '/reportNotification/page', { pageNum: 1, pageSize: 10 }, undefined, token)).body.resCode).toBe('4003');
    expect((await call('POST', '/reportNotification', valid, undefined, token)).body.resCode).toBe('4003');
    expect((await call('DELETE', '/reportNotification?id=1', undefined, undefined, token)).body.resCode).toBe('4003');

    const permissions = (await call('POST', '/permission/page', { pageNum: 1, pageSize: 500, identifierLike: 'reportNotification:' })).body.resData.list as Array<{
      id: number;
      identifier: string;
    }>;
    const pageRight = permissions.find((permission) => permission.identifier === 'reportNotification:page');
    expect(pageRight, JSON.stringify(permissions)).toBeDefined();
    const role = await call('POST', '/role', { name: 'RN reader', permissions: [pageRight!.id] });
    expect(role.body.resCode, JSON.stringify(role.body)).toBe('00000');
    await context.server.createUser({ name: 'rnread', roles: [role.body.resData.id] }, context.token);
    const reader = await context.server.login('rnread', 'Passw0rd!');
    expect((await call('POST', '/reportNotification/page', { pageNum: 1, pageSize: 10 }, undefined, reader)).body.resCode).toBe('00000');
    expect((await call('POST', '/reportNotification', { ...valid, name: 'reader made' }, undefined, reader)).body.resCode).toBe('4003');
  });
});
