// The live command stream (Server-Sent Events): every change of a matching command is pushed as an
// event `command` with its CommandRecord. Changes are found by polling `updated_time` (indexed per
// account), never an in-memory bus, so a change made by any server instance reaches every stream.
import { and, asc, eq, sql, type SQL } from 'drizzle-orm';
import { Type } from 'typebox';
import { callerOf } from '../auth/guard';
import { Caller, loadPrincipal } from '../auth/principal';
import { sysToken } from '../db/schema';
import { rowsOf } from '../db/client';
import { rvm } from '../db/schema/fleet';
import { rvmCommand, rvmCommandBatch } from '../db/schema/liveFleet';
import { accountOf, findMachine, MACHINE_ID } from '../fleet/access';
import { failureResponses } from '../lib/envelope';
import { AppError } from '../lib/errors';
import { StrictObject, type TypedApp } from '../lib/typedApp';
import type { Services } from '../services';
import { COMMAND_SELECTION, toCommandRecord } from './records';
import { COMMAND_PERMISSIONS } from './shared';

const POLL_MS = 500;
const KEEP_ALIVE_MS = 15_000;
/**
 * A write's updated_time is its transaction's start, so it can become visible after a poll already
 * passed that time: each poll looks this far back and skips what it already sent.
 */
const LOOKBACK = sql`interval '2 seconds'`;
const ROWS_PER_POLL = 500;
/** Remembered (id -> version) pairs: enough to cover the look-back window. */
const REMEMBERED = 5000;
/**
 * Open streams of one user on one server instance; one more answers 4029. Each stream holds a
 * connection and polls the database twice a second: 300 of one user slowed everyone's calls ten-fold.
 */
export const MAX_STREAMS_PER_USER = 10;
/** A change to callers (sign-out, a disabled user, a role's rights) is checked this soon, bursts coalesced. */
const RECHECK_AFTER_CHANGE_MS = 100;

export const registerCommandStream = (app: TypedApp, services: Services) => {
  const { db } = services;
  const open = new Set<() => void>();
  const streamsOfUser = new Map<number, number>();
  // An open stream keeps its connection busy: end them all before the server waits for connections.
  const stopAll = async () => {
    for (const stop of open) stop(); // each stop() leaves the set: a Set may lose entries while walked
  };
  app.addHook('preClose', stopAll);
  app.addHook('onClose', stopAll);

  app.get(
    '/rvm/command/stream',
    {
      config: { permissions: COMMAND_PERMISSIONS },
      schema: {
        tags: ['commands'],
        summary: 'Live changes of commands (Server-Sent Events), optionally of one machine or one batch',
        description:
          `Needs one of: ${COMMAND_PERMISSIONS.join(', ')} (superAdmin passes). Token in the rvm-token header (read it with fetch streaming). ` +
          'Answers text/event-stream: `event: ready` first, then `event: command` with a CommandRecord as data each time a matching command changes, ' +
          "and a comment line every 15 s. 6001 for another account's machine, 2003 for another account's batch.",
        security: [{ rvmToken: [] }],
        querystring: StrictObject({ rvmId: Type.Optional(MACHINE_ID), batchId: Type.Optional(Type.Integer({ minimum: 1 })) }),
        response: { 200: { description: 'text/event-stream', type: 'string' }, ...failureResponses(true) },
      },
    },
    async (request, reply) => {
      const caller = callerOf(request);
      const account = accountOf(caller);
      const { rvmId, batchId } = request.query;
      const userId = caller.principal.userId;
      if ((streamsOfUser.get(userId) ?? 0) >= MAX_STREAMS_PER_USER) throw new AppError('4029');
      // The place is taken now (requests arriving together cannot all pass the check), given back by stop().
      streamsOfUser.set(userId, (streamsOfUser.get(userId) ?? 0) + 1);
      const release = () => {
        const left = (streamsOfUser.get(userId) ?? 1) - 1;
        if (left > 0) streamsOfUser.set(userId, left);
        else streamsOfUser.delete(userId);
      };
      let start: string;
      let matching: SQL | undefined;
      try {
        if (rvmId) await findMachine(db, caller, rvmId);
        if (batchId) {
          const [batch] = await db
            .select({ id: rvmCommandBatch.id })
            .from(rvmCommandBatch)
            .where(and(eq(rvmCommandBatch.id, batchId), eq(rvmCommandBatch.licenseAccountId, account)));
          if (!batch) throw new AppError('2003');
        }
        // Database time, not this instance's clock: writers stamp rows with the database's now().
        [{ start }] = rowsOf<{ start: string }>(await db.execute(sql`select now()::text as start`));
        matching = and(eq(rvmCommand.licenseAccountId, account), rvmId ? eq(rvmCommand.rvmId, rvmId) : undefined, batchId ? eq(rvmCommand.batchId, batchId) : undefined);
      } catch (error) {
        release();
        throw error;
      }

      reply.hijack();
      const raw = reply.raw;
      raw.writeHead(200, {
        'content-type': 'text/event-stream; charset=utf-8',
        'cache-control': 'no-cache, no-transform',
        connection: 'keep-alive',
        'x-accel-buffering': 'no',
      });
      raw.write('event: ready\ndata: {}\n\n');

      let cursor = { stamp: start, id: 0 };
      // After a full page the next poll continues strictly after it (no look-back), so a burst
      // larger than a page is still walked through.
      let continuing = false;
      const sent = new Map<number, string>();
      let stopped = false;
      let timer: NodeJS.Timeout | undefined;
      let keepAlive: NodeJS.Timeout | undefined;
      let recheck: NodeJS.Timeout | undefined;
      let unsubscribe: () => unknown = () => undefined;

      const stop = () => {
        if (stopped) return;
        stopped = true;
        clearTimeout(timer);
        clearInterval(keepAlive);
        clearTimeout(recheck);
        unsubscribe();
        open.delete(stop);
        release();
        if (!raw.writableEnded) raw.end();
      };
      open.add(stop);
      raw.on('close', stop);
      // Rights are checked again with every keep-alive and soon after any change to callers (the feed
      // the caller cache forgets by, server/db/callerChanges.ts, from every instance): a stream ends when
      // its token is revoked or expired, its user is disabled, loses the permission or switches account
      // (the client's reconnect then receives the forced-logout or 4003 answer). Read only: a stream
      // does not keep a session alive.
      const stillAllowed = async () => {
        const [token] = await db.select().from(sysToken).where(eq(sysToken.id, caller.principal.tokenId)).limit(1);
        const now = Date.now();
        if (!token || token.revokedAt || now - token.createdAt.getTime() > services.config.tokenMaxHours * 3_600_000) return false;
        if (now - token.lastSeenAt.getTime() > services.config.tokenIdleMinutes * 60_000) return false;
        const principal = await loadPrincipal(db, { id: token.id, userId: token.userId, utcOffsetMinutes: token.utcOffsetMinutes ?? null });
        if (principal.licenseAccountId !== account) return false;
        await new Caller(db, services.config, principal, caller.locale).require(COMMAND_PERMISSIONS);
        return true;
      };
      const check = (keepingAlive: boolean) =>
        stillAllowed()
          .catch(() => false)
          .then((allowed) => {
            if (stopped) return;
            if (!allowed) stop();
            else if (keepingAlive) raw.write(': keep-alive\n\n');
          });
      keepAlive = setInterval(() => void check(true), KEEP_ALIVE_MS);
      unsubscribe = services.database.callerChanges.subscribe(() => {
        if (stopped || recheck) return;
        recheck = setTimeout(() => {
          recheck = undefined;
          void check(false);
        }, RECHECK_AFTER_CHANGE_MS);
      });

      const poll = async () => {
        try {
          const since = continuing
            ? sql`(${rvmCommand.updatedTime}, ${rvmCommand.id}) > (${cursor.stamp}::timestamptz, ${cursor.id})`
            : sql`${rvmCommand.updatedTime} > greatest(${start}::timestamptz, ${cursor.stamp}::timestamptz - ${LOOKBACK})`;
          const rows = await db
            .select({ ...COMMAND_SELECTION, stamp: sql<string>`${rvmCommand.updatedTime}::text` })
            .from(rvmCommand)
            .innerJoin(rvm, eq(rvm.id, rvmCommand.rvmId))
            .where(and(matching, since))
            .orderBy(asc(rvmCommand.updatedTime), asc(rvmCommand.id))
            .limit(ROWS_PER_POLL);
          if (stopped) return;
          for (const { stamp, ...row } of rows) {
            const version = `${stamp}|${row.status}`;
            if (sent.get(row.id) === version) continue;
            sent.delete(row.id);
            sent.set(row.id, version);
            raw.write(`event: command\ndata: ${JSON.stringify(toCommandRecord(row))}\n\n`);
          }
          for (const id of sent.keys()) {
            if (sent.size <= REMEMBERED) break;
            sent.delete(id);
          }
          const last = rows.at(-1);
          if (last) cursor = { stamp: last.stamp, id: last.id };
          continuing = rows.length === ROWS_PER_POLL;
        } catch (error) {
          request.log.warn({ err: error }, 'command stream poll failed');
        }
        if (!stopped) timer = setTimeout(() => void poll(), POLL_MS);
      };
      timer = setTimeout(() => void poll(), POLL_MS);
      return reply;
    },
  );
};
