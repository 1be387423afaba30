// "Something a caller is read from has changed": tokens (revoked), users, license accounts and their
// links, roles and permissions. The guard keeps resolved callers in memory (server/auth/callerCache.ts)
// and forgets them all on this signal, which comes from two places:
// - the database: statement triggers on those tables NOTIFY `rvm_caller_changes` (migration 0018), which
//   every instance LISTENs to (PostgreSQL: a dedicated connection; PGlite: its worker, where a
//   notification reaches this thread before the answer to the statement that caused it);
// - on PostgreSQL also this process's own writes, seen as they complete: a notification travels on
//   another connection and could arrive after the writer's answer, and a client that acts on that answer
//   (signs out, then calls again) must find the change already in force here.
// Until the feed is live (listening), and after it loses its connection, nothing may be served from memory.
import pg from 'pg';

export const CALLER_CHANGES_CHANNEL = 'rvm_caller_changes';

const CALLER_TABLE = /\b(sys_token|sys_user|sys_user_role|sys_role|sys_role_permission|sys_permission|license_account|license_account_user_relation)\b/i;
const WRITE = /\b(insert\s+into|update|delete\s+from|truncate|merge\s+into)\b/i;
/** The token's "last seen" time: written every minute per active token, and nothing a caller's rights depend on. */
const TOKEN_TOUCH = /^\s*update\s+"sys_token"\s+set\s+"last_seen_at"\s*=\s*\$1\s+where\s+"sys_token"\."id"\s*=\s*\$2\s*$/i;
/**
 * A sign-in's housekeeping (server/auth/tokens.ts issueToken): tokens a day past their absolute lifetime,
 * which any check refuses by their creation time alone, kept in memory or not.
 */
const TOKEN_HOUSEKEEPING = /^\s*delete\s+from\s+"sys_token"\s+where\s+\("sys_token"\."user_id"\s*=\s*\$1\s+and\s+"sys_token"\."created_at"\s*<\s*\$2\)\s*$/i;
/** The end of a transaction (not of a savepoint). */
const TRANSACTION_END = /^\s*(commit|end|rollback)\s*;?\s*$/i;

const classified = new Map<string, boolean>();
const MAX_CLASSIFIED = 5_000;

/** Whether a statement may change what a caller is read from (a false "yes" only costs a reload). */
export const changesCallers = (text: string): boolean => {
  let known = classified.get(text);
  if (known === undefined) {
    known = CALLER_TABLE.test(text) && WRITE.test(text.replace(/\bfor\s+(no\s+key\s+)?update\b/gi, '')) && !TOKEN_TOUCH.test(text) && !TOKEN_HOUSEKEEPING.test(text);
    if (classified.size >= MAX_CLASSIFIED) classified.clear();
    classified.set(text, known);
  }
  return known;
};

export class CallerChangeFeed {
  private readonly listeners = new Set<() => void>();
  private liveNow = false;

  /** Whether changes are being heard: only then may callers be served from memory. */
  get live() {
    return this.liveNow;
  }

  /** `listener` runs on every change, and when the feed goes live or stops being live. */
  subscribe(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  changed() {
    for (const listener of this.listeners) listener();
  }

  setLive(live: boolean) {
    this.liveNow = live;
    // changes may have been missed while not listening
    this.changed();
  }
}

type QueryFunction = (...args: unknown[]) => unknown;

const textOf = (config: unknown): string | undefined =>
  typeof config === 'string'
    ? config
    : config && typeof config === 'object' && typeof (config as { text?: unknown }).text === 'string'
      ? (config as { text: string }).text
      : undefined;

/**
 * For `pool.on('connect')` (after any other wrapper): a statement that changes callers signals when it
 * completes, and again when its transaction ends (a reader may have seen the rows before the commit).
 */
export const watchOwnCallerWrites = (feed: CallerChangeFeed) => (client: pg.PoolClient) => {
  const query = client.query.bind(client) as QueryFunction;
  let wroteInTransaction = false;
  (client as unknown as { query: QueryFunction }).query = (config: unknown, ...rest: unknown[]) => {
    const text = textOf(config);
    if (text === undefined) return query(config, ...rest);
    const ends = TRANSACTION_END.test(text);
    const writes = !ends && changesCallers(text);
    if (!writes && !(ends && wroteInTransaction)) return query(config, ...rest);
    if (writes) wroteInTransaction = true;
    const signal = () => {
      if (ends) wroteInTransaction = false;
      feed.changed();
    };
    // pg-pool's own query() passes a callback; drizzle's transactions use the promise
    const callback = rest.at(-1);
    if (typeof callback === 'function') {
      return query(config, ...rest.slice(0, -1), (...answer: unknown[]) => {
        signal();
        return (callback as (...args: unknown[]) => unknown)(...answer);
      });
    }
    const result = query(config, ...rest);
    if (!(result instanceof Promise)) return result;
    return result.then(
      (value) => {
        signal();
        return value;
      },
      (error: unknown) => {
        signal();
        throw error;
      },
    );
  };
};

const RECONNECT_MS = 1_000;
/** A connection that answers no `select 1` within this long counts as lost (a half-open TCP connection hears nothing). */
const HEARTBEAT_MS = 5_000;

/** The listening connection's name in pg_stat_activity (its last query there is the heartbeat's, not LISTEN). */
export const CALLER_CHANGES_APPLICATION = 'rvm-caller-changes';

/**
 * PostgreSQL: LISTEN on a connection of its own, live once LISTEN is in force; on a lost connection not
 * live until listening again (retried every second). Answers the function that stops it.
 */
export const listenForCallerChanges = (connectionString: string, feed: CallerChangeFeed): (() => Promise<void>) => {
  let stopped = false;
  let client: pg.Client | undefined;
  let retry: NodeJS.Timeout | undefined;
  const connect = async () => {
    if (stopped) return;
    const next = new pg.Client({ connectionString, keepAlive: true, application_name: CALLER_CHANGES_APPLICATION });
    client = next;
    let heartbeat: NodeJS.Timeout | undefined;
    const lost = () => {
      clearInterval(heartbeat);
      if (client !== next) return;
      client = undefined;
      feed.setLive(false);
      next.end().catch(() => undefined);
      if (!stopped) retry = setTimeout(() => void connect(), RECONNECT_MS).unref();
    };
    next.on('error', lost);
    next.on('end', lost);
    next.on('notification', () => feed.changed());
    try {
      await next.connect();
      await next.query(`LISTEN ${CALLER_CHANGES_CHANNEL}`);
      if (client !== next || stopped) return;
      feed.setLive(true);
      heartbeat = setInterval(() => {
        const answered = next.query('select 1');
        const silent = new Promise((_, reject) => setTimeout(() => reject(new Error('no answer')), HEARTBEAT_MS).unref());
        Promise.race([answered, silent]).catch(lost);
      }, HEARTBEAT_MS).unref();
    } catch {
      lost();
    }
  };
  void connect();
  return async () => {
    stopped = true;
    clearTimeout(retry);
    const last = client;
    client = undefined;
    feed.setLive(false);
    await last?.end().catch(() => undefined);
  };
};
