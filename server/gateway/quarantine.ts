// The home quarantine screen: quarantined machine messages (paged, filterable) and "retry all". Gateway work
// (it replays messages through the intake), so it lives beside the intake, not in fleet/.
// A retry run re-processes every message of the license account through the gateway's intake:
// accepted ones leave the quarantine, the others count one more retry. One run per account at a
// time, locked by its run row (so across server instances too): 9500 meanwhile.
import { and, asc, count, desc, eq, gt, gte, ilike, inArray, lt, sql } from 'drizzle-orm';
import { Type } from 'typebox';
import { MESSAGE_TYPES, QUARANTINE_REASONS } from '../../resources/fleetCatalogue';
import { callerOf } from '../auth/guard';
import type { Db } from '../db/client';
import { rowsOf } from '../db/client';
import { quarantineMessage, quarantineRetryRun } from '../db/schema/quarantine';
import { ok } from '../lib/envelope';
import { AppError } from '../lib/errors';
import { Nullable, NullableStringEnum, StrictObject, type TypedApp } from '../lib/typedApp';
import { ingestBatch } from './ingest';
import type { Services } from '../services';
import { accountOf, fleetRoute, iso, optionalTime, PAGE_PROPERTIES, pageOf, PERMISSIONS, RANGE_PROPERTIES, withPaging } from '../fleet/access';

/** A run that has not finished after this long died with its server: the next retry may start. */
const ABANDONED_AFTER = '10 minutes';
/** Messages re-processed per transaction, at most... */
const RETRY_BATCH = 200;
/** ...and at most this much content read at once (a batch of the largest messages would need ~280 MB). */
const RETRY_BATCH_BYTES = 8 * 1024 * 1024;
/** A page shows this much of each message's content (with `contentBytes`, its whole size): a page's size stays bounded. */
export const CONTENT_PREVIEW_CHARS = 2000;

const retryState = async (db: Db, account: number) => {
  const [run] = await db.select().from(quarantineRetryRun).where(eq(quarantineRetryRun.licenseAccountId, account));
  if (!run) return { running: false, startedTime: null, finishedTime: null, resolved: 0, remaining: 0 };
  return {
    running: run.finishedTime === null,
    startedTime: iso(run.startedTime),
    finishedTime: iso(run.finishedTime),
    resolved: run.resolved,
    remaining: run.remaining,
  };
};

/** Claims the account's run row; false while another run is going on. */
const claimRun = async (db: Db, account: number): Promise<boolean> => {
  const claimed = await db.execute(sql`
    insert into ${quarantineRetryRun} (license_account_id, started_time, finished_time, resolved, remaining)
    values (${account}, now(), null, 0, 0)
    on conflict (license_account_id) do update set started_time = now(), finished_time = null, resolved = 0, remaining = 0
    where ${quarantineRetryRun.finishedTime} is not null or ${quarantineRetryRun.startedTime} < now() - interval '${sql.raw(ABANDONED_AFTER)}'
    returning license_account_id`);
  return rowsOf(claimed).length > 0;
};

/**
 * One pass over the account's quarantine: every message is processed again by the gateway's intake
 * (docs/machine-protocol.md), as if it had just arrived at its original time. Accepted ones leave
 * the quarantine; the others stay with their retry count raised and their (possibly new) reason.
 */
export const retryQuarantine = async (db: Db, account: number) => {
  let resolved = 0;
  let remaining = 0;
  let after = 0;
  for (;;) {
    // Sizes first, so one transaction never reads more than RETRY_BATCH_BYTES of content.
    const sizes = await db
      .select({ id: quarantineMessage.id, bytes: quarantineMessage.contentBytes, kept: sql<number>`octet_length(${quarantineMessage.content})`.mapWith(Number) })
      .from(quarantineMessage)
      .where(and(eq(quarantineMessage.licenseAccountId, account), gt(quarantineMessage.id, after)))
      .orderBy(asc(quarantineMessage.id))
      .limit(RETRY_BATCH);
    if (!sizes.length) break;
    let end = 0;
    for (let used = 0; end < sizes.length && (end === 0 || used + sizes[end].kept <= RETRY_BATCH_BYTES); end++) used += sizes[end].kept;
    const batch = sizes.slice(0, end);
    after = batch[batch.length - 1].id;
    // A message kept only in part (larger than any a machine may send) cannot be read again: it stays as it is.
    const whole = batch.filter((row) => row.kept >= row.bytes).map((row) => row.id);
    remaining += batch.length - whole.length;
    if (!whole.length) continue;
    const rows = await db.select().from(quarantineMessage).where(inArray(quarantineMessage.id, whole)).orderBy(asc(quarantineMessage.id));
    const outcomes = await ingestBatch(
      db,
      rows.map((row) => ({
        identity: { rvmId: null, licenseAccountId: account, serialNumber: row.causedBy },
        kind: row.messageType,
        payload: row.content,
        receivedAt: row.receivedTime,
        quarantineId: row.id,
        viaEnrollmentKey: row.viaEnrollmentKey,
      })),
    );
    const stayed = outcomes.filter((outcome) => outcome.result === 'quarantined').length;
    remaining += stayed;
    resolved += outcomes.length - stayed;
  }
  return { resolved, remaining };
};

export const registerQuarantineRoutes = (app: TypedApp, { db }: Services) => {
  app.post(
    '/quarantine/page',
    fleetRoute('quarantine', 'Quarantined machine messages, newest first, with the state of the last retry run', [PERMISSIONS.quarantine], {
      body: StrictObject({
        ...PAGE_PROPERTIES,
        ...RANGE_PROPERTIES,
        reason: Type.Optional(NullableStringEnum(QUARANTINE_REASONS)),
        messageType: Type.Optional(NullableStringEnum(MESSAGE_TYPES)),
        causedBy: Type.Optional(Nullable(Type.String({ maxLength: 64 }))),
      }),
    }),
    async (request) => {
      const body = withPaging(request.body);
      const account = accountOf(callerOf(request));
      const [from, to] = [optionalTime(body.from, 'from'), optionalTime(body.to, 'to')];
      const where = and(
        eq(quarantineMessage.licenseAccountId, account),
        body.reason ? eq(quarantineMessage.reason, body.reason) : undefined,
        body.messageType ? eq(quarantineMessage.messageType, body.messageType) : undefined,
        body.causedBy ? ilike(quarantineMessage.causedBy, `%${body.causedBy.replace(/[\\%_]/g, (c) => `\\${c}`)}%`) : undefined,
        from ? gte(quarantineMessage.receivedTime, from) : undefined,
        to ? lt(quarantineMessage.receivedTime, to) : undefined,
      );
      const [rows, [{ total }], retry] = await Promise.all([
        db
          .select({
            id: quarantineMessage.id,
            causedBy: quarantineMessage.causedBy,
            messageType: quarantineMessage.messageType,
            content: sql<string>`left(${quarantineMessage.content}, ${CONTENT_PREVIEW_CHARS})`,
            contentBytes: quarantineMessage.contentBytes,
            viaEnrollmentKey: quarantineMessage.viaEnrollmentKey,
            receivedTime: quarantineMessage.receivedTime,
            reason: quarantineMessage.reason,
            value: quarantineMessage.value,
            retryCount: quarantineMessage.retryCount,
            lastRetryTime: quarantineMessage.lastRetryTime,
          })
          .from(quarantineMessage)
          .where(where)
          .orderBy(desc(quarantineMessage.receivedTime), desc(quarantineMessage.id))
          .limit(body.pageSize)
          .offset((body.pageNum - 1) * body.pageSize),
        db.select({ total: count() }).from(quarantineMessage).where(where),
        retryState(db, account),
      ]);
      const list = rows.map((row) => ({
        id: row.id,
        causedBy: row.causedBy,
        messageType: row.messageType,
        content: row.content,
        contentBytes: row.contentBytes,
        viaEnrollmentKey: row.viaEnrollmentKey,
        receivedTime: iso(row.receivedTime),
        reason: row.reason,
        value: row.value,
        retryCount: row.retryCount,
        lastRetryTime: iso(row.lastRetryTime),
      }));
      return ok(request, { ...pageOf(list, Number(total), body), retry });
    },
  );

  app.post(
    '/quarantine/retryAll',
    fleetRoute('quarantine', 'Retry every quarantined message of the license account; 9500 while a retry is in progress', [PERMISSIONS.quarantine], {}),
    async (request) => {
      const account = accountOf(callerOf(request));
      if (!(await claimRun(db, account))) throw new AppError('9500');
      let outcome = { resolved: 0, remaining: 0 };
      try {
        outcome = await retryQuarantine(db, account);
      } finally {
        // Always release the run, a failed pass included, so the next retry is not blocked.
        await db
          .update(quarantineRetryRun)
          .set({ finishedTime: new Date(), resolved: outcome.resolved, remaining: outcome.remaining })
          .where(eq(quarantineRetryRun.licenseAccountId, account));
      }
      return ok(request, await retryState(db, account));
    },
  );
};
