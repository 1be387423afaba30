// What each kind of machine message does to the database (docs/machine-protocol.md "Messages"), in
// the caller's transaction. A message that cannot be applied throws `Refusal` with its quarantine
// reason; the caller rolls its changes back and quarantines it.
import { and, eq, isNull, sql } from 'drizzle-orm';
import { findAlarm, type QuarantineReason } from '../../resources/fleetCatalogue';
import type { Db } from '../db/client';
import { rvm, rvmBin } from '../db/schema/fleet';
import { consumerSession, consumerSessionItem, rvmDailyUsage, rvmEvent, serviceSession } from '../db/schema/fleetActivity';
import { rvmCommand, rvmFile } from '../db/schema/liveFleet';
import { applyAck, applyResult } from '../commands/store';
import { MAX_FILE_BYTES, type MessageBodies, type MessageKind } from './protocol';
import { setOffline, setOnline, setStatus } from './liveState';

export class Refusal extends Error {
  constructor(readonly reason: QuarantineReason, readonly value: string | null = null) {
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
    if (message.softwareVersion) await tx.update(rvm).set({ softwareVersion: message.softwareVersion }).where(eq(rvm.id, machine.id));
    await setOnline(tx, machine, receivedAt);
    // Commands published before a lost connection were never acknowledged: deliver them again
    // (machines ignore a commandId they already have, docs/machine-protocol.md).
    await tx
      .update(rvmCommand)
      .set({ status: 'notSent', updatedTime: sql`now()` })
      .where(and(eq(rvmCommand.rvmId, machine.id), eq(rvmCommand.status, 'sending')));
  },
  goodbye: async ({ tx, machine, receivedAt }) => {
    await setOffline(tx, machine, receivedAt);
  },
  heartbeat: async ({ tx, machine, at, receivedAt }, message) => {
    await setOnline(tx, machine, receivedAt, message.status);
    if (message.status) await setStatus(tx, machine, message.status, at);
  },
  status: async ({ tx, machine, at, receivedAt, replay }, message) => {
    if (at < machine.statusSince) throw new Refusal('outOfOrder', message.ts);
    if (!replay) await setOnline(tx, machine, receivedAt, message.status);
    await setStatus(tx, machine, message.status, at);
  },
  bins: async ({ tx, machine, at }, message) => {
    for (const bin of message.bins) {
      if (bin.binNo > machine.binCount) throw new Refusal('valueOutOfRange', `binNo ${bin.binNo}`);
      if (bin.currentHeight < 0 || bin.currentHeight > sensorMax(machine)) throw new Refusal('valueOutOfRange', String(bin.currentHeight));
    }
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
  alarm: async ({ tx, machine, at }, message) => {
    const alarm = findAlarm(message.code);
    if (!alarm) throw new Refusal('unknownAlarmCode', message.code);
    const open = and(eq(rvmEvent.rvmId, machine.id), eq(rvmEvent.code, message.code), isNull(rvmEvent.clearedTime));
    if (message.state === 'raised') {
      const [already] = await tx.select({ id: rvmEvent.id }).from(rvmEvent).where(open).limit(1);
      if (already) return; // raised twice without a clear: one open event
      await tx.insert(rvmEvent).values({
        licenseAccountId: machine.licenseAccountId, rvmId: machine.id, code: alarm.code, category: alarm.category,
        severity: alarm.severity, raisedTime: at, detail: message.detail ?? null,
      });
      return;
    }
    const [event] = await tx.select({ id: rvmEvent.id, raisedTime: rvmEvent.raisedTime }).from(rvmEvent).where(open).orderBy(rvmEvent.raisedTime).limit(1);
    if (!event) return; // nothing open: a repeated clear
    if (at < event.raisedTime) throw new Refusal('outOfOrder', message.ts);
    await tx.update(rvmEvent).set({ clearedTime: at }).where(eq(rvmEvent.id, event.id));
  },
  session: async ({ tx, machine, receivedAt }, message) => {
    notBefore(message.endTime, message.startTime, 'endTime');
    if (Date.parse(message.endTime) > receivedAt.getTime() + 10 * 60_000) throw new Refusal('invalidTimestamp', message.endTime);
    const accepted = message.items.filter((item) => item.rejectReason === undefined).length;
    const [stored] = await tx
      .insert(consumerSession)
      .values({
        licenseAccountId: machine.licenseAccountId, rvmId: machine.id, externalId: message.sessionId,
        startTime: new Date(message.startTime), endTime: new Date(message.endTime), payoutMethod: message.payoutMethod,
        totalRefund: message.totalRefund, itemCount: message.items.length, acceptedCount: accepted,
        rejectedCount: message.items.length - accepted, userId: message.userId ?? null, voucherCode: message.voucherCode ?? null,
        donationInstituteId: message.donationInstituteId ?? null,
      })
      .onConflictDoNothing()
      .returning({ id: consumerSession.id });
    if (!stored) return; // the same session sent again: stored once
    await tx.insert(consumerSessionItem).values(
      message.items.map((item) => ({
        sessionId: stored.id, seq: item.seq, licenseAccountId: machine.licenseAccountId, itemType: item.itemType,
        barcode: item.barcode ?? null, category: item.category ?? null, refund: item.refund,
        rejectReason: item.rejectReason ?? null, picture: item.picture ?? null,
      })),
    );
    // The (UTC) day roll-up the fleet-wide figures read, kept current in the same transaction.
    const day = new Date(message.startTime).toISOString().slice(0, 10);
    const row = { sessions: 1, items: message.items.length, accepted, rejected: message.items.length - accepted, refund: message.totalRefund };
    await tx
      .insert(rvmDailyUsage)
      .values({ rvmId: machine.id, day, licenseAccountId: machine.licenseAccountId, ...row })
      .onConflictDoUpdate({
        target: [rvmDailyUsage.rvmId, rvmDailyUsage.day],
        set: {
          sessions: sql`${rvmDailyUsage.sessions} + ${row.sessions}`,
          items: sql`${rvmDailyUsage.items} + ${row.items}`,
          accepted: sql`${rvmDailyUsage.accepted} + ${row.accepted}`,
          rejected: sql`${rvmDailyUsage.rejected} + ${row.rejected}`,
          refund: sql`${rvmDailyUsage.refund} + ${row.refund}`,
        },
      });
    await tx
      .update(rvm)
      .set({ lastSessionTime: sql`greatest(${rvm.lastSessionTime}, ${new Date(message.endTime)})` })
      .where(eq(rvm.id, machine.id));
  },
  service: async ({ tx, machine }, message) => {
    notBefore(message.endTime, message.startTime, 'endTime');
    await tx
      .insert(serviceSession)
      .values({
        licenseAccountId: machine.licenseAccountId, rvmId: machine.id, externalId: message.serviceId, technician: message.technician,
        startTime: new Date(message.startTime), endTime: new Date(message.endTime), cleaningOutcome: message.cleaningOutcome,
        binsEmptied: message.binsEmptied, note: message.note ?? null,
      })
      .onConflictDoNothing();
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
      ? await tx.select({ id: rvmCommand.id }).from(rvmCommand).where(and(eq(rvmCommand.id, message.commandId), eq(rvmCommand.rvmId, machine.id))).limit(1)
      : [];
    const [file] = await tx
      .insert(rvmFile)
      .values({
        licenseAccountId: machine.licenseAccountId, rvmId: machine.id, commandId: command?.id ?? null, kind: message.kind,
        name: message.name, contentType: message.contentType, size: content.length, content,
      })
      .returning({ id: rvmFile.id });
    if (command) await tx.update(rvmCommand).set({ fileId: file.id, updatedTime: sql`now()` }).where(eq(rvmCommand.id, command.id));
  },
};

export const handle = <K extends MessageKind>(kind: K, context: HandlerContext, message: MessageBodies[K]) =>
  (HANDLERS[kind] as Handler<K>)(context, message);
