// Quarantined machine messages of the demo fleet: what the gateway refuses (docs/machine-protocol.md)
// over the last week, in the protocol's own format so "retry" re-processes them for real: senders
// not registered yet, clocks off by years, broken JSON, impossible values, unknown alarm codes.
import { quarantineMessage } from '../db/schema/quarantine';
import type { Db } from '../db/client';
import { Random } from './random';

const DAY = 86_400_000;

export const seedQuarantine = async (db: Db, options: { seed: string | number; licenseAccountId: number; serialNumbers: readonly string[]; end: number }) => {
  const random = new Random(options.seed, 'quarantine', options.licenseAccountId);
  const count = Math.min(500, Math.max(8, Math.round(options.serialNumbers.length * 0.03)));
  const rows = Array.from({ length: count }, (_, index) => {
    const receivedTime = new Date(options.end - random.uniform(0, 7 * DAY));
    const known = random.pick(options.serialNumbers);
    const ts = new Date(receivedTime.getTime() - random.int(1, 600) * 1000).toISOString();
    const id = `demo-${index}`;
    switch (index % 5) {
      case 0: {
        const sender = `SN${String(90_000 + random.int(0, 9999))}`;
        return { causedBy: sender, messageType: 'heartbeat', content: JSON.stringify({ v: 1, id, ts, status: 'Up' }), reason: 'unknownMachine', value: sender, receivedTime };
      }
      case 1: {
        const future = new Date(Date.parse(ts) + random.int(2, 20) * 365 * DAY).toISOString();
        return { causedBy: known, messageType: 'status', content: JSON.stringify({ v: 1, id, ts: future, status: 'Up' }), reason: 'invalidTimestamp', value: future, receivedTime };
      }
      case 2: {
        const code = `am_code_PK_${random.int(900, 999)}`;
        return { causedBy: known, messageType: 'alarm', content: JSON.stringify({ v: 1, id, ts, code, state: 'raised' }), reason: 'unknownAlarmCode', value: code, receivedTime };
      }
      case 3:
        return {
          causedBy: known,
          messageType: 'alarm',
          content: `{"v":1,"id":"${id}","ts":"${ts}","code":"am_code_PK_${random.int(1, 70)}","sta`,
          reason: 'malformedContent',
          value: null,
          receivedTime,
        };
      default: {
        const height = String(random.int(300, 900));
        return {
          causedBy: known,
          messageType: 'bins',
          content: JSON.stringify({ v: 1, id, ts, bins: [{ binNo: random.int(1, 3), currentHeight: Number(height) }] }),
          reason: 'valueOutOfRange',
          value: height,
          receivedTime,
        };
      }
    }
  });
  await db.insert(quarantineMessage).values(rows.map((row) => ({ ...row, licenseAccountId: options.licenseAccountId })));
  return rows.length;
};
