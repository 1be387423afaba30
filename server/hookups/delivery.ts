// The delivery workers (docs/api-hookups.md "Delivery"): claim due messages (per app and machine only the pending
// one of the earliest event), POST each signed to its app, write the outcome. Safe on any number of instances: the
// claim takes rows with FOR UPDATE SKIP LOCKED and their next attempt number in one statement, and an
// outcome is written only while the row still holds that attempt, so no attempt is ever sent twice; a claim
// whose instance died expires with its lease. Every decision uses `now` (tests pass a simulated clock).
import http from 'node:http';
import https from 'node:https';
import { sql } from 'drizzle-orm';
import { rowsOf, type Db } from '../db/client';
import { signedHeaders, type SigningKeys } from './signing';

/** Delay before each attempt (Svix's schedule): at once, 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h. */
export const RETRY_SCHEDULE_MS = [0, 5_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000, 36_000_000] as const;
export const ATTEMPT_TIMEOUT_MS = 15_000;
/** A claim's lease: longer than an attempt's timeout, so a live instance's claim never expires under it. */
export const LEASE_MS = 60_000;
export const EXCERPT_CHARS = 200;

export interface DeliveryOptions {
  /** Messages claimed per round. */
  batchSize: number;
  /** Requests in flight at once, per lane. */
  concurrency: number;
  /**
   * Rounds run side by side: one lane's claim and outcomes overlap the other's requests. Safe as two
   * instances are (SKIP LOCKED, leases); the order per machine holds since a machine's next message waits
   * for the one in flight whatever lane has it.
   */
  lanes: number;
  timeoutMs: number;
}

export const DELIVERY_DEFAULTS: DeliveryOptions = { batchSize: 250, concurrency: 64, lanes: 2, timeoutMs: ATTEMPT_TIMEOUT_MS };

interface Claimed {
  id: number;
  messageId: string;
  appId: number;
  payload: unknown;
  attempts: number;
  scheduleStep: number;
}

interface AppTarget extends SigningKeys {
  url: string;
}

export interface AttemptOutcome {
  ok: boolean;
  status: number | null;
  excerpt: string;
}

/**
 * Takes up to `limit` due messages for this instance: each the pending message of its app and machine with the
 * earliest event (a status change written mid-batch and a session written at the batch's end keep the machine's order).
 */
const claim = async (db: Db, now: Date, limit: number): Promise<Claimed[]> => {
  const at = now.toISOString();
  const result = await db.execute(sql`
    with head as (
      -- the pending message of the earliest event per app and machine (the partial index, in its order)
      select distinct on (app_id, rvm_id) id from hookup_message where status = 'notSent' order by app_id, rvm_id, event_time, id
    ), due as (
      -- conditions on m itself: a row locked after another instance's claim committed is checked again on its new version
      select m.id from hookup_message m join head on head.id = m.id
      where m.status = 'notSent' and m.next_attempt_time <= ${at}::timestamptz
        and (m.claimed_until is null or m.claimed_until <= ${at}::timestamptz)
        and exists (select 1 from hookup_app a where a.id = m.app_id and a.enabled)
      order by m.next_attempt_time, m.id
      limit ${limit}
      for update of m skip locked
    )
    update hookup_message m
    set attempts = m.attempts + 1, schedule_step = m.schedule_step + 1,
        claimed_until = ${at}::timestamptz + make_interval(secs => ${LEASE_MS / 1000})
    from due where m.id = due.id
    returning m.id, m.message_id as "messageId", m.app_id as "appId", m.payload, m.attempts, m.schedule_step as "scheduleStep"`);
  return rowsOf<Claimed>(result).map((row) => ({ ...row, id: Number(row.id) }));
};

const loadApps = async (db: Db, ids: number[]): Promise<Map<number, AppTarget>> => {
  const rows = rowsOf<{ id: number; url: string; secret: string; previousSecret: string | null; previousSecretUntil: string | Date | null }>(
    await db.execute(sql`select id, url, secret, previous_secret as "previousSecret", previous_secret_until as "previousSecretUntil"
      from hookup_app where id in (select unnest(${`{${ids.join(',')}}`}::int[]))`),
  );
  return new Map(rows.map((row) => [row.id, { ...row, previousSecretUntil: row.previousSecretUntil === null ? null : new Date(row.previousSecretUntil) }]));
};

// node:http with keep-alive agents, not fetch: a third of the CPU per request (bench/hookups.ts), and the
// connection to a receiver is reused across attempts and rounds.
const AGENTS = {
  'http:': new http.Agent({ keepAlive: true, maxSockets: 128, scheduling: 'lifo' }),
  'https:': new https.Agent({ keepAlive: true, maxSockets: 128, scheduling: 'lifo' }),
};

/** One signed POST; never throws: a timeout or a network failure is a failed attempt with its reason. */
export const postSigned = (url: string, messageId: string, body: string, keys: SigningKeys, now: Date, timeoutMs: number): Promise<AttemptOutcome> =>
  new Promise((resolve) => {
    let target: URL;
    try {
      target = new URL(url);
    } catch {
      resolve({ ok: false, status: null, excerpt: 'invalid URL' });
      return;
    }
    const transport = target.protocol === 'https:' ? https : http;
    const agent = target.protocol === 'https:' ? AGENTS['https:'] : AGENTS['http:'];
    const headers = { ...signedHeaders(messageId, body, keys, now), 'content-length': String(Buffer.byteLength(body)) };
    const request = transport.request(target, { method: 'POST', headers, agent, signal: AbortSignal.timeout(timeoutMs) }, (response) => {
      const status = response.statusCode ?? 0;
      let text = '';
      response.setEncoding('utf8');
      // the start of the answer is kept; the rest is read and dropped, so the connection can be reused
      response.on('data', (chunk: string) => {
        if (text.length < EXCERPT_CHARS) text += chunk;
      });
      response.on('end', () => resolve({ ok: status >= 200 && status < 300, status, excerpt: text.replace(/\s+/g, ' ').trim().slice(0, EXCERPT_CHARS) }));
      response.on('error', (error) => resolve({ ok: false, status, excerpt: describeNetworkError(error) }));
    });
    request.on('error', (error) => {
      const timedOut = error.name === 'AbortError' || error.name === 'TimeoutError';
      resolve({ ok: false, status: null, excerpt: (timedOut ? `timeout after ${timeoutMs} ms` : describeNetworkError(error)).slice(0, EXCERPT_CHARS) });
    });
    request.end(body);
  });

const describeNetworkError = (error: unknown): string => {
  const { code, message } = error as { code?: unknown; message?: unknown };
  const text = typeof message === 'string' ? message : String(error);
  return typeof code === 'string' && !text.includes(code) ? `${code}: ${text}` : text;
};

/** Runs `work` over `items` with at most `limit` at once. */
const eachLimited = async <T>(items: readonly T[], limit: number, work: (item: T) => Promise<void>) => {
  let next = 0;
  const lane = async () => {
    while (next < items.length) await work(items[next++]);
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, lane));
};

interface Result {
  id: number;
  attempts: number;
  ok: boolean;
  step: number;
  status: number | null;
  excerpt: string;
  next: string | null;
  appId: number;
}

const recordResults = async (db: Db, results: Result[], now: Date) => {
  if (!results.length) return;
  const at = now.toISOString();
  await db.execute(sql`
    update hookup_message m set
      status = case when r.ok then 'success' when r.next is null then 'fail' else 'notSent' end,
      next_attempt_time = r.next, claimed_until = null, last_send_time = ${at}::timestamptz,
      last_response_status = r.status, last_response_excerpt = r.excerpt
    from jsonb_to_recordset(${JSON.stringify(results)}::jsonb) as r(id bigint, attempts int, ok boolean, status smallint, excerpt text, next timestamptz)
    where m.id = r.id and m.attempts = r.attempts and m.status = 'notSent'`);
  const succeeded = [...new Set(results.filter((result) => result.ok).map((result) => result.appId))];
  const failed = [...new Set(results.filter((result) => !result.ok).map((result) => result.appId))].filter((id) => !succeeded.includes(id));
  if (succeeded.length) {
    await db.execute(sql`update hookup_app set last_success_time = ${at}::timestamptz, failing_since = null where id in (select unnest(${`{${succeeded.join(',')}}`}::int[]))`);
  }
  if (failed.length) {
    await db.execute(sql`update hookup_app set failing_since = ${at}::timestamptz
      where failing_since is null and id in (select unnest(${`{${failed.join(',')}}`}::int[]))`);
  }
};

/** The time of the attempt after `step` tries of this round, or null when the schedule is spent (dead letter). */
export const nextAttemptTime = (step: number, now: Date): Date | null => (step >= RETRY_SCHEDULE_MS.length ? null : new Date(now.getTime() + RETRY_SCHEDULE_MS[step]));

/** One round: claim, send, record. Answers how many messages were tried. */
export const deliverRound = async (db: Db, now: Date, options: DeliveryOptions = DELIVERY_DEFAULTS): Promise<number> => {
  const claimed = await claim(db, now, options.batchSize);
  if (!claimed.length) return 0;
  const apps = await loadApps(db, [...new Set(claimed.map((message) => message.appId))]);
  const results: Result[] = [];
  await eachLimited(claimed, options.concurrency, async (message) => {
    const app = apps.get(message.appId);
    const outcome: AttemptOutcome = app
      ? await postSigned(app.url, message.messageId, JSON.stringify(message.payload), app, now, options.timeoutMs)
      : { ok: false, status: null, excerpt: 'app removed' };
    const next = outcome.ok ? null : nextAttemptTime(message.scheduleStep, now);
    results.push({
      id: message.id,
      attempts: message.attempts,
      ok: outcome.ok,
      step: message.scheduleStep,
      status: outcome.status,
      excerpt: outcome.excerpt,
      next: next?.toISOString() ?? null,
      appId: message.appId,
    });
  });
  await recordResults(db, results, now);
  return claimed.length;
};

/** Rounds until nothing is due (at most `maxRounds` per lane): the periodic job's run. */
export const deliverDue = async (db: Db, now: Date, options: DeliveryOptions = DELIVERY_DEFAULTS, maxRounds = 50): Promise<number> => {
  let total = 0;
  const lane = async () => {
    for (let round = 0; round < maxRounds; round++) {
      const tried = await deliverRound(db, now, options);
      total += tried;
      if (tried === 0) break;
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, options.lanes) }, lane));
  return total;
};
