// Events become outbox messages (docs/api-hookups.md "Messages: the outbox"), in the transaction that stores
// the event: one INSERT … SELECT per gateway batch (sessions, bins) or per status change, matching each event
// with the enabled subscriptions of its family whose app is enabled, docked before the event and bound to the
// machine (a fleet of the app, or an ancestor of the machine's fleet), narrowed to the subscription's fleets
// when it names any. Two subscriptions of one app choosing the same event give one message.
import { sql } from 'drizzle-orm';
import { rowsOf, type Db } from '../db/client';
import type { HookupFamily } from '../../resources/hookupCatalogue';

/** A new message id: `msg_` and 128 random bits in base64url (22 characters). */
export const MESSAGE_ID_SQL = sql.raw(`'msg_' || translate(rtrim(encode(decode(replace(gen_random_uuid()::text, '-', ''), 'hex'), 'base64'), '='), '+/', '-_')`);

export interface HookupEvent {
  rvmId: number;
  licenseAccountId: number;
  family: HookupFamily;
  eventType: string;
  eventTime: Date;
  /** The event's fields (the body's `data`, after rvmId and termNo). */
  data: Record<string, unknown>;
}

interface MachineRef {
  id: number;
  licenseAccountId: number;
}

export interface BinReport {
  binNo: number;
  currentHeight: number;
  fillPercent: number;
  itemCount?: number;
  emptied?: boolean;
}

/** Writes the messages of `events` (in their order); answers how many. */
export const writeMessages = async (tx: Db, events: readonly HookupEvent[]): Promise<number> => {
  if (!events.length) return 0;
  const rows = events.map((event, seq) => ({
    seq,
    rvm_id: event.rvmId,
    account: event.licenseAccountId,
    family: event.family,
    event_type: event.eventType,
    event_time: event.eventTime.toISOString(),
    data: event.data,
  }));
  const result = await tx.execute(sql`
    with recursive ev as (
      select * from jsonb_to_recordset(${JSON.stringify(rows)}::jsonb)
        as x(seq int, rvm_id int, account int, family text, event_type text, event_time timestamptz, data jsonb)
    ), machine as (
      select ev.seq, r.fleet_id, r.term_no from ev join rvm r on r.id = ev.rvm_id and r.license_account_id = ev.account
    ), up(seq, fleet_id) as (
      select seq, fleet_id from machine
      union
      select up.seq, f.parent_id from up join fleet f on f.id = up.fleet_id where f.parent_id is not null
    ), target as (
      select distinct on (ev.seq, a.id) ev.seq, a.id as app_id
      from ev
      join hookup_subscription s on s.license_account_id = ev.account and s.family = ev.family and s.enabled
        and ev.event_type = any(string_to_array(replace(s.events, ' ', ''), ','))
      join hookup_app a on a.id = s.app_id and a.enabled and a.docking_time <= ev.event_time
      where exists (select 1 from hookup_app_fleet af join up on up.fleet_id = af.fleet_id and up.seq = ev.seq where af.app_id = a.id)
        and (not exists (select 1 from hookup_subscription_fleet sf where sf.subscription_id = s.id)
          or exists (select 1 from hookup_subscription_fleet sf join up on up.fleet_id = sf.fleet_id and up.seq = ev.seq where sf.subscription_id = s.id))
      order by ev.seq, a.id
    ), written as (
      insert into hookup_message (message_id, license_account_id, app_id, rvm_id, family, event_type, event_time, payload, next_attempt_time)
      select ${MESSAGE_ID_SQL}, ev.account, t.app_id, ev.rvm_id, ev.family, ev.event_type, ev.event_time,
        jsonb_build_object(
          'type', ev.event_type,
          'timestamp', to_char(ev.event_time at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
          'data', jsonb_build_object('rvmId', ev.rvm_id, 'termNo', m.term_no) || ev.data),
        now()
      from target t join ev on ev.seq = t.seq join machine m on m.seq = t.seq
      order by t.seq, t.app_id
      returning 1
    )
    select count(*)::int as n from written`);
  return Number(rowsOf<{ n: number }>(result)[0]?.n ?? 0);
};

/** A machine's status changed (any path: gateway message, going online, the offline sweep), in that change's transaction. */
export const recordStatusChange = (tx: Db, machine: MachineRef, status: string, at: Date) =>
  writeMessages(tx, [
    {
      rvmId: machine.id,
      licenseAccountId: machine.licenseAccountId,
      family: 'status',
      eventType: 'machine.statusChanged',
      eventTime: at,
      data: { status, since: at.toISOString() },
    },
  ]);

/**
 * The hookup events of one gateway batch, written by `flush` at the batch's end in its transaction (as the
 * dashboard's roll-ups are). Bin levels need the level before the message: read only for accounts with a
 * bin subscription (asked once per batch and account).
 */
export class HookupEvents {
  private readonly events: HookupEvent[] = [];
  private readonly binSubscribers = new Map<number, boolean>();

  consumerSession(machine: MachineRef, endTime: Date, data: Record<string, unknown>) {
    this.events.push({ rvmId: machine.id, licenseAccountId: machine.licenseAccountId, family: 'cs', eventType: 'consumerSession.completed', eventTime: endTime, data });
  }

  /** Call before the levels are stored: a bin reaching 100 % from below is `bin.full`, an emptied one `bin.emptied`. */
  async binsReported(tx: Db, machine: MachineRef, bins: readonly BinReport[], at: Date) {
    if (!(await this.hasBinSubscribers(tx, machine.licenseAccountId))) return;
    const before = rowsOf<{ binNo: number; fillPercent: number }>(
      await tx.execute(sql`select bin_no as "binNo", fill_percent as "fillPercent" from rvm_bin where rvm_id = ${machine.id}`),
    );
    const fillBefore = new Map(before.map((row) => [Number(row.binNo), Number(row.fillPercent)]));
    for (const bin of bins) {
      const data = { binNo: bin.binNo, fillPercent: bin.fillPercent, currentHeight: bin.currentHeight, ...(bin.itemCount === undefined ? {} : { itemCount: bin.itemCount }) };
      const add = (eventType: string) => this.events.push({ rvmId: machine.id, licenseAccountId: machine.licenseAccountId, family: 'ci', eventType, eventTime: at, data });
      if (bin.emptied) add('bin.emptied');
      if (bin.fillPercent >= 100 && (fillBefore.get(bin.binNo) ?? 0) < 100) add('bin.full');
    }
  }

  private async hasBinSubscribers(tx: Db, licenseAccountId: number) {
    let known = this.binSubscribers.get(licenseAccountId);
    if (known === undefined) {
      const found = await tx.execute(sql`select 1 from hookup_subscription where license_account_id = ${licenseAccountId} and family = 'ci' and enabled limit 1`);
      known = rowsOf(found).length > 0;
      this.binSubscribers.set(licenseAccountId, known);
    }
    return known;
  }

  async flush(tx: Db) {
    const events = this.events.splice(0);
    await writeMessages(tx, events);
  }
}
