// Remote commands to many machines (by ids or by the machine list's filter, refusals per machine,
// progress, resend failed) and the live stream of command changes (Server-Sent Events).
import { and, count, eq } from 'drizzle-orm';
import { expect, it } from 'vitest';
import { translate } from '../../i18n';
import { settleDeliveries } from '../../server/commands/create';
import { applyAck, applyResult, claimPending } from '../../server/commands/store';
import { MAX_STREAMS_PER_USER } from '../../server/commands/stream';
import { rvm } from '../../server/db/schema/fleet';
import { auditLog, rvmCommand, rvmCommandBatch } from '../../server/db/schema/liveFleet';
import { ageCommands, setUpCommandFleet, takeStreamBlocks, type CommandFleet } from './commandsHarness';
import { describeFleet, type FleetContext } from './fleetSuite';

const fleet = {} as CommandFleet;

describeFleet(
  'remote command batches and stream',
  (context: FleetContext) => {
    const call = (method: 'GET' | 'POST', path: string, body?: unknown, lang?: string) => context.server.call(method, path, { token: context.token, body, lang });

    it('sends to a list of ids, refusing per machine (6001, 8000, 8001) and queueing the others', async () => {
      const recent = fleet.h30[0];
      expect((await call('POST', '/rvm/command', { rvmId: recent, command: 'restartC750' })).body.resCode).toBe('00000');
      const ids = [...fleet.h30, fleet.s1, fleet.m5, fleet.foreign, fleet.h30[1]];
      const answer = await call('POST', '/rvm/command/batch', { command: 'restartC750', ids }, 'zh');
      expect(answer.body.resCode, answer.body.resMsg).toBe('00000');
      const { batchId, total, queued, refused } = answer.body.resData;
      expect(total).toBe(ids.length - 1); // the repeated id counts once
      expect(queued).toBe(fleet.h30.length - 1);
      const [s1] = await context.server.db.select({ termNo: rvm.termNo }).from(rvm).where(eq(rvm.id, fleet.s1));
      expect(refused).toEqual(
        expect.arrayContaining([
          { rvmId: fleet.foreign, termNo: null, code: '6001', message: translate('zh', 'errors.6001') },
          { rvmId: fleet.s1, termNo: s1.termNo, code: '8000', message: translate('zh', 'errors.8000') },
          { rvmId: fleet.m5, termNo: expect.any(String), code: '8000', message: translate('zh', 'errors.8000') },
          { rvmId: recent, termNo: expect.any(String), code: '8001', message: translate('zh', 'errors.8001') },
        ]),
      );
      expect(refused).toHaveLength(4);
      const commands = await context.server.db.select().from(rvmCommand).where(eq(rvmCommand.batchId, batchId));
      expect(commands.map((row) => row.rvmId).sort()).toEqual(fleet.h30.slice(1).sort());
      expect(commands.every((row) => row.status === 'notSent' && row.command === 'restartC750')).toBe(true);
      await settleDeliveries(context.server.app.services);
      expect(fleet.delivered).toEqual(expect.arrayContaining(fleet.h30.slice(1)));
      const [audit] = await context.server.db.select().from(auditLog).where(eq(auditLog.outcome, 'partial'));
      expect(audit).toMatchObject({ action: 'command.restartC750', target: { batchId } });
      expect((audit.target as { commandIds: number[] }).commandIds.sort()).toEqual(commands.map((row) => row.id).sort());
    });

    it('sends to the machines the list filter selects (the generic machine filters, sub-fleets included)', async () => {
      const [h30Count] = await context.server.db
        .select({ n: count() })
        .from(rvm)
        .where(and(eq(rvm.licenseAccountId, context.accountId), eq(rvm.termType, 'H30')));
      const answer = await call('POST', '/rvm/command/batch', { command: 'clearAlarms', filter: { termType: 'H30' } });
      expect(answer.body.resData).toMatchObject({ total: Number(h30Count.n), queued: Number(h30Count.n), refused: [] });
      const [batch] = await context.server.db.select().from(rvmCommandBatch).where(eq(rvmCommandBatch.id, answer.body.resData.batchId));
      expect(batch).toMatchObject({ command: 'clearAlarms', machineCount: Number(h30Count.n), selection: { filter: { termType: 'H30' } } });

      // fleetId selects the fleet with its sub-fleets, as POST /rvm/page does.
      const [{ fleetId }] = await context.server.db.select({ fleetId: rvm.fleetId }).from(rvm).where(eq(rvm.id, fleet.m5));
      const filter = { fleetId: [fleetId] };
      const listed = await call('POST', '/rvm/page', { pageNum: 1, pageSize: 500, ...filter });
      const byFilter = await call('POST', '/rvm/command/batch', { command: 'open', filter });
      expect(byFilter.body.resData.total).toBe(listed.body.resData.total);
      const targeted = await context.server.db.select({ rvmId: rvmCommand.rvmId }).from(rvmCommand).where(eq(rvmCommand.batchId, byFilter.body.resData.batchId));
      expect(targeted.map((row) => row.rvmId).sort()).toEqual(listed.body.resData.list.map((machine: { id: number }) => machine.id).sort());

      expect((await call('POST', '/rvm/command/batch', { command: 'open', filter: { termType: 'none' } })).body.resData).toEqual({
        batchId: null,
        total: 0,
        queued: 0,
        refused: [],
      });
      expect((await call('POST', '/rvm/command/batch', { command: 'open' })).body.resCode).toBe('1001');
      expect((await call('POST', '/rvm/command/batch', { command: 'open', ids: [fleet.m5], filter: {} })).body.resCode).toBe('1004');
      expect((await call('POST', '/rvm/command/batch', { command: 'open', filter: { pageNum: 1 } })).body.resCode).toBe('1004');
      expect((await call('POST', '/rvm/command/batch', { command: 'open', filter: { colour: 'red' } })).body.resCode).toBe('1004');
      const invalid = await call('POST', '/rvm/command/batch', {
        command: 'binHeight',
        ids: [fleet.m5],
        params: { binEmptyHeight: 20, binFullHeight: 30, binAlmostFull: 1, binAlreadyFull: 2 },
      });
      expect(invalid.body.resData.issues).toContainEqual({ field: 'params.binEmptyHeight', message: translate('en', 'fleet.validation.binEmptyAboveFull') });
    });

    it('shows a batch: counts by status, its commands paged and by status; resends its failed commands once', async () => {
      const db = context.server.db;
      for (const id of fleet.h30) await ageCommands(context, id, 60);
      const created = await call('POST', '/rvm/command/batch', { command: 'uiCounterReset', ids: fleet.h30 });
      const { batchId } = created.body.resData;
      const commands = await db.select().from(rvmCommand).where(eq(rvmCommand.batchId, batchId));
      const byMachine = new Map(commands.map((row) => [row.rvmId, row.id]));
      const [refusedBy, failedBy, doneBy] = fleet.h30;
      for (const id of [refusedBy, failedBy, doneBy]) await claimPending(db, id);
      await applyAck(db, refusedBy, { commandId: byMachine.get(refusedBy) as number, accepted: false, reason: 'busy' }, new Date());
      await applyResult(db, failedBy, { commandId: byMachine.get(failedBy) as number, success: false, message: 'no counter' }, new Date());
      await applyResult(db, doneBy, { commandId: byMachine.get(doneBy) as number, success: true }, new Date());

      const shown = await call('GET', `/rvm/command/batch/${batchId}?pageNum=1&pageSize=2`);
      expect(shown.body.resCode).toBe('00000');
      const data = shown.body.resData;
      expect(data.batch).toMatchObject({ id: batchId, command: 'uiCounterReset', params: {}, machineCount: fleet.h30.length, createdByName: expect.any(String) });
      expect(data.counts).toEqual({ notSent: fleet.h30.length - 3, sending: 0, sent: 0, sendFailed: 1, executedSuccessfully: 1, executedFailed: 1, cancelled: 0 });
      expect(data.total).toBe(fleet.h30.length);
      expect(data.list).toHaveLength(2);
      const failedOnly = await call('GET', `/rvm/command/batch/${batchId}?status=sendFailed`);
      expect(failedOnly.body.resData.list).toEqual([expect.objectContaining({ rvmId: refusedBy, status: 'sendFailed', statusReason: 'busy' })]);

      // Within the repeat interval the failed machines are refused, as any repeat is.
      const early = await call('POST', `/rvm/command/batch/${batchId}/resendFailed`);
      expect(early.body.resData).toMatchObject({ total: 2, queued: 0 });
      expect(early.body.resData.refused.map((refusal: { code: string }) => refusal.code)).toEqual(['8001', '8001']);
      for (const id of fleet.h30) await ageCommands(context, id, 60);
      const resent = await call('POST', `/rvm/command/batch/${batchId}/resendFailed`);
      expect(resent.body.resData).toMatchObject({ total: 2, queued: 2, refused: [] });
      const again = await db.select().from(rvmCommand).where(eq(rvmCommand.batchId, resent.body.resData.batchId));
      expect(new Map(again.map((row) => [row.rvmId, row.resendOf]))).toEqual(
        new Map([
          [refusedBy, byMachine.get(refusedBy)],
          [failedBy, byMachine.get(failedBy)],
        ]),
      );
      // Already resent: nothing left to resend.
      expect((await call('POST', `/rvm/command/batch/${batchId}/resendFailed`)).body.resData).toEqual({ batchId: null, total: 0, queued: 0, refused: [] });

      const foreignBatch = await db
        .insert(rvmCommandBatch)
        .values({ licenseAccountId: fleet.otherAccount, command: 'open', selection: {}, machineCount: 0 })
        .returning({ id: rvmCommandBatch.id });
      expect((await call('GET', `/rvm/command/batch/${foreignBatch[0].id}`)).body.resCode).toBe('2003');
      expect((await call('POST', `/rvm/command/batch/${foreignBatch[0].id}/resendFailed`)).body.resCode).toBe('2003');
      expect((await call('GET', `/rvm/command/stream?batchId=${foreignBatch[0].id}`)).body.resCode).toBe('2003');
    });

    it('streams command changes as Server-Sent Events', async () => {
      const { app, db } = context.server;
      const address = await app.listen({ port: 0, host: '127.0.0.1' });
      const machine = fleet.h30[5];
      await ageCommands(context, machine, 60);
      const abort = new AbortController();
      const response = await fetch(`${address}/test-api/rvm/command/stream?rvmId=${machine}`, { headers: { 'rvm-token': context.token }, signal: abort.signal });
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toContain('text/event-stream');
      const reader = (response.body as ReadableStream<Uint8Array>).getReader();
      const decoder = new TextDecoder();
      let text = '';
      const events: Array<{ event: string; data: any }> = [];
      // Reads until `want` answers true for the events so far (the time-out aborts the read).
      const until = async (want: () => boolean) => {
        const timer = setTimeout(() => abort.abort(), 15_000);
        try {
          while (!want()) {
            const { value, done } = await reader.read();
            if (done) throw new Error('stream ended');
            const { blocks, rest } = takeStreamBlocks(text + decoder.decode(value, { stream: true }));
            text = rest;
            for (const { event, data } of blocks) if (event) events.push({ event, data });
          }
        } finally {
          clearTimeout(timer);
        }
      };
      try {
        await until(() => events.length > 0);
        expect(events[0].event).toBe('ready');
        const other = await call('POST', '/rvm/command', { rvmId: fleet.m5, command: 'restart' });
        const created = await call('POST', '/rvm/command', { rvmId: machine, command: 'restart' });
        const id = created.body.resData.id;
        await until(() => events.some((event) => event.data?.id === id));
        await claimPending(db, machine);
        await applyAck(db, machine, { commandId: id, accepted: true }, new Date());
        await until(() => events.some((event) => event.data?.id === id && event.data.status === 'sent'));
        const mine = events.filter((event) => event.event === 'command');
        expect(mine.every((event) => event.data.rvmId === machine)).toBe(true);
        expect(mine.some((event) => event.data.id === other.body.resData.id)).toBe(false);
        expect(mine.find((event) => event.data.status === 'sent')?.data).toMatchObject({ id, termNo: expect.any(String), command: 'restart', ackTime: expect.any(String) });
        // Each version is sent once, though every poll looks back.
        const versions = mine.map((event) => `${event.data.id}|${event.data.status}|${event.data.updatedTime}`);
        expect(new Set(versions).size).toBe(versions.length);
      } finally {
        abort.abort();
      }
    });

    it('ends a stream as soon as its token is revoked on another instance, not at its next keep-alive check', async () => {
      const other = await context.server.anotherInstance();
      const address = await other.listen({ port: 0, host: '127.0.0.1' });
      const token = await context.server.login();
      const response = await fetch(`${address}/test-api/rvm/command/stream`, { headers: { 'rvm-token': token } });
      const reader = (response.body as ReadableStream<Uint8Array>).getReader();
      expect(new TextDecoder().decode((await reader.read()).value)).toContain('event: ready');
      expect((await context.server.call('GET', '/login/logout', { token })).body.resCode).toBe('00000');
      const started = Date.now();
      // The keep-alive check comes 15 s after the stream opened: ending well before it proves the
      // change notification ended the stream (it takes milliseconds; 10 s leaves room for a busy machine).
      for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) expect(chunk.value && new TextDecoder().decode(chunk.value)).not.toContain('event: command');
      expect(Date.now() - started).toBeLessThan(10_000);
      await other.close();
    }, 60_000);

    it(`lets one user open at most ${MAX_STREAMS_PER_USER} streams on an instance (4029 beyond), and a closed one frees its place`, async () => {
      const other = await context.server.anotherInstance();
      const address = await other.listen({ port: 0, host: '127.0.0.1' });
      const token = await context.server.login();
      const open = (signal?: AbortSignal) => fetch(`${address}/test-api/rvm/command/stream`, { headers: { 'rvm-token': token }, signal });
      // One more than allowed, sent together: exactly one is refused. (Whether they interleave inside the server
      // is up to timing: the place taken at the check, not at the stream's start, is not proven by this.)
      const aborts = Array.from({ length: MAX_STREAMS_PER_USER + 1 }, () => new AbortController());
      const answers = await Promise.all(aborts.map((abort) => open(abort.signal)));
      const streams = answers.filter((answer) => answer.status === 200);
      expect(streams).toHaveLength(MAX_STREAMS_PER_USER);
      for (const stream of streams) expect(new TextDecoder().decode((await stream.body!.getReader().read()).value)).toContain('event: ready');
      const [refused] = answers.filter((answer) => answer.status !== 200);
      expect([refused.status, (await refused.json()).resCode]).toEqual([429, '4029']);
      expect((await open()).status).toBe(429);
      aborts[answers.indexOf(streams[0])].abort();
      await expect
        .poll(
          async () => {
            const again = await open();
            if (again.status === 200) await again.body?.cancel();
            return again.status;
          },
          { timeout: 20_000 },
        )
        .toBe(200);
      for (const abort of aborts) abort.abort();
      await other.close();
    }, 60_000);

    it('ends open streams when the server closes', async () => {
      const other = await context.server.anotherInstance();
      const address = await other.listen({ port: 0, host: '127.0.0.1' });
      const response = await fetch(`${address}/test-api/rvm/command/stream`, { headers: { 'rvm-token': context.token } });
      const reader = (response.body as ReadableStream<Uint8Array>).getReader();
      expect(new TextDecoder().decode((await reader.read()).value)).toContain('event: ready');
      // close() waits for open connections: it only returns because the stream was ended.
      await other.close();
      for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read());
    });
  },
  (context) => setUpCommandFleet(context, fleet),
);
