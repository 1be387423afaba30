// Remote commands, one machine at a time: the state machine the gateway drives (claim, release,
// ack, result, expiry), and the console's calls (create, page, resend, cancel, file, audit log).
import { and, desc, eq } from 'drizzle-orm';
import { expect, it } from 'vitest';
import { translate } from '../../i18n';
import { supportsCommand } from '../../resources/commands';
import { applyAck, applyResult, claimPending, expireCommands, releaseClaimed } from '../../server/commands/store';
import { rvm } from '../../server/db/schema/fleet';
import { auditLog, rvmCommand, rvmFile } from '../../server/db/schema/liveFleet';
import { ageCommands, commandRow, setUpCommandFleet, userWith, type CommandFleet } from './commandsHarness';
import { describeFleet, type FleetContext } from './fleetSuite';

const fleet = {} as CommandFleet;
const HOUR = 3_600_000;

describeFleet(
  'remote commands',
  (context: FleetContext) => {
    const call = (method: 'GET' | 'POST', path: string, body?: unknown, options: { token?: string; lang?: string } = {}) =>
      context.server.call(method, path, { token: options.token ?? context.token, body, lang: options.lang });
    const send = async (rvmId: number, command: string, params?: Record<string, unknown>) => {
      const answer = await call('POST', '/rvm/command', { rvmId, command, ...(params ? { params } : {}) });
      expect(answer.body.resCode, answer.body.resMsg).toBe('00000');
      return answer.body.resData as { id: number; status: string; [key: string]: unknown };
    };

    it('creates a command: the record, delivery asked of the gateway, the audit row', async () => {
      const [machine] = fleet.h30;
      const record = await send(machine, 'restart');
      const [{ termNo }] = await context.server.db.select({ termNo: rvm.termNo }).from(rvm).where(eq(rvm.id, machine));
      expect(record).toMatchObject({
        rvmId: machine,
        termNo,
        command: 'restart',
        params: {},
        status: 'notSent',
        attempts: 0,
        batchId: null,
        resendOf: null,
        // the sender's real name (the seed's admin is "Administrator"), not the user name
        createdByName: 'Administrator',
      });
      expect(Date.parse(record.expiresTime as string) - Date.parse(record.createdTime as string)).toBe(24 * HOUR);
      expect(fleet.delivered).toContain(machine);
      const [audit] = await context.server.db.select().from(auditLog).where(eq(auditLog.action, 'command.restart')).orderBy(desc(auditLog.id)).limit(1);
      expect(audit).toMatchObject({
        userName: 'admin',
        outcome: 'queued',
        resource: 'machine',
        recordId: machine,
        target: { rvmIds: [machine], commandIds: [record.id] },
        detail: { params: {} },
      });
    });

    it('claims waiting commands once, oldest first; release puts them back; ack and result move them on', async () => {
      const machine = fleet.h30[1];
      const first = await send(machine, 'open');
      const second = await send(machine, 'setOnOffTime', { onTime: '07:30', offTime: '22:15' });
      const before = await commandRow(context, first.id);
      const claimed = await claimPending(context.server.db, machine);
      expect(claimed).toEqual([
        { v: 1, commandId: first.id, command: 'open', params: {}, expiresAt: first.expiresTime },
        { v: 1, commandId: second.id, command: 'setOnOffTime', params: { onTime: '07:30', offTime: '22:15' }, expiresAt: second.expiresTime },
      ]);
      const sending = await commandRow(context, first.id);
      expect(sending).toMatchObject({ status: 'sending', attempts: 1 });
      expect(sending.sentTime).not.toBeNull();
      expect(sending.updatedTime.getTime()).toBeGreaterThanOrEqual(before.updatedTime.getTime());
      expect(await claimPending(context.server.db, machine)).toEqual([]);

      await releaseClaimed(context.server.db, [first.id, second.id]);
      expect(await commandRow(context, first.id)).toMatchObject({ status: 'notSent', sentTime: null, attempts: 1 });
      expect((await claimPending(context.server.db, machine)).map((message) => message.commandId)).toEqual([first.id, second.id]);
      expect((await commandRow(context, first.id)).attempts).toBe(2);

      const at = new Date();
      const db = context.server.db;
      expect(await applyAck(db, machine, { commandId: first.id, accepted: true }, at)).toBe(true);
      expect(await commandRow(context, first.id)).toMatchObject({ status: 'sent', ackTime: at });
      // Idempotent: the same ack again, another machine's ack and an unknown id change nothing.
      expect(await applyAck(db, machine, { commandId: first.id, accepted: false, reason: 'late' }, at)).toBe(false);
      expect(await applyAck(db, fleet.h30[2], { commandId: second.id, accepted: true }, at)).toBe(false);
      expect(await applyAck(db, machine, { commandId: 987_654_321, accepted: true }, at)).toBe(false);
      expect((await commandRow(context, first.id)).status).toBe('sent');
      expect((await commandRow(context, second.id)).status).toBe('sending');

      expect(await applyResult(db, machine, { commandId: first.id, success: false, message: 'door jammed' }, at)).toBe(true);
      expect(await commandRow(context, first.id)).toMatchObject({
        status: 'executedFailed',
        statusReason: 'door jammed',
        result: { success: false, message: 'door jammed', fileId: null },
        finishedTime: at,
      });
      expect(await applyResult(db, machine, { commandId: first.id, success: true }, at)).toBe(false);
      expect((await commandRow(context, first.id)).status).toBe('executedFailed');

      // A result straight after sending (no ack seen) succeeds and writes the machine's on/off times.
      expect(await applyResult(db, machine, { commandId: second.id, success: true, message: 'done' }, at)).toBe(true);
      expect(await commandRow(context, second.id)).toMatchObject({ status: 'executedSuccessfully', ackTime: at });
      const [times] = await db.select({ onTime: rvm.onTime, offTime: rvm.offTime }).from(rvm).where(eq(rvm.id, machine));
      expect(times).toEqual({ onTime: '07:30', offTime: '22:15' });
    });

    it('a refused ack fails the command; a result of a command never sent is ignored; binHeight writes the bin heights', async () => {
      const machine = fleet.h30[2];
      const db = context.server.db;
      const refused = await send(machine, 'clearAlarms');
      const heights = { binEmptyHeight: 130, binFullHeight: 30, binAlmostFull: 75, binAlreadyFull: 90 };
      const bins = await send(machine, 'binHeight', heights);
      expect(await applyResult(db, machine, { commandId: bins.id, success: true }, new Date())).toBe(false);
      await claimPending(db, machine);
      expect(await applyAck(db, machine, { commandId: refused.id, accepted: false, reason: 'busy' }, new Date())).toBe(true);
      expect(await commandRow(context, refused.id)).toMatchObject({ status: 'sendFailed', statusReason: 'busy' });
      expect(await applyResult(db, machine, { commandId: refused.id, success: true }, new Date())).toBe(false);

      expect(await applyAck(db, machine, { commandId: bins.id, accepted: true }, new Date())).toBe(true);
      // a machine's long message: the status reason keeps its first 200 characters, the result the whole text
      const long = `${'a'.repeat(199)}bc${'d'.repeat(49)}`;
      expect(await applyResult(db, machine, { commandId: bins.id, success: true, message: long }, new Date())).toBe(true);
      expect(await commandRow(context, bins.id)).toMatchObject({ statusReason: `${'a'.repeat(199)}b`, result: { success: true, message: long } });
      const [stored] = await db
        .select({ binEmptyHeight: rvm.binEmptyHeight, binFullHeight: rvm.binFullHeight, binAlmostFull: rvm.binAlmostFull, binAlreadyFull: rvm.binAlreadyFull })
        .from(rvm)
        .where(eq(rvm.id, machine));
      expect(stored).toEqual(heights);
    });

    it('two claims at once never hand out the same command', async () => {
      const machine = fleet.h30[3];
      const created = [];
      for (const command of ['restart', 'close', 'open', 'clearAlarms', 'uiServiceReset', 'uiCounterReset', 'remoteDiagnosis', 'restartC750'])
        created.push((await send(machine, command)).id);
      const claims = await Promise.all([0, 1, 2].map(() => claimPending(context.server.db, machine)));
      const ids = claims.flat().map((message) => message.commandId);
      expect(ids.sort((a, b) => a - b)).toEqual([...created].sort((a, b) => a - b));
      const rows = await context.server.db.select({ attempts: rvmCommand.attempts }).from(rvmCommand).where(eq(rvmCommand.rvmId, machine));
      expect(rows.every((row) => row.attempts === 1)).toBe(true);

      // Forced overlap (PostgreSQL has real concurrent connections; PGlite runs one statement at a
      // time): a claim inside an open transaction, and a second claim on another connection meanwhile.
      if (context.server.backend !== 'postgres') return;
      await ageCommands(context, machine, 60);
      const more = [(await send(machine, 'restart')).id, (await send(machine, 'open')).id];
      let second: number[] = [];
      const first = await context.server.db.transaction(async (tx) => {
        const mine = await claimPending(tx, machine);
        // Must not wait for the open transaction (it would never end) nor take its rows.
        const timeout = new Promise<never>((_, reject) => setTimeout(() => reject(new Error('second claim blocked')), 10_000));
        second = (await Promise.race([claimPending(context.server.db, machine), timeout])).map((message) => message.commandId);
        return mine.map((message) => message.commandId);
      });
      expect(first).toEqual(more);
      expect(second).toEqual([]);
      expect(await claimPending(context.server.db, machine)).toEqual([]);
    });

    it('expires commands not delivered in time (the periodic job); acknowledged ones fail only an hour after their expiry', async () => {
      const machine = fleet.h30[4];
      const waiting = await send(machine, 'restart');
      const sending = await send(machine, 'open');
      const sent = await send(machine, 'close');
      await context.server.db.update(rvmCommand).set({ status: 'notSent' }).where(eq(rvmCommand.id, waiting.id));
      await context.server.db.update(rvmCommand).set({ status: 'sending' }).where(eq(rvmCommand.id, sending.id));
      await context.server.db.update(rvmCommand).set({ status: 'sent' }).where(eq(rvmCommand.id, sent.id));
      const later = new Date(Date.now() + 24.5 * HOUR);
      expect(await claimPending(context.server.db, machine, later)).toEqual([]);
      expect(await expireCommands(context.server.db, new Date())).toBe(0);
      await context.server.app.services.jobs.runNow('expireCommands', later);
      expect(await commandRow(context, waiting.id)).toMatchObject({ status: 'sendFailed', statusReason: 'expired', finishedTime: later });
      expect(await commandRow(context, sending.id)).toMatchObject({ status: 'sendFailed', statusReason: 'expired' });
      expect((await commandRow(context, sent.id)).status).toBe('sent');
      const muchLater = new Date(Date.now() + 25.5 * HOUR);
      await context.server.app.services.jobs.runNow('expireCommands', muchLater);
      expect(await commandRow(context, sent.id)).toMatchObject({ status: 'executedFailed', statusReason: 'noResult', finishedTime: muchLater });
    });

    it('8000 for a model without the command, 8001 for a repeat within the interval (cancelled ones and older ones do not count)', async () => {
      expect(supportsCommand('S1', 'binHeight')).toBe(false);
      for (const [rvmId, command, params] of [
        [fleet.s1, 'restartC750', undefined],
        [fleet.s1, 'binHeight', { binEmptyHeight: 120, binFullHeight: 20, binAlmostFull: 80, binAlreadyFull: 95 }],
        [fleet.m5, 'restartC750', undefined],
      ] as const) {
        const answer = await call('POST', '/rvm/command', { rvmId, command, params }, { lang: 'zh' });
        expect(answer.body).toMatchObject({ resCode: '8000', resMsg: translate('zh', 'errors.8000') });
      }
      const [refusal] = await context.server.db
        .select()
        .from(auditLog)
        .where(and(eq(auditLog.action, 'command.restartC750'), eq(auditLog.outcome, 'refused')))
        .orderBy(auditLog.id)
        .limit(1);
      expect(refusal.detail).toMatchObject({ refused: [{ rvmId: fleet.s1, code: '8000' }] });

      const machine = fleet.m5;
      const first = await send(machine, 'uiServiceReset');
      const again = await call('POST', '/rvm/command', { rvmId: machine, command: 'uiServiceReset' });
      expect(again.body).toMatchObject({ resCode: '8001', resMsg: 'Frequent send command' });
      await send(machine, 'uiCounterReset'); // another command is not a repeat
      expect((await call('POST', `/rvm/command/${first.id}/cancel`)).body.resData.status).toBe('cancelled');
      const afterCancel = await send(machine, 'uiServiceReset');
      expect((await call('POST', '/rvm/command', { rvmId: machine, command: 'uiServiceReset' })).body.resCode).toBe('8001');
      await ageCommands(context, machine, 11);
      const afterInterval = await send(machine, 'uiServiceReset');
      expect(afterInterval.id).toBeGreaterThan(afterCancel.id);
    });

    it('two senders of the same command to one machine at once: one is queued, the other is a repeat (8001)', async () => {
      // the machine's row is locked while its recent commands are read, so the second sees the first's
      const machine = fleet.h30[4];
      await ageCommands(context, machine, 3600);
      const answers = await Promise.all([0, 1].map(() => call('POST', '/rvm/command', { rvmId: machine, command: 'uiServiceReset' })));
      expect(answers.map((answer) => answer.body.resCode).sort()).toEqual(['00000', '8001']);
    });

    it("validates parameters with the machine's bin and on/off rules, in the caller's language", async () => {
      const machine = fleet.h30[5];
      const bins = (change: Record<string, unknown>) => ({ binEmptyHeight: 120, binFullHeight: 20, binAlmostFull: 80, binAlreadyFull: 95, ...change });
      const cases = [
        ['binHeight', bins({ binEmptyHeight: 20, binFullHeight: 30 }), '1004', 'params.binEmptyHeight', 'fleet.validation.binEmptyAboveFull', {}],
        ['binHeight', bins({ binEmptyHeight: 150 }), '1004', 'params.binEmptyHeight', 'validation.max', { max: 149 }],
        ['binHeight', bins({ binFullHeight: 10 }), '1004', 'params.binFullHeight', 'validation.min', { min: 11 }],
        ['binHeight', bins({ binFullHeight: 20.5 }), '1003', 'params.binFullHeight', 'validation.integer', {}],
        ['binHeight', bins({ binAlmostFull: 96 }), '1004', 'params.binAlmostFull', 'fleet.validation.almostFullNotAboveFull', {}],
        ['binHeight', { binEmptyHeight: 120 }, '1001', 'params.binFullHeight', 'validation.required', {}],
        ['setOnOffTime', { onTime: '22:00', offTime: '06:00' }, '1004', 'params.offTime', 'validation.endAfterStart', {}],
        ['setOnOffTime', { onTime: '7:00', offTime: '18:00' }, '1004', 'params.onTime', 'fleet.validation.timeOfDay', {}],
        ['downloadLogs', { from: '2025-03-02T00:00:00Z', to: '2025-03-01T00:00:00Z' }, '1004', 'params.to', 'validation.endAfterStart', {}],
        ['maintenance', { enabled: 'yes' }, '1003', 'params.enabled', 'validation.boolean', {}],
        ['restart', { force: true }, '1004', 'params.force', 'validation.unknownField', { field: 'force' }],
      ] as const;
      for (const lang of ['en', 'zh'] as const) {
        for (const [command, params, code, field, message, values] of cases) {
          const answer = await call('POST', '/rvm/command', { rvmId: machine, command, params }, { lang });
          expect(answer.body.resCode, `${command} ${JSON.stringify(params)}`).toBe(code);
          expect(answer.body.resData.issues).toContainEqual({ field, message: translate(lang, message, values) });
        }
      }
      expect(translate('zh', 'validation.endAfterStart')).not.toBe(translate('en', 'validation.endAfterStart'));
      expect((await call('POST', '/rvm/command', { rvmId: machine, command: 'selfDestruct' })).body.resCode).toBe('1004');
      expect((await call('POST', '/rvm/command', { rvmId: machine, command: 'restart', extra: 1 })).body.resCode).toBe('1004');
      expect((await call('POST', '/rvm/command', { command: 'restart' })).body.resCode).toBe('1001');
      expect(await context.server.db.select().from(rvmCommand).where(eq(rvmCommand.rvmId, machine))).toEqual([]);
      // Valid: datetimes reach the machine as ISO 8601.
      const logs = await send(machine, 'downloadLogs', { from: '2025-03-01 08:00:00Z', to: '2025-03-02T08:00:00Z' });
      expect(logs.params).toEqual({ from: '2025-03-01T08:00:00.000Z', to: '2025-03-02T08:00:00.000Z' });
      expect((await send(machine, 'maintenance', { enabled: true })).params).toEqual({ enabled: true });
    });

    it('4003 without the RemoteControl permission; a user holding only it may send', async () => {
      const plain = await userWith(context, 'nocmd', ['machine:page']);
      const remote = await userWith(context, 'remote', ['installation:rvmpage:RemoteControl']);
      const machine = fleet.h30[0];
      for (const [method, path, body] of [
        ['POST', '/rvm/command', { rvmId: machine, command: 'close' }],
        ['POST', '/rvm/command/page', {}],
        ['POST', '/rvm/command/batch', { command: 'close', ids: [machine] }],
        ['POST', '/audit-log/page', {}],
        ['GET', '/rvm/command/stream', undefined],
        ['GET', '/rvm/file/1', undefined],
      ] as const) {
        const answer = await call(method, path, body, { token: plain });
        expect(answer.body.resCode, path).toBe('4003');
        expect(answer.status).toBe(403);
      }
      expect((await call('POST', '/rvm/command', { rvmId: machine, command: 'close' }, { token: remote })).body.resCode).toBe('00000');
    });

    it("another license account's machine, command and file are out of reach (6001 / 2003)", async () => {
      const foreignCommand = await context.server.db
        .insert(rvmCommand)
        .values({ licenseAccountId: fleet.otherAccount, rvmId: fleet.foreign, command: 'restart', expiresTime: new Date(Date.now() + HOUR) })
        .returning({ id: rvmCommand.id });
      const [file] = await context.server.db
        .insert(rvmFile)
        .values({ licenseAccountId: fleet.otherAccount, rvmId: fleet.foreign, kind: 'log', name: 'x.log', contentType: 'text/plain', size: 1, content: Buffer.from('x') })
        .returning({ id: rvmFile.id });
      const create = await call('POST', '/rvm/command', { rvmId: fleet.foreign, command: 'restart' });
      expect(create.body).toMatchObject({ resCode: '6001', resMsg: 'The RVM does not exist' });
      expect((await call('POST', '/rvm/command/page', { rvmId: fleet.foreign })).body.resCode).toBe('6001');
      expect((await call('GET', `/rvm/command/stream?rvmId=${fleet.foreign}`)).body.resCode).toBe('6001');
      expect((await call('POST', `/rvm/command/${foreignCommand[0].id}/cancel`)).body.resCode).toBe('2003');
      expect((await call('POST', `/rvm/command/${foreignCommand[0].id}/resend`)).body.resCode).toBe('2003');
      expect((await call('GET', `/rvm/file/${file.id}`)).body.resCode).toBe('2003');
      const page = await call('POST', '/rvm/command/page', { pageNum: 1, pageSize: 500 });
      expect(page.body.resData.list.some((record: { id: number }) => record.id === foreignCommand[0].id)).toBe(false);
    });

    it('cancels only unfinished commands; a late ack or result after cancelling is ignored', async () => {
      const machine = fleet.h30[1];
      const db = context.server.db;
      await ageCommands(context, machine, 60);
      const command = await send(machine, 'restart');
      await claimPending(db, machine);
      const cancelled = await call('POST', `/rvm/command/${command.id}/cancel`);
      expect(cancelled.body.resData).toMatchObject({ id: command.id, status: 'cancelled', statusReason: 'cancelled' });
      expect(await applyAck(db, machine, { commandId: command.id, accepted: true }, new Date())).toBe(false);
      expect(await applyResult(db, machine, { commandId: command.id, success: true }, new Date())).toBe(false);
      expect((await commandRow(context, command.id)).status).toBe('cancelled');
      const again = await call('POST', `/rvm/command/${command.id}/cancel`);
      expect(again.body.resCode).toBe('5001');
      expect((await call('POST', '/rvm/command/999999999/cancel')).body.resCode).toBe('2003');
      const [audit] = await db.select().from(auditLog).where(eq(auditLog.action, 'command.cancel')).orderBy(desc(auditLog.id)).limit(1);
      expect(audit).toMatchObject({ outcome: 'cancelled', target: { rvmIds: [machine], commandIds: [command.id] } });
    });

    it('resends failed and cancelled commands only, as a new command pointing at the old one', async () => {
      const machine = fleet.h30[2];
      const db = context.server.db;
      await ageCommands(context, machine, 60);
      const command = await send(machine, 'remoteDiagnosis');
      expect((await call('POST', `/rvm/command/${command.id}/resend`)).body.resCode).toBe('5001');
      await claimPending(db, machine);
      await applyAck(db, machine, { commandId: command.id, accepted: false, reason: 'busy' }, new Date());
      // Still within the repeat interval of the original.
      expect((await call('POST', `/rvm/command/${command.id}/resend`)).body.resCode).toBe('8001');
      await ageCommands(context, machine, 60);
      const resent = await call('POST', `/rvm/command/${command.id}/resend`);
      expect(resent.body.resData).toMatchObject({ command: 'remoteDiagnosis', status: 'notSent', resendOf: command.id, rvmId: machine });
      const [audit] = await db.select().from(auditLog).where(eq(auditLog.action, 'command.remoteDiagnosis')).orderBy(desc(auditLog.id)).limit(1);
      expect(audit.target).toMatchObject({ commandIds: [resent.body.resData.id], resendOf: [command.id] });
    });

    it('pages commands newest first with filters', async () => {
      const machine = fleet.h30[0];
      const all = await call('POST', '/rvm/command/page', { pageNum: 1, pageSize: 500, rvmId: machine });
      expect(all.body.resCode).toBe('00000');
      const ids = all.body.resData.list.map((record: { id: number }) => record.id);
      expect(ids.length).toBeGreaterThanOrEqual(2);
      expect(all.body.resData.total).toBe(ids.length);
      expect([...ids].sort((a: number, b: number) => b - a)).toEqual(ids);
      const page = await call('POST', '/rvm/command/page', { pageNum: 2, pageSize: 1, rvmId: machine });
      expect(page.body.resData).toMatchObject({ pageNum: 2, pageSize: 1, total: ids.length, list: [{ id: ids[1] }] });
      const closes = await call('POST', '/rvm/command/page', { pageNum: 1, pageSize: 50, command: 'close', status: 'notSent' });
      expect(closes.body.resData.list.length).toBeGreaterThan(0);
      for (const record of closes.body.resData.list) expect(record).toMatchObject({ command: 'close', status: 'notSent' });
      expect((await call('POST', '/rvm/command/page', { status: 'lost' })).body.resCode).toBe('1004');
    });

    it('downloads a file a machine uploaded', async () => {
      const machine = fleet.h30[3];
      const content = Buffer.from('2025-03-01 08:00:01 boot ok\n');
      const [file] = await context.server.db
        .insert(rvmFile)
        .values({ licenseAccountId: context.accountId, rvmId: machine, kind: 'log', name: 'machine log.txt', contentType: 'text/plain', size: content.length, content })
        .returning({ id: rvmFile.id });
      const answer = await call('GET', `/rvm/file/${file.id}`);
      expect(answer.status).toBe(200);
      expect(answer.raw.headers['content-type']).toContain('text/plain');
      expect(answer.raw.headers['content-disposition']).toContain("filename*=UTF-8''machine%20log.txt");
      expect(answer.raw.rawPayload.equals(content)).toBe(true);
      expect((await call('GET', '/rvm/file/999999999')).body.resCode).toBe('2003');
      // A result naming the file links it to the command; another machine's file is not linked.
      const db = context.server.db;
      await ageCommands(context, machine, 60);
      const logs = await send(machine, 'downloadLogs');
      await claimPending(db, machine);
      expect(await applyResult(db, fleet.h30[4], { commandId: logs.id, success: true, fileId: file.id }, new Date())).toBe(false);
      expect(await applyResult(db, machine, { commandId: logs.id, success: true, fileId: file.id }, new Date())).toBe(true);
      expect((await commandRow(context, logs.id)).fileId).toBe(file.id);
    });

    it('lists the audit log newest first, by machine and action', async () => {
      const machine = fleet.h30[1];
      const answer = await call('POST', '/audit-log/page', { pageNum: 1, pageSize: 100, rvmId: machine });
      expect(answer.body.resCode).toBe('00000');
      const { list, total } = answer.body.resData;
      expect(total).toBe(list.length);
      expect(list.map((row: { action: string }) => row.action)).toEqual(expect.arrayContaining(['command.open', 'command.setOnOffTime', 'command.cancel']));
      for (const row of list) expect(row.target.rvmIds).toContain(machine);
      const times = list.map((row: { time: string }) => row.time);
      expect([...times].sort().reverse()).toEqual(times);
      const cancels = await call('POST', '/audit-log/page', { pageNum: 1, pageSize: 100, action: 'command.cancel' });
      expect(cancels.body.resData.list.every((row: { action: string; userName: string }) => row.action === 'command.cancel' && row.userName === 'admin')).toBe(true);
      const future = await call('POST', '/audit-log/page', { from: new Date(Date.now() + HOUR).toISOString() });
      expect(future.body.resData.total).toBe(0);
    });
  },
  (context) => setUpCommandFleet(context, fleet),
);
