// The messages between the server's thread and the PGlite worker (server/db/pglite.worker.ts).
// Functions cannot cross threads: a query names the type ids whose values stay text (drizzle's
// parsers for dates, timestamps and intervals are all "keep the text"), and errors travel as plain
// objects carrying PostgreSQL's fields (code, constraint, detail, ...) so pgErrorCode still finds them.

export interface PgliteWorkerData {
  /** PGlite data folder; absent means in memory. */
  dataDir?: string;
  /** In memory only: a file written by PGlite's dumpDataDir to start from instead of running initdb. */
  snapshotFile?: string;
  /** The queue's starvation limit (pgliteScheduler.ts); its default when absent. */
  maxWaitMs?: number;
}

export type PgliteRequest =
  | { id: number; op: 'query'; sql: string; params?: unknown[]; rowMode?: 'array' | 'object'; rawTypes: number[]; transactionId?: number }
  | { id: number; op: 'begin' }
  | { id: number; op: 'end'; transactionId: number; commit: boolean }
  | { id: number; op: 'close' }
  | { id: number; op: 'listen'; channel: string };

export interface SerializedError {
  name: string;
  message: string;
  stack?: string;
  fields: Record<string, string | number | boolean | null>;
}

/** id 0 is the "ready" (or start-up failure) message. */
export type PgliteReply = { id: number; ok: true; result: unknown } | { id: number; ok: false; error: SerializedError };

/** A NOTIFY heard on a LISTENed channel; posted before the answer to the statement that caused it. */
export interface PgliteNotification {
  notification: string;
}

export const serializeError = (error: unknown): SerializedError => {
  if (!(error instanceof Error)) return { name: 'Error', message: String(error), fields: {} };
  const fields: SerializedError['fields'] = {};
  for (const [key, value] of Object.entries(error)) {
    if (value === null || ['string', 'number', 'boolean'].includes(typeof value)) fields[key] = value as string | number | boolean | null;
  }
  return { name: error.name, message: error.message, stack: error.stack, fields };
};

/** An Error again, with PostgreSQL's fields (`code`, `constraint`, ...) as own properties. */
export const deserializeError = (serialized: SerializedError): Error => {
  const error = Object.assign(new Error(serialized.message), serialized.fields);
  error.name = serialized.name;
  if (serialized.stack) error.stack = serialized.stack;
  return error;
};
