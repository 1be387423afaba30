// Upkeep of the APIs area (docs/api-hookups.md "Retention", "Notification list", "Tracing-code lists"):
// settled messages are deleted after their retention on a simulated clock, in batches, each row by one of two
// instances running the job at once; an alarm mail that could not be sent shows as failed with its reason on
// the notification list; the tracing-code list is read through its own index.
import { asc, inArray, sql } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { openDatabase, rowsOf, type Database } from '../../server/db/client';
import { rvm } from '../../server/db/schema';
import { hookupMessage } from '../../server/db/schema/hookups';
import { notifyEvents } from '../../server/events/notifications';
import { deleteSettledMessages, DELIVERED_RETENTION_DAYS, FAILED_RETENTION_DAYS, HOOKUP_RETENTION_JOB, RETENTION } from '../../server/hookups/retention';
import { createMailer } from '../../server/mail/mailer';
import { addEvent, addFleet } from './eventsHarness';
import { describeBackends } from './helpers';

const DAY = 24 * 3_600_000;

describeBackends('API hookups: upkeep', (server) => {
  let admin: string;
  let account = 0;
  let machineId = 0;
  let appId = 0;
  let secondDatabase: Database | undefined;

  beforeAll(async () => {
    admin = await server.login();
    account = (await server.call('GET', '/login/current', { token: admin })).body.resData.licenseAccountId;
    const fleet = await addFleet(server.db, account, 'Upkeep fleet');
    const [machine] = await server.db
      .insert(rvm)
      .values({ licenseAccountId: account, fleetId: fleet, termNo: 'UK1', serialNumber: `UK${Math.random().toString(36).slice(2, 10)}`, termType: 'H30' })
      .returning({ id: rvm.id });
    machineId = machine.id;
    const app = await server.call('POST', '/hookup/cs/app', {
      token: admin,
      body: { name: 'Upkeep receiver', url: 'http://127.0.0.1:9/hook', apiType: 'consumerSession', fleets: [fleet] },
    });
    appId = app.body.resData.id;
    secondDatabase = server.backend === 'postgres' ? await openDatabase({ databaseUrl: server.databaseUrl }) : undefined;
  });
  afterAll(async () => {
    await secondDatabase?.close();
  });

  /** `count` messages of one status whose last send was `daysAgo` days before `now`; answers their ids. */
  const addMessages = async (now: Date, status: 'success' | 'fail' | 'notSent', daysAgo: number, count: number) => {
    const sent = new Date(now.getTime() - daysAgo * DAY);
    const rows = await server.db
      .insert(hookupMessage)
      .values(
        Array.from({ length: count }, (_unused, index) => ({
          messageId: `msg_upkeep_${status}_${daysAgo}_${index}_${Math.random().toString(36).slice(2, 8)}`,
          licenseAccountId: account,
          appId,
          rvmId: machineId,
          family: 'cs',
          eventType: 'consumerSession.completed',
          eventTime: sent,
          payload: {},
          status,
          attempts: status === 'notSent' ? 0 : 1,
          lastSendTime: status === 'notSent' ? null : sent,
          // pending messages are far in the future: the delivery job leaves them alone
          nextAttemptTime: status === 'notSent' ? new Date(now.getTime() + 365 * DAY) : null,
        })),
      )
      .returning({ id: hookupMessage.id });
    return rows.map((row) => row.id);
  };
  const remaining = async (ids: number[]) =>
    (await server.db.select({ id: hookupMessage.id }).from(hookupMessage).where(inArray(hookupMessage.id, ids)).orderBy(asc(hookupMessage.id))).map((row) => row.id);

  it('deletes delivered messages after their retention and failed ones later, in batches, once across two instances; pending ones stay', async () => {
    const now = new Date(Date.now() + 1_000 * DAY); // a simulated clock far ahead of every other test's rows
    const deliveredOld = await addMessages(now, 'success', DELIVERED_RETENTION_DAYS + 1, 5);
    const deliveredRecent = await addMessages(now, 'success', DELIVERED_RETENTION_DAYS - 1, 2);
    const failedKept = await addMessages(now, 'fail', DELIVERED_RETENTION_DAYS + 1, 3);
    const failedOld = await addMessages(now, 'fail', FAILED_RETENTION_DAYS + 1, 2);
    const pending = await addMessages(now, 'notSent', FAILED_RETENTION_DAYS + 100, 2);
    const all = [...deliveredOld, ...deliveredRecent, ...failedKept, ...failedOld, ...pending];

    // one statement of two rows per status and run: a run never takes more
    const firstRun = await deleteSettledMessages(server.db, now, { ...RETENTION, batchRows: 2, batchesPerRun: 1 });
    expect(firstRun).toBe(4);
    // two instances at once (PostgreSQL: two connection pools) share the rest: each row goes once
    const other = secondDatabase?.db ?? server.db;
    const small = { ...RETENTION, batchRows: 1 };
    const [first, second] = await Promise.all([deleteSettledMessages(server.db, now, small), deleteSettledMessages(other, now, small)]);
    expect(first + second).toBe(3);
    expect(await remaining(all)).toEqual([...deliveredRecent, ...failedKept, ...pending]);

    // the registered job, later on the simulated clock: everything settled has expired, pending messages stay
    await server.app.services.jobs.runNow(HOOKUP_RETENTION_JOB, new Date(now.getTime() + FAILED_RETENTION_DAYS * DAY));
    expect(await remaining(all)).toEqual(pending);
  });

  it('a resent message is pending again and is not deleted', async () => {
    const now = new Date(Date.now() + 2_000 * DAY);
    const [failed] = await addMessages(now, 'fail', FAILED_RETENTION_DAYS + 1, 1);
    const resent = await server.call('POST', '/hookup/cs/message/resend', { token: admin, body: { ids: [failed] } });
    expect(resent.body.resCode, JSON.stringify(resent.body)).toBe('00000');
    await deleteSettledMessages(server.db, now);
    expect(await remaining([failed])).toEqual([failed]);
  });

  it('shows an alarm mail that could not be sent as failed, with each recipient and the reason', async () => {
    const rule = await server.call('POST', '/eventNotification', {
      token: admin,
      body: { name: 'Upkeep alarms', alarmCodes: 'am_code_PK_17', recipients: 'ops@example.com, lead@example.com' },
    });
    expect(rule.body.resCode, JSON.stringify(rule.body)).toBe('00000');
    const services = server.app.services;
    // an SMTP server that refuses connections: every mail fails
    const broken = createMailer({ smtpUrl: 'smtp://127.0.0.1:1', mailFrom: 'console@example.com' });
    await addEvent(server.db, account, machineId, 'am_code_PK_17', new Date(Date.now() + 10));
    expect((await notifyEvents({ ...services, mailer: broken }, new Date())).sent).toBe(1);
    // a second alarm, mailed by the working (logging) mailer
    await addEvent(server.db, account, machineId, 'am_code_PK_17', new Date(Date.now() + 10));
    expect((await notifyEvents(services, new Date())).sent).toBe(1);

    const list = await server.call('POST', '/hookup/notification/page', { token: admin, body: { pageNum: 1, pageSize: 10, channel: 'alarmMail' } });
    const rows = list.body.resData.list as Array<{ status: string; detail: string | null; target: string }>;
    expect(rows.map((row) => row.status).sort()).toEqual(['fail', 'success']);
    const failed = rows.find((row) => row.status === 'fail')!;
    expect(failed.detail).toMatch(/^ops@example\.com: .*ECONNREFUSED/);
    expect(failed.detail).toMatch(/\nlead@example\.com: /);
    expect(rows.find((row) => row.status === 'success')!.detail).toBeNull();
    const failedOnly = await server.call('POST', '/hookup/notification/page', { token: admin, body: { pageNum: 1, pageSize: 10, channel: 'alarmMail', status: 'fail' } });
    expect(failedOnly.body.resData.total).toBe(1);
  });

  it('reads the tracing-code list through its indexes; a refused outcome never reads the accepted items', async () => {
    const plan = async (where: string) =>
      server.db.transaction(async (tx) => {
        // on a tiny table a sequential scan is cheaper: forbid it, so the plan shows which index serves the list
        await tx.execute(sql`set local enable_seqscan = off`);
        const result = await tx.execute(sql.raw(`explain select * from hookup_tc_transaction where license_account_id = ${account} and ${where} order by time desc limit 20`));
        return rowsOf<Record<string, string>>(result)
          .map((row) => Object.values(row)[0])
          .join('\n');
      });
    const refused = await plan(`outcome = 'invalid'`);
    expect(refused).toContain('consumer_session_item_tc_idx');
    expect(refused).not.toContain('consumer_session_rvm_start_idx');
    const redeemed = await plan(`outcome = 'redeemed' and rvm_id = ${machineId}`);
    expect(redeemed).toContain('consumer_session_rvm_start_idx');
  });
});
