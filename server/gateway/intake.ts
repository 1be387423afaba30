// Batching in front of `ingestBatch`: messages are spread over a few shards by serial number (so one
// machine's messages stay in order), and each shard commits whatever arrived while its previous batch
// was being written. Under light load a batch is one message (no added delay); under heavy load
// batches grow and the commits per second stay few. Each caller's promise settles after its commit.
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../db/client';
import { ingestBatch, type IncomingMessage, type Outcome } from './ingest';

interface Waiting {
  message: IncomingMessage;
  resolve: (outcome: Outcome) => void;
  reject: (error: unknown) => void;
}

const MAX_BATCH = 500;

const shardOf = (serial: string, shards: number) => {
  let hash = 0;
  for (let index = 0; index < serial.length; index++) hash = (hash * 31 + serial.charCodeAt(index)) | 0;
  return Math.abs(hash) % shards;
};

export class Intake {
  private readonly queues: Waiting[][];
  private readonly busy: Array<Promise<void> | null>;
  processed = 0;
  quarantined = 0;

  constructor(
    private readonly db: Db,
    private readonly log: FastifyBaseLogger,
    /** Called with each message's outcome once committed (a hello: its machine's waiting commands can go out). */
    private readonly onCommitted: (outcome: Outcome) => void,
    shards = 4,
  ) {
    this.queues = Array.from({ length: shards }, () => []);
    this.busy = Array.from({ length: shards }, () => null);
  }

  submit(message: IncomingMessage): Promise<Outcome> {
    return new Promise((resolve, reject) => {
      const shard = shardOf(message.identity.serialNumber, this.queues.length);
      this.queues[shard].push({ message, resolve, reject });
      if (!this.busy[shard]) this.busy[shard] = this.run(shard);
    });
  }

  /** Waits for everything submitted so far. */
  async drain(): Promise<void> {
    await Promise.all(this.busy.filter((run) => run !== null));
  }

  private async run(shard: number): Promise<void> {
    // Let the messages of this tick join the batch.
    await new Promise((resolve) => setImmediate(resolve));
    while (this.queues[shard].length) {
      const batch = this.queues[shard].splice(0, MAX_BATCH);
      try {
        const outcomes = await ingestBatch(
          this.db,
          batch.map((item) => item.message),
          this.log,
        );
        outcomes.forEach((outcome, index) => {
          if (outcome.result === 'quarantined') this.quarantined++;
          else this.processed++;
          this.onCommitted(outcome);
          batch[index].resolve(outcome);
        });
      } catch (error) {
        // The database is away: nothing was committed, the broker redelivers what was not acknowledged.
        this.log.error({ err: error, messages: batch.length }, 'machine messages could not be stored');
        for (const item of batch) item.reject(error);
      }
    }
    this.busy[shard] = null;
  }
}
