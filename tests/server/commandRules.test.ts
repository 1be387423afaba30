// The command rules below the routes (docs/machine-protocol.md "Commands"), called directly: the order a
// machine receives its waiting commands in, what an ack or result without the usual fields leaves behind,
// which commands write the machine's own fields, how queueing treats repeated and unknown machines, and
// background delivery's bookkeeping. One backend: none of this differs between PGlite and PostgreSQL
// (the claim under concurrent callers, which does, is in commands.test.ts on both).
import { desc, eq, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { expect, it } from 'vitest';
import { deliverInBackground, queueCommands, settleDeliveries, type Target } from '../../server/commands/create';
import type { Actor } from '../../server/commands/shared';
import { applyAck, applyResult, claimPending } from '../../server/commands/store';
import { rvm } from '../../server/db/schema/fleet';
import { auditLog, rvmCommand } from '../../server/db/schema/liveFleet';
import type { Services } from '../../server/services';
import { ageCommands, commandRow, setUpCommandFleet, type CommandFleet } from './commandsHarness';
import { describeFleetOneBackend, type FleetContext } from './fleetSuite';

const fleet = {} as CommandFleet;

describeFleetOneBackend(
  'command rules',
  (context: FleetContext) => {
    const actor = (): Actor => ({ account: context.accountId, userId: 1, userName: 'admin', displayName: 'Administrator' });
    const target = async (id: number): Promise<Target> => {
      const [row] = await context.server.db.select({ id: rvm.id, termNo: rvm.termNo, termType: rvm.termType }).from(rvm).where(eq(rvm.id, id));
      return row;
    };
    const lastAudit = async () => (await context.server.db.select().from(auditLog).orderBy(desc(auditLog.id)).limit(1))[0];
    const queue = async (rvmIds: number[], command: 'restart' | 'open' | 'maintenance' | 'setOnOffTime', params: Record<string, unknown> = {}, missing?: number[]) =>
      queueCommands(context.server.db, context.server.app.services, actor(), { command, params, targets: await Promise.all(rvmIds.map(target)), missing });

    it('hands a machine its waiting commands oldest first, and those created together in the order they were queued', async () => {
      const machine = fleet.h30[0];
      const { queued } = await queue([machine], 'restart');
      const [second] = (await queue([machine], 'open')).queued;
      const [third] = (await queue([machine], 'maintenance', { enabled: true })).queued;
      // the newest row is the oldest command; the other two were created in the same instant. Written in this order,
      // the table holds them as second, first, third: neither their ids nor where they lie give the order.
      const createdAt = (id: number, minutesAgo: number) =>
        context.server.db
          .update(rvmCommand)
          .set({ createdTime: sql`date_trunc('second', now()) - make_interval(mins => ${minutesAgo})` })
          .where(eq(rvmCommand.id, id));
      await createdAt(second.id, 1);
      await createdAt(queued[0].id, 1);
      await createdAt(third.id, 2);
      expect((await claimPending(context.server.db, machine)).map((message) => message.commandId)).toEqual([third.id, queued[0].id, second.id]);
    });

    it("an ack may come before the claim; a refusal without a reason says 'refused'", async () => {
      const machine = fleet.h30[1];
      const [accepted] = (await queue([machine], 'restart')).queued;
      const [refused] = (await queue([machine], 'open')).queued;
      // still waiting (notSent): the machine learnt of it by another way and acknowledges it
      expect(await applyAck(context.server.db, machine, { commandId: accepted.id, accepted: true }, new Date())).toBe(true);
      expect((await commandRow(context, accepted.id)).status).toBe('sent');
      expect(await applyAck(context.server.db, machine, { commandId: refused.id, accepted: false }, new Date())).toBe(true);
      expect(await commandRow(context, refused.id)).toMatchObject({ status: 'sendFailed', statusReason: 'refused' });
    });

    it("only a successful command that stores its params writes the machine's fields; a command without them writes nothing", async () => {
      const machine = fleet.h30[2];
      const db = context.server.db;
      const timesOf = async () => (await db.select({ onTime: rvm.onTime, offTime: rvm.offTime }).from(rvm).where(eq(rvm.id, machine)))[0];
      await db.update(rvm).set({ onTime: '06:00', offTime: '23:00' }).where(eq(rvm.id, machine));
      const [failed] = (await queue([machine], 'setOnOffTime', { onTime: '08:00', offTime: '20:00' })).queued;
      await claimPending(db, machine);
      expect(await applyResult(db, machine, { commandId: failed.id, success: false, message: 'clock locked' }, new Date())).toBe(true);
      expect(await timesOf()).toEqual({ onTime: '06:00', offTime: '23:00' });

      // a command with params that are not the machine's (maintenance's `enabled`) succeeds and changes no field
      const [maintenance] = (await queue([machine], 'maintenance', { enabled: true })).queued;
      await claimPending(db, machine);
      const before = (await db.select().from(rvm).where(eq(rvm.id, machine)))[0];
      expect(await applyResult(db, machine, { commandId: maintenance.id, success: true }, new Date())).toBe(true);
      expect((await db.select().from(rvm).where(eq(rvm.id, machine)))[0]).toEqual(before);

      // a stored command without any of its params (an older row): nothing to write, still a success
      await ageCommands(context, machine, 3600); // past the repeat interval
      const [bare] = (await queue([machine], 'setOnOffTime', { onTime: '09:00', offTime: '21:00' })).queued;
      await db.update(rvmCommand).set({ params: {} }).where(eq(rvmCommand.id, bare.id));
      await claimPending(db, machine);
      expect(await applyResult(db, machine, { commandId: bare.id, success: true }, new Date())).toBe(true);
      expect(await commandRow(context, bare.id)).toMatchObject({ status: 'executedSuccessfully', result: { success: true, message: null, fileId: null } });
      expect(await timesOf()).toEqual({ onTime: '06:00', offTime: '23:00' });
    });

    it('queues a machine named twice once; unknown ids are refused (6001) and named in the audit row; a single command has no batch', async () => {
      const [machine] = fleet.h30.slice(3);
      const twice = await target(machine);
      const outcome = await queueCommands(context.server.db, context.server.app.services, actor(), { command: 'restart', params: {}, targets: [twice, twice] });
      expect(outcome.queued.map((row) => row.rvmId)).toEqual([machine]);
      expect(await lastAudit()).toMatchObject({ recordId: machine, target: { rvmIds: [machine], commandIds: [outcome.queued[0].id] } });
      expect(Object.keys((await lastAudit()).target as object)).not.toContain('batchId');

      // nothing queued, one machine refused: the row still names it
      const unknown = 987_654;
      expect(await queue([], 'open', {}, [unknown])).toMatchObject({ batchId: null, queued: [], refused: [{ rvmId: unknown, termNo: null, code: '6001' }] });
      expect(await lastAudit()).toMatchObject({ outcome: 'refused', recordId: unknown, target: { rvmIds: [unknown] }, detail: { refused: [{ rvmId: unknown, code: '6001' }] } });

      // two machines: the row names neither (the audit screen filters by one machine)
      await queue([fleet.h30[4]], 'open', {}, [unknown]);
      expect(await lastAudit()).toMatchObject({ outcome: 'partial', recordId: null, target: { rvmIds: [fleet.h30[4], unknown] } });
    });

    it('delivers in the background, at most 16 at a time; a failed delivery is logged with its machine; settling waits for all', async () => {
      let running = 0;
      let most = 0;
      const delivered: number[] = [];
      const release: Array<() => void> = [];
      const gateway = {
        deliverPending: async (rvmId: number) => {
          running++;
          most = Math.max(most, running);
          await new Promise<void>((resolve) => release.push(resolve));
          running--;
          if (rvmId === 7) throw new Error('broker away');
          delivered.push(rvmId);
        },
      };
      const services = { gateway } as unknown as Services;
      const warnings: unknown[][] = [];
      const log = { warn: (...args: unknown[]) => warnings.push(args) } as unknown as FastifyBaseLogger;
      void deliverInBackground(
        services,
        Array.from({ length: 20 }, (_, index) => index + 1),
        log,
      );
      let settled = false;
      const settling = settleDeliveries(services).then(() => (settled = true));
      // release the deliveries one by one: settling waits until the last has ended
      for (let released = 0; released < 20; released++) {
        while (!release.length) await new Promise((resolve) => setImmediate(resolve));
        expect(settled).toBe(false);
        release.shift()?.();
      }
      await settling;
      expect(most).toBe(16);
      expect(delivered).toHaveLength(19);
      expect(warnings).toEqual([[{ err: new Error('broker away'), rvmId: 7 }, 'command delivery failed']]);
      // nothing under way: settling answers at once
      await settleDeliveries(services);
      await settleDeliveries({} as Services);
    });

    it('filters the machine audit log by an action of at most 48 characters; a longer one is refused (1002)', async () => {
      const page = (action: string) => context.server.call('POST', '/audit-log/page', { token: context.token, body: { action, pageNum: 1, pageSize: 10 } });
      expect((await page('c'.repeat(48))).body).toMatchObject({ resCode: '00000', resData: { list: [], total: 0 } });
      expect((await page('c'.repeat(49))).body.resCode).toBe('1002');
    });

    it("answers a command's result with its record", async () => {
      const machine = fleet.h30[5];
      const [command] = (await queue([machine], 'restart')).queued;
      await claimPending(context.server.db, machine);
      await applyResult(context.server.db, machine, { commandId: command.id, success: true, message: 'restarted' }, new Date());
      const page = await context.server.call('POST', '/rvm/command/page', { token: context.token, body: { rvmId: machine, pageNum: 1, pageSize: 10 } });
      expect(page.body.resData.list.find((record: { id: number }) => record.id === command.id)).toMatchObject({
        status: 'executedSuccessfully',
        result: { success: true, message: 'restarted', fileId: null },
      });
    });
  },
  async (context) => {
    await setUpCommandFleet(context, fleet);
  },
);
