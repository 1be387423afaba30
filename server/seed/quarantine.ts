// Quarantined machine messages of the demo fleet: what a real ingestion refuses (unknown senders,
// clocks off by years, duplicates, truncated JSON, impossible values) over the last week.
import { quarantineMessage } from '../db/schema/quarantine';
import type { Db } from '../db/client';
import { Random } from './random';

const DAY = 86_400_000;

export const seedQuarantine = async (db: Db, options: { seed: string | number; licenseAccountId: number; termNos: readonly string[]; end: number }) => {
  const random = new Random(options.seed, 'quarantine', options.licenseAccountId);
  const count = Math.min(500, Math.max(8, Math.round(options.termNos.length * 0.03)));
  const rows = Array.from({ length: count }, (_, index) => {
    const receivedTime = new Date(options.end - random.uniform(0, 7 * DAY));
    const known = random.pick(options.termNos);
    const at = new Date(receivedTime.getTime() - random.int(1, 600) * 1000).toISOString();
    switch (index % 5) {
      case 0: {
        const sender = `RVM${String(90_000 + random.int(0, 9999))}`;
        return { causedBy: sender, messageType: 'heartbeat', content: JSON.stringify({ termNo: sender, at, sts: 'Up' }), reason: 'unknownMachine', value: sender, receivedTime };
      }
      case 1: {
        const wrong = new Date(Date.parse(at) - random.int(2, 20) * 365 * DAY).toISOString();
        return { causedBy: known, messageType: 'consumerSession', content: JSON.stringify({ termNo: known, startTime: wrong, items: random.int(1, 12) }), reason: 'invalidTimestamp', value: wrong, receivedTime };
      }
      case 2: {
        const messageId = `M${random.int(100_000, 999_999)}`;
        return { causedBy: known, messageType: 'serviceSession', content: JSON.stringify({ termNo: known, messageId, at }), reason: 'duplicateMessage', value: messageId, receivedTime };
      }
      case 3:
        return { causedBy: known, messageType: 'event', content: `{"termNo":"${known}","code":"am_code_PK_${random.int(1, 70)}","raisedTime":"${at.slice(0, 13)}`, reason: 'malformedContent', value: null, receivedTime };
      default: {
        const fill = String(random.int(101, 250));
        return { causedBy: known, messageType: 'binLevel', content: JSON.stringify({ termNo: known, bin: random.int(1, 3), fillPercent: Number(fill), at }), reason: 'valueOutOfRange', value: fill, receivedTime };
      }
    }
  });
  await db.insert(quarantineMessage).values(rows.map((row) => ({ ...row, licenseAccountId: options.licenseAccountId })));
  return rows.length;
};
