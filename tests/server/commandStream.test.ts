// The live command stream's rules (server/commands/stream.ts) beyond commandsBatch.test.ts's: its headers, a
// batch's stream, a burst larger than one poll's page, each version sent once across the look-back window, and
// a stream ending when its caller's rights end (idle or expired token, lost permission) while one whose rights
// stand goes on. One backend: the stream polls the same SQL on both.
import { eq, sql } from 'drizzle-orm';
import { beforeAll, expect, it } from 'vitest';
import { sha256 } from '../../server/auth/tokens';
import { sysRole, sysRolePermission, sysToken } from '../../server/db/schema';
import { rvmCommand, rvmCommandBatch } from '../../server/db/schema/liveFleet';
import { ageCommands, setUpCommandFleet, takeStreamBlocks, userWith, type CommandFleet } from './commandsHarness';
import { describeFleetOneBackend, type FleetContext } from './fleetSuite';

const fleet = {} as CommandFleet;
const HOUR = 3_600_000;

interface StreamEvent {
  event: string;
  data: { id: number; status: string; updatedTime: string; batchId: number | null; rvmId: number } | null;
}

describeFleetOneBackend(
  'the command stream',
  (context: FleetContext) => {
    let address: string;
    beforeAll(async () => {
      address = await context.server.app.listen({ port: 0, host: '127.0.0.1' });
    });

    /** Opens a stream and reads its events as they come; `until` waits (15 s at most) for a condition on them. */
    const openStream = async (token: string, query = '') => {
      const abort = new AbortController();
      const response = await fetch(`${address}/test-api/rvm/command/stream${query}`, { headers: { 'rvm-token': token }, signal: abort.signal });
      const reader = (response.body as ReadableStream<Uint8Array>).getReader();
      const decoder = new TextDecoder();
      const events: StreamEvent[] = [];
      let keepAlives = 0;
      let text = '';
      let ended = false;
      const readSome = async () => {
        const { value, done } = await reader.read();
        if (done) {
          ended = true;
          return;
        }
        const { blocks, rest } = takeStreamBlocks(text + decoder.decode(value, { stream: true }));
        text = rest;
        for (const { event, data, comment } of blocks) {
          if (event) events.push({ event, data });
          if (comment === 'keep-alive') keepAlives++;
        }
      };
      const until = async (want: () => boolean, what: string) => {
        const deadline = Date.now() + 15_000;
        while (!want()) {
          if (ended) throw new Error(`the stream ended before ${what}`);
          if (Date.now() > deadline) throw new Error(`no ${what} within 15 s`);
          await readSome();
        }
      };
      /** Reads to the stream's end; `within` ms later the read is aborted and the test fails. */
      const untilEnded = async (within: number) => {
        const timer = setTimeout(() => abort.abort(), within);
        try {
          while (!ended) await readSome();
        } finally {
          clearTimeout(timer);
        }
      };
      return {
        response,
        events,
        until,
        untilEnded,
        keepAlives: () => keepAlives,
        close: () => abort.abort(),
        commands: () => events.filter((event) => event.event === 'command').map((event) => event.data!),
      };
    };
    const send = async (rvmId: number, command = 'restart') => {
      const answer = await context.server.call('POST', '/rvm/command', { token: context.token, body: { rvmId, command } });
      expect(answer.body.resCode, answer.body.resMsg).toBe('00000');
      return answer.body.resData.id as number;
    };

    it("answers an event stream that no proxy buffers or caches; a batch's stream carries that batch alone; another account's batch is 2003", async () => {
      const [first, second, outside] = fleet.h30;
      for (const machine of fleet.h30) await ageCommands(context, machine, 3600);
      const batch = await context.server.call('POST', '/rvm/command/batch', { token: context.token, body: { command: 'open', ids: [first, second] } });
      expect(batch.body.resCode, batch.body.resMsg).toBe('00000');
      const batchId = batch.body.resData.batchId as number;
      const stream = await openStream(context.token, `?batchId=${batchId}`);
      try {
        expect(stream.response.status).toBe(200);
        expect(stream.response.headers.get('cache-control')).toBe('no-cache, no-transform');
        expect(stream.response.headers.get('x-accel-buffering')).toBe('no');
        await stream.until(() => stream.events.length > 0, 'ready');
        await send(outside, 'open');
        await context.server.db
          .update(rvmCommand)
          .set({ status: 'cancelled', updatedTime: sql`now()` })
          .where(eq(rvmCommand.batchId, batchId));
        await stream.until(() => stream.commands().filter((command) => command.status === 'cancelled').length === 2, 'both cancellations');
        expect(new Set(stream.commands().map((command) => command.batchId))).toEqual(new Set([batchId]));
      } finally {
        stream.close();
      }
      const [foreign] = await context.server.db
        .insert(rvmCommandBatch)
        .values({ licenseAccountId: fleet.otherAccount, command: 'open', params: {}, selection: {}, machineCount: 0, createdBy: 1, createdByName: 'other' })
        .returning({ id: rvmCommandBatch.id });
      expect((await context.server.call('GET', `/rvm/command/stream?batchId=${foreign.id}`, { token: context.token })).body.resCode).toBe('2003');
    });

    it("walks through a burst larger than one poll's page, and sends each version once across the look-back", async () => {
      const machine = fleet.h30[3];
      const stream = await openStream(context.token, `?rvmId=${machine}`);
      try {
        await stream.until(() => stream.events.length > 0, 'ready');
        // 600 commands in one statement, more than the 500 rows a poll reads
        const burst = await context.server.db
          .insert(rvmCommand)
          .values(Array.from({ length: 600 }, () => ({ licenseAccountId: context.accountId, rvmId: machine, command: 'restart', expiresTime: new Date(Date.now() + HOUR) })))
          .returning({ id: rvmCommand.id });
        const wanted = new Set(burst.map((row) => row.id));
        await stream.until(() => stream.commands().filter((command) => wanted.has(command.id)).length >= 600, 'the whole burst');
        // past the look-back window (2 s), a marker: everything sent by then was sent once
        await new Promise((resolve) => setTimeout(resolve, 2_500));
        const marker = await send(machine, 'open');
        await stream.until(() => stream.commands().some((command) => command.id === marker), 'the marker');
        const versions = stream.commands().map((command) => `${command.id}|${command.status}|${command.updatedTime}`);
        expect(versions.length - new Set(versions).size).toBe(0);
        expect(stream.commands().filter((command) => wanted.has(command.id))).toHaveLength(600);
      } finally {
        stream.close();
      }
    }, 60_000);

    it('ends when its token idles out (at the keep-alive check) or outlives its lifetime, or its user loses the permission; goes on while they stand', async () => {
      const db = context.server.db;
      const { tokenIdleMinutes, tokenMaxHours } = context.server.app.services.config;
      const tokenIdOf = async (token: string) =>
        (
          await db
            .select({ id: sysToken.id })
            .from(sysToken)
            .where(eq(sysToken.tokenHash, sha256(token)))
        )[0].id;
      const standing = await openStream(await context.server.login());
      const idle = await context.server.login();
      const idleStream = await openStream(idle);
      const old = await context.server.login();
      const oldStream = await openStream(old);
      const remote = await userWith(context, 'streamer', ['installation:rvmpage:RemoteControl']);
      const remoteStream = await openStream(remote);
      try {
        for (const stream of [standing, idleStream, oldStream, remoteStream]) await stream.until(() => stream.events.length > 0, 'ready');
        // last seen long ago: written as every request's touch is, which is no change to callers, so the
        // stream learns it at its keep-alive check (15 s after it opened)
        await db
          .update(sysToken)
          .set({ lastSeenAt: new Date(Date.now() - (tokenIdleMinutes + 1) * 60_000) })
          .where(eq(sysToken.id, await tokenIdOf(idle)));
        // created past the lifetime, and a permission taken away: changes to callers, checked at once
        await db
          .update(sysToken)
          .set({ createdAt: new Date(Date.now() - tokenMaxHours * HOUR - 60_000) })
          .where(eq(sysToken.id, await tokenIdOf(old)));
        const started = Date.now();
        await oldStream.untilEnded(10_000);
        const [role] = await db.select({ id: sysRole.id }).from(sysRole).where(eq(sysRole.name, 'role streamer'));
        await db.delete(sysRolePermission).where(eq(sysRolePermission.roleId, role.id));
        await remoteStream.untilEnded(10_000);
        expect(Date.now() - started).toBeLessThan(10_000);
        await idleStream.untilEnded(30_000);
        // the admin's own stream stood through those changes and its keep-alive check, which said so
        await standing.until(() => standing.keepAlives() > 0, 'a keep-alive');
        const marker = await send(fleet.h30[4], 'open');
        await standing.until(() => standing.commands().some((command) => command.id === marker), 'the marker');
      } finally {
        for (const stream of [standing, idleStream, oldStream, remoteStream]) stream.close();
      }
    }, 90_000);
  },
  (context) => setUpCommandFleet(context, fleet),
);
