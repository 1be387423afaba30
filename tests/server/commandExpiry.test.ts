// A command's time limits at their edges (issue 29 item 24: "a limit tested only far from its edge does not pin the
// edge"; commands.test.ts runs the expiry job half an hour past each limit): a command expires COMMAND_EXPIRY_HOURS
// after it was created — still handed out a millisecond before, expired by the job at that instant — and an
// acknowledged one without a result fails RESULT_GRACE_MS after its expiry, not a millisecond before.
import { eq, sql } from 'drizzle-orm';
import { expect, it } from 'vitest';
import { COMMAND_EXPIRY_HOURS } from '../../resources/commands';
import { claimPending, expireCommands, RESULT_GRACE_MS } from '../../server/commands/store';
import { rvmCommand } from '../../server/db/schema/liveFleet';
import { commandRow, setUpCommandFleet, type CommandFleet } from './commandsHarness';
import { describeFleetOneBackend, type FleetContext } from './fleetSuite';

const fleet = {} as CommandFleet;
const HOUR = 3_600_000;

describeFleetOneBackend(
  'remote command time limits',
  (context: FleetContext) => {
    const send = async (rvmId: number, command: string) => {
      const answer = await context.server.call('POST', '/rvm/command', { token: context.token, body: { rvmId, command } });
      expect(answer.body.resCode, answer.body.resMsg).toBe('00000');
      return answer.body.resData.id as number;
    };
    // PostgreSQL keeps microseconds, a Date milliseconds: the expiry made whole milliseconds, so "at that instant" is one
    const wholeMilliseconds = (id: number) =>
      context.server.db
        .update(rvmCommand)
        .set({ expiresTime: sql`date_trunc('milliseconds', ${rvmCommand.expiresTime})` })
        .where(eq(rvmCommand.id, id));

    it(`expires ${COMMAND_EXPIRY_HOURS} hours after creation: handed out a millisecond before, expired by the job at that instant`, async () => {
      expect(COMMAND_EXPIRY_HOURS).toBe(24);
      const machine = fleet.h30[0];
      const first = await send(machine, 'restart');
      const row = await commandRow(context, first);
      expect(row.expiresTime.getTime() - row.createdTime.getTime()).toBe(24 * HOUR);
      await wholeMilliseconds(first);
      const expiry = row.expiresTime.getTime();
      // not yet expired: the job leaves it, a claim hands it out
      expect(await expireCommands(context.server.db, new Date(expiry - 1))).toBe(0);
      expect((await claimPending(context.server.db, machine, new Date(expiry - 1))).map((message) => message.commandId)).toEqual([first]);
      await context.server.db.update(rvmCommand).set({ status: 'notSent' }).where(eq(rvmCommand.id, first));
      // at the instant of its expiry: no longer handed out, and the job fails it
      expect(await claimPending(context.server.db, machine, new Date(expiry))).toEqual([]);
      expect(await expireCommands(context.server.db, new Date(expiry))).toBe(1);
      expect(await commandRow(context, first)).toMatchObject({ status: 'sendFailed', statusReason: 'expired', finishedTime: new Date(expiry) });
    });

    it('fails an acknowledged command without a result exactly an hour after its expiry, not a millisecond before', async () => {
      expect(RESULT_GRACE_MS).toBe(HOUR);
      const machine = fleet.h30[1];
      const id = await send(machine, 'restart');
      await context.server.db.update(rvmCommand).set({ status: 'sent' }).where(eq(rvmCommand.id, id));
      await wholeMilliseconds(id);
      const expiry = (await commandRow(context, id)).expiresTime.getTime();
      expect(await expireCommands(context.server.db, new Date(expiry + HOUR - 1))).toBe(0);
      expect((await commandRow(context, id)).status).toBe('sent');
      expect(await expireCommands(context.server.db, new Date(expiry + HOUR))).toBe(1);
      expect(await commandRow(context, id)).toMatchObject({ status: 'executedFailed', statusReason: 'noResult', finishedTime: new Date(expiry + HOUR) });
    });
  },
  (context) => setUpCommandFleet(context, fleet),
);
