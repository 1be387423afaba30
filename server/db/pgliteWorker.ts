// The server's side of PGlite in a worker thread (server/db/pglite.worker.ts): an object with the
// `query` and `transaction` calls drizzle's PGlite driver makes, each forwarded as a message. The
// event loop only posts and receives; the database work runs on the worker's thread.
import type { Worker } from 'node:worker_threads';
import { startWorkerThread } from '../lib/workerThread';
import { deserializeError, type PgliteNotification, type PgliteReply, type PgliteRequest, type PgliteWorkerData } from './pgliteProtocol';

type Request = PgliteRequest extends infer R ? (R extends PgliteRequest ? Omit<R, 'id'> : never) : never;

export interface QueryOptions {
  rowMode?: 'array' | 'object';
  /** Type id -> parser. Only "keep the text" parsers are supported (what drizzle passes). */
  parsers?: Record<number, unknown>;
}

export interface QueryResult<T = unknown> {
  rows: T[];
  fields: Array<{ name: string; dataTypeID: number }>;
  affectedRows?: number;
}

export interface PgliteQueryable {
  query<T>(sql: string, params?: unknown[], options?: QueryOptions): Promise<QueryResult<T>>;
}

const startWorker = (workerData: PgliteWorkerData): Worker =>
  startWorkerThread(new URL('./pglite.worker.js', import.meta.url), new URL('./pglite.worker.ts', import.meta.url), workerData);

export class PgliteWorkerClient implements PgliteQueryable {
  private readonly worker: Worker;
  private readonly pending = new Map<number, { resolve(value: unknown): void; reject(error: Error): void }>();
  private nextId = 1;
  private readonly notificationListeners = new Map<string, Array<() => void>>();
  private failure: Error | null = null;
  readonly waitReady: Promise<void>;

  constructor(dataDir?: string, snapshotFile?: string, options: Pick<PgliteWorkerData, 'maxWaitMs'> = {}) {
    this.worker = startWorker({ dataDir, snapshotFile, ...options });
    this.waitReady = new Promise((resolve, reject) => this.pending.set(0, { resolve: () => resolve(), reject }));
    this.worker.on('message', (message: PgliteReply | PgliteNotification) => {
      if ('notification' in message) {
        for (const listener of this.notificationListeners.get(message.notification) ?? []) listener();
        return;
      }
      const waiting = this.pending.get(message.id);
      if (!waiting) return;
      this.pending.delete(message.id);
      this.refWhileBusy();
      if (message.ok) waiting.resolve(message.result);
      else waiting.reject(deserializeError(message.error));
    });
    const fail = (error: Error) => {
      this.failure ??= error;
      for (const waiting of this.pending.values()) waiting.reject(error);
      this.pending.clear();
    };
    this.worker.on('error', fail);
    this.worker.on('exit', (code) => fail(new Error(`The PGlite worker stopped (exit code ${code})`)));
  }

  /** An idle worker does not keep the process alive; one with work under way does. */
  private refWhileBusy() {
    if (this.pending.size > 0) this.worker.ref();
    else this.worker.unref();
  }

  private send<T>(request: Request): Promise<T> {
    if (this.failure) return Promise.reject(this.failure);
    const id = this.nextId++;
    return new Promise<T>((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.refWhileBusy();
      this.worker.postMessage({ ...request, id });
    });
  }

  private run<T>(sql: string, params: unknown[] | undefined, options: QueryOptions | undefined, transactionId?: number) {
    const rawTypes = Object.keys(options?.parsers ?? {}).map(Number);
    return this.send<QueryResult<T>>({ op: 'query', sql, params, rowMode: options?.rowMode, rawTypes, transactionId });
  }

  query<T>(sql: string, params?: unknown[], options?: QueryOptions): Promise<QueryResult<T>> {
    return this.run<T>(sql, params, options);
  }

  /**
   * `work` runs with the connection to itself: other queries wait in the worker until it ends
   * (commit when it resolves, rollback when it throws), as with `PGlite.transaction()`.
   */
  async transaction<T>(work: (tx: PgliteQueryable) => Promise<T>): Promise<T> {
    const transactionId = await this.send<number>({ op: 'begin' });
    let closed = false;
    const tx: PgliteQueryable = {
      query: <R>(sql: string, params?: unknown[], options?: QueryOptions) =>
        closed ? Promise.reject(new Error('Transaction is closed')) : this.run<R>(sql, params, options, transactionId),
    };
    let result: T;
    try {
      result = await work(tx);
    } catch (error) {
      closed = true;
      await this.send({ op: 'end', transactionId, commit: false }).catch(() => undefined);
      throw error;
    }
    closed = true;
    await this.send({ op: 'end', transactionId, commit: true });
    return result;
  }

  /** LISTENs on `channel`: `listener` runs on each NOTIFY, before the answer to the statement that sent it. */
  async listen(channel: string, listener: () => void): Promise<void> {
    this.notificationListeners.set(channel, [...(this.notificationListeners.get(channel) ?? []), listener]);
    await this.send({ op: 'listen', channel });
  }

  async close(): Promise<void> {
    if (!this.failure) await this.send({ op: 'close' }).catch(() => undefined);
    await this.worker.terminate();
  }
}
