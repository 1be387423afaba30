// The alarm notification job (server/events/notifications.ts): raised, reminder and cleared mails,
// each exactly once (also with two instances running it at the same moment), only for events of the
// rule's account, codes and fleets (sub-fleets included) raised after the rule was created.
import { and, asc, eq, like } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { translate } from '../../i18n';
import { mailOutbox } from '../../server/db/schema/auth';
import { rvmEvent } from '../../server/db/schema/fleetActivity';
import { openDatabase, type Database } from '../../server/db/client';
import { notifyEvents } from '../../server/events/notifications';
import { NOTIFICATION_JOB } from '../../server/events/routes';
import { accountNamed } from './fleetHarness';
import { describeFleet } from './fleetSuite';
import { addEvent, buildWorld, HOUR, MINUTE, type EventsWorld } from './eventsHarness';

describeFleet('event notification job', (context) => {
  const world = {} as EventsWorld;
  let other = 0;
  let second: FastifyInstance;
  let secondDatabase: Database | undefined;
  const services = () => context.server.app.services;

  /** Creates a rule through the API (its create time is now) and answers its id. */
  const rule = async (name: string, body: Record<string, unknown>) => {
    const answer = await context.server.call('POST', '/eventNotification', {
      token: context.token,
      body: { name, recipients: `${name}@example.com`, ...body },
    });
    expect(answer.body.resCode, JSON.stringify(answer.body)).toBe('00000');
    return answer.body.resData.id as number;
  };
  const mailsTo = (name: string) =>
    context.server.db
      .select()
      .from(mailOutbox)
      .where(eq(mailOutbox.recipient, `${name}@example.com`))
      .orderBy(asc(mailOutbox.id));
  /** Just after now: the rule was created a moment ago, the event comes after it. */
  const justNow = () => new Date(Date.now() + 10);

  beforeAll(async () => {
    other = await accountNamed(context.server, 'Notified elsewhere');
    Object.assign(world, await buildWorld(context.server.db, context.accountId, other, 'NT'));
    secondDatabase = context.server.backend === 'postgres' ? await openDatabase({ databaseUrl: context.server.databaseUrl }) : undefined;
    second = await context.server.anotherInstance(secondDatabase ? { database: secondDatabase } : {});
  });
  afterAll(async () => {
    await second?.close();
    await secondDatabase?.close();
  });

  it('mails a raised alarm once, naming the machine, both alarm texts, the time and the machine page link', async () => {
    await rule('raised', { alarmCodes: 'am_code_PK_17' });
    const event = await addEvent(context.server.db, context.accountId, world.machines.m1, 'am_code_PK_17', justNow(), null, 'front door');
    expect((await notifyEvents(services(), new Date())).sent).toBeGreaterThanOrEqual(1);
    const mails = await mailsTo('raised');
    expect(mails).toHaveLength(1);
    expect(mails[0].subject).toContain('NTM1');
    expect(mails[0].subject).toContain('am_code_PK_17');
    expect(mails[0].body).toContain('NTM1 street 1');
    expect(mails[0].body).toContain(`am_code_PK_17 ${translate('en', 'fleet.alarms.am_code_PK_17')} / ${translate('zh', 'fleet.alarms.am_code_PK_17')}`);
    expect(mails[0].body).toMatch(/Raised \/ 发生时间: \d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC/);
    expect(mails[0].body).toContain(`${services().config.publicUrl}/installation/rvmpage/${world.machines.m1}/EventHistory`);
    expect(mails[0].body).toContain('front door');

    // the second run, and the job run by the runner, find nothing left to send
    expect((await notifyEvents(services(), new Date())).sent).toBe(0);
    await services().jobs.runNow(NOTIFICATION_JOB);
    expect(await mailsTo('raised')).toHaveLength(1);
    expect(event).toBeGreaterThan(0);
  });

  it('sends once when two instances run the job at the same moment', async () => {
    await rule('race', { alarmCodes: 'am_code_PK_21' });
    for (const machine of [world.machines.m1, world.machines.m2, world.machines.m3]) {
      await addEvent(context.server.db, context.accountId, machine, 'am_code_PK_21', justNow());
    }
    const now = new Date();
    const [a, b] = await Promise.all([notifyEvents(services(), now), notifyEvents(second.services, now)]);
    expect(a.sent + b.sent).toBe(3);
    expect(await mailsTo('race')).toHaveLength(3);
  });

  it('reminds every N hours while the alarm is open, then mails once when it clears', async () => {
    await rule('remind', { alarmCodes: 'am_code_PK_5', reminderHours: 2 });
    const raised = justNow();
    const event = await addEvent(context.server.db, context.accountId, world.machines.m2, 'am_code_PK_5', raised);
    const at = (ms: number) => new Date(raised.getTime() + ms);
    await notifyEvents(services(), at(MINUTE));
    await notifyEvents(services(), at(HOUR + 59 * MINUTE));
    expect((await mailsTo('remind')).map((mail) => mail.subject)).toEqual([expect.stringMatching(/^Alarm raised on NTM2/)]);
    await notifyEvents(services(), at(2 * HOUR + MINUTE));
    await notifyEvents(services(), at(2 * HOUR + 2 * MINUTE));
    await notifyEvents(services(), at(4 * HOUR + MINUTE));
    const subjects = (await mailsTo('remind')).map((mail) => mail.subject);
    expect(subjects).toHaveLength(3);
    expect(subjects[1]).toMatch(/^Reminder 1,/);
    expect(subjects[2]).toMatch(/^Reminder 2,/);

    await context.server.db
      .update(rvmEvent)
      .set({ clearedTime: at(4 * HOUR + 30 * MINUTE) })
      .where(eq(rvmEvent.id, event));
    await notifyEvents(services(), at(4 * HOUR + 31 * MINUTE));
    await notifyEvents(services(), at(8 * HOUR + MINUTE)); // cleared: no more reminders, no second cleared mail
    const mails = await mailsTo('remind');
    expect(mails).toHaveLength(4);
    expect(mails[3].subject).toMatch(/^Alarm cleared on NTM2/);
    expect(mails[3].body).toMatch(/Cleared \/ 解除时间: .+ UTC/);
  });

  it('sends no cleared mail when the rule says so, and nothing while the rule is disabled', async () => {
    const quiet = await rule('quiet', { alarmCodes: 'am_code_PK_30', notifyOnClear: false });
    const event = await addEvent(context.server.db, context.accountId, world.machines.m3, 'am_code_PK_30', justNow());
    await notifyEvents(services(), new Date());
    await context.server.db.update(rvmEvent).set({ clearedTime: new Date() }).where(eq(rvmEvent.id, event));
    await notifyEvents(services(), new Date(Date.now() + MINUTE));
    expect((await mailsTo('quiet')).map((mail) => mail.subject)).toEqual([expect.stringMatching(/^Alarm raised/)]);

    await context.server.call('PUT', '/eventNotification', { token: context.token, body: { id: quiet, enabled: false } });
    await addEvent(context.server.db, context.accountId, world.machines.m3, 'am_code_PK_30', justNow());
    await notifyEvents(services(), new Date(Date.now() + MINUTE));
    expect(await mailsTo('quiet')).toHaveLength(1);
  });

  it("keeps to the rule's fleets with their sub-fleets, its codes and its license account", async () => {
    await rule('north', { alarmCodes: 'am_code_PK_40, am_code_PK_41', fleets: [world.fleets.north] });
    const { m1, m2, m3, x1 } = world.machines;
    await addEvent(context.server.db, context.accountId, m1, 'am_code_PK_40', justNow()); // North
    await addEvent(context.server.db, context.accountId, m2, 'am_code_PK_41', justNow()); // North-East, a sub-fleet
    await addEvent(context.server.db, context.accountId, m3, 'am_code_PK_40', justNow()); // South
    await addEvent(context.server.db, context.accountId, m1, 'am_code_PK_42', justNow()); // another code
    await addEvent(context.server.db, other, x1, 'am_code_PK_40', justNow()); // another account
    await notifyEvents(services(), new Date(Date.now() + MINUTE));
    const subjects = (await mailsTo('north')).map((mail) => mail.subject).sort();
    expect(subjects).toEqual([expect.stringMatching(/^Alarm raised on NTM1: am_code_PK_40 /), expect.stringMatching(/^Alarm raised on NTM2: am_code_PK_41 /)]);
  });

  it('ignores events raised before the rule was created, and mails every recipient', async () => {
    await addEvent(context.server.db, context.accountId, world.machines.m1, 'am_code_PK_60', new Date(Date.now() - 10 * MINUTE));
    await rule('late', { alarmCodes: 'am_code_PK_60', recipients: 'late@example.com, late2@example.com' });
    await notifyEvents(services(), new Date());
    expect(await mailsTo('late')).toHaveLength(0);
    await addEvent(context.server.db, context.accountId, world.machines.m1, 'am_code_PK_60', justNow());
    await notifyEvents(services(), new Date(Date.now() + MINUTE));
    expect(await mailsTo('late')).toHaveLength(1);
    expect(
      await context.server.db
        .select()
        .from(mailOutbox)
        .where(and(like(mailOutbox.recipient, 'late2@%'))),
    ).toHaveLength(1);
  });
});
