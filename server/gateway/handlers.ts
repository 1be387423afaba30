// What each kind of machine message does to the database (docs/machine-protocol.md "Messages"), in
// the caller's transaction. A message that cannot be applied throws `Refusal` with its quarantine
// reason, always BEFORE its first write (ingest.ts relies on it to skip a savepoint per message).
import { and, eq, isNull, sql } from 'drizzle-orm';
import { findAlarm, type QuarantineReason } from '../../resources/fleetCatalogue';
import { rowsOf, type Db } from '../db/client';
import { rvmBin } from '../db/schema/fleet';
import { rvmEvent, serviceSession } from '../db/schema/fleetActivity';
import { refusedSession } from './refusals';
import { rvmCommand, rvmFile } from '../db/schema/liveFleet';
import { applyAck, applyResult } from '../commands/store';
import { applyDeployStatus, endsDelivery, requeueUnanswered } from '../deployments/delivery';
import { recordVersion } from '../deployments/history';
import { MAX_CLOCK_SKEW_MS, MAX_FILE_BYTES, type MessageBodies, type MessageKind } from './protocol';
import { setOffline, setOnline, setStatus } from './liveState';
import type { AccountUsageBatch } from '../dashboard/rollup';
import { sessionRollupCtes, type ReportItemsBatch } from '../reports/rollup';
import type { HookupEvents } from '../hookups/outbox';

export class Refusal extends Error {
  constructor(
    readonly reason: QuarantineReason,
    readonly value: string | null = null,
  ) {
    super(`refused: ${reason}`);
  }
}

export interface Machine {
  id: number;
  licenseAccountId: number;
  serialNumber: string;
  binCount: number;
  binEmptyHeight: number | null;
  binFullHeight: number | null;
  statusSince: Date;
}

export interface HandlerContext {
  tx: Db;
  machine: Machine;
  /** The machine's own time of the message. */
  at: Date;
  receivedAt: Date;
  /** Re-processing a quarantined message: it says nothing about the machine's connection now. */
  replay: boolean;
  /** The batch's account roll-up (dashboard): a new consumer session is added to it, written at the batch's end. */
  usage?: AccountUsageBatch;
  /** The batch's account roll-up of the reports (server/reports/rollup.ts), written at the batch's end. */
  reportItems?: ReportItemsBatch;
  /** The batch's webhook events (server/hookups/outbox.ts), written at the batch's end. */
  hookups?: HookupEvents;
  /** Notes that this message finished a package delivery: its deployment is checked once committed (docs/deployments.md "Waves"). */
  finishedDelivery?: () => void;
}

type Handler<K extends MessageKind> = (context: HandlerContext, message: MessageBodies[K]) => Promise<void>;

const sensorMax = (machine: Machine) => machine.binEmptyHeight ?? 200;

/** Fill % from the sensor distance: empty height = 0 %, full height = 100 %. */
const fillPercentOf = (machine: Machine, height: number) => {
  const empty = machine.binEmptyHeight;
  const full = machine.binFullHeight;
  if (empty === null || full === null || empty <= full) return 0;
  return Math.max(0, Math.min(100, Math.round(((empty - height) / (empty - full)) * 100)));
};

const notBefore = (later: string, earlier: string, field: string) => {
  if (Date.parse(later) < Date.parse(earlier)) throw new Refusal('valueOutOfRange', `${field} ${later}`);
};

const HANDLERS: { [K in MessageKind]: Handler<K> } = {
  hello: async ({ tx, machine, receivedAt }, message) => {
    // A changed version is kept in the machine's version history (docs/deployments.md "Versions").
    if (message.softwareVersion) {
      await recordVersion(tx, {
        rvmId: machine.id,
        licenseAccountId: machine.licenseAccountId,
        resourceType: 'software',
        version: message.softwareVersion,
        source: 'hello',
        at: receivedAt,
      });
    }
    await setOnline(tx, machine, receivedAt);
    // Commands published before a lost connection were never acknowledged: deliver them again
    // (machines ignore a commandId they already have, docs/machine-protocol.md).
    await tx
      .update(rvmCommand)
      .set({ status: 'notSent', updatedTime: sql`now()` })
      .where(and(eq(rvmCommand.rvmId, machine.id), eq(rvmCommand.status, 'sending')));
    // So are deliveries published but not yet answered (machines ignore a deployId they already have).
    await requeueUnanswered(tx, machine.id);
  },
  goodbye: async ({ tx, machine, receivedAt }) => {
    await setOffline(tx, machine, receivedAt);
  },
  heartbeat: async ({ tx, machine, at, receivedAt }, message) => {
    await setOnline(tx, machine, receivedAt, message.status);
    if (message.status) await setStatus(tx, machine, message.status, at);
  },
  status: async ({ tx, machine, at, receivedAt, replay }, message) => {
    // statusSince may be the server's time (going online): older only beyond the allowed clock skew.
    if (at.getTime() < machine.statusSince.getTime() - MAX_CLOCK_SKEW_MS) throw new Refusal('outOfOrder', message.ts);
    if (!replay) await setOnline(tx, machine, receivedAt, message.status);
    await setStatus(tx, machine, message.status, at);
  },
  bins: async ({ tx, machine, at, replay, hookups }, message) => {
    for (const bin of message.bins) {
      if (bin.binNo > machine.binCount) throw new Refusal('valueOutOfRange', `binNo ${bin.binNo}`);
      if (bin.currentHeight < 0 || bin.currentHeight > sensorMax(machine)) throw new Refusal('valueOutOfRange', String(bin.currentHeight));
    }
    // A replayed (quarantined) level is valid now but old: it must not overwrite newer levels.
    if (replay) return;
    await hookups?.binsReported(
      tx,
      machine,
      message.bins.map((bin) => ({ ...bin, fillPercent: fillPercentOf(machine, bin.currentHeight) })),
      at,
    );
    for (const bin of message.bins) {
      const values = {
        currentHeight: bin.currentHeight,
        fillPercent: fillPercentOf(machine, bin.currentHeight),
        ...(bin.itemCount === undefined ? {} : { itemCount: bin.itemCount }),
        ...(bin.emptied ? { lastEmptiedTime: at, itemCount: bin.itemCount ?? 0 } : {}),
      };
      await tx
        .insert(rvmBin)
        .values({ rvmId: machine.id, binNo: bin.binNo, licenseAccountId: machine.licenseAccountId, itemType: 'others', ...values })
        .onConflictDoUpdate({ target: [rvmBin.rvmId, rvmBin.binNo], set: values });
    }
  },
  alarm: async ({ tx, machine, at, usage }, message) => {
    const alarm = findAlarm(message.code);
    if (!alarm) throw new Refusal('unknownAlarmCode', message.code);
    const open = and(eq(rvmEvent.rvmId, machine.id), eq(rvmEvent.code, message.code), isNull(rvmEvent.clearedTime));
    if (message.state === 'raised') {
      const [already] = await tx.select({ id: rvmEvent.id }).from(rvmEvent).where(open).limit(1);
      if (already) return; // raised twice without a clear: one open event
      await tx.insert(rvmEvent).values({
        licenseAccountId: machine.licenseAccountId,
        rvmId: machine.id,
        code: alarm.code,
        category: alarm.category,
        severity: alarm.severity,
        raisedTime: at,
        detail: message.detail ?? null,
      });
      // The performance screen's fleet roll-ups count error events (docs/performance.md).
      if (alarm.severity === 'error') usage?.performance.errorRaised(machine.id, alarm.code, at);
      return;
    }
    const [event] = await tx.select({ id: rvmEvent.id, raisedTime: rvmEvent.raisedTime }).from(rvmEvent).where(open).orderBy(rvmEvent.raisedTime).limit(1);
    if (!event) return; // nothing open: a repeated clear
    if (at < event.raisedTime) throw new Refusal('outOfOrder', message.ts);
    await tx.update(rvmEvent).set({ clearedTime: at }).where(eq(rvmEvent.id, event.id));
    if (alarm.severity === 'error') usage?.performance.errorCleared(machine.id, alarm.code, event.raisedTime, at);
  },
  session: async ({ tx, machine, receivedAt, usage, reportItems, hookups }, message) => {
    notBefore(message.endTime, message.startTime, 'endTime');
    // a voucher valid until before it was printed is nonsense (quarantined)
    if (message.voucherValidUntil) notBefore(message.voucherValidUntil, message.endTime, 'voucherValidUntil');
    if (Date.parse(message.endTime) > receivedAt.getTime() + 10 * 60_000) throw new Refusal('invalidTimestamp', message.endTime);
    if (message.refusal) return refusedSession(tx, machine, message);
    const accepted = message.items.filter((item) => item.rejectReason === undefined).length;
    const rejected = message.items.length - accepted;
    const items = message.items.map((item) => ({
      seq: item.seq,
      item_type: item.itemType,
      barcode: item.barcode ?? null,
      category: item.category ?? null,
      refund: item.refund,
      reject_reason: item.rejectReason ?? null,
      picture: item.picture ?? null,
    }));
    // One statement (one round trip): the session (stored once per machine and sessionId), its items,
    // the (UTC) day and hour roll-ups the fleet-wide figures read, and the machine's last session time.
    // The later parts read the inserted row, so a session sent again changes nothing at all.
    const written = await tx.execute(sql`
      with s as (
        insert into consumer_session (license_account_id, rvm_id, external_id, start_time, end_time, payout_method, total_refund,
          item_count, accepted_count, rejected_count, user_id, voucher_code, voucher_valid_until, donation_institute_id, card_no)
        values (${machine.licenseAccountId}, ${machine.id}, ${message.sessionId}, ${message.startTime}::timestamptz, ${message.endTime}::timestamptz,
          ${message.payoutMethod}, ${message.totalRefund}, ${message.items.length}, ${accepted}, ${rejected}, ${message.userId ?? null},
          ${message.voucherCode ?? null}, ${message.voucherValidUntil ?? null}::timestamptz, ${message.donationInstituteId ?? null}, ${message.cardNo ?? null})
        on conflict do nothing
        returning id
      ), i as (
        insert into consumer_session_item (session_id, seq, license_account_id, item_type, barcode, category, refund, reject_reason, picture)
        select s.id, x.seq, ${machine.licenseAccountId}, x.item_type, x.barcode, x.category, x.refund, x.reject_reason, x.picture
        from s, jsonb_to_recordset(${JSON.stringify(items)}::jsonb)
          as x(seq smallint, item_type varchar, barcode varchar, category varchar, refund numeric, reject_reason smallint, picture varchar)
      ), d as (
        insert into rvm_daily_usage (rvm_id, day, license_account_id, sessions, items, accepted, rejected, refund)
        select ${machine.id}, (${message.startTime}::timestamptz at time zone 'UTC')::date, ${machine.licenseAccountId}, 1,
          ${message.items.length}, ${accepted}, ${rejected}, ${message.totalRefund} from s
        on conflict (rvm_id, day) do update set sessions = rvm_daily_usage.sessions + 1, items = rvm_daily_usage.items + excluded.items,
          accepted = rvm_daily_usage.accepted + excluded.accepted, rejected = rvm_daily_usage.rejected + excluded.rejected,
          refund = rvm_daily_usage.refund + excluded.refund
      ), h as (
        insert into rvm_hourly_usage (rvm_id, hour, license_account_id, sessions, items, accepted, rejected, refund)
        select ${machine.id}, to_timestamp(floor(extract(epoch from ${message.startTime}::timestamptz) / 3600) * 3600), ${machine.licenseAccountId}, 1,
          ${message.items.length}, ${accepted}, ${rejected}, ${message.totalRefund} from s
        on conflict (rvm_id, hour) do update set sessions = rvm_hourly_usage.sessions + 1, items = rvm_hourly_usage.items + excluded.items,
          accepted = rvm_hourly_usage.accepted + excluded.accepted, rejected = rvm_hourly_usage.rejected + excluded.rejected,
          refund = rvm_hourly_usage.refund + excluded.refund
      )${sessionRollupCtes(machine.id, machine.licenseAccountId, message.startTime, message.items)}, u as (
        update rvm set last_session_time = greatest(last_session_time, ${message.endTime}::timestamptz)
        where id = ${machine.id} and exists (select 1 from s)
      )
      select count(*)::int as inserted from s`);
    if (usage && Number(rowsOf<{ inserted: number }>(written)[0]?.inserted ?? 0) > 0) {
      usage.add({
        licenseAccountId: machine.licenseAccountId,
        rvmId: machine.id,
        startTime: new Date(message.startTime),
        items: message.items.length,
        accepted,
        rejected,
        refund: message.totalRefund,
      });
    }
    if (reportItems && Number(rowsOf<{ inserted: number }>(written)[0]?.inserted ?? 0) > 0) {
      reportItems.add(machine.licenseAccountId, new Date(message.startTime), message.items);
    }
    if (hookups && Number(rowsOf<{ inserted: number }>(written)[0]?.inserted ?? 0) > 0) {
      const { v: _version, id: _messageId, ts: _sentTime, ...session } = message;
      hookups.consumerSession(machine, new Date(message.endTime), session);
    }
  },
  service: async ({ tx, machine }, message) => {
    notBefore(message.endTime, message.startTime, 'endTime');
    const inserted = await tx
      .insert(serviceSession)
      .values({
        licenseAccountId: machine.licenseAccountId,
        rvmId: machine.id,
        externalId: message.serviceId,
        technician: message.technician,
        startTime: new Date(message.startTime),
        endTime: new Date(message.endTime),
        cleaningOutcome: message.cleaningOutcome,
        binsEmptied: message.binsEmptied,
        note: message.note ?? null,
      })
      .onConflictDoNothing()
      .returning({ id: serviceSession.id });
    // The dashboard's "needs clean" reads the latest completed cleaning per machine.
    if (inserted.length && message.cleaningOutcome === 'completed') {
      await tx.execute(sql`
        insert into rvm_cleaning_state (rvm_id, license_account_id, last_completed_time)
        values (${machine.id}, ${machine.licenseAccountId}, ${message.startTime}::timestamptz)
        on conflict (rvm_id) do update set last_completed_time = greatest(rvm_cleaning_state.last_completed_time, excluded.last_completed_time)`);
    }
  },
  commandAck: async ({ tx, machine, at }, message) => {
    await applyAck(tx, machine.id, { commandId: message.commandId, accepted: message.accepted, reason: message.reason }, at);
  },
  commandResult: async ({ tx, machine, at }, message) => {
    await applyResult(tx, machine.id, { commandId: message.commandId, success: message.success, message: message.message, fileId: message.fileId }, at);
  },
  file: async ({ tx, machine }, message) => {
    const content = Buffer.from(message.data, 'base64');
    if (content.length > MAX_FILE_BYTES) throw new Refusal('valueOutOfRange', `${content.length} bytes`);
    // A file answers one of this machine's commands, or none.
    const [command] = message.commandId
      ? await tx
          .select({ id: rvmCommand.id })
          .from(rvmCommand)
          .where(and(eq(rvmCommand.id, message.commandId), eq(rvmCommand.rvmId, machine.id)))
          .limit(1)
      : [];
    const [file] = await tx
      .insert(rvmFile)
      .values({
        licenseAccountId: machine.licenseAccountId,
        rvmId: machine.id,
        commandId: command?.id ?? null,
        kind: message.kind,
        name: message.name,
        contentType: message.contentType,
        size: content.length,
        content,
      })
      .returning({ id: rvmFile.id });
    if (command)
      await tx
        .update(rvmCommand)
        .set({ fileId: file.id, updatedTime: sql`now()` })
        .where(eq(rvmCommand.id, command.id));
  },
  deployStatus: async ({ tx, machine, at, finishedDelivery }, message) => {
    const moved = await applyDeployStatus(tx, machine, { deployId: message.deployId, state: message.state, version: message.version, reason: message.reason }, at);
    if (moved && endsDelivery(message.state)) finishedDelivery?.();
  },
};

export const handle = <K extends MessageKind>(kind: K, context: HandlerContext, message: MessageBodies[K]) => (HANDLERS[kind] as Handler<K>)(context, message);
