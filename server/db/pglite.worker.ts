// PGlite in its own thread (server/db/pgliteWorker.ts is the other side): the WebAssembly
// PostgreSQL runs here, so a heavy query no longer stops the server's event loop. Requests arrive as
// messages and may overlap; they run one at a time, the shortest expected first (pgliteScheduler.ts),
// and a transaction holds the single connection from BEGIN to its end exactly as
// `PGlite.transaction()` does in one thread.
import { readFileSync } from 'node:fs';
import { parentPort, workerData } from 'node:worker_threads';
import { PGlite, type Transaction } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import type { PgliteNotification, PgliteReply, PgliteRequest, PgliteWorkerData } from './pgliteProtocol';
import { namedQueries } from './pgliteNamed';
import { shortestFirst } from './pgliteScheduler';
import { serializeError } from './pgliteProtocol';

const port = parentPort;
if (!port) throw new Error('pglite.worker must run in a worker thread');
const { dataDir, snapshotFile, maxWaitMs } = workerData as PgliteWorkerData;

/** Thrown into a transaction's callback to make PGlite roll it back. */
const ROLLBACK = Symbol('rollback');

interface OpenTransaction {
  tx: Transaction;
  commit(): void;
  rollback(): void;
  /** The request id of the end (commit or rollback) message, answered once PGlite has finished it. */
  endId?: number;
}

const transactions = new Map<number, OpenTransaction>();
let nextTransactionId = 1;

const reply = (message: PgliteReply) => port.postMessage(message);

/** Type ids whose text value is answered as is (drizzle keeps dates, timestamps and intervals as text). */
const rawParsers = (types: readonly number[]) => Object.fromEntries(types.map((type) => [type, (value: string) => value]));

// pg_trgm: trigram indexes keep contains-search fast (migrations create the extension).
// (options-object form: `new PGlite(undefined, options)` silently drops the extensions)
const db = new PGlite({
  ...(dataDir ? { dataDir } : {}),
  ...(snapshotFile && !dataDir ? { loadDataDir: new Blob([readFileSync(snapshotFile)]) } : {}),
  extensions: { pg_trgm },
});

const query = namedQueries(db);
// statements outside a transaction wait here, shortest expected first (pgliteScheduler.ts)
// (a statement that waited for an open transaction is not learned as costing that wait)
const queue = shortestFirst({ maxWaitMs, measurable: () => transactions.size === 0 });

const begin = (id: number) => {
  const transactionId = nextTransactionId++;
  let started = false;
  db.transaction(
    (tx) =>
      new Promise<void>((resolve, reject) => {
        started = true;
        transactions.set(transactionId, { tx, commit: resolve, rollback: () => reject(ROLLBACK) });
        reply({ id, ok: true, result: transactionId });
      }),
  ).then(
    () => finish(transactionId),
    (error: unknown) => {
      // BEGIN itself failed: the caller still waits for its answer.
      if (!started) reply({ id, ok: false, error: serializeError(error) });
      else finish(transactionId, error === ROLLBACK ? undefined : error);
    },
  );
};

const finish = (transactionId: number, error?: unknown) => {
  const open = transactions.get(transactionId);
  transactions.delete(transactionId);
  if (open?.endId === undefined) return;
  reply(error === undefined ? { id: open.endId, ok: true, result: null } : { id: open.endId, ok: false, error: serializeError(error) });
};

const handle = async (request: PgliteRequest): Promise<unknown> => {
  switch (request.op) {
    case 'query': {
      const options = { rowMode: request.rowMode, parsers: rawParsers(request.rawTypes) };
      // outside a transaction a repeated SELECT runs as a named statement (pgliteNamed.ts)
      if (request.transactionId === undefined) return queue.run(request.sql, () => query(request.sql, request.params, options));
      const target = transactions.get(request.transactionId)?.tx;
      if (!target) throw new Error('The transaction is closed');
      return target.query(request.sql, request.params, options);
    }
    case 'end': {
      const open = transactions.get(request.transactionId);
      if (!open) throw new Error('The transaction is closed');
      open.endId = request.id;
      if (request.commit) open.commit();
      else open.rollback();
      return undefined; // answered by finish()
    }
    case 'listen': {
      const { channel } = request;
      await db.listen(channel, () => port.postMessage({ notification: channel } satisfies PgliteNotification));
      return null;
    }
    case 'close':
      await db.close();
      return null;
    case 'begin':
      return undefined; // handled before (answers when the transaction holds the connection)
  }
};

port.on('message', (request: PgliteRequest) => {
  if (request.op === 'begin') return begin(request.id);
  handle(request).then(
    (result) => {
      if (request.op !== 'end') reply({ id: request.id, ok: true, result });
    },
    (error: unknown) => reply({ id: request.id, ok: false, error: serializeError(error) }),
  );
});

db.waitReady.then(
  () => reply({ id: 0, ok: true, result: 'ready' }),
  (error: unknown) => reply({ id: 0, ok: false, error: serializeError(error) }),
);
